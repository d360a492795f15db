"""Theorems 12 and 39: lower bounds on energy rates when the hypotheses hold only approximately.

T12 (value misalignment, W_h = M_h + Delta_h): from grad_{x_i} E = (1/n^2) sum_h f^h_i(W = M),
dE/dt = (1/n) sum_i (|xdot_i|^2 - <P⊥ delta_i, xdot_i>) with delta_i = (1/n) sum_h sum_j
exp(beta s^h_ij) Delta_h x_j, hence the catalog's bound with |delta_i| <= (1/n) sum_h |Delta_h|_op S^h_i.
T39 (approximate orthogonality): dE_h/dt = (1/n^3) sum_i (T^h_i + sum_{h' != h}(<f^h_i, f^h'_i> -
a^h_i a^h'_i)) and |<f^h_i, f^h'_i>| <= delta S^h_i S^h'_i. Both bounds are checked against the
model's exact chain-rule rates at random configurations; `delta_factor` scales the correction
term so that tests can state a deliberately wrong bound.
"""

from __future__ import annotations

import numpy as np

from checks import families, model
from checks.config import Configuration
from checks.registry import REGISTRY, Context
from checks.sampling import configuration_record, float_verdict
from checks.verdicts import Outcome

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
    aligned = Configuration.create(cfg.tokens, cfg.scores, None, cfg.beta, cfg.attention, cfg.geometry)
    delta = np.linalg.norm(model.velocity(cfg) - model.velocity(aligned), axis=1)
    deltas = np.array([np.linalg.norm(D, 2) for D in cfg.values - cfg.scores])
    delta_bound = delta_factor * (deltas[:, None] * _row_sums(cfg)).sum(axis=0) / cfg.n
    rate = model.energy_rate(cfg, xdot)
    scale = 1.0 + abs(rate) + float(np.sum(speed * np.maximum(delta, delta_bound))) / cfg.n
    first = rate - float(np.sum(speed * (speed - delta))) / cfg.n
    second = float(np.min(speed * (delta_bound - delta))) / cfg.n
    return min(first, second), scale


def approximate_orthogonality_margin(cfg: Configuration, delta_factor: float = 1.0) -> tuple[float, float]:
    """(min_h dE_h/dt - bound_h, scale) for T39 with the delta term scaled by delta_factor."""
    delta = families.max_cross_product_norm(cfg.scores)
    S = _row_sums(cfg)
    cross = S * (S.sum(axis=0, keepdims=True) - S)  # sum_{h' != h} S^h_i S^h'_i
    bracket = model.condition8_margins(cfg) - delta_factor * delta * cross
    bound = bracket.sum(axis=1) / cfg.n**3
    rates = model.head_energy_rates(cfg)
    return float(np.min(rates - bound)), 1.0 + float(np.max(np.abs(rates))) + delta * float(cross.sum()) / cfg.n**3


def check_value_misalignment(ctx: Context, delta_factor: float = 1.0) -> Outcome:
    """T12's bound at random usa, symmetric configurations with W_h = M_h + Delta_h on the sphere."""
    rng = ctx.rng("misalignment")
    cases = 600 if ctx.thorough else 150
    worst, candidate, positive_cases = np.inf, None, 0
    for _ in range(cases):
        ctx.check_budget()
        n, H = int(rng.integers(2, 9)), int(rng.integers(1, 4))
        d = int(rng.integers(2, 6))  # d >= 2: on S^0 every velocity vanishes
        M = families.random_symmetric_heads(H, d, rng)
        Delta = families.random_general_heads(H, d, rng, float(rng.choice([1e-3, 1e-2, 0.1, 1.0])))
        cfg = Configuration.create(
            families.random_sphere_tokens(n, d, rng), M, M + Delta, beta=float(rng.uniform(0.1, 2.0))
        )
        margin, scale = misalignment_margin(cfg, delta_factor)
        positive_cases += int(margin >= 0)
        if margin / scale < worst:
            worst, candidate = margin / scale, configuration_record(cfg)
    method = (
        f"numeric: exact chain-rule dE/dt vs (1/n) sum_i |xdot_i|(|xdot_i| - |delta_i|), delta_i = v_i(M + Delta) "
        f"- v_i(M) from the model, and |delta_i| <= {delta_factor:g} * (1/n) sum_h |Delta_h|_op S^h_i, at {cases} "
        "random usa spherical configurations, W_h = M_h + Delta_h, |Delta_h| from 1e-3 to 1"
    )
    return float_verdict(method, cases, worst, TOLERANCE, candidate, {"cases_with_non_negative_margin": positive_cases})


def check_approximate_orthogonality(ctx: Context, delta_factor: float = 1.0) -> Outcome:
    """T39's bound at random usa configurations whose symmetric heads have max |M_h' M_h|_op = delta."""
    rng = ctx.rng("approximate-orthogonality")
    cases = 300 if ctx.thorough else 80
    worst, candidate, guaranteed, guaranteed_ok = np.inf, None, 0, 0
    for _ in range(cases):
        ctx.check_budget()
        H = int(rng.integers(2, 4))
        d = int(rng.integers(H, 7))
        n = int(rng.integers(2, 8))
        delta = float(rng.choice([0.0, 1e-3, 1e-2, 0.1, 0.3]))
        M = families.approximately_orthogonal_heads(H, d, delta, rng)
        cfg = Configuration.create(families.random_sphere_tokens(n, d, rng), M, beta=float(rng.uniform(0.1, 2.0)))
        margin, scale = approximate_orthogonality_margin(cfg, delta_factor)
        if margin / scale < worst:
            worst, candidate = margin / scale, configuration_record(cfg)
        S = _row_sums(cfg)
        bracket = model.condition8_margins(cfg) - delta * S * (S.sum(axis=0, keepdims=True) - S)
        covered = bracket.sum(axis=1) >= 0
        guaranteed += int(covered.sum())
        guaranteed_ok += int(np.sum(model.head_energy_rates(cfg)[covered] >= 0))
    method = (
        f"numeric: exact chain-rule dE_h/dt vs (1/n^3) sum_i (T^h_i - sum_h' a^h_i a^h'_i - {delta_factor:g} * delta "
        f"sum_h' S^h_i S^h'_i) at {cases} random usa spherical configurations, delta in {{0, 1e-3, 1e-2, 0.1, 0.3}}"
    )
    details = {"heads_with_non_negative_bracket": guaranteed, "of_which_dE_h_dt_non_negative": guaranteed_ok}
    return float_verdict(method, cases, worst, TOLERANCE, candidate, details)


@REGISTRY.procedure("T12.value-misalignment", "numeric")
def _misalignment(ctx: Context) -> Outcome:
    return check_value_misalignment(ctx)


@REGISTRY.procedure("T39.approximate-orthogonality", "numeric")
def _approximate(ctx: Context) -> Outcome:
    return check_approximate_orthogonality(ctx)
