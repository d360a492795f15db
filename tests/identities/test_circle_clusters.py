"""The two-cluster reduction of the circle: its derivation closes for every kind, and its pull K agrees with the
vector model at random two-cluster configurations (sizes, strengths of either sign, beta, any d)."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.identities import circle_clusters as cc
from headflow.identities.derivation import Derivation


@pytest.mark.parametrize("kind", ["usa", "softmax", "relu"])
def test_the_reduction_is_derived_for_every_kind(kind: str) -> None:
    derivation = Derivation()
    cc.reduced_pull(derivation, kind, [sp.Integer(1), sp.Rational(-1, 2)])
    cc.order_parameter_identity(derivation)
    assert derivation.proved, derivation.failures


@pytest.mark.parametrize("kind", ["usa", "softmax", "relu"])
@pytest.mark.parametrize("seed", range(4))
def test_the_pull_is_the_vector_models_rate_of_rho(kind: str, seed: int) -> None:
    """d<x_a, x_b>/dt of the vector model = (1 - rho^2) K(rho) of the reduction, and both clusters stay together."""
    rng = np.random.default_rng(seed)
    size_a, size_b = (int(k) for k in rng.integers(1, 5, 2))
    d = int(rng.integers(2, 5))
    lambdas = rng.uniform(-2.0, 2.0, int(rng.integers(1, 3)))
    beta = float(rng.uniform(0.2, 2.5))
    a, b = rng.normal(size=(2, d))
    a, b = a / np.linalg.norm(a), b / np.linalg.norm(b)
    tokens = np.array([a] * size_a + [b] * size_b)
    cfg = Configuration.create(tokens, families.scalar_heads(lambdas, d), beta=beta, attention=kind)
    xdot = model.token_velocity(cfg)
    assert np.allclose(xdot[:size_a], xdot[0]) and np.allclose(xdot[size_a:], xdot[-1])
    rate = float(xdot[0] @ b + a @ xdot[-1])
    rho = float(a @ b)
    pull = sum(cc.head_pull(kind, sp.Float(lam)) for lam in lambdas)
    value = float(pull.subs({cc.n1: size_a, cc.n2: size_b, cc.beta: beta, cc.rho: rho}))
    assert rate == pytest.approx((1 - rho**2) * value, rel=1e-9, abs=1e-12)


def test_the_order_parameter_of_two_clusters_is_the_models() -> None:
    rng = np.random.default_rng(7)
    a, b = rng.normal(size=(2, 3))
    a, b = a / np.linalg.norm(a), b / np.linalg.norm(b)
    R = np.linalg.norm((3 * a + 2 * b) / 5)
    assert float(cc.order_parameter(3, 2, sp.Float(float(a @ b)))) == pytest.approx(R, rel=1e-12)
