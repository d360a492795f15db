"""The vectorized model agrees with the loop reference on every quantity, kind and geometry."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from headflow.certificates import masks as user_masks
from headflow.certificates import model_balls
from headflow.certificates.errors import InputError
from headflow.certificates.kernel import ball_model
from headflow.certificates.kernel.vocabulary import ATTENTION_KINDS, GEOMETRIES
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration

from tests.reference_model import Reference

#: The masks the agreement runs with: none, causal, and a general 0/1 mask (ones on the diagonal), for n = 4.
MASKS = {
    "none": None,
    "causal": "causal",
    "general": [[1, 0, 1, 0], [1, 1, 0, 1], [0, 0, 1, 1], [1, 1, 1, 1]],
}


def _config(attention: str, geometry: str, seed: int, beta: float = 0.7, mask: str = "none") -> Configuration:
    rng = np.random.default_rng(seed)
    n, d, H = 4, 3, 2
    X = families.random_sphere_tokens(n, d, rng)
    M = families.random_general_heads(H, d, rng)
    W = families.random_general_heads(H, d, rng)
    return Configuration.create(X, M, W, beta=beta, attention=attention, geometry=geometry, mask=MASKS[mask])


@pytest.mark.parametrize("attention", ATTENTION_KINDS)
@pytest.mark.parametrize("geometry", GEOMETRIES)
@pytest.mark.parametrize(
    ("seed", "beta", "mask"),
    [
        (0, 0.7, "none"),
        (1, 0.7, "none"),
        (2, -0.9, "none"),
        (3, 0.7, "causal"),
        (4, -1.3, "causal"),
        (5, 1.1, "general"),
    ],
)
def test_every_quantity_matches_the_loop_reference(
    attention: str, geometry: str, seed: int, beta: float, mask: str
) -> None:
    """Every kind and geometry, with and without a mask (causal, general), for beta of either sign."""
    cfg = _config(attention, geometry, seed, beta, mask)
    ref = Reference(cfg.tokens, cfg.score_matrices, cfg.values, cfg.beta, attention, geometry, cfg.mask)
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


def test_queries_and_keys_give_the_scores_q_x_dot_k_x() -> None:
    """M_h = Q_h^T K_h: s^h_ij = <Q_h x_i, K_h x_j> with a rectangular Q, K (r = 2 < d = 3), checked by loops."""
    rng = np.random.default_rng(7)
    X = families.random_sphere_tokens(4, 3, rng)
    Q, K = rng.standard_normal((2, 2, 3)), rng.standard_normal((2, 2, 3))
    cfg = Configuration.create(X, queries=Q, keys=K, beta=0.5)
    expected = [[[float((Q[h] @ X[i]) @ (K[h] @ X[j])) for j in range(4)] for i in range(4)] for h in range(2)]
    assert np.allclose(model.scores(cfg), expected, rtol=1e-12, atol=1e-12)
    assert np.array_equal(cfg.values, cfg.score_matrices)  # values default to W = M = Q^T K


def test_a_mask_changes_the_model_and_the_unmasked_rows_do_not() -> None:
    """The causal mask is not ignored: the first token's output is its own value only, and a full mask of ones
    is the unmasked model."""
    plain = _config("softmax", "sphere", 8)
    causal = _config("softmax", "sphere", 8, mask="causal")
    ones = Configuration.create(plain.tokens, plain.score_matrices, plain.values, beta=0.7, attention="softmax",
                                mask=np.ones((4, 4), dtype=int))  # fmt: skip
    assert not np.allclose(model.velocity(plain), model.velocity(causal))
    assert np.allclose(model.head_outputs(causal)[:, 0], plain.tokens[0] @ np.swapaxes(plain.values, 1, 2))
    assert np.allclose(model.velocity(ones), model.velocity(plain), rtol=1e-13, atol=1e-15)


def test_the_usa_energy_is_undefined_at_beta_zero() -> None:
    cfg = _config("softmax", "sphere", 9, beta=0.0)
    assert np.allclose(model.weights(cfg), 0.25)  # uniform softmax weights at beta = 0
    with pytest.raises(InputError, match="undefined at beta = 0"):
        model.energy(cfg)
    assert model.energy(_config("usa", "sphere", 9, beta=-1.0)) < 0  # E < 0 for repulsive attention


@pytest.mark.parametrize("attention", ATTENTION_KINDS)
@pytest.mark.parametrize(("beta", "mask"), [(Fraction(-3, 4), None), (Fraction(5, 4), "causal"),
                                            (Fraction(-1, 2), "general")])  # fmt: skip
def test_the_ball_model_agrees_with_numpy_on_masks_and_repulsion(attention: str, beta: Fraction, mask) -> None:
    """Exact rational data with a mask and beta of either sign: balls (ball_model) contain the numpy values."""
    rng = np.random.default_rng(11)
    tokens = families.rational_sphere_tokens(4, 3, rng)
    heads = [[[Fraction(int(v), 8) for v in row] for row in rng.integers(-8, 9, (3, 3))] for _ in range(2)]
    values = [[[Fraction(int(v), 8) for v in row] for row in rng.integers(-8, 9, (3, 3))] for _ in range(2)]
    rows = user_masks.mask_of(MASKS.get(mask, mask), 4)
    exact = ball_model.ExactConfiguration(tokens, heads, values, beta, "sphere", attention, rows)
    cfg = Configuration.create(
        families.rational_to_float(tokens), np.array(heads, dtype=float), np.array(values, dtype=float),
        beta=float(beta), attention=attention, mask=None if rows is None else np.array(rows),
    )  # fmt: skip

    def contains(balls, floats) -> None:
        for ball, value in zip(np.ravel(np.array(balls, dtype=object)), np.ravel(floats), strict=True):
            assert abs(float(ball.mid()) - value) <= 1e-9 * (1 + abs(value)) + float(ball.rad())

    contains(model_balls.head_outputs(exact), model.head_outputs(cfg))
    contains(model_balls.head_energies(exact), model.head_energies(cfg))
    contains(model_balls.head_energy_rates(exact), model.head_energy_rates(cfg))
    contains(model_balls.attention_entropies(exact), model.attention_entropies(cfg))
    contains(model_balls.entropy_rates(exact), model.entropy_rates(cfg))


@pytest.mark.parametrize(
    ("values", "identity", "spd"),
    [
        ([[1, 0], [0, 1]], True, True),
        ([[2, 1], [1, 1]], False, True),
        ([[1, 2], [2, 1]], False, False),  # symmetric, indefinite (det -3)
        ([[1, 1], [0, 1]], False, False),  # not symmetric
        ([[1, 0], [0, 0]], False, False),  # semi-definite only
    ],
)
def test_value_hypotheses_are_checked_exactly(values, identity: bool, spd: bool) -> None:
    W = [[Fraction(v) for v in row] for row in values]
    exact = ball_model.ExactConfiguration([[Fraction(1), Fraction(0)]] * 2, [W], [W], Fraction(1))
    assert ball_model.HYPOTHESES["identity-values"](exact) is identity
    assert ball_model.HYPOTHESES["spd-values"](exact) is spd
