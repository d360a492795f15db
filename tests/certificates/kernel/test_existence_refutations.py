"""An existence `model` claim that one of the paper's identities denies: REFUTED with a `gram` certificate of its
universal negation (`certificates.claims.model_negation`), which the kernel accepts only when its table lists that
negation under an identity, and which `check-cert --claims` holds to the negation of the file's claim.

The attacks: the claim's own (existence) statement under the identity, a true existence claim (its negation is false
and listed nowhere), the certificate presented for another claim of the same id, an equality (no one negation
denies it: no certificate), and a forged relation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.coq.source import source
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import problem
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.gram_identities import certify_model
from headflow.certificates.statements.model import elaborate
from headflow.checks.rechecks import recheck

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


def test_an_equality_existence_claim_has_no_one_negation(tmp_path: Path) -> None:
    """Some configuration has dE/dt = -1 (false: dE/dt >= 0): two strict relations deny it, neither alone the table's
    dE/dt >= 0, so its refutation writes no certificate (the note says why it is not covered)."""
    falls = THEOREM11.replace('op = "<"', 'op = "="').replace('rhs = "0"', 'rhs = "-1"')
    assert elaborate(_claim(falls), "gram", {}) is None
    assert certify_model(_claim(falls), tmp_path) is None


@needs_coqc
def test_coq_proves_the_identity_behind_a_refuted_existence_claim(tmp_path: Path) -> None:
    path = _certificate(tmp_path)
    proved, coq_problem = problem(check_file(path))
    assert '"exists": false' in proved
    compiled = run.compile_source(source(path.name, "energy-decrease-theorem11", proved, coq_problem))
    assert compiled.status == "accepted"
