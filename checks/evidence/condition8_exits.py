"""Where a model trajectory leaves the Condition 8 region: the exit event, Theorem 19's regime, the region's edge.

`model_exit` integrates the numpy model until the least Condition 8 margin (over tokens and heads,
relative to the largest tangential power) first reaches 0, located by an event; `regime_exit` starts
it from orthonormal tokens with heads scale * I (Theorem 19's regime, also used by `headflow sweep`);
`edge_beta` bisects for the largest beta at which Condition 8 holds at a start. Floats only.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np
from headflow.checks.integrator import Event, integrate
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration


@dataclass(frozen=True)
class Exit:
    """Where a model trajectory first left the Condition 8 region (time inf when it did not by t_final)."""

    time: float
    cluster_gap: float
    start_margin: float


def least_margin(cfg: Configuration) -> float:
    """The smallest Condition 8 margin over tokens and heads, relative to the largest tangential power."""
    scale = max(float(np.max(model.tangential_powers(cfg))), 1e-300)
    return float(np.min(model.condition8_margins(cfg))) / scale


def model_exit(cfg: Configuration, t_final: float, rtol: float = 1e-10, max_steps: int = 1_000_000) -> Exit:
    """Integrate the model from `cfg` until the least Condition 8 margin first reaches 0 (event), or t_final (or
    max_steps accepted and rejected steps: then the time is inf, as for a run that stayed inside)."""
    start = least_margin(cfg)
    run = integrate(
        cfg,
        t_final,
        rtol=rtol,
        atol=rtol * 1e-2,
        observables=(),
        events=(Event("condition8", least_margin),),
        keep_states=False,
        max_steps=max_steps,
        backend="numpy",
    )
    if not run.events:
        return Exit(math.inf, model.cluster_gap(run.final), start)
    return Exit(run.events[0][1], model.cluster_gap(run.final), start)


def regime_exit(heads: int, tokens: int, scale: float, beta: float) -> Exit:
    """model_exit from orthonormal tokens (d = n) with heads scale * I: Theorem 19's regime, in floats."""
    cfg = Configuration.create(
        families.orthogonal_tokens(tokens, tokens), families.scalar_heads([scale] * heads, tokens), beta=beta
    )
    rate = 2 * heads * scale / tokens  # d rho/dt >= rate (1 - rho): rho = 1 - 1e-6 is reached by ln(1e6)/rate
    return model_exit(cfg, math.log(1e6) / rate)


def edge_beta(cfg: Configuration, shrink: float = 0.99, highest: float = 64.0) -> float | None:
    """`shrink` times the largest beta in (0, highest] at which Condition 8 holds at every token and head (bisection on
    the model, 40 halvings), or None when it fails already at beta = 1e-6."""

    def inside(beta: float) -> bool:
        return float(np.min(model.condition8_margins(dataclasses.replace(cfg, beta=beta)))) >= 0

    low, high = 1e-6, highest
    if not inside(low):
        return None
    if inside(high):
        return high * shrink
    for _ in range(40):
        mid = math.sqrt(low * high)
        low, high = (mid, high) if inside(mid) else (low, mid)
    return low * shrink
