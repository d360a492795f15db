"""Events along a trajectory: a scalar function of the state crossing zero from above.

After each accepted step the integrator evaluates every event; when one has become <= 0 the
crossing time is located by the Illinois variant of regula falsi on the step's dense output
(`Stepper.dense`), which is as accurate as the step itself and costs no velocity evaluations
beyond the extra stages of the continuous extension, computed once per step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration


@dataclass(frozen=True)
class Event:
    """`function(cfg)` is positive before the event and <= 0 at and after it."""

    name: str
    function: Callable[[Configuration], float]
    terminal: bool = True


def cluster_gap_below(tolerance: float, terminal: bool = True) -> Event:
    """Fires when the cluster gap max_{i != j}(1 - <x_i, x_j>) of the tokens attention reads (`field.directions`)
    first falls to `tolerance`."""
    return Event(
        f"cluster_gap<={tolerance:g}", lambda cfg: model.cluster_gap(model.directions(cfg)) - tolerance, terminal
    )


def speed_below(tolerance: float, terminal: bool = True) -> Event:
    """Fires when the largest token speed max_i |xdot_i| falls to `tolerance` (the flow has settled); the speed of
    the directions for the schemes whose residual stream grows (`field.direction_velocity`)."""

    def margin(cfg: Configuration) -> float:
        return float(np.max(np.linalg.norm(model.direction_velocity(cfg), axis=1))) - tolerance

    return Event(f"speed<={tolerance:g}", margin, terminal)


def locate_crossing(
    g: Callable[[float], float], h_low: float, g_low: float, h_high: float, g_high: float, tol: float
) -> float:
    """A root of g on [h_low, h_high] with g_low > 0 >= g_high (Illinois regula falsi)."""
    side = 0
    for _ in range(60):
        h = h_high - g_high * (h_high - h_low) / (g_high - g_low)
        value = g(h)
        if value <= 0:
            h_high, g_high = h, value
            if side == -1:
                g_low *= 0.5
            side = -1
        else:
            h_low, g_low = h, value
            if side == 1:
                g_high *= 0.5
            side = 1
        if h_high - h_low <= tol or value == 0:
            break
    return h_high
