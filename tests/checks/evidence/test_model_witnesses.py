"""The float and ball interpretations of model terms agree on the same exact data (one meaning, two number types)."""

from __future__ import annotations

import numpy as np
import pytest

from certificates.kernel.claims.model_terms import evaluate, parse_term
from certificates.kernel.claims.model_values import ball_algebra
from certificates.kernel.exact import precision
from certificates.provers.witness import round_configuration
from checks.evidence.model_witnesses import float_algebra
from checks.model.configuration import Configuration
from checks.model.families import rational_to_float

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
        ball = evaluate(term, ball_algebra(exact), 1, 0)
        value = float(evaluate(term, float_algebra(cfg), 1, 0))
        assert abs(float(ball.mid()) - value) <= 1e-9 * (1 + abs(value))
        assert float(ball.rad()) < 1e-20
