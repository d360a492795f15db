"""The causal-mask reduction (identities.causal_reduction) against the numpy model: the Gram rates at equiangular
tokens, the fixed first token, the closed pair (1, 2) from any start; a wrong closed form is told apart."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from headflow.certificates.kernel.vocabulary import ATTENTION_KINDS
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.identities import causal_reduction as cr

LAMBDAS = (0.8, -0.3, 1.4)


def _rate_formula(kind: str, expr: sp.Expr, n: int, beta: float, rho: float, **indices: int) -> float:
    """The heads' sum of one head's closed form, at numbers."""
    values = {cr.n: n, cr.beta: beta, cr.rho: rho, **{getattr(cr, k): v for k, v in indices.items()}}
    return sum(float(expr.subs(values | {cr.lam: lam})) for lam in LAMBDAS)


def _configuration(X: np.ndarray, kind: str, beta: float) -> Configuration:
    heads = np.array([lam * np.eye(X.shape[1]) for lam in LAMBDAS])
    return Configuration.create(X, heads, beta=beta, attention=kind, mask="causal")


def _gram_rates(cfg: Configuration) -> np.ndarray:
    xdot = model.token_velocity(cfg)
    return xdot @ cfg.tokens.T + cfg.tokens @ xdot.T


@pytest.mark.parametrize("kind", ATTENTION_KINDS)
def test_every_step_of_the_reduction_closes(kind: str) -> None:
    derivation = cr.causal_reduction(kind)
    assert derivation.proved, derivation.failures


@pytest.mark.parametrize("kind", ATTENTION_KINDS)
@pytest.mark.parametrize(("rho", "beta"), [(0.3, 1.2), (-0.15, 0.7), (0.6, -0.9)])
def test_the_gram_rates_at_equiangular_tokens_match_the_model(kind: str, rho: float, beta: float) -> None:
    n = 5
    cfg = _configuration(families.equiangular_tokens(n, n, rho), kind, beta)
    rates = _gram_rates(cfg)
    for a in range(n):
        for b in range(a + 1, n):
            expected = _rate_formula(kind, cr.closed_pair_rate(kind), n, beta, rho, i=a + 1, j=b + 1)
            assert rates[a, b] == pytest.approx(expected, rel=1e-9, abs=1e-12), (a, b)
    assert np.allclose(model.token_velocity(cfg)[0], 0.0, atol=1e-15)  # the first token does not move
    assert abs(rates[0, 2] - rates[0, 1]) > 1e-5  # no longer equiangular


def test_a_wrong_closed_form_disagrees_with_the_model() -> None:
    """The earlier token's motion forgotten (the B_i (i - 1) rho term dropped): the rates differ at i > 1."""
    n, rho, beta = 5, 0.3, 1.2
    wrong = cr.closed_pair_rate("usa").subs(cr.i, 1)  # (i - 1) rho -> 0, B_i kept
    rates = _gram_rates(_configuration(families.equiangular_tokens(n, n, rho), "usa", beta))
    assert rates[2, 3] != pytest.approx(_rate_formula("usa", wrong, n, beta, rho, j=4), rel=1e-6)
    assert rates[2, 3] == pytest.approx(_rate_formula("usa", cr.closed_pair_rate("usa"), n, beta, rho, i=3, j=4))


@pytest.mark.parametrize("kind", ATTENTION_KINDS)
def test_the_first_pair_is_a_closed_system_from_any_start(kind: str) -> None:
    """d rho_12/dt = c (1 - rho^2) sum_h lambda_h B_2(rho) at random (not equiangular) tokens."""
    rng = np.random.default_rng(3)
    for _ in range(3):
        cfg = _configuration(families.random_sphere_tokens(6, 4, rng), kind, 1.1)
        rho = float(cfg.tokens[0] @ cfg.tokens[1])
        expected = _rate_formula(kind, cr.pair_ode(kind), 6, 1.1, rho)
        assert _gram_rates(cfg)[0, 1] == pytest.approx(expected, rel=1e-9, abs=1e-12)
