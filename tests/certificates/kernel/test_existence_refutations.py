"""An existence `model` claim that one of the paper's identities denies: REFUTED with a `gram` certificate of its
universal negation (`certificates.claims.model_negation`), which the kernel accepts only when its table lists that
negation under an identity, and which `check-cert --claims` holds to the negation of the file's claim.

Where the negation is not listed, a listed bound that no value of the claim's relation meets denies it (dE/dt >= 0
denies dE/dt = -1 and dE/dt < -1). The attacks: the claim's own (existence) statement under the identity, true
existence claims (their negations are false and listed nowhere), the certificate presented for another claim of the
same id, a weakened bound, an equality no listed bound denies, and `disjoint` against brute force.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.claims.model_negation import disjoint
from headflow.certificates.coq.source import source
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import problem
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.gram_identities import certify_model
from headflow.certificates.statements.model import elaborate
from headflow.checks.rechecks import recheck
from hypothesis import given
from hypothesis import strategies as st

from tests.coq_tier import needs_coqc
from tests.forging import forged_file
from tests.sample_claims import EXAMPLES, certificates_of, claims_of

EXISTENCE = (EXAMPLES / "existence.toml").read_text()
#: The existence claims of existence.toml that a listed identity denies: (the identity, the negation's relation).
DENIED = {
    "energy-decrease-theorem11": ("T11.energy-rate.spherical", "dE_dt >= 0"),
    "decrease-under-condition8": ("C8.radial-dominance", "dE_h_dt >= 0"),
}
THEOREM11 = claims_of(EXISTENCE, "energy-decrease-theorem11")


def _claim(text: str) -> Any:
    (claim,) = parse_claims(text)
    return claim


def _certificate(folder: Path) -> Path:
    path = certify_model(_claim(THEOREM11), folder)
    assert path is not None
    return path


@pytest.mark.parametrize("claim_id", DENIED)
def test_the_refuted_existence_claim_carries_its_negation_proved_by_the_identity(claim_id: str, tmp_path: Path) -> None:
    """`headflow check` writes the certificate with the REFUTED verdict; the kernel prints the universal negation and
    the identity it follows from; `check-cert --claims` accepts it against the file's claim."""
    text = claims_of(EXISTENCE, claim_id)
    (path,) = certificates_of(text, tmp_path).values()
    assert ".gram." in path.name
    checked = check_file(path)
    identity, relation = DENIED[claim_id]
    assert checked.ok, checked.message
    assert '"exists": false' in checked.proved and f'"relation": "{relation}"' in checked.proved
    assert f"which follows from {identity}: " in checked.proved
    assert recheck(path, claims={c.id: c for c in parse_claims(text)}, read_claim=True).ok


def test_the_existence_statement_itself_is_not_what_an_identity_proves(tmp_path: Path) -> None:
    def existence(data: dict[str, Any]) -> None:
        data["statement"]["exists"] = True
        data["statement"]["relation"]["op"] = "<"

    checked = check_file(forged_file(_certificate(tmp_path), tmp_path, existence))
    assert not checked.ok and "none of its identities" in checked.message


def test_a_true_existence_claim_gets_no_certificate_and_its_negation_is_refused(tmp_path: Path) -> None:
    """Some configuration has dE/dt > 0 (true): its negation dE/dt <= 0 is false and listed nowhere, so no certificate;
    the certificate of Theorem 11's negation, presented for it (the same id), is refused against the file."""
    true_claim = THEOREM11.replace('op = "<"', 'op = ">"')
    assert true_claim != THEOREM11
    assert certify_model(_claim(true_claim), tmp_path / "none") is None
    path = _certificate(tmp_path)
    assert check_file(path).ok
    assert not recheck(path, claims={c.id: c for c in parse_claims(true_claim)}, read_claim=True).ok

    def negation_flipped(data: dict[str, Any]) -> None:
        data["statement"]["relation"]["op"] = "<="

    assert not check_file(forged_file(path, tmp_path, negation_flipped, name="flipped")).ok


def test_a_listed_bound_denies_an_equality_and_a_claim_past_the_negation(tmp_path: Path) -> None:
    """dE/dt = -1 and dE/dt < -1 (both false): no listed statement is their negation, but dE/dt >= 0 (Theorem 11)
    denies both, and the certificate proves it; dE/dt = 0 and dE/dt = 1 (true) are denied by nothing listed."""
    falls, below = (THEOREM11.replace('op = "<"', f'op = "{op}"').replace('rhs = "0"', 'rhs = "-1"') for op in "=<")
    for text in (falls, below):
        statement = elaborate(_claim(text), "gram", {})
        assert statement is not None and statement["relation"]["rhs"] == ["num", "0"], statement
        path = certify_model(_claim(text), tmp_path)
        assert path is not None and check_file(path).ok
        assert recheck(path, claims={c.id: c for c in parse_claims(text)}, read_claim=True).ok
    for value in ("0", "1"):
        true_claim = THEOREM11.replace('op = "<"', 'op = "="').replace('rhs = "0"', f'rhs = "{value}"')
        assert elaborate(_claim(true_claim), "gram", {}) is None
        assert not recheck(path, claims={c.id: c for c in parse_claims(true_claim)}, read_claim=True).ok

    def weaker(data: dict[str, Any]) -> None:
        data["statement"]["relation"]["rhs"] = ["num", "-1/2"]

    assert not check_file(forged_file(path, tmp_path, weaker, name="weaker")).ok


def test_an_equality_no_listed_bound_denies_gets_no_certificate(tmp_path: Path) -> None:
    """T^h_i = -1 (false: T^h_i = |P f^h_i|^2 >= 0): the table lists no bound on T^h_i, so no certificate."""
    power = claims_of((EXAMPLES / "rates.toml").read_text(), "equality.negative-power")
    assert elaborate(_claim(power), "gram", {}) is None
    assert certify_model(_claim(power), tmp_path) is None


OPS = ("<", "<=", ">", ">=", "=")


@given(st.sampled_from(OPS), st.fractions(), st.sampled_from(OPS), st.fractions())
def test_disjoint_is_whether_no_number_meets_both_relations(op: str, a: Fraction, other: str, b: Fraction) -> None:
    """Against the numbers that decide it: the ends, their midpoint and a point past each."""
    relation = {"<": lambda x, c: x < c, "<=": lambda x, c: x <= c, ">": lambda x, c: x > c}
    relation |= {">=": lambda x, c: x >= c, "=": lambda x, c: x == c}
    points = (a, b, (a + b) / 2, min(a, b) - 1, max(a, b) + 1)
    met = any(relation[op](x, a) and relation[other](x, b) for x in points)
    assert disjoint(op, a, other, b) is not met


@needs_coqc
def test_coq_proves_the_identity_behind_a_refuted_existence_claim(tmp_path: Path) -> None:
    path = _certificate(tmp_path)
    proved, coq_problem = problem(check_file(path))
    assert '"exists": false' in proved
    compiled = run.compile_source(source(path.name, "energy-decrease-theorem11", proved, coq_problem))
    assert compiled.status == "accepted"


def test_a_claim_with_fewer_hypotheses_than_the_identity_is_denied_by_nothing(tmp_path: Path) -> None:
    """Without symmetric scores some configuration has dE/dt < 0 (true: T11.hypotheses.no-symmetry's witness):
    Theorem 11 assumes symmetric scores, so its dE/dt >= 0 denies nothing here, and the certificate of the claim
    with them is refused against the claim without them."""
    fewer = THEOREM11.replace('assume = ["symmetric-scores", "aligned-values"]', 'assume = ["aligned-values"]')
    assert fewer != THEOREM11
    assert elaborate(_claim(fewer), "gram", {}) is None
    path = _certificate(tmp_path)
    assert not recheck(path, claims={c.id: c for c in parse_claims(fewer)}, read_claim=True).ok
