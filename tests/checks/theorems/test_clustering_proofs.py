"""T22's symbolic proofs: reading-b of super-additivity for all n, equiangular invariance, the late rate.

Each proof is PROVED on the true statement and not proved on a mutated one (a wrong inflection
function or factor, a non-equiangular Gram matrix, mismatched head weights, a wrong rate constant);
the Gram ODE derived symbolically is compared with the numpy model on random tokens.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context, load_all
from headflow.checks.runner import run_claim
from headflow.checks.theorems import t22_clustering_rates as clustering
from headflow.checks.verdicts import Verdict
from headflow.identities import closed_forms as cf
from headflow.identities import convexity
from headflow.identities import equiangular as eq
from headflow.identities.derivation import Derivation, Step

# ---------------------------------------------------------------- labelling of the steps


def _labelled_consistently(steps: list[Step]) -> bool:
    """Computed steps end with what was computed (an exact check, or a residual SymPy's arithmetic cancelled as it was
    built), cited ones carry the cited-lemma mark, notes carry neither."""
    allowed = {("computed", True, False), ("cited", False, True), ("note", False, False)}
    marks = ("[checked", "as built by SymPy's arithmetic: nothing left for the exact test]")
    return all((s.kind, any(m in s.text for m in marks), "[cited lemma: " in s.text) in allowed for s in steps)


@pytest.mark.parametrize("claim_id", ["T22.superadditivity.reading-b", "T22.late-rate", "T22.early-rate"])
def test_t22_symbolic_claims_are_proved_with_computed_and_cited_steps_told_apart(claim_id: str) -> None:
    result = run_claim(load_all().get(claim_id), Context())
    symbolic = dict(result.outcomes)["symbolic"]
    assert result.verdict is Verdict.PROVED and symbolic.verdict is Verdict.PROVED, symbolic.notes
    kinds = {step.kind for step in symbolic.steps}
    assert {"computed", "cited"} <= kinds
    assert _labelled_consistently(symbolic.steps)
    assert all(step["kind"] in ("note", "computed", "cited") for step in symbolic.as_dict()["steps"])


# ---------------------------------------------------------------- reading-b for all n


def test_reading_b_states_every_n_and_no_upper_bound() -> None:
    statement = load_all().get("T22.superadditivity.reading-b").statement
    assert "every integer n >= 2" in statement and "40" not in statement
    assert "40" in load_all().get(clustering.COVER_CLAIM).statement  # the covers keep their own, honest, domain


def test_convex_regime_is_proved_for_symbolic_n() -> None:
    derivation = convexity.prove_superadditivity()
    assert derivation.proved, derivation.failures
    assert any("cited lemma: chord inequality" in s.text for s in derivation.steps)


g, K, u, n = cf.lambda_c_equation(convexity.u, convexity.n), convexity.convexity_factor(), convexity.u, convexity.n
WRONG = {
    "g(0) > 0": (g + 4 * n, None),
    "negated pair (-g, -K)": (-g, -K),
    "factor squared, not cubed": (None, 2 * sp.exp(u) / (sp.exp(u) + n - 1) ** 2),
    "root moved below u_c": (g.subs(u, u + 1), None),
}


@pytest.mark.parametrize("mutation", list(WRONG))
def test_convexity_beyond_a_wrong_root_is_not_proved(mutation: str) -> None:
    inflection, factor = WRONG[mutation]
    derivation = convexity.prove_superadditivity(inflection, factor)
    assert not derivation.proved


def test_the_negated_pair_fails_on_the_signs_not_on_the_factorization() -> None:
    derivation = convexity.prove_convex_regime(-g, -K)
    assert not any("phi_1''(u) = K(u) g(u)" in f for f in derivation.failures)
    assert any("K(u) > 0" in f for f in derivation.failures) and any("g(0) < 0" in f for f in derivation.failures)


# ---------------------------------------------------------------- equiangular invariance


@pytest.mark.parametrize("tokens", [2, 3, 4])
def test_equiangular_gram_is_invariant(tokens: int) -> None:
    derivation = Derivation()
    eq.check_invariance(derivation, tokens)
    assert derivation.proved, derivation.failures


def test_invariance_fails_for_a_non_equiangular_gram() -> None:
    sigma = sp.Symbol("sigma", real=True)
    skewed = eq.equiangular_gram(3)
    skewed[0, 2] = skewed[2, 0] = sigma  # G_01 = G_12 = rho, G_02 = sigma
    derivation = Derivation()
    eq.check_invariance(derivation, 3, gram=skewed)
    assert not derivation.proved
    assert any("off-diagonal entry" in f for f in derivation.failures)


def test_invariance_fails_for_mismatched_head_weights() -> None:
    def mismatched(gram: sp.Matrix, i: int, strength: sp.Expr) -> list[sp.Expr]:
        """Token 0 attends with twice the head's strength: the field is no longer permutation-symmetric."""
        return eq.softmax_weights(gram, i, 2 * strength if i == 0 else strength)

    derivation = Derivation()
    eq.check_invariance(derivation, 3, weights=mismatched)
    assert not derivation.proved
    assert any("off-diagonal entry" in f for f in derivation.failures)


@pytest.mark.parametrize("seed", range(3))
def test_derived_gram_velocity_matches_the_model(seed: int) -> None:
    """F(G) derived symbolically, at the Gram matrix of random (not equiangular) tokens, against checks.model.field."""
    rng = np.random.default_rng(seed)
    tokens, dimension = int(rng.integers(2, 5)), 4
    strengths = rng.uniform(0.2, 2.0, size=2)
    beta_value = float(rng.uniform(0.3, 2.0))
    X = families.random_sphere_tokens(tokens, dimension, rng)
    cfg = Configuration.create(X, families.scalar_heads(strengths, dimension), beta=beta_value, attention="softmax")
    xdot = model.token_velocity(cfg)
    measured = xdot @ X.T + X @ xdot.T
    generic = eq.gram_symbols(tokens)
    values = {generic[j, k]: float(X[j] @ X[k]) for j in range(tokens) for k in range(j + 1, tokens)}
    values |= {eq.HEADS[0]: strengths[0], eq.HEADS[1]: strengths[1], eq.beta: beta_value}
    derived = np.array(eq.gram_velocity(generic).subs(values).evalf(), dtype=float)
    assert np.allclose(derived, measured, rtol=1e-10, atol=1e-12)


# ---------------------------------------------------------------- late rate


def test_late_rate_with_a_wrong_constant_is_not_proved() -> None:
    right, wrong = eq.prove_late_rate(), eq.prove_late_rate(coefficient=3)
    assert right.proved, right.failures
    assert not wrong.proved
    assert any("remainder" in f for f in wrong.failures)


def test_early_rate_with_a_wrong_constant_is_not_proved() -> None:
    assert not eq.prove_early_rate(claimed=-2 * cf.rate(cf.lam, cf.n, cf.beta)).proved
