"""The cut `reals` (`real_encoding`): the statement's integer variables declared real, a proof for every real value of
the domain being one for its integers. cvc5's integer arithmetic does not close `rate.at-lambda-max` (the rate at its
maximiser, rate(lambda_max(n, beta), n, beta) = 2 W((n - 1)/e)/(beta (n - 1)) for integers n >= 2), its real
arithmetic does, so the SMT route writes the cut where cvc5 answers otherwise on the integers. The attacks: a
statement true at the integers only (n (n - 1) >= 0, false at n = 1/2) is not proved with the cut, and the rate's
identity with 3 for 2 gets no certificate; Coq binds the two W values the statement names and proves them one
(`certificates.coq.lambertw`), and the same proof of a false equality of W values fails.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import headflow.checks as checks
import pytest
from headflow.certificates.coq import lambertw
from headflow.certificates.kernel import real_statements
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.statements import PRELUDE
from headflow.certificates.kernel.real_encoding import REALS
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.checks import coq_files
from headflow.checks.verdicts import Verdict

from tests.coq_tier import needs_coqc
from tests.sample_claims import EXAMPLES, claims_of

RATE = """
[[claim]]
id = "rate.at-lambda-max"
kind = "identity"
lhs = "rate(lambda_max(n, beta), n, beta)"
rhs = "{k} * lambertw((n - 1) / e) / (beta * (n - 1))"
symbols = {{ n = "integer>=2", beta = "positive" }}
"""


def _consecutive(op: str = ">=") -> dict[str, Any]:
    """n (n - 1) op 0 for integers n >= 0: true at every integer, false at n = 1/2."""
    n = {"name": "n", "integer": True, "low": ["rat", "0"], "low_open": False, "high": None, "high_open": False}
    product = ["mul", ["sym", "n"], ["sub", ["sym", "n"], ["rat", "1"]]]
    common = {"form": "real", "claim": "consecutive", "variables": [n], "conditions": [], "point": {"n": "3"}}
    return common | {"lhs": product, "op": op, "rhs": ["rat", "0"]}


def test_the_cut_declares_the_integers_real() -> None:
    assert "() Int)" in real_statements.smt_problem(_consecutive(), {"cuts": []})
    text = real_statements.smt_problem(_consecutive(), {"cuts": [REALS]})
    assert "() Int)" not in text and "QF_NRA" in text


def test_a_statement_true_at_the_integers_only_is_not_proved_over_the_reals() -> None:
    assert "n*(n - 1) >= 0" in real_statements.check(_consecutive(), "consecutive", "smt", {"cuts": []}, 20)[0]
    with pytest.raises(Rejected, match="'sat'"):
        real_statements.check(_consecutive(), "consecutive", "smt", {"cuts": [REALS]}, 20)


@pytest.fixture(scope="module")
def rate(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("rate")
    report = checks.check(RATE.format(k=2), certificates=folder, progress=False)
    assert report.verdicts == {"rate.at-lambda-max": Verdict.PROVED}
    (path,) = folder.glob("rate.at-lambda-max.smt.*.json")
    return path


def test_the_rate_at_its_maximiser_is_certified_over_the_reals(rate: Path) -> None:
    checked = check_file(rate)
    assert checked.ok, checked.message
    assert checked.certificate is not None and REALS in checked.certificate["payload"]["cuts"]
    assert checked.solvers == ("z3", "cvc5") and "for all n integer >= 2, beta > 0" in checked.proved


def test_a_wrong_factor_gets_no_certificate(tmp_path: Path) -> None:
    report = checks.check(RATE.format(k=3), certificates=tmp_path, progress=False)
    assert report.verdicts == {"rate.at-lambda-max": Verdict.REFUTED}
    assert not list(tmp_path.glob("*.smt.*.json"))


@needs_coqc
def test_coq_proves_the_two_lambert_w_values_one(rate: Path) -> None:
    checked = coq_files.check(rate)
    assert checked.status == coq_files.RECHECKED, checked.message
    assert "apply (hf_lambertw_same" in coq_files.coq_text(rate)
    lemma = "Lemma same : forall n w1 w2, 2 <= n -> is_lambertw ((n - 1) / exp 1) w1 -> is_lambertw ({}) w2 -> w1 = w2."
    proof = "intros n w1 w2 hn h1 h2. apply (hf_lambertw_same _ _ _ _ h1 h2). field; apply Rgt_not_eq, exp_pos."
    for argument, status in (("(n - 1) * / exp 1", "accepted"), ("n / exp 1", "rejected")):
        text = f"{PRELUDE}{lambertw.LEMMAS}{lemma.format(argument)}\nProof. {proof} Qed.\n"
        assert run.compile_source(text).status == status


@pytest.mark.slow
def test_a_bounded_domain_is_left_to_the_cover_route(tmp_path: Path) -> None:
    """exp(2 alpha beta*) < (n - 1)/(H - 1) over integers H in [2, 4], n in [3, 6]: cvc5 does not close the integers,
    and the domain is bounded, so the boxes of the cover route (which Coq re-checks) decide it, not the reals."""
    claims = (EXAMPLES / "paper.toml").read_text()
    report = checks.check(claims_of(claims, "variant.T19.threshold.sufficient"), certificates=tmp_path, progress=False)
    assert report.verdicts == {"variant.T19.threshold.sufficient": Verdict.CERTIFIED}
    assert list(tmp_path.glob("*.interval-cover.*.json")) and not list(tmp_path.glob("*.smt.*.json"))
