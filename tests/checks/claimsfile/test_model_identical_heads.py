"""The `identical-heads` hypothesis of model claims: M_h = alpha I for every head, one alpha of any sign.

True statements (T19.monotonicity-regime, E = H E_h) are PROVED for all n, d, H; false ones are never PROVED and are
REFUTED by an exact configuration whose heads `check-cert` checks exactly (a forged witness with two different alphas
is rejected); the exact check accepts a negative alpha and 0, and rejects different or non-scalar heads.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel import ball_model
from headflow.certificates.store import build_certificate
from headflow.checks.claimsfile.model_reduction import prove_model
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.registry import Context
from headflow.checks.runner import run_claims
from headflow.checks.verdicts import Verdict

from tests.checking import verify_file

ROOT = Path(__file__).resolve().parents[3]
IDENTICAL = ["identical-heads", "aligned-values"]


def claim_text(claim_id: str, assume: list[str], lhs: str, op: str, rhs: str, **extra: object) -> str:
    fields = {"id": claim_id, "kind": "model", "assume": assume, "lhs": lhs, "op": op, "rhs": rhs, **extra}
    return "[[claim]]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in fields.items()) + "\n"


def proved(assume: list[str], lhs: str, op: str, rhs: str, **extra: object) -> bool:
    (claim,) = parse_claims(claim_text("c", assume, lhs, op, rhs, **extra), "t.toml")
    return prove_model(claim).proved


@pytest.mark.parametrize(
    ("assume", "lhs", "op", "rhs", "extra"),
    [
        (IDENTICAL, "dE_h_dt", ">=", "0", {}),  # T19.monotonicity-regime
        (IDENTICAL, "dE_h_dt", ">=", "0", {"geometry": "flat"}),
        (["identical-heads"], "E_h", "=", "E / H", {}),  # any values: the energy depends on the scores only
        (IDENTICAL, "H * dE_h_dt", "=", "dE_dt", {}),
        (IDENTICAL, "norm2(F_i)", "=", "H**2 * norm2(f_h_i)", {}),
        (["identical-heads"], "sum_h(Z_h_i)", "=", "H * Z_h_i", {}),
    ],
)
def test_identical_heads_prove_the_regime(assume: list[str], lhs: str, op: str, rhs: str, extra: dict) -> None:
    assert proved(assume, lhs, op, rhs, **extra)


@pytest.mark.parametrize(
    ("assume", "lhs", "op", "rhs"),
    [
        (IDENTICAL, "a_h_i", ">=", "0"),  # false for alpha < 0
        (["identical-heads"], "dE_h_dt", ">=", "0"),  # general values
        (["identical-heads"], "norm2(F_i)", "=", "H**2 * norm2(f_h_i)"),  # general values differ by head
        (IDENTICAL, "dE_h_dt", ">", "0"),  # 0 at a collapsed configuration
        (["scalar-heads", "aligned-values"], "E_h", "=", "E / H"),  # different strengths
        (["identical-heads"], "E_h", "<=", "E / (2 * H)"),
        (["identical-heads"], "sum_h(misalignment_h)", "=", "H * misalignment_h"),  # |W_h - M_h| differs by head
    ],
)
def test_false_statements_are_not_proved(assume: list[str], lhs: str, op: str, rhs: str) -> None:
    assert not proved(assume, lhs, op, rhs)


def test_the_hypothesis_implies_symmetric_scores() -> None:
    (claim,) = parse_claims(claim_text("c", ["identical-heads"], "E_h", "=", "E / H"), "t.toml")
    assert "symmetric-scores" in claim.hypotheses


def _scalar(alpha: Fraction, d: int = 2) -> list[list[Fraction]]:
    return [[alpha if i == j else Fraction(0) for j in range(d)] for i in range(d)]


@pytest.mark.parametrize(
    ("matrices", "holds"),
    [
        ([_scalar(Fraction(-3, 2)), _scalar(Fraction(-3, 2))], True),  # alpha < 0
        ([_scalar(Fraction(0)), _scalar(Fraction(0))], True),
        ([_scalar(Fraction(1)), _scalar(Fraction(1, 2))], False),  # two strengths
        ([[[Fraction(1), Fraction(1, 10**30)], [Fraction(0), Fraction(1)]]], False),  # not scalar, barely
    ],
)
def test_the_exact_check(matrices: list, holds: bool) -> None:
    assert ball_model.HYPOTHESES["identical-heads"](_Heads(matrices)) is holds


class _Heads:
    def __init__(self, matrices: list) -> None:
        self.score_matrices = matrices


def test_a_false_statement_is_refuted_and_a_forged_witness_rejected(tmp_path: Path) -> None:
    text = claim_text("half-share", ["identical-heads"], "E_h", "<=", "E / (2 * H)")
    registry = register_claims(parse_claims(text, "t.toml"))
    (result,) = run_claims(registry.claims(), Context("quick", seed=0, certificate_dir=tmp_path))
    assert result.verdict is Verdict.REFUTED
    (path,) = result.outcomes[0][1].as_dict()["certificates"]
    ok, message = verify_file(Path(path))
    assert ok and "hypotheses checked exactly" in message, message
    certificate = json.loads(Path(path).read_text())
    scores = certificate["payload"]["configuration"]["scores"]
    scores[-1][0][0] = str(Fraction(scores[-1][0][0]) + 1)  # one head's alpha changed on one diagonal entry
    scores[-1] = [[scores[-1][0][0] if i == j else "0" for j in range(len(row))] for i, row in enumerate(scores[-1])]
    if len(scores) == 1:  # one head: make the head non-scalar instead
        scores[0][0][0] = str(Fraction(scores[0][1][1]) + 1)
    forged = tmp_path / "forged.json"
    payload, claim = certificate["payload"], certificate["claim"]
    forged.write_text(json.dumps(build_certificate(certificate["claim_id"], certificate["kind"], payload, claim)))
    ok, message = verify_file(forged)
    assert not ok and "identical-heads" in message, message


@pytest.mark.slow
def test_the_examples(tmp_path: Path) -> None:
    text = (ROOT / "examples" / "identical_heads.toml").read_text()
    results = run_claims(register_claims(parse_claims(text, "t.toml")).claims(), Context("quick", 0, tmp_path))
    verdicts = {r.claim.id: r.verdict for r in results}
    true = ("identical-heads-monotone", "identical-heads-energy-share", "identical-heads-rate-share")
    false = ("identical-heads-shadow-non-negative", "identical-heads-monotone-any-values", "identical-heads-half-share")
    assert verdicts == {**dict.fromkeys(true, Verdict.PROVED), **dict.fromkeys(false, Verdict.REFUTED)}
    for result in results:
        for path in result.outcomes[0][1].as_dict().get("certificates", []):
            assert verify_file(Path(path))[0]
