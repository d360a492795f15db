"""A claims-file identity PROVED by exact algebra also carries the SMT route's certificate of the same statement, so
check-cert (z3, cvc5) and Coq re-check what SymPy's reduction showed; its false neighbour is REFUTED with a
counterexample certificate. Coq's proof of an identity with c_star's inverse rests on the sqrt's facts (the base's
sign is shown after them).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel.verify import check_file
from headflow.checks import coq_files
from headflow.checks.claimsfile.identity_decider import decide_identity
from headflow.checks.registry import Context
from headflow.checks.verdicts import Verdict

from tests.coq_tier import needs_coqc


def _decide(rhs: str) -> tuple[Verdict, list[str]]:
    text = f'[[claim]]\nid = "r"\nkind = "identity"\nlhs = "1/c_star(H) - c_star(H)"\nrhs = "{rhs}"\n'
    (claim,) = parse_claims(text + "symbols = { H = { min = 1 } }\n", "t.toml")
    outcome = decide_identity(claim, Context("quick", seed=0, certificate_dir=Path(tempfile.mkdtemp())))
    return outcome.verdict, outcome.certificates


@pytest.fixture(scope="module")
def proved() -> Path:
    verdict, certificates = _decide("H - 1")
    assert verdict is Verdict.PROVED
    (path,) = certificates
    return Path(path)


def test_the_proved_identity_carries_an_smt_certificate(proved: Path) -> None:
    result = check_file(proved)
    assert result.ok and "unsat in z3 and in cvc5" in result.message, result.message


def test_the_false_neighbour_is_refuted_with_a_counterexample() -> None:
    verdict, certificates = _decide("H")
    assert verdict is Verdict.REFUTED
    (path,) = certificates
    assert ".witness." in path and check_file(Path(path)).ok


@pytest.mark.slow
@needs_coqc
def test_coq_proves_the_identity(proved: Path) -> None:
    verdict = coq_files.check(proved)
    assert verdict.status == coq_files.RECHECKED, verdict.message


@pytest.mark.slow
@needs_coqc
def test_coq_unifies_square_roots_of_equal_radicands(tmp_path: Path) -> None:
    """c_star(2) = 1/golden: after unfolding, sqrt((2 - 1)^2 + 4) and golden's sqrt 5 are one atom for nra (the
    proof replaces one by the other, `f_equal; ring` showing the radicands equal)."""
    (claim,) = parse_claims('[[claim]]\nid = "g"\nkind = "identity"\nlhs = "c_star(2)"\nrhs = "1 / golden"\n', "t.toml")
    outcome = decide_identity(claim, Context("quick", seed=0, certificate_dir=tmp_path))
    assert outcome.verdict is Verdict.PROVED
    (path,) = outcome.certificates
    assert coq_files.check(Path(path)).status == coq_files.RECHECKED
