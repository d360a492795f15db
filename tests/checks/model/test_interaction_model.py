"""Interaction functions in the numpy model and the ball model: both agree with a loop reference written from the
definitions (phi and Phi as Python functions here), the paper's exp(beta*s) stated as an interaction is the default
model, and floats that leave the range, or normalized weights that are not positive, are clear errors."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from headflow.certificates import model_balls
from headflow.certificates.errors import InputError
from headflow.certificates.kernel import ball_model
from headflow.certificates.provers.witness import round_configuration
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration

#: (text, phi, Phi) with Phi' = phi, written by hand.
CASES = [
    ("s**2", lambda s, b: s * s, lambda s, b: s**3 / 3),
    ("1 + s**2", lambda s, b: 1 + s * s, lambda s, b: s + s**3 / 3),
    ("exp(beta*s) - 1", lambda s, b: math.exp(b * s) - 1, lambda s, b: math.exp(b * s) / b - s),
]


def _config(attention: str, text: str | None, seed: int, geometry: str = "sphere") -> Configuration:
    rng = np.random.default_rng(seed)
    X = families.random_sphere_tokens(4, 3, rng)
    M = families.random_general_heads(2, 3, rng)
    W = families.random_general_heads(2, 3, rng)
    return Configuration.create(X, M, W, beta=0.7, attention=attention, geometry=geometry, interaction=text)


def _reference(cfg: Configuration, phi, Phi):  # type: ignore[no-untyped-def]
    """Velocities, E_h and dE_h/dt by loops over the definitions."""
    X, n, b = cfg.tokens, cfg.n, cfg.beta
    s = np.array([[[X[i] @ M @ X[j] for j in range(n)] for i in range(n)] for M in cfg.score_matrices])
    w = np.array([[[phi(s[h, i, j], b) for j in range(n)] for i in range(n)] for h in range(cfg.H)])
    if cfg.attention == "softmax":
        w = w / w.sum(axis=-1, keepdims=True)
    f = np.array([[sum(w[h, i, j] * (W @ X[j]) for j in range(n)) for i in range(n)] for h, W in enumerate(cfg.values)])
    v = f.sum(axis=0) / (n if cfg.attention == "usa" else 1)
    xdot = np.array([v[i] - (v[i] @ X[i]) * X[i] for i in range(n)]) if cfg.geometry == "sphere" else v
    energies = [sum(Phi(s[h, i, j], b) for i in range(n) for j in range(n)) / (2 * n * n) for h in range(cfg.H)]
    rates = []
    for h, M in enumerate(cfg.score_matrices):
        total = 0.0
        for i in range(n):
            for j in range(n):
                sdot = xdot[i] @ M @ X[j] + X[i] @ M @ xdot[j]
                total += phi(s[h, i, j], b) * sdot
        rates.append(total / (2 * n * n))
    return xdot, np.array(energies), np.array(rates)


@pytest.mark.parametrize(("text", "phi", "Phi"), CASES)
@pytest.mark.parametrize("attention", ["usa", "softmax"])
@pytest.mark.parametrize("geometry", ["sphere", "flat"])
def test_numpy_and_balls_agree_with_the_reference(text, phi, Phi, attention: str, geometry: str) -> None:  # type: ignore[no-untyped-def]
    if attention == "softmax" and text != "1 + s**2":  # normalized weights need phi > 0
        pytest.skip("phi takes values <= 0")
    cfg = _config(attention, text, 3, geometry)
    xdot, energies, rates = _reference(cfg, phi, Phi)
    assert np.allclose(model.token_velocity(cfg), xdot, rtol=1e-10, atol=1e-12)
    assert np.allclose(model.head_energies(cfg), energies, rtol=1e-10, atol=1e-12)
    assert np.allclose(model.head_energy_rates(cfg), rates, rtol=1e-10, atol=1e-12)
    exact = round_configuration(
        cfg.tokens, cfg.score_matrices, cfg.values, cfg.beta, 2**30, symmetric=False, geometry=geometry,
        attention=attention, interaction=cfg.interaction,
    )  # fmt: skip
    rounded = Configuration.create(
        [[float(v) for v in x] for x in exact.tokens],
        [[[float(v) for v in r] for r in M] for M in exact.score_matrices],
        [[[float(v) for v in r] for r in W] for W in exact.values],
        beta=float(exact.beta), attention=attention, geometry=geometry, interaction=text,
    )  # fmt: skip
    balls = [float(e.mid()) for e in model_balls.head_energies(exact)]
    ball_rates = [float(r.mid()) for r in model_balls.head_energy_rates(exact)]
    assert np.allclose(balls, model.head_energies(rounded), rtol=1e-9, atol=1e-12)
    assert np.allclose(ball_rates, model.head_energy_rates(rounded), rtol=1e-8, atol=1e-10)
    assert ball_model.interaction_failures(exact) == []


@pytest.mark.parametrize("attention", ["usa", "softmax"])
def test_the_paper_interaction_stated_is_the_default_model(attention: str) -> None:
    stated, default = _config(attention, "exp(beta*s)", 1), _config(attention, None, 1)
    for quantity in (model.token_velocity, model.head_energies, model.head_energy_rates, model.weights):
        assert np.allclose(quantity(stated), quantity(default), rtol=1e-12, atol=1e-14)


def test_overflow_is_an_input_error_not_inf() -> None:
    rng = np.random.default_rng(0)
    X = families.random_sphere_tokens(3, 2, rng)
    cfg = Configuration.create(X, 40 * np.eye(2)[None], beta=1.0, interaction="exp(s**2)")
    with pytest.raises(InputError, match="not finite"):
        model.velocity(cfg)


def test_normalized_weights_that_are_not_positive_are_refused_at_the_configuration() -> None:
    # phi = s + 11 passes the parse-time grid (s >= -10) but is negative at the score -20 of this configuration
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    cfg = Configuration.create(X, -20 * np.eye(2)[None], beta=1.0, attention="softmax", interaction="s + 11")
    with pytest.raises(InputError, match="phi > 0"):
        model.velocity(cfg)
    exact = round_configuration(cfg.tokens, cfg.score_matrices, cfg.values, 1.0, attention="softmax")
    exact = dataclasses.replace(exact, interaction=cfg.interaction)
    assert ball_model.interaction_failures(exact)


def test_energy_without_antiderivative_is_unavailable() -> None:
    cfg = _config("usa", "exp(-s**2)", 0)
    assert np.isfinite(model.energy_rate(cfg))  # the rate needs phi only
    with pytest.raises(InputError, match="energy is unavailable"):
        model.energy(cfg)
    with pytest.raises(InputError, match="entropies"):
        model.attention_entropies(cfg)
