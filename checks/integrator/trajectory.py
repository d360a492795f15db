"""What both engines of `integrate` share beyond the tableaus and the controller: the trajectory they return, the
failure they raise, the retraction after each step, the shrink of a step that left the finite range, Hairer's
starting step, the steps that reach the end (`trial_step`) and the grid of record times (`solver` is the numpy
engine, `jax_solver` the jitted one)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType

import numpy as np
from headflow.certificates.errors import InputError
from headflow.certificates.vocabulary import SPHERICAL_GEOMETRIES
from headflow.checks.model.configuration import Configuration


@dataclass
class Trajectory:
    """What a run produced: records, fired events, the final configuration, counts, status."""

    times: np.ndarray
    states: np.ndarray | None
    observables: dict[str, np.ndarray]
    events: list[tuple[str, float]]
    final: Configuration
    t_end: float
    status: str
    evaluations: int
    accepted: int
    rejected: int
    method: str
    #: The engine that ran: "numpy" or "jax" (what backend "auto" chose, `backends.chosen`).
    backend: str = "numpy"


class IntegrationFailure(InputError):
    """The run could not go past `partial.t_end` < t_final; `partial` holds the records of [0, t_end] and
    the last state reached (status "step size underflow")."""

    def __init__(self, partial: Trajectory, reason: str) -> None:
        super().__init__("t", partial.t_end, reason)
        self.partial = partial

    @property
    def t_reached(self) -> float:
        """The end of the interval actually integrated."""
        return self.partial.t_end


#: Shrink factor of a trial step whose stages left the finite range.
NON_FINITE_SHRINK = 0.2
#: How much longer than the controller's proposal a step may be when that saves one step before the end
#: (`trial_step`; Hairer's DOP853 stretches its last step by up to 1.01, scipy's solve_ivp not at all).
END_STRETCH = 1.1


def retract(X: np.ndarray, geometry: str, xp: ModuleType = np) -> np.ndarray:
    """The state after a step: on the sphere every row divided by its norm, else X itself (module docstring);
    `xp` the array namespace (jax.numpy in the jitted backend, which shares this rule)."""
    if geometry not in SPHERICAL_GEOMETRIES:
        return X
    return X / xp.linalg.norm(X, axis=1, keepdims=True)


def initial_step(
    f: Callable[[np.ndarray], np.ndarray],
    y: np.ndarray,
    k: np.ndarray,
    order: int,
    rtol: float,
    atol: float,
    t_final: float,
    xp: ModuleType = np,
) -> float:
    """Hairer's starting step: from the sizes of y, k = f(y) and a finite-difference second derivative (one more
    evaluation of f); `order` the method's. `xp` the array namespace: jax.numpy inside the jitted backend's first
    segment (a traced scalar is returned), which takes its first step by this rule too."""
    scale = atol + rtol * xp.abs(y)
    d0 = xp.sqrt(xp.mean((y / scale) ** 2))
    d1 = xp.sqrt(xp.mean((k / scale) ** 2))
    h0 = xp.where((d0 < 1e-5) | (d1 < 1e-5), 1e-6, 0.01 * d0 / xp.maximum(d1, 1e-5))
    k1 = f(y + h0 * k)
    d2 = xp.sqrt(xp.mean(((k1 - k) / scale) ** 2)) / h0
    largest = xp.maximum(d1, d2)
    h1 = xp.where(largest <= 1e-15, xp.maximum(1e-6, h0 * 1e-3), (0.01 / xp.maximum(largest, 1e-15)) ** (1.0 / order))
    h = xp.minimum(xp.minimum(100 * h0, h1), t_final)
    return float(h) if xp is np else h


def trial_step(h: float, remaining: float, xp: ModuleType = np) -> float:
    """The step to try when the controller proposes h and `remaining` is left to the end: the remaining interval
    cut into equal steps, as many as steps of h would need (ceil(remaining / h)), or one fewer when the steps then
    stay within END_STRETCH h (one step of exactly `remaining` when it fits).

    Why: cutting at h would end the run on a sliver or short step while the steps before it took the whole error
    budget; equal steps spend no more steps, each at most the proposed one (longer, by at most END_STRETCH, only
    where that saves one step), so a run is as cheap or cheaper and more accurate, and reaches a target error at
    a looser tolerance (`benchmarks/peers.py`). `xp` the array namespace (jax.numpy in the jitted backend, which
    takes the same steps)."""
    steps = xp.ceil(remaining / h)
    steps = xp.where((steps > 1.0) & (remaining <= (steps - 1.0) * END_STRETCH * h), steps - 1.0, steps)
    return xp.where(steps <= 1.0, remaining, remaining / steps)


def record_grid(record_times: Sequence[float] | np.ndarray | None, t_final: float) -> list[float]:
    if record_times is None:
        return []
    grid = np.asarray(record_times, dtype=float)
    if grid.ndim != 1 or not np.all(np.isfinite(grid)) or np.any(grid < 0) or np.any(grid > t_final):
        raise InputError("record_times", "...", f"expected finite times in [0, {t_final:g}]")
    return sorted(set(grid.tolist()))
