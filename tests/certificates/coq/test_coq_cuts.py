"""Coq re-checks smt certificates with Taylor cuts of exp, over integer variables and with lambda_c's root.

The statement stays the claim on its domain (integers over Z, `IZR n`; lambda_c a root bound by the prelude's
equation after its argument conditions); the proof restates each cut as a lemma coqc re-proves. A changed cut, a
changed bound or a dropped hypothesis is not accepted. Skipped, with the reason, when coqc is missing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import headflow.checks as checks
import pytest
from headflow.certificates.coq.source import source
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.statements import UniversalStatement
from headflow.checks import coq_files

from tests.coq_tier import module_needs_coqc
from tests.forging import forged_file

pytestmark = module_needs_coqc("Coq tests")

CLAIMS = """
[[claim]]
id = "exp.second-order"
kind = "inequality"
lhs = "exp(x)"
op = ">="
rhs = "1 + x + x**2/2"
domain = { x = "nonnegative" }

[[claim]]
id = "lambda-c.below-four"
kind = "inequality"
lhs = "lambda_c(n, 1)"
op = "<"
rhs = "4"
domain = { n = { min = 2, max = 19, integer = true } }
"""

X, N = ["sym", "x"], ["sym", "n"]
SECOND_ORDER = [">=", ["exp", X], ["add", ["add", ["rat", "1"], X], ["div", ["pow", X, 2], ["rat", "2"]]]]
CUT = {"kind": "lower", "atom": 0, "degree": 3, "at": "0", "factor": "1"}


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("coq-cuts")
    report = checks.check(CLAIMS, certificates=folder, progress=False)
    return {Path(p).name.split(".smt")[0]: Path(p) for p in report.certificates}


def test_the_statement_is_the_claim_and_the_cuts_are_lemmas(certificates: dict[str, Path]) -> None:
    """The generated text, without coqc: the claim on its domain (no cut in it), each cut a lemma posed at the atom."""
    cuts = json.loads(certificates["exp.second-order"].read_text())["payload"]["cuts"]
    assert cuts and all(c["kind"] in ("lower", "upper") for c in cuts)
    text = coq_files.coq_text(certificates["exp.second-order"])
    theorem = text[text.index("Theorem") : text.index("Proof.", text.index("Theorem"))]
    assert (
        theorem
        == "Theorem claim_exp_second_order :\n  forall x : R,\n  x >= 0 ->\n  ((exp x) >= ((1 + x) + ((x ^ 2) / 2))).\n"
    )
    for i in range(len(cuts)):
        assert f"Lemma hf_cut_{i} : forall y : R," in text and f"pose proof (hf_cut_{i} x)." in text
    text = coq_files.coq_text(certificates["lambda-c.below-four"])
    assert "forall n : Z,\n  (IZR n) >= 2 ->\n  (IZR n) <= 19 ->\n  (0 < (IZR n) - 1 /\\ 0 < 1) /\\\n" in text
    assert (
        "(forall lambda_c'0 : R, is_lambda_c (IZR n) 1 lambda_c'0 ->\n  (((-1) + (IZR n)) > 0 /\\ lambda_c'0 < 4))."
        in text
    )


@pytest.mark.slow
@pytest.mark.parametrize("claim", ["exp.second-order", "lambda-c.below-four"])
def test_certificates_with_cuts_are_rechecked_by_coq(certificates: dict[str, Path], claim: str) -> None:
    verdict = coq_files.check(certificates[claim])
    assert verdict.status == coq_files.RECHECKED, verdict.message


def _cut_above_exp(certificate: dict[str, Any]) -> None:
    certificate["payload"]["cuts"][0]["factor"] = "11/10"  # above exp(0)


def _bound_changed(certificate: dict[str, Any]) -> None:
    certificate["statement"]["rhs"] = ["rat", "3"]  # lambda_c(19, 1) is near 3.99


@pytest.mark.parametrize(
    ("claim", "change"), [("exp.second-order", _cut_above_exp), ("lambda-c.below-four", _bound_changed)]
)
def test_edited_certificates_are_not_accepted(certificates: dict[str, Path], claim: str, change: Any) -> None:
    verdict = coq_files.check(forged_file(certificates[claim], certificates[claim].parent, change))
    assert verdict.status == coq_files.REJECTED, verdict.message


def test_a_false_cut_fails_its_lemma_in_coq() -> None:
    """A cut the kernel would refuse (factor above exp(t)), put in the file anyway: coqc does not prove its lemma; the
    true cut (and an upper one, exp(x) L T(-x - t) <= 1) compiles."""
    hypotheses = [[">=", X, ["rat", "0"]]]
    upper = dict(CUT, kind="upper", degree=1, at="-1/2", factor="3/5")
    true = UniversalStatement("cut", ["x"], hypotheses, SECOND_ORDER, (), (CUT, upper))
    assert run.compile_source(source("t", "cut", "s", [true])).status == "accepted"
    false = UniversalStatement("cut", ["x"], hypotheses, SECOND_ORDER, (), (dict(CUT, factor="11/10"),))
    assert run.compile_source(source("t", "cut", "s", [false])).status == "rejected"


@pytest.mark.slow
def test_a_changed_bound_or_domain_is_not_proved_with_the_cuts() -> None:
    """The true cut, but the hypothesis x >= 0 dropped (false at x = -1), or lambda_c(n, 1) < 3 (false at n = 19)
    where a cut at 4 proves lambda_c(n, 1) < 4."""
    everywhere = UniversalStatement("all", ["x"], [], SECOND_ORDER, (), (CUT,))
    assert run.compile_source(source("t", "all", "s", [everywhere])).status == "rejected"
    bounds = [[">=", N, ["rat", "2"]], ["<=", N, ["rat", "19"]]]
    cut = {"kind": "lower", "atom": 0, "degree": 1, "at": "4", "factor": "5459/100"}
    for bound, status in (("4", "accepted"), ("3", "rejected")):
        below = ["<", ["lambda_c", N, ["rat", "1"]], ["rat", bound]]
        statement = UniversalStatement("below", ["n"], bounds, below, ("n",), (cut,))
        assert run.compile_source(source("t", "below", "s", [statement])).status == status, bound
