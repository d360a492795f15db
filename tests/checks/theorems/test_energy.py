"""Energy identities (T11, T16, T17, Condition 8): proofs, wrong variants, agreement with the model."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
import sympy as sp
from headflow.checks.evidence.energy_rates import check_formula, t16_formula, t17_formula
from headflow.checks.evidence.sampling import random_configuration
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context
from headflow.checks.verdicts import Verdict, derived
from headflow.identities import energy
from headflow.identities.energy import n


def test_lemmas_and_theorems_are_proved() -> None:
    assert energy.gradient_lemma().proved
    assert energy.orthogonality_lemma().proved
    for geometry in ("sphere", "flat"):
        assert energy.prove_energy_rate(geometry).derivation.proved
    assert energy.prove_flat_orthogonal().derivation.proved
    assert energy.prove_shadow_decomposition().derivation.proved
    assert energy.prove_radial_dominance().proved
    assert energy.prove_summed_radial_dominance().proved


@pytest.mark.parametrize("coefficient", [2, 0, -1])
def test_gradient_lemma_with_a_wrong_coefficient_is_not_proved(coefficient: int) -> None:
    assert not energy.gradient_lemma(coefficient).proved


@pytest.mark.parametrize("geometry", ["sphere", "flat"])
@pytest.mark.parametrize("wrong", [lambda q: 2 * q / n, lambda q: q / n**2, lambda q: -q / n, lambda q: q**2 / n])
def test_wrong_energy_rates_are_not_proved(geometry: str, wrong: Callable[..., sp.Expr]) -> None:
    proof = energy.prove_energy_rate(geometry, wrong)
    assert not proof.derivation.proved
    assert derived(proof.derivation, "m").verdict is Verdict.INCONCLUSIVE


@pytest.mark.parametrize("wrong", [lambda q: q / n**2, lambda q: 2 * q / n**3, lambda q: -q / n**3])
def test_wrong_flat_orthogonal_rates_are_not_proved(wrong: Callable[..., sp.Expr]) -> None:
    assert not energy.prove_flat_orthogonal(wrong).derivation.proved


@pytest.mark.parametrize(
    "wrong",
    [
        lambda T, a, A: (T + a * A) / n**3,  # sign
        lambda T, a, A: (T - 2 * a * A) / n**3,  # coefficient
        lambda T, a, A: (T - a**2 * A) / n**3,  # power
        lambda T, a, A: (T - a * A) / n**2,  # power of n
    ],
)
def test_wrong_shadow_decompositions_are_not_proved(wrong: Callable[..., sp.Expr]) -> None:
    assert not energy.prove_shadow_decomposition(wrong).derivation.proved


def test_total_rate_formula_agrees_with_the_model() -> None:
    rng = np.random.default_rng(11)
    for geometry in ("sphere", "flat"):
        formula = energy.prove_energy_rate(geometry).formula
        for _ in range(20):
            cfg = random_configuration(rng, geometry=geometry)
            xdot = model.token_velocity(cfg)
            per_token = [float(formula.subs({energy.q_sym: float(v @ v), n: cfg.n})) for v in xdot]
            assert sum(per_token) == pytest.approx(model.energy_rate(cfg), rel=1e-9, abs=1e-12)


def test_per_head_formulas_agree_with_the_model_on_orthogonal_subspace_heads() -> None:
    rng = np.random.default_rng(5)
    rates16, rates17 = t16_formula(), t17_formula()
    for _ in range(20):
        n_tokens, H = int(rng.integers(2, 9)), int(rng.integers(1, 5))
        d = H + int(rng.integers(0, 5))
        X = families.random_sphere_tokens(n_tokens, d, rng)
        M = families.orthogonal_subspace_heads(H, d, rng, scale=1.5)
        beta = float(rng.uniform(0.2, 2.0))
        sphere = Configuration.create(X, M, beta=beta)
        flat = Configuration.create(X * rng.uniform(0.5, 1.5, (n_tokens, 1)), M, beta=beta, geometry="flat")
        np.testing.assert_allclose(rates17(sphere), model.head_energy_rates(sphere), rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(rates16(flat), model.head_energy_rates(flat), rtol=1e-9, atol=1e-12)


def test_the_numeric_cross_check_rejects_a_wrong_formula() -> None:
    def wrong(cfg: Configuration) -> np.ndarray:
        a = model.radial_shadows(cfg)
        return np.sum(model.tangential_powers(cfg) + a * (a.sum(axis=0) - a), axis=-1) / cfg.n**3

    ctx = Context(claim_id="T17.shadow-decomposition")
    assert check_formula(ctx, "sphere", wrong).verdict is Verdict.INCONCLUSIVE
    assert check_formula(ctx, "sphere", t17_formula()).verdict is Verdict.CONFIRMED


def test_condition8_forms_against_the_model() -> None:
    """Per-token C8 implies a non-negative rate; the summed form has the sign of the rate (reading-b)."""
    rng = np.random.default_rng(8)
    per_token_cases = 0
    for _ in range(60):
        cfg = random_configuration(rng, heads="orthogonal", scale=2.0)
        margins, rates = model.condition8_margins(cfg), model.head_energy_rates(cfg)
        for h in range(cfg.H):
            if np.all(margins[h] >= 0):
                per_token_cases += 1
                assert rates[h] >= -1e-12
            assert rates[h] * cfg.n**3 == pytest.approx(margins[h].sum(), rel=1e-9, abs=1e-9)
    assert per_token_cases > 0
