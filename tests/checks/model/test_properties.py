"""Property tests of the model and of the configuration families."""

from __future__ import annotations

import math

import numpy as np
from headflow.checks.evidence.energy_rates import central_difference_energy_rate
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from hypothesis import given, settings
from hypothesis import strategies as st

seeds = st.integers(0, 2**32 - 1)
kinds = st.sampled_from(["usa", "softmax", "relu"])


def _random(seed: int, attention: str = "usa", geometry: str = "sphere", general: bool = True) -> Configuration:
    rng = np.random.default_rng(seed)
    n, d, H = int(rng.integers(2, 7)), int(rng.integers(1, 5)), int(rng.integers(1, 4))
    X = families.random_sphere_tokens(n, d, rng)
    heads = families.random_general_heads if general else families.random_symmetric_heads
    return Configuration.create(
        X, heads(H, d, rng), beta=float(rng.uniform(0.1, 2)), attention=attention, geometry=geometry
    )


@settings(max_examples=40, deadline=None)
@given(seeds, kinds)
def test_token_velocities_are_tangent_on_the_sphere(seed: int, attention: str) -> None:
    cfg = _random(seed, attention)
    xdot = model.token_velocity(cfg)
    assert np.allclose(np.sum(xdot * cfg.tokens, axis=1), 0.0, atol=1e-10 * (1 + np.abs(xdot).max()))


@settings(max_examples=40, deadline=None)
@given(seeds, kinds, st.sampled_from(["sphere", "flat"]))
def test_energy_rate_matches_its_finite_difference(seed: int, attention: str, geometry: str) -> None:
    """Within 10^-6 relatively, up to the finite difference's rounding: its stencil sums E at four states over 12 h
    (h <= 10^-3), about 2 10^-13 E of float error, and E itself is a sum of n^2 terms; 10^-11 (1 + E) bounds both
    (a rate of 5 10^-9 at E = 0.37, relu on the line, differed by 8 10^-15 from its difference quotient)."""
    cfg = _random(seed, attention, geometry)
    exact, difference = model.energy_rate(cfg), central_difference_energy_rate(cfg)
    assert abs(exact - difference) <= 1e-6 * max(abs(exact), abs(difference)) + 1e-11 * (1 + model.energy(cfg))


@settings(max_examples=40, deadline=None)
@given(seeds)
def test_entropies_lie_between_zero_and_log_n(seed: int) -> None:
    cfg = _random(seed)
    entropies = model.attention_entropies(cfg)
    assert np.all(entropies >= -1e-12)
    assert np.all(entropies <= math.log(cfg.n) + 1e-12)


@settings(max_examples=30, deadline=None)
@given(seeds, st.integers(1, 5), st.integers(0, 4))
def test_orthogonal_subspace_heads_have_exactly_zero_cross_products(seed: int, H: int, extra: int) -> None:
    M = families.orthogonal_subspace_heads(H, H + extra, np.random.default_rng(seed))
    for g in range(H):
        assert np.array_equal(M[g], M[g].T)
        for h in range(H):
            if g != h:
                assert not np.any(M[g] @ M[h])


@settings(max_examples=30, deadline=None)
@given(seeds, st.integers(2, 6), st.floats(-0.15, 0.95))
def test_equiangular_tokens_have_the_requested_gram(seed: int, n: int, rho: float) -> None:
    X = families.equiangular_tokens(n, n + 1, rho, np.random.default_rng(seed))
    G = X @ X.T
    assert np.allclose(np.diag(G), 1.0)
    assert np.allclose(G[~np.eye(n, dtype=bool)], rho, atol=1e-10)


@settings(max_examples=30, deadline=None)
@given(seeds, st.integers(2, 6))
def test_orthogonal_tokens_are_orthonormal(seed: int, n: int) -> None:
    X = families.orthogonal_tokens(n, n + 2, np.random.default_rng(seed))
    assert np.allclose(X @ X.T, np.eye(n))


@settings(max_examples=30, deadline=None)
@given(seeds, st.integers(2, 5), st.integers(2, 5))
def test_rational_sphere_tokens_are_exactly_unit(seed: int, n: int, d: int) -> None:
    points = families.rational_sphere_tokens(n, d, np.random.default_rng(seed))
    assert all(sum(v * v for v in p) == 1 for p in points)


@settings(max_examples=15, deadline=None)
@given(seeds, st.floats(1e-3, 0.5))
def test_approximately_orthogonal_heads_reach_the_requested_delta(seed: int, delta: float) -> None:
    M = families.approximately_orthogonal_heads(3, 6, delta, np.random.default_rng(seed))
    assert abs(families.max_cross_product_norm(M) - delta) <= 1e-6 * max(delta, 1e-3)


def test_scalar_heads_are_multiples_of_the_identity() -> None:
    M = families.scalar_heads([0.5, 2.0], 3)
    assert np.array_equal(M[1], 2.0 * np.eye(3))


def test_families_are_reproducible_from_the_seed() -> None:
    a = families.random_sphere_tokens(5, 3, np.random.default_rng(7))
    b = families.random_sphere_tokens(5, 3, np.random.default_rng(7))
    assert np.array_equal(a, b)
