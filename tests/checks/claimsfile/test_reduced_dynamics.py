"""examples/reduced_dynamics.toml: initial rates (`initial-rate`), limits and values at every time of closed-form
quantities (`tends-to`, `at-least`, `at-most`, `stays-non-negative`) decided on the exact equiangular reduction where it
applies (PROVED or REFUTED, for a whole domain at once) and by floats elsewhere (at most CONFIRMED); each example
decided as its comment says, the closed forms against the float model, and the attacks: a claim off by less than a
float can see, a claim outside the reduction's regime that floats cannot refute, a start outside the hypothesis."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.errors import InputError
from headflow.checks.model.configuration import Configuration
from headflow.checks.model.observables import EVALUATORS
from headflow.checks.verdicts import Verdict
from headflow.identities import equiangular_quantities as eq
from headflow.identities import equiangular_reduction as er
from headflow.identities.derivation import Derivation

from tests.checks.claimsfile.test_model_claims import decide

ROOT = Path(__file__).resolve().parents[3]

EXPECTED = {
    "initial.usa.two-heads": Verdict.PROVED,
    "initial.relu.every-n": Verdict.PROVED,
    "initial.usa.identity-values": Verdict.CONFIRMED,
    "initial.softmax.late-rate-at-start": Verdict.REFUTED,
    "initial.softmax.wrong-sign": Verdict.REFUTED,
    "initial.usa.identity-values.wrong": Verdict.INCONCLUSIVE,
    "limit.entropy.softmax": Verdict.PROVED,
    "limit.entropy.usa.every-n": Verdict.PROVED,
    "limit.shadow.head0": Verdict.PROVED,
    "limit.shadow.every-head": Verdict.REFUTED,
    "limit.entropy.relu-negative": Verdict.REFUTED,
    "always.entropy.relu-equilibrium": Verdict.PROVED,
    "always.condition8.one-head": Verdict.CONFIRMED,
    "always.condition8.two-heads": Verdict.REFUTED,
    "always.inner-product.bounded": Verdict.REFUTED,
}


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Verdict, dict]]:
    return decide((ROOT / "examples" / "reduced_dynamics.toml").read_text(), tmp_path_factory.mktemp("certs"))


def test_every_example_is_decided_as_its_comment_says(examples: dict[str, tuple[Verdict, dict]]) -> None:
    assert {k: v for k, (v, _) in examples.items()} == EXPECTED


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


@pytest.mark.parametrize("kind", ["usa", "softmax", "relu"])
def test_the_closed_forms_are_the_model_quantities_at_an_equiangular_state(kind: str) -> None:
    size, rho, beta, strengths = 5, sp.Rational(3, 10), sp.Rational(13, 10), [1, sp.Rational(1, 2), sp.Rational(-7, 10)]
    tokens = np.linalg.cholesky((1 - 0.3) * np.eye(size) + 0.3 * np.ones((size, size)))
    heads = [float(s) * np.eye(size) for s in strengths]
    cfg = Configuration.create(tokens, heads, None, beta=1.3, attention=kind)
    for name in eq.QUANTITIES:
        forms = eq.values(kind, name, strengths)
        exact = np.array([float(f.subs({er.rho: rho, er.n: size, er.beta: beta})) for f in forms])
        model = np.asarray(EVALUATORS[name](cfg), dtype=float)
        per_head = model.reshape(len(strengths), -1)[:, 0] if model.ndim else model.reshape(1)
        assert np.allclose(exact, per_head, rtol=1e-12, atol=1e-12), name


def test_the_counting_is_checked_and_a_wrong_count_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    assert eq.check_counting(Derivation()) and all(r == 0 for r in eq.counting_residuals())
    monkeypatch.setattr(eq, "norm_factor", lambda a, b, size=eq.n: a**2 + (size - 1) * b**2)  # the cross terms dropped
    assert any(r != 0 for r in eq.counting_residuals())


def test_a_violation_is_a_visited_correlation_with_a_ball(examples: dict[str, tuple[Verdict, dict]]) -> None:
    _, evidence = examples["always.condition8.two-heads"]  # the margin tends to -(H - 1) n^2 e^(2 beta) < 0
    witness = evidence["witness"]
    assert witness["rho_limit"] == "1" and witness["verified_by"] == "ball" and witness["margin_limit"].startswith("[-")
    _, evidence = examples["limit.entropy.relu-negative"]
    assert evidence["witness"]["claimed_limit"] == "log(4)"


LIMIT = """
[[claim]]
id = "c"
kind = "dynamics"
quantity = "attention_entropy"
property = "{prop}"
{target}
attention = "softmax"
heads = "scalar"
lambdas = [{lambdas}]
tokens = "equiangular"
rho = 0
n = 3
d = 3
beta = {beta}
"""


def test_a_limit_off_by_a_tiny_amount_is_refuted(tmp_path: Path) -> None:
    text = LIMIT.format(prop="tends-to", target='limit = "log(3) + 10**(-30)"', lambdas="1.0", beta="1.0")
    assert decide(text, tmp_path)["c"][0] is Verdict.REFUTED


def test_a_start_outside_the_hypothesis_makes_invariance_vacuous_never_refuted(tmp_path: Path) -> None:
    # three heads at beta = 1: (n - 1) - (H - 1) e^(2 beta) < 0, Condition 8 fails at t = 0 (and later)
    text = LIMIT.format(prop="stays-non-negative", target="", lambdas="1.0, 1.0, 1.0", beta="1.0")
    text = text.replace("attention_entropy", "condition8_margin").replace('"softmax"', '"usa"')
    verdict, evidence = decide(text, tmp_path)["c"]
    assert verdict is Verdict.PROVED and any("vacuously" in step["text"] for step in evidence["steps"])
    assert decide(text.replace("stays-non-negative", "non-negative"), tmp_path)["c"][0] is Verdict.REFUTED


def test_a_bound_the_limit_beats_by_less_than_a_float_sees_is_refuted(tmp_path: Path) -> None:
    # the entropy rises to log 3 (from below): "at most log 3 - 10^-40" fails for all large t, past every float
    text = LIMIT.format(prop="at-most", target='bound = "log(3) - 10**(-40)"', lambdas="1.0", beta="1.0")
    verdict, evidence = decide(text, tmp_path)["c"]
    assert verdict is Verdict.REFUTED and "rho_limit" in evidence["witness"]
    assert decide(text.replace("10**(-40)", "0"), tmp_path)["c"][0] is not Verdict.REFUTED  # log 3 itself is a bound


def test_a_violation_at_a_visited_correlation_is_refuted_there(tmp_path: Path) -> None:
    # rho rises from 1/5 to 1: "the largest inner product is at least 3/10 at every time" fails at t = 0 (rho0 is
    # visited) although its limit 1 satisfies it
    text = LIMIT.format(prop="at-least", target='bound = "3/10"', lambdas="1.0", beta="1.0")
    text = text.replace("attention_entropy", "largest_inner_product").replace("rho = 0\n", "rho = 0.2\n")
    verdict, evidence = decide(text, tmp_path)["c"]
    assert verdict is Verdict.REFUTED and sp.Rational(evidence["witness"]["rho"]) == sp.Rational(1, 5)
