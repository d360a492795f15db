"""Coq re-checks a trajectory certificate whose `sometime` bound its exact start meets: t = 0 is a time of [0, T] and
x(0) is the stated tokens, so the Coq statement is the term at the tokens' coordinates (no ODE is solved): one binding
where one suffices (the least below a bound), every binding where every one must meet it (the least above a bound).

A bound shown only after t = 0 (a chain of validated ODE steps) has no Coq statement, with that reason; the same
statement with its relation flipped is not proved by coqc; a certificate whose tokens are moved so that the start no
longer meets the bound is rejected before any Coq file is written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.coq.source import source
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import problem
from headflow.certificates.kernel.coq.model_tree import start_problem
from headflow.certificates.kernel.coq.statements import NotTranslatable
from headflow.certificates.kernel.verify import check_file
from headflow.checks import coq_files
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.registry import Context
from headflow.checks.runner import run_claims
from headflow.checks.verdicts import Verdict

from tests.coq_tier import needs_coqc
from tests.forging import forged_file

#: Unit tokens of R^3 with <x_0, x_2> = -16/25 their least inner product (the others 0, 3/5, 4/5 and 12/25 ...).
TOKENS = '[["3/5", "4/5", 0], [1, 0, 0], [0, "-4/5", "3/5"], [0, 0, 1]]'


def _certificate(tmp_path: Path, prop: str, bound: str | None = None) -> Path:
    """The one certificate of the REFUTED claim "the least inner product is <prop> (bound) at every time"."""
    fields = f'property = "{prop}"\n' + (f'bound = "{bound}"\n' if bound else "")
    text = (
        f'[[claim]]\nid = "start"\nkind = "dynamics"\nquantity = "least_inner_product"\n{fields}heads = "scalar"\n'
        f'lambdas = [1.0]\ntokens = "given"\npoints = {TOKENS}\nn = 4\nd = 3\nbeta = 1.0\ntime = 1.0\n'
    )
    (result,) = run_claims(register_claims(parse_claims(text)).claims(), Context("quick", certificate_dir=tmp_path))
    assert result.verdict is Verdict.REFUTED
    (path,) = result.outcomes[0][1].certificates
    return Path(path)


def _statement(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())["statement"]


@needs_coqc
def test_one_binding_below_the_bound_at_the_start_is_re_checked_by_coq(tmp_path: Path) -> None:
    """non-negative fails at t = 0: <x_0, x_2> = -16/25 < 0, written out from the tokens' coordinates."""
    path = _certificate(tmp_path, "non-negative")
    checked = coq_files.check(path)
    assert checked.status == coq_files.RECHECKED, checked.message
    text = coq_files.coq_text(path)
    assert "Definition x_2_1 : R := (-4 / 5)." in text
    assert "((x_0_0 * x_2_0) + (x_0_1 * x_2_1) + (x_0_2 * x_2_2))" in text
    theorem = text[text.index("Theorem ") :]
    assert theorem.count("(* binding") == 1 and "< 0." in theorem
    sentence, built = problem(check_file(path))
    flipped = built._replace(conditions=[c | {"relation": ">="} for c in built.conditions])
    assert run.compile_source(source(path.name, "start", sentence, flipped)).status == "rejected"


@needs_coqc
def test_every_binding_above_the_bound_at_the_start_is_re_checked_by_coq(tmp_path: Path) -> None:
    """at most -7/10 fails at t = 0: the least inner product -16/25 > -7/10, so every one of the 6 pairs' (12
    ordered bindings i != j) is stated."""
    path = _certificate(tmp_path, "at-most", "-7/10")
    assert _statement(path)["when"] == "sometime"
    checked = coq_files.check(path)
    assert checked.status == coq_files.RECHECKED, checked.message
    theorem = coq_files.coq_text(path).split("Theorem ", 1)[1]
    assert theorem.split("Proof.")[0].count("(* binding") == 12


def test_a_bound_shown_after_the_start_has_no_coq_statement(tmp_path: Path) -> None:
    """at most -3/5 holds at t = 0 (-16/25) and fails later, as the least inner product rises: the chain's steps show
    it, and Coq has no validated ODE solver to replay them."""
    path = _certificate(tmp_path, "at-most", "-3/5")
    assert check_file(path).ok
    with pytest.raises(NotTranslatable, match="after t = 0"):
        start_problem(_statement(path), "start")
    assert coq_files.check(path).status == coq_files.UNTRANSLATABLE


def test_tokens_moved_so_that_the_start_meets_the_claim_are_rejected(tmp_path: Path) -> None:
    """x_2 moved to (0, 4/5, 3/5): every inner product >= 0 at the start, so "below 0 at some t" is not shown there
    (nor later: usa attraction raises it), and the kernel refuses the certificate before any Coq statement."""
    path = _certificate(tmp_path, "non-negative")

    def moved(data: dict[str, Any]) -> None:
        data["statement"]["configuration"]["tokens"][2] = ["0", "4/5", "3/5"]

    forged = forged_file(path, tmp_path, moved)
    assert not check_file(forged).ok
    assert coq_files.check(forged).status == coq_files.REJECTED
