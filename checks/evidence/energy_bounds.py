"""Float evidence for the lower bounds on energy rates of Theorem 12 (value misalignment) and Theorem 39
(approximate orthogonality).

The bounds follow from dE/dt = (1/n) sum_i (|xdot_i|^2 - <P⊥ delta_i, xdot_i>) with delta_i = (1/n)
sum_h sum_j exp(beta s^h_ij) Delta_h x_j and |delta_i| <= (1/n) sum_h |Delta_h|_op S^h_i (T12), and from
dE_h/dt = (1/n^3) sum_i (T^h_i + sum_{h' != h}(<f^h_i, f^h'_i> - a^h_i a^h'_i)) with |<f^h_i, f^h'_i>| <=
delta S^h_i S^h'_i (T39); both are compared with the model's exact chain-rule rates at random
configurations, so they are at most CONFIRMED. `delta_factor` scales the correction term so that tests
can state a deliberately wrong bound.
"""

from __future__ import annotations

import numpy as np
from headflow.checks.evidence.cases import Worst, cases
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome

#: Relative tolerance of a bound (rounding of sums of exponentials).
TOLERANCE = 1e-9


def _row_sums(cfg: Configuration) -> np.ndarray:
    """S^h_i = sum_j exp(beta s^h_ij), shape (H, n): the row sums of the usa weights."""
    if cfg.attention != "usa":
        raise ValueError("the bounds of T12 and T39 are stated for usa attention")
    return model.weights(cfg).sum(axis=-1)


def misalignment_margin(cfg: Configuration, delta_factor: float = 1.0) -> tuple[float, float]:
    """(worst margin, scale) of T12's two inequalities, the delta bound scaled by delta_factor.

    delta_i = v_i(W) - v_i(W = M) is taken from the model (velocities with and without Delta);
    margins: dE/dt - (1/n) sum_i |xdot_i| (|xdot_i| - |delta_i|), then, per token,
    delta_factor * (1/n) sum_h |Delta_h|_op S^h_i - |delta_i| (scaled by the speed it multiplies).
    """
    xdot = model.token_velocity(cfg)
    speed = np.linalg.norm(xdot, axis=1)
    aligned = Configuration.create(cfg.tokens, cfg.score_matrices, None, cfg.beta, cfg.attention, cfg.geometry)
    delta = np.linalg.norm(model.velocity(cfg) - model.velocity(aligned), axis=1)
    deltas = np.array([np.linalg.norm(D, 2) for D in cfg.values - cfg.score_matrices])
    delta_bound = delta_factor * (deltas[:, None] * _row_sums(cfg)).sum(axis=0) / cfg.n
    rate = model.energy_rate(cfg, xdot)
    scale = 1.0 + abs(rate) + float(np.sum(speed * np.maximum(delta, delta_bound))) / cfg.n
    first = rate - float(np.sum(speed * (speed - delta))) / cfg.n
    second = float(np.min(speed * (delta_bound - delta))) / cfg.n
    return min(first, second), scale


def approximate_orthogonality_margin(cfg: Configuration, delta_factor: float = 1.0) -> tuple[float, float]:
    """(min_h dE_h/dt - bound_h, scale) for T39 with the delta term scaled by delta_factor."""
    delta = families.max_cross_product_norm(cfg.score_matrices)
    S = _row_sums(cfg)
    cross = S * (S.sum(axis=0, keepdims=True) - S)  # sum_{h' != h} S^h_i S^h'_i
    bracket = model.condition8_margins(cfg) - delta_factor * delta * cross
    bound = bracket.sum(axis=1) / cfg.n**3
    rates = model.head_energy_rates(cfg)
    return float(np.min(rates - bound)), 1.0 + float(np.max(np.abs(rates))) + delta * float(cross.sum()) / cfg.n**3


def check_value_misalignment(ctx: Context, delta_factor: float = 1.0) -> Outcome:
    """T12's bound at random usa, symmetric configurations with W_h = M_h + Delta_h on the sphere."""
    rng = ctx.rng("misalignment")
    worst, positive_cases = Worst.least(np.inf), 0
    for _ in cases(ctx, 150, 600):
        n, H = int(rng.integers(2, 9)), int(rng.integers(1, 4))
        d = int(rng.integers(2, 6))  # d >= 2: on S^0 every velocity vanishes
        M = families.draw_heads("random-symmetric", H, d, rng, {"scale": 1.0})
        Delta = families.draw_heads("random-general", H, d, rng, {"scale": float(rng.choice([1e-3, 1e-2, 0.1, 1.0]))})
        X = families.draw_tokens("random-sphere", n, d, rng, {})
        cfg = Configuration.create(X, M, M + Delta, beta=float(rng.uniform(0.1, 2.0)))
        margin, scale = misalignment_margin(cfg, delta_factor)
        positive_cases += int(margin >= 0)
        worst.update(margin / scale, cfg)
    method = (
        f"numeric: exact chain-rule dE/dt vs (1/n) sum_i |xdot_i|(|xdot_i| - |delta_i|), delta_i = v_i(M + Delta) "
        f"- v_i(M) from the model, and |delta_i| <= {delta_factor:g} * (1/n) sum_h |Delta_h|_op S^h_i, at "
        f"{worst.cases} random usa spherical configurations, W_h = M_h + Delta_h, |Delta_h| from 1e-3 to 1"
    )
    return worst.verdict(method, TOLERANCE, {"cases_with_non_negative_margin": positive_cases})


def check_approximate_orthogonality(ctx: Context, delta_factor: float = 1.0) -> Outcome:
    """T39's bound at random usa configurations whose symmetric heads have max |M_h' M_h|_op = delta."""
    rng = ctx.rng("approximate-orthogonality")
    worst, guaranteed, guaranteed_ok = Worst.least(np.inf), 0, 0
    for _ in cases(ctx, 80, 300):
        H = int(rng.integers(2, 4))
        d = int(rng.integers(H, 7))
        n = int(rng.integers(2, 8))
        delta = float(rng.choice([0.0, 1e-3, 1e-2, 0.1, 0.3]))
        M = families.draw_heads("approximately-orthogonal", H, d, rng, {"delta": delta, "scale": 1.0})
        X = families.draw_tokens("random-sphere", n, d, rng, {})
        cfg = Configuration.create(X, M, beta=float(rng.uniform(0.1, 2.0)))
        margin, scale = approximate_orthogonality_margin(cfg, delta_factor)
        worst.update(margin / scale, cfg)
        S = _row_sums(cfg)
        bracket = model.condition8_margins(cfg) - delta * S * (S.sum(axis=0, keepdims=True) - S)
        covered = bracket.sum(axis=1) >= 0
        guaranteed += int(covered.sum())
        guaranteed_ok += int(np.sum(model.head_energy_rates(cfg)[covered] >= 0))
    method = (
        f"numeric: exact chain-rule dE_h/dt vs (1/n^3) sum_i (T^h_i - sum_h' a^h_i a^h'_i - {delta_factor:g} * delta "
        f"sum_h' S^h_i S^h'_i) at {worst.cases} random usa spherical configurations, "
        "delta in {0, 1e-3, 1e-2, 0.1, 0.3}"
    )
    details = {"heads_with_non_negative_bracket": guaranteed, "of_which_dE_h_dt_non_negative": guaranteed_ok}
    return worst.verdict(method, TOLERANCE, details)
