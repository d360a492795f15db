"""A `given` that is one global inequality (a sum over tokens, or dE_h/dt by the gradient lemma), used as a whole.

True implications are PROVED for all n, d, H (rhs - lhs = c G + rest, c's sign proved exactly); the wrong
direction, a multiplier of unknown sign and a dropped hypothesis are never PROVED, and are REFUTED by an exact
configuration that `check-cert` re-checks.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.checks.claimsfile.model_reduction import prove_model
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.registry import Context
from headflow.checks.runner import run_claims
from headflow.checks.verdicts import Verdict
from headflow.identities.derivation import Derivation

from tests.checking import verify_file

ROOT = Path(__file__).resolve().parents[3]
ORTHOGONAL = ["symmetric-scores", "aligned-values", "orthogonal-heads"]
SUMMED_C8 = "sum_i(a_h_i * A_h_i) <= sum_i(T_h_i)"


def claim_text(claim_id: str, given: list[str], lhs: str, op: str, rhs: str, assume: list[str] = ORTHOGONAL) -> str:
    fields = {"id": claim_id, "kind": "model", "assume": assume, "given": given, "lhs": lhs, "op": op, "rhs": rhs}
    return "[[claim]]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in fields.items()) + "\n"


def derivation(given: list[str], lhs: str, op: str, rhs: str, assume: list[str] = ORTHOGONAL) -> Derivation:
    (claim,) = parse_claims(claim_text("c", given, lhs, op, rhs, assume), "t.toml")
    return prove_model(claim)


@pytest.mark.parametrize(
    ("given", "lhs", "op", "rhs"),
    [
        ([SUMMED_C8], "dE_h_dt", ">=", "0"),  # C8.radial-dominance.reading-b, forward
        (["dE_h_dt >= 0"], "sum_i(a_h_i * A_h_i)", "<=", "sum_i(T_h_i)"),  # ... and backward
        (["2 * sum_i(a_h_i * A_h_i) <= 2 * sum_i(T_h_i)"], "beta * dE_h_dt", ">=", "0"),  # c = beta / (2 n^3)
        (["sum_i(a_h_i * A_h_i) < sum_i(T_h_i)"], "n**3 * dE_h_dt + E_h", ">", "0"),  # a rest E_h > 0
        (["sum_i(T_h_i) > sum_i(a_h_i * A_h_i)"], "dE_h_dt", ">", "0"),  # strict given, strict claim
        ([SUMMED_C8], "(n - 2) * dE_h_dt", ">=", "0"),  # c = (n - 2) / n^3 >= 0 since n >= 2
        (["0.25 * sum_i(a_h_i * A_h_i) <= 0.25 * sum_i(T_h_i)"], "0.5 * dE_h_dt", ">=", "0"),  # decimals, exact
    ],
)
def test_a_global_given_proves_the_implication(given: list[str], lhs: str, op: str, rhs: str) -> None:
    d = derivation(given, lhs, op, rhs)
    assert d.proved, d.failures
    assert any("the given condition as a whole" in s.text for s in d.steps)


@pytest.mark.parametrize(
    ("given", "lhs", "op", "rhs", "assume"),
    [
        (["sum_i(a_h_i * A_h_i) >= sum_i(T_h_i)"], "dE_h_dt", ">=", "0", ORTHOGONAL),  # wrong direction
        ([SUMMED_C8], "dE_h_dt", "<=", "0", ORTHOGONAL),  # c < 0
        ([SUMMED_C8], "(beta - 1) * dE_h_dt", ">=", "0", ORTHOGONAL),  # c of unknown sign
        ([SUMMED_C8], "(n - 3) * dE_h_dt", ">=", "0", ORTHOGONAL),  # c < 0 at n = 2 only
        ([SUMMED_C8], "dE_h_dt", ">", "0", ORTHOGONAL),  # a non-strict given does not give a strict claim
        ([SUMMED_C8], "dE_h_dt", ">=", "E_h", ORTHOGONAL),  # c > 0, but the rest has the wrong sign
        (["dE_h_dt >= 0"], "sum_i(a_h_i * A_h_i)", ">=", "sum_i(T_h_i)", ORTHOGONAL),  # the converse reversed
        ([SUMMED_C8], "dE_h_dt", ">=", "0", ["symmetric-scores", "aligned-values"]),  # no orthogonal heads
        (["sum_i(T_h_i) >= a_h_i"], "dE_h_dt", ">=", "0", ORTHOGONAL),  # the token i mixed with a sum
    ],
)
def test_a_false_or_unusable_global_given_is_not_proved(
    given: list[str], lhs: str, op: str, rhs: str, assume: list[str]
) -> None:
    assert not derivation(given, lhs, op, rhs, assume).proved


def test_a_given_mixing_the_token_with_a_sum_says_why() -> None:
    d = derivation(["sum_i(T_h_i) >= a_h_i"], "dE_h_dt", ">=", "0")
    assert any("mixes the token i with a sum over tokens" in f for f in d.failures)


def decide(text: str, directory: Path) -> dict[str, tuple[Verdict, dict]]:
    registry = register_claims(parse_claims(textwrap.dedent(text), "implications.toml"))
    results = run_claims(registry.claims(), Context("quick", seed=0, certificate_dir=directory))
    assert not any(r.crashed for r in results)
    return {r.claim.id: (r.verdict, r.outcomes[0][1].as_dict()) for r in results}


def assert_refuted_and_rechecked(verdict: Verdict, evidence: dict) -> None:
    assert verdict is Verdict.REFUTED, evidence
    assert evidence["witness"]["verified_by"] == "ball"
    (path,) = evidence["certificates"]
    ok, message = verify_file(Path(path))
    assert ok, message


@pytest.mark.slow
def test_the_reversed_converse_is_refuted_and_rechecked(tmp_path: Path) -> None:
    text = claim_text("reversed", ["dE_h_dt >= 0"], "sum_i(a_h_i * A_h_i)", ">=", "sum_i(T_h_i)")
    assert_refuted_and_rechecked(*decide(text, tmp_path)["reversed"])


PROVED = ("summed-condition8-monotone", "monotone-summed-condition8", "strict-summed-condition8-with-energy")
REFUTED = (
    "monotone-reversed-summed-condition8",
    "summed-condition8-unknown-sign",
    "summed-condition8-without-orthogonality",
)


@pytest.mark.slow
def test_the_examples_are_proved_or_refuted_and_rechecked(tmp_path: Path) -> None:
    examples = decide((ROOT / "examples" / "implications.toml").read_text(), tmp_path)
    assert set(examples) == {*PROVED, *REFUTED}
    for claim_id in PROVED:
        assert examples[claim_id][0] is Verdict.PROVED, (claim_id, examples[claim_id][1])
    for claim_id in REFUTED:
        assert_refuted_and_rechecked(*examples[claim_id])
