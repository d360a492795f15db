"""The float and ball interpretations of model terms agree on the same exact data (one meaning, two number types)."""

from __future__ import annotations

import numpy as np
import pytest
from headflow.certificates.claims.model_algebra import evaluate
from headflow.certificates.claims.model_claim import parse_term
from headflow.certificates.kernel.exact import precision
from headflow.certificates.model_balls import term_ball
from headflow.certificates.provers.witness import round_configuration
from headflow.certificates.statements.model import kernel_statement
from headflow.checks.evidence.model_witnesses import float_algebra
from headflow.checks.model.configuration import Configuration
from headflow.checks.model.families import rational_to_float

TERMS = (
    "dE_dt - sum_i(norm2(xdot_i)) / n",
    "sum_h(E_h) + beta * d * H",
    "T_h_i - a_h_i * A_h_i",
    "inner(proj(f_h_i), x_i) + norm2(v_i)",
    "entropy_h_i + entropy_rate_h_i",
    "dE_h_dt",
)


@pytest.mark.parametrize("attention", ["usa", "softmax", "relu"])
@pytest.mark.parametrize("text", TERMS)
def test_float_and_ball_values_agree(attention: str, text: str) -> None:
    rng = np.random.default_rng(7)
    X = rng.normal(size=(4, 3))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    M, W = rng.normal(size=(2, 3, 3)), rng.normal(size=(2, 3, 3))
    exact = round_configuration(X, M, W, 1.5, symmetric=False, attention=attention)
    tokens = rational_to_float(exact.tokens)
    heads = np.array([[[float(v) for v in row] for row in m] for m in exact.score_matrices])
    values = np.array([[[float(v) for v in row] for row in w] for w in exact.values])
    cfg = Configuration.create(tokens, heads, values, beta=float(exact.beta), attention=attention)
    term = parse_term(text)
    with precision(128):
        ball = term_ball(term, exact, 1, 0)
        value = float(evaluate(term, float_algebra(cfg), 1, 0))
        assert abs(float(ball.mid()) - value) <= 1e-9 * (1 + abs(value))
        assert float(ball.rad()) < 1e-20


def test_scalar_strengths_are_free_data_of_the_search_and_stay_where_floats_are_accurate() -> None:
    """`scalar-heads` states a claim for every lambda_h > 0: the search moves the strengths (as log lambda_h), keeps
    the heads scalar, and never past |beta| lambda = MAX_SCALED_STRENGTH, where a token's own weight e^(beta lambda)
    swamps the float velocity (tests/soundness/test_scalar_strengths.py shows the noise)."""
    from headflow.checks.evidence import adversarial

    X = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]])
    M = np.array([0.5 * np.eye(2), 2.0 * np.eye(2)])
    cfg = Configuration.create(X, M, np.array([np.eye(2)] * 2), beta=2.0)
    family = adversarial.Family(lambda rng: cfg, True, "scalar")
    p = adversarial._parameters(family, cfg)
    assert p.size == X.size + 2 and np.allclose(np.exp(p[-2:]), [0.5, 2.0])
    p[-2:] = [np.log(0.1), 30.0]  # e^30 is far past MAX_SCALED_STRENGTH / |beta|
    moved = adversarial._decode(family, cfg, p)
    assert moved is not None
    strengths = moved.score_matrices[:, 0, 0]
    assert np.allclose(strengths, [0.1, adversarial.MAX_SCALED_STRENGTH / 2.0])
    assert np.array_equal(moved.score_matrices, strengths[:, None, None] * np.eye(2))
    assert np.array_equal(moved.values, cfg.values)  # identity values stay the identity


def test_near_zero_float_violations_are_told_from_rounding_noise_by_balls() -> None:
    """Two tokens at one point are an equilibrium (dE/dt = 0 exactly): the float dE/dt was noise of either sign past
    the violation threshold at |beta| lambda near 8, and is none now (issue 39). A true violation as
    small (dE/dt < 0 with W = I, the circle's pair at the edge of its window) is not."""
    from headflow.certificates.claims.loader import parse_claims
    from headflow.checks.evidence import adversarial, model_witnesses
    from headflow.checks.model import families

    def claim(values: str) -> object:
        lines = ["[[claim]]", 'id = "e"', 'kind = "model"', f'assume = ["scalar-heads", "{values}"]']
        return parse_claims("\n".join([*lines, 'lhs = "dE_dt"', 'op = ">="', 'rhs = "0"']))[0]

    aligned, identity = claim("aligned-values"), claim("identity-values")
    rng = np.random.default_rng(0)
    noisy = []
    for _ in range(200):
        x = rng.standard_normal(3)
        x /= np.linalg.norm(x)
        strengths = np.exp(rng.uniform(0.0, np.log(8 / 0.3), size=3))
        cfg = Configuration.create(np.array([x, x]), families.scalar_heads(strengths, 3), beta=0.3)
        if model_witnesses.margin(aligned, cfg)[0].value < -adversarial.VIOLATION:
            noisy.append(cfg)
    assert not noisy  # repeated tokens: their differences are exactly 0 in the float model too (issue 39)

    def circle(t: float) -> Configuration:
        angles = np.array([0.0, 0.0, t, -t])
        X = np.stack([np.cos(angles), np.sin(angles)], axis=1)
        M, W = families.scalar_heads([0.02, 3.0], 2), families.value_matrices("identity", 2, 2, None)
        return Configuration.create(X, M, W, beta=1.0)

    low, high = np.deg2rad(120.0), np.deg2rad(127.0)  # dE/dt > 0 at 120 degrees, < 0 at 127
    for _ in range(60):
        middle = (low + high) / 2
        low, high = (
            (middle, high) if model_witnesses.margin(identity, circle(middle))[0].value > -1e-7 else (low, middle)
        )
    small = circle(high)
    assert -model_witnesses.NOISE_BAND < model_witnesses.margin(identity, small)[0].value < -adversarial.VIOLATION
    draws = model_witnesses.Draws.of(identity.hypotheses)
    exact = model_witnesses._exact(small, draws, model_witnesses.NOISE_DENOMINATOR)
    assert not model_witnesses._noise(kernel_statement(identity), exact, {})
