"""Numerical evidence for Theorem 11: the exact dE/dt against (1/n) sum |xdot|^2 and finite differences."""

from __future__ import annotations

import numpy as np

from checks import model
from checks.config import Configuration
from checks.registry import REGISTRY, Context
from checks.sampling import configuration_record, float_verdict, random_configuration, relative_discrepancy
from checks.verdicts import Outcome

IDENTITY_TOLERANCE = 1e-9
FINITE_DIFFERENCE_TOLERANCE = 1e-5
FINITE_DIFFERENCE_STEP = 1e-3


def flow_step(cfg: Configuration, h: float) -> Configuration:
    """Move along the token velocity by h (then back onto the sphere when the geometry asks)."""
    X = cfg.tokens + h * model.token_velocity(cfg)
    if cfg.geometry == "sphere":
        X = X / np.linalg.norm(X, axis=1, keepdims=True)
    return cfg.moved_to(X)


def central_difference_energy_rate(cfg: Configuration, step: float = FINITE_DIFFERENCE_STEP) -> float:
    """Fourth-order central difference of E along the flow, the step scaled by the top speed.

    Independent of the chain rule: it only evaluates E at displaced (and, on the sphere,
    retracted) states, so it catches a wrong formula for dE/dt.
    """
    h = step / (1.0 + float(np.max(np.linalg.norm(model.token_velocity(cfg), axis=1))))
    e = {k: model.energy(flow_step(cfg, k * h)) for k in (-2, -1, 1, 2)}
    return (e[-2] - 8 * e[-1] + 8 * e[1] - e[2]) / (12 * h)


def check_energy_rate(ctx: Context, geometry: str, coefficient: float = 1.0, heads: str = "symmetric") -> Outcome:
    """dE/dt = coefficient * (1/n) sum |xdot_i|^2 >= 0 at random usa, aligned configurations whose heads
    are `heads` (symmetric by default, as T11 assumes; "general" drops score symmetry, for soundness tests)."""
    rng = ctx.rng(geometry)
    cases = 400 if ctx.thorough else 60
    worst_identity = worst_fd = worst_sign = 0.0
    candidate = None
    for _ in range(cases):
        ctx.check_budget()
        cfg = random_configuration(rng, geometry=geometry, heads=heads)
        xdot = model.token_velocity(cfg)
        exact = model.energy_rate(cfg, xdot)
        claimed = coefficient * float(np.sum(xdot * xdot)) / cfg.n
        floor = 1e-12 * (1.0 + model.energy(cfg))
        identity_gap = relative_discrepancy(exact, claimed, floor)
        fd_gap = relative_discrepancy(exact, central_difference_energy_rate(cfg), floor)
        if identity_gap > worst_identity:
            worst_identity, candidate = identity_gap, configuration_record(cfg)
        worst_fd = max(worst_fd, fd_gap)
        worst_sign = min(worst_sign, claimed)
    method = (
        f"numeric: exact chain-rule dE/dt vs {coefficient:g}*(1/n) sum |xdot|^2 and vs a central "
        f"finite difference (h={FINITE_DIFFERENCE_STEP:g}) at random {geometry} configurations ({heads} heads)"
    )
    details = {
        "max_relative_identity_discrepancy": worst_identity,
        "max_relative_finite_difference_discrepancy": worst_fd,
        "finite_difference_tolerance": FINITE_DIFFERENCE_TOLERANCE,
        "min_claimed_rate": worst_sign,
    }
    worst_margin = -worst_identity
    if worst_fd > FINITE_DIFFERENCE_TOLERANCE:
        worst_margin = min(worst_margin, -worst_fd)
    return float_verdict(method, cases, worst_margin, IDENTITY_TOLERANCE, candidate, details)


@REGISTRY.procedure("T11.energy-rate.spherical", "numeric")
def _spherical(ctx: Context) -> Outcome:
    return check_energy_rate(ctx, "sphere")


@REGISTRY.procedure("T11.energy-rate.flat", "numeric")
def _flat(ctx: Context) -> Outcome:
    return check_energy_rate(ctx, "flat")
