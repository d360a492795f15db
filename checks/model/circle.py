"""The circle (d = 2): tokens as angles, the phase form of the dynamics, and the quantities stated there.

The model's tokens x_i = (cos theta_i, sin theta_i) on S^1. With scalar heads M_h = W_h = lambda_h I the
Post-LN dynamics is, in phases (derived from the model in `headflow.identities.circle`),

    theta_i' = c sum_h lambda_h sum_j w^h_ij sin(theta_j - theta_i),  scores s^h_ij = lambda_h cos(theta_j - theta_i),

with the kind's weights w^h_ij of those scores and c = 1/n (usa), 1 (softmax, relu): for usa and M = I,
theta_i' = (1/n) sum_j e^{beta cos(theta_j - theta_i)} sin(theta_j - theta_i), a Kuramoto model with coupling
e^{beta cos} (`phase_velocity`, tested against the vector model). The order parameter R = |(1/n) sum_j y_j| (the
modulus of the mean of e^{i theta_j} on the circle; of the directions y_j in any d) and the arc spread (the length of
the shortest arc holding every token, d = 2) are model quantities (`headflow.checks.model.observables`).
"""

from __future__ import annotations

import numpy as np
from headflow.certificates.errors import InputError
from headflow.checks.model import field as model
from headflow.checks.model import formulas
from headflow.checks.model.configuration import Configuration


def mean_direction(cfg: Configuration) -> np.ndarray:
    """m = (1/n) sum_j x_j of the tokens attention reads (`field.directions`), shape (d,)."""
    return model.directions(cfg).tokens.mean(axis=0)


def order_parameter(cfg: Configuration) -> float:
    """R = |m|, in [0, 1] on the sphere: 1 when the tokens coincide, 0 when their mean vanishes (equally spaced)."""
    return float(np.linalg.norm(mean_direction(cfg)))


def order_parameter_rate(cfg: Configuration) -> float:
    """dR/dt = <m, mdot> / R where R > 0; at R = 0 the right derivative |mdot| (R cannot fall below 0), with mdot
    the mean of the direction velocities (`field.direction_velocity`)."""
    m = mean_direction(cfg)
    mdot = model.direction_velocity(cfg).mean(axis=0)
    R = float(np.linalg.norm(m))
    return float(np.linalg.norm(mdot)) if R == 0.0 else float(m @ mdot) / R


def angles(cfg: Configuration) -> np.ndarray:
    """theta_i = atan2 of the directions, in (-pi, pi], shape (n,); InputError unless d = 2."""
    if cfg.d != 2:
        raise InputError("d", cfg.d, "angles are defined on the circle, d = 2")
    Y = model.directions(cfg).tokens
    return np.arctan2(Y[:, 1], Y[:, 0])


def arc_spread(cfg: Configuration) -> float:
    """The length of the shortest arc of the circle that holds every token (`arc_spread_of_angles`); d = 2."""
    return arc_spread_of_angles(angles(cfg))


def arc_spread_of_angles(theta: np.ndarray) -> float:
    """2 pi minus the largest gap between consecutive angles (0 when they coincide, 2 pi (n - 1)/n when equally
    spaced), from the angles themselves (any real values: each is read modulo 2 pi)."""
    theta = np.sort(np.mod(np.asarray(theta, dtype=float), 2 * np.pi))
    gaps = np.diff(np.concatenate([theta, theta[:1] + 2 * np.pi]))
    return float(2 * np.pi - np.max(gaps))


def order_parameter_of_angles(theta: np.ndarray) -> float:
    """R = |(1/n) sum_j e^{i theta_j}| from the angles themselves (the phase representation of `order_parameter`)."""
    return float(np.abs(np.mean(np.exp(1j * np.asarray(theta, dtype=float)))))


def tokens_at_angles(theta: np.ndarray) -> np.ndarray:
    """x_i = (cos theta_i, sin theta_i), shape (n, 2)."""
    theta = np.asarray(theta, dtype=float)
    return np.stack([np.cos(theta), np.sin(theta)], axis=1)


def phase_velocity(theta: np.ndarray, lambdas: np.ndarray, beta: float, attention: str) -> np.ndarray:
    """theta_i' of the Post-LN dynamics with scalar heads lambda_h I on the circle, from the phase form (module
    docstring), shape (n,): the phase representation, which the tests compare with the vector model."""
    theta = np.asarray(theta, dtype=float)
    n = theta.size
    difference = theta[None, :] - theta[:, None]  # theta_j - theta_i
    total = np.zeros(n)
    for lam in np.asarray(lambdas, dtype=float):
        score = beta * lam * np.cos(difference)
        if attention not in formulas.KINDS:
            raise InputError("attention", attention, "expected usa, softmax or relu")
        weight = formulas.weights(formulas.numerators(score, attention, shifted=True), attention, n)
        scale = 1.0 / n if attention == "usa" else 1.0  # c of v = c sum_h sum_j w^h_ij W_h x_j
        total += scale * lam * np.sum(weight * np.sin(difference), axis=1)
    return total


def equally_spaced_tokens(n: int, offset: float = 0.0) -> np.ndarray:
    """n tokens at the angles offset + 2 pi k / n on the circle (an equilibrium of every scalar-head scheme)."""
    return tokens_at_angles(offset + 2 * np.pi * np.arange(n) / n)
