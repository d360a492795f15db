"""The vectorized model agrees with the loop reference on every quantity, kind and geometry."""

from __future__ import annotations

import numpy as np
import pytest

from certificates.kernel.errors import InputError
from certificates.kernel.vocabulary import ATTENTION_KINDS, GEOMETRIES
from checks.model import families
from checks.model import field as model
from checks.model.configuration import Configuration
from tests.reference_model import Reference


def _config(attention: str, geometry: str, seed: int) -> Configuration:
    rng = np.random.default_rng(seed)
    n, d, H = 4, 3, 2
    X = families.random_sphere_tokens(n, d, rng)
    M = families.random_general_heads(H, d, rng)
    W = families.random_general_heads(H, d, rng)
    return Configuration.create(X, M, W, beta=0.7, attention=attention, geometry=geometry)


@pytest.mark.parametrize("attention", ATTENTION_KINDS)
@pytest.mark.parametrize("geometry", GEOMETRIES)
@pytest.mark.parametrize("seed", [0, 1])
def test_every_quantity_matches_the_loop_reference(attention: str, geometry: str, seed: int) -> None:
    cfg = _config(attention, geometry, seed)
    ref = Reference(cfg.tokens, cfg.score_matrices, cfg.values, cfg.beta, attention, geometry)
    n, H = cfg.n, cfg.H
    close = dict(rtol=1e-10, atol=1e-12)
    assert np.allclose(
        model.scores(cfg), [[[ref.score(h, i, j) for j in range(n)] for i in range(n)] for h in range(H)], **close
    )
    assert np.allclose(
        model.weights(cfg), [[[ref.weight(h, i, j) for j in range(n)] for i in range(n)] for h in range(H)], **close
    )
    assert np.allclose(model.head_outputs(cfg), [[ref.f(h, i) for i in range(n)] for h in range(H)], **close)
    assert np.allclose(model.velocity(cfg), [ref.v(i) for i in range(n)], **close)
    assert np.allclose(model.token_velocity(cfg), [ref.xdot(i) for i in range(n)], **close)
    assert np.allclose(model.head_energies(cfg), [ref.head_energy(h) for h in range(H)], **close)
    assert np.allclose(model.head_energy_rates(cfg), [ref.head_energy_rate(h) for h in range(H)], **close)
    assert np.isclose(model.energy_rate(cfg), sum(ref.head_energy_rate(h) for h in range(H)), **close)
    assert np.allclose(model.radial_shadows(cfg), [[ref.shadow(h, i) for i in range(n)] for h in range(H)], **close)
    assert np.allclose(
        model.tangential_powers(cfg), [[ref.tangential(h, i) for i in range(n)] for h in range(H)], **close
    )
    assert np.allclose(
        model.attention_distributions(cfg),
        [[[ref.p(h, i, j) for j in range(n)] for i in range(n)] for h in range(H)],
        **close,
    )
    assert np.allclose(
        model.attention_entropies(cfg), [[ref.entropy(h, i) for i in range(n)] for h in range(H)], **close
    )
    assert np.allclose(
        model.entropy_rates(cfg), [[ref.entropy_rate(h, i) for i in range(n)] for h in range(H)], rtol=1e-6, atol=1e-8
    )
    assert np.isclose(model.cluster_gap(cfg), ref.cluster_gap(), **close)


def test_condition8_margin_is_power_minus_cross_shadows() -> None:
    cfg = _config("usa", "sphere", 3)
    ref = Reference(cfg.tokens, cfg.score_matrices, cfg.values, cfg.beta, "usa", "sphere")
    expected = [
        [
            ref.tangential(h, i) - sum(ref.shadow(h, i) * ref.shadow(g, i) for g in range(cfg.H) if g != h)
            for i in range(cfg.n)
        ]
        for h in range(cfg.H)
    ]
    assert np.allclose(model.condition8_margins(cfg), expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("beta", [300.0, 1000.0])
def test_softmax_stays_exact_where_exp_of_the_scores_overflows(beta: float) -> None:
    """Scores beyond the unshifted range take the row-max shift; the result still matches the loop reference."""
    rng = np.random.default_rng(4)
    X = families.random_sphere_tokens(5, 3, rng)
    M = families.random_general_heads(2, 3, rng)
    cfg = Configuration.create(X, M, beta=beta, attention="softmax")
    assert np.max(np.abs(beta * model.scores(cfg))) > model.UNSHIFTED_SOFTMAX_BOUND
    ref = Reference(cfg.tokens, cfg.score_matrices, cfg.values, beta, "softmax", "sphere")
    expected = [[ref.f(h, i) for i in range(cfg.n)] for h in range(cfg.H)]
    assert np.allclose(model.head_outputs(cfg), expected, rtol=1e-9, atol=1e-12)
    assert np.allclose(model.weights(cfg).sum(axis=-1), 1.0)
    if np.max(beta * model.scores(cfg)) > 710:
        with pytest.raises(InputError):
            model.token_velocity(Configuration.create(X, M, beta=beta, attention="usa"))
