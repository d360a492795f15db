"""An interaction function together with a mask: weights m_ij phi(s_ij) (softmax: normalized over the unmasked j),
energies (1/(2 n^2)) sum_ij m_ij Phi(s_ij) and their rates, the same in numpy, in balls at exact data and in a loop
written here from the definitions; claims of the combination are decided (a false one refuted with a witness)."""

from __future__ import annotations

import math
import textwrap
from fractions import Fraction

import numpy as np
import pytest
from headflow.certificates import masks as user_masks
from headflow.certificates import model_balls
from headflow.certificates.claims.interaction_text import parse_interaction
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel import ball_model
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration

GENERAL = [[1, 0, 1, 0], [1, 1, 0, 1], [0, 0, 1, 1], [1, 1, 1, 1]]
#: phi with its antiderivative Phi (by hand): the loop reference's energy terms.
PHI = {
    "1 + s**2": (lambda s, b: 1 + s * s, lambda s, b: s + s**3 / 3),
    "s*exp(beta*s)": (lambda s, b: s * math.exp(b * s), lambda s, b: math.exp(b * s) * (b * s - 1) / b**2),
}


@pytest.mark.parametrize(
    ("phi", "attention", "mask", "seed"),
    [
        ("1 + s**2", "usa", "causal", 0),
        ("1 + s**2", "softmax", "general", 1),
        ("s*exp(beta*s)", "usa", "general", 2),
        ("1 + s**2", "softmax", "causal", 3),
    ],
)
def test_numpy_balls_and_a_loop_agree_on_masked_interaction_weights(phi: str, attention: str, mask, seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, d, H, beta = 4, 3, 2, Fraction(3, 4)
    tokens = families.rational_sphere_tokens(n, d, rng)
    heads = [[[Fraction(int(v), 8) for v in row] for row in rng.integers(-8, 9, (d, d))] for _ in range(H)]
    values = [[[Fraction(int(v), 8) for v in row] for row in rng.integers(-8, 9, (d, d))] for _ in range(H)]
    rows = user_masks.mask_of(mask if mask == "causal" else GENERAL, n)
    assert rows is not None
    exact = ball_model.ExactConfiguration(
        tokens, heads, values, beta, "sphere", attention, rows, parse_interaction(phi, attention)
    )
    X, M, W = families.rational_to_float(tokens), np.array(heads, dtype=float), np.array(values, dtype=float)
    cfg = Configuration.create(X, M, W, beta=float(beta), attention=attention, interaction=phi, mask=np.array(rows))
    phi_of, Phi_of = PHI[phi]
    s = np.einsum("id,hde,je->hij", X, M, X)
    w = np.array([[[phi_of(s[h, i, j], 0.75) * rows[i][j] for j in range(n)] for i in range(n)] for h in range(H)])
    if attention == "softmax":
        w /= w.sum(axis=-1, keepdims=True)
    energies = [sum(Phi_of(s[h, i, j], 0.75) * rows[i][j] for i in range(n) for j in range(n)) / (2 * n * n)
                for h in range(H)]  # fmt: skip

    def contains(balls, floats) -> None:
        for ball, value in zip(np.ravel(np.array(balls, dtype=object)), np.ravel(floats), strict=True):
            assert abs(float(ball.mid()) - value) <= 1e-9 * (1 + abs(value)) + float(ball.rad())

    assert np.allclose(model.weights(cfg), w, rtol=1e-12, atol=1e-14)
    assert np.all(model.weights(cfg)[:, ~np.array(rows)] == 0)
    assert np.allclose(model.head_energies(cfg), energies, rtol=1e-12)
    contains(model_balls.attention_weights(exact), w)
    contains(model_balls.head_outputs(exact), model.head_outputs(cfg))
    contains(model_balls.head_energies(exact), model.head_energies(cfg))
    contains(model_balls.head_energy_rates(exact), model.head_energy_rates(cfg))
    assert ball_model.interaction_failures(exact) == []


def test_a_dynamics_claim_states_an_interaction_with_a_mask() -> None:
    text = textwrap.dedent(
        """
        [[claim]]
        id = "d"
        kind = "dynamics"
        quantity = "energy"
        property = "non-decreasing"
        n = 3
        d = 2
        beta = 1
        heads = "random-symmetric"
        tokens = "random-sphere"
        interaction = "1 + s**2"
        mask = [[1, 0, 0], [1, 1, 0], [0, 1, 1]]
        """
    )
    (claim,) = parse_claims(text, "t.toml")
    assert claim.options["interaction"].text == "1 + s**2" and claim.options["mask"][2] == (0, 1, 1)
