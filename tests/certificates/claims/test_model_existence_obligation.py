"""The kernel's obligation for a model witness follows the embedded claim's quantifier, never the certificate.

One exact configuration (two orthonormal tokens, one head M = W = I, usa, beta = 1) has T^0_0 = |P f^0_0|^2 = 1 > 0.
Its certificate for the existence claim `T_h_i > 0` is accepted; re-labelled as a certificate of the existence claim
`T_h_i <= 0`, or of the universal claim `T_h_i > 0`, it is rejected, although the configuration and its enclosure are
unchanged; for the universal `T_h_i <= 0` it is a counterexample and is accepted.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel.ball_model import ExactConfiguration
from headflow.certificates.kernel.model_values import witnessed
from headflow.certificates.provers.model_witness import certify_model_witness
from headflow.certificates.statements.model import statement_data
from headflow.certificates.store import build_certificate

from tests.checking import verify_file

ONE, ZERO = Fraction(1), Fraction(0)
IDENTITY = [[ONE, ZERO], [ZERO, ONE]]
CONFIGURATION = ExactConfiguration([[ONE, ZERO], [ZERO, ONE]], [IDENTITY], [IDENTITY], ONE)


def model_claim(op: str, exists: bool) -> str:
    flag = "true" if exists else "false"
    return f'[[claim]]\nid = "power"\nkind = "model"\nexists = {flag}\nlhs = "T_h_i"\nop = "{op}"\nrhs = "0"\n'


def certificate(tmp_path: Path, op: str, exists: bool) -> Path:
    (claim,) = parse_claims(model_claim(op, exists), "t.toml")
    result = certify_model_witness(statement_data(claim), CONFIGURATION, {"h": 0, "i": 0}, tmp_path, embedded(claim))
    assert result.verified, result.reason
    return result.path  # type: ignore[return-value]


def relabelled(path: Path, op: str, exists: bool) -> Path:
    data = json.loads(path.read_text())
    (claim,) = parse_claims(model_claim(op, exists), "t.toml")
    forged = build_certificate(data["claim_id"], data["kind"], data["payload"], embedded(claim))
    out = path.with_name(f"forged-{op}-{exists}.json")
    out.write_text(json.dumps(forged))
    return out


def test_the_witnessed_sign_follows_the_quantifier() -> None:
    (some,) = parse_claims(model_claim(">", True), "t.toml")
    (every,) = parse_claims(model_claim(">", False), "t.toml")
    assert (witnessed(some), witnessed(every)) == ("<", ">=")  # of rhs - lhs = -T


def test_an_instance_certifies_the_existence_claim(tmp_path: Path) -> None:
    ok, message = verify_file(certificate(tmp_path, ">", True))
    assert ok, message
    assert "proves claim 'power'" in message and "holds at an exact configuration" in message


def test_a_counterexample_of_the_dual_universal_claim_is_the_same_configuration(tmp_path: Path) -> None:
    path = certificate(tmp_path, ">", True)
    ok, message = verify_file(relabelled(path, "<=", False))
    assert ok and "refutes claim" in message, message


@pytest.mark.parametrize(("op", "exists"), [("<=", True), (">", False), ("<", True)])
def test_relabelled_to_a_claim_it_does_not_witness_is_rejected(tmp_path: Path, op: str, exists: bool) -> None:
    ok, message = verify_file(relabelled(certificate(tmp_path, ">", True), op, exists))
    assert not ok, message


def test_the_prover_writes_no_certificate_where_the_relation_fails(tmp_path: Path) -> None:
    (claim,) = parse_claims(model_claim("<", True), "t.toml")
    result = certify_model_witness(statement_data(claim), CONFIGURATION, {"h": 0, "i": 0}, tmp_path, embedded(claim))
    assert not result.verified and not list(tmp_path.iterdir())
