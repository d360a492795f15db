"""The equiangular reduction of every attention kind with several scalar heads, against the numpy model."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.identities import equiangular_reduction as er
from headflow.identities import linearized_clustering as lc
from headflow.identities.derivation import Derivation


def _configuration(kind: str, n: int, rho: float, lambdas: list[float], beta: float, seed: int) -> Configuration:
    X = families.equiangular_tokens(n, n + 1, rho, np.random.default_rng(seed))
    return Configuration.create(X, families.scalar_heads(lambdas, n + 1), beta=beta, attention=kind)


def _reduced(kind: str, n: int, rho: float, lambdas: list[float], beta: float) -> float:
    """d rho/dt of the reduction at these (float) values."""
    pull = er.reduced_pull(Derivation(), kind, [sp.Float(value) for value in lambdas])
    return float(er.spread(pull).subs({er.rho: rho, er.n: n, er.beta: beta}))


@pytest.mark.parametrize("kind", er.KINDS)
@pytest.mark.parametrize("seed", range(5))
def test_reduction_matches_the_model_for_several_heads(kind: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, H = int(rng.integers(2, 8)), int(rng.integers(2, 5))
    rho = float(rng.uniform(-1.0 / (n - 1), 1.0) * 0.95)
    lambdas = [float(v) for v in rng.uniform(-1.5, 2.0, H)]
    beta = float(rng.uniform(0.2, 2.0))
    cfg = _configuration(kind, n, rho, lambdas, beta, seed)
    xdot = model.token_velocity(cfg)
    pairings = xdot @ cfg.tokens.T  # <xdot_i, x_k>
    off = ~np.eye(n, dtype=bool)
    assert np.allclose(np.diag(pairings), 0.0, atol=1e-13)  # the tokens stay on the sphere
    assert np.ptp(pairings[off]) < 1e-12  # every pair moves alike: the tokens stay equiangular
    measured = 2 * float(pairings[0, 1])
    assert measured == pytest.approx(_reduced(kind, n, rho, lambdas, beta), rel=1e-10, abs=1e-13)


@pytest.mark.parametrize("kind", er.KINDS)
def test_the_derivation_closes_for_every_kind(kind: str) -> None:
    derivation = Derivation()
    er.reduced_pull(derivation, kind, [sp.Integer(1), sp.Rational(-1, 2)])
    assert derivation.proved, derivation.failures


def test_exact_rates_for_symbolic_positive_heads() -> None:
    lambdas = sp.symbols("lambda_1:4", positive=True)
    expected = {
        "usa": 2 * sum(s * sp.exp(er.beta * s) for s in lambdas),
        "softmax": 2 * sum(lambdas),
        "relu": 2 * er.beta * sum(s**2 for s in lambdas),
    }
    for kind, rate in expected.items():
        derivation = Derivation()
        pull = er.reduced_pull(derivation, kind, list(lambdas))
        found = er.late_rate(derivation, er.on_side(pull, positive=True))
        assert derivation.proved, (kind, derivation.failures)
        assert sp.simplify(found - rate) == 0, kind


@pytest.mark.parametrize("kind", er.KINDS)
def test_the_exact_rate_is_the_model_slope_at_collapse(kind: str) -> None:
    """(d eps/dt)/eps from the numpy model near eps = 0 tends to -r*, with heads of both signs."""
    n, lambdas, beta = 5, [1.0, 0.5, -0.7], 0.8
    pull = er.reduced_pull(Derivation(), kind, [sp.Rational(1), sp.Rational(1, 2), sp.Rational(-7, 10)])
    pull = pull.subs({er.n: n, er.beta: sp.Rational(4, 5)})
    rate = float(er.late_rate(Derivation(), er.on_side(pull, positive=True), n))
    gap = 1e-6
    cfg = _configuration(kind, n, 1 - gap, lambdas, beta, 0)
    slope = -2 * float(model.token_velocity(cfg)[0] @ cfg.tokens[1]) / gap
    assert slope == pytest.approx(-rate, rel=1e-4)


def test_wrong_counting_is_not_proved(monkeypatch: pytest.MonkeyPatch) -> None:
    def miscounted(weight_self: sp.Expr, weight_other: sp.Expr) -> sp.Expr:
        return weight_other * (1 - lc.rho**2) + (lc.n - 1) * weight_other * (lc.rho - lc.rho**2)

    monkeypatch.setattr(lc, "pairing_with_other_token", miscounted)
    for kind in er.KINDS:
        derivation = Derivation()
        er.reduced_pull(derivation, kind, [sp.Integer(1)])
        assert not derivation.proved, kind


def _integrate_reduced(pull: sp.Expr, n: int, rho0: float, t_final: float) -> float:
    """rho(t_final) of the scalar ODE rho' = (1 - rho)(1 + (n - 1) rho) S(rho), by RK4 (an independent check)."""
    velocity = sp.lambdify(er.rho, er.spread(pull, n), "math")
    rho, steps = rho0, 20_000
    h = t_final / steps
    for _ in range(steps):
        k1 = velocity(rho)
        k2 = velocity(rho + h * k1 / 2)
        k3 = velocity(rho + h * k2 / 2)
        k4 = velocity(rho + h * k3)
        rho += h * (k1 + 2 * k2 + 2 * k3 + k4) / 6
    return rho


@pytest.mark.parametrize(
    ("kind", "lambdas", "rho0", "limit"),
    [
        ("usa", [1, sp.Rational(-3, 5)], sp.Rational(1, 10), 0),
        ("usa", [1, -2], sp.Rational(1, 10), sp.Rational(4, 3)),
        ("softmax", [1, -1], sp.Rational(1, 5), sp.Rational(4, 3)),
        ("relu", [1, -2], sp.Rational(-1, 10), sp.Rational(4, 3)),
        ("relu", [1], sp.Rational(-1, 10), sp.Rational(11, 10)),
        ("relu", [2, -1], sp.Rational(1, 2), 0),
    ],
)
def test_destination_matches_the_integrated_reduction(kind: str, lambdas: list, rho0: sp.Rational, limit) -> None:
    n = 4
    pull = er.reduced_pull(Derivation(), kind, [sp.Rational(v) for v in lambdas]).subs({er.n: n, er.beta: 1})
    derivation = Derivation()
    assert er.destination(derivation, pull, rho0, n) == limit
    assert derivation.proved, derivation.failures
    assert 1 - _integrate_reduced(pull, n, float(rho0), 60.0) == pytest.approx(float(limit), abs=1e-6)
