"""examples/reduced_dynamics.toml: initial rates (`initial-rate`) decided on the exact equiangular reduction where it
applies (PROVED or REFUTED, for a whole domain at once) and by extrapolated difference quotients elsewhere (at most
CONFIRMED); each example decided as its comment says, and the attacks: a claim off by less than a float can see, a
claim outside the reduction's regime that floats cannot refute."""

from __future__ import annotations

from pathlib import Path

import pytest

from certificates.kernel.claims.loader import parse_claims
from certificates.kernel.errors import InputError
from checks.verdicts import Verdict
from tests.checks.claimsfile.test_model_claims import decide

ROOT = Path(__file__).resolve().parents[3]

EXPECTED = {
    "initial.usa.two-heads": Verdict.PROVED,
    "initial.relu.every-n": Verdict.PROVED,
    "initial.usa.identity-values": Verdict.CONFIRMED,
    "initial.softmax.late-rate-at-start": Verdict.REFUTED,
    "initial.softmax.wrong-sign": Verdict.REFUTED,
    "initial.usa.identity-values.wrong": Verdict.INCONCLUSIVE,
}


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Verdict, dict]]:
    return decide((ROOT / "examples" / "reduced_dynamics.toml").read_text(), tmp_path_factory.mktemp("certs"))


def test_every_example_is_decided_as_its_comment_says(examples: dict[str, tuple[Verdict, dict]]) -> None:
    assert {k: v for k, (v, _) in examples.items() if k in EXPECTED} == EXPECTED


def test_a_wrong_initial_rate_is_refuted_with_the_exact_one(examples: dict[str, tuple[Verdict, dict]]) -> None:
    _, evidence = examples["initial.softmax.late-rate-at-start"]
    witness = evidence["witness"]
    assert witness["verified_by"] == "ball" and witness["claimed_initial_rate"] == "-3"
    assert witness["exact_initial_rate"] == "-2/(E + 3) - 1/(exp(1/2) + 3)"  # -phi(1) - phi(1/2), n = 4, beta = 1
    _, evidence = examples["initial.softmax.wrong-sign"]
    assert "parameter_point" in evidence["witness"]


def test_the_domain_proof_needs_no_sampled_point(examples: dict[str, tuple[Verdict, dict]]) -> None:
    _, evidence = examples["initial.relu.every-n"]
    assert "covered" not in evidence.get("details", {})
    assert any("identically" in step["text"] for step in evidence["steps"])


def test_floats_confirm_within_their_error_and_never_refute(examples: dict[str, tuple[Verdict, dict]]) -> None:
    _, evidence = examples["initial.usa.identity-values"]
    (start,) = evidence["details"]["starts"]
    assert start["off_by"] <= start["error"] < 1e-4
    _, evidence = examples["initial.usa.identity-values.wrong"]
    assert "not certified" in evidence["notes"]


CLAIM = """
[[claim]]
id = "c"
kind = "dynamics"
quantity = "cluster_gap"
property = "initial-rate"
derivative = "{derivative}"
attention = "usa"
heads = "scalar"
lambdas = [1.0, 0.5]
tokens = "equiangular"
rho = 0.2
n = 4
d = 4
beta = 1.0
"""
EXACT = "-(16/25) * (exp(1/5) + exp(1/10) / 2)"


@pytest.mark.parametrize("offset", ["10**(-30)", "-10**(-30)", "1/1000"])
def test_an_initial_rate_off_by_a_tiny_amount_is_refuted(tmp_path: Path, offset: str) -> None:
    (verdict, evidence) = decide(CLAIM.format(derivative=f"{EXACT} + {offset}"), tmp_path)["c"]
    assert verdict is Verdict.REFUTED and evidence["witness"]["verified_by"] == "ball"


def test_the_exact_initial_rate_as_a_float_literal_is_refuted_not_rounded(tmp_path: Path) -> None:
    # -(16/25)(e^(1/5) + e^(1/10)/2) = -1.135...; a decimal is an exact rational, never the transcendental value
    (verdict, _) = decide(CLAIM.format(derivative="-1.135352459006716"), tmp_path)["c"]
    assert verdict is Verdict.REFUTED


def test_initial_rate_needs_its_derivative_and_only_it() -> None:
    with pytest.raises(InputError, match="derivative"):
        parse_claims(CLAIM.replace('derivative = "{derivative}"\n', ""), "t.toml")
    with pytest.raises(InputError, match="only used with property"):
        parse_claims(
            CLAIM.format(derivative="0").replace('property = "initial-rate"', 'property = "non-negative"'), "t"
        )
