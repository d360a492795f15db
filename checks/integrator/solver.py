"""The one entry point `integrate(cfg, t_final, ...)`: adaptive DP5(4) along the model's dynamics.

The right-hand side is `model.token_velocity(cfg.moved_to(X))`, vectorized over tokens.

Sphere: after each accepted step every row is divided by its norm (a retraction). The exact
flow keeps |x_i| = 1, and a Runge-Kutta step leaves it only by the local error, so the
normalization moves the state by O(h^6): it keeps |x_i| = 1 to rounding over arbitrarily long
runs (no drift accumulates) without lowering the order of the method. It acts row by row and is
a fixed point on the sphere, so it does not reorder or mix tokens. The error estimate is taken
before the retraction, and the FSAL velocity is reused at the retracted state: the two differ by
O(h^6) times a Lipschitz constant, below the local error. Flat dynamics: no retraction.

A trial step whose stages leave the finite range (an exp overflow, a non-finite state) is rejected
and retried with a smaller step. When the step size underflows (a flat run that blows up in finite
time, or a stiff one), the run raises IntegrationFailure, an InputError that carries the trajectory
of the interval actually integrated, [0, t_reached]: its records and the last state reached.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from checks import model
from checks.config import Configuration
from checks.errors import InputError
from checks.integrator.controller import Controller, PIController, error_norm
from checks.integrator.events import Event, locate_crossing
from checks.integrator.recorder import DEFAULT_OBSERVABLES, Recorder
from checks.integrator.tableau import ORDER, dormand_prince_step


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


class _Flow:
    """The vector field of one configuration's dynamics, counting its evaluations."""

    def __init__(self, cfg: Configuration) -> None:
        self.cfg = cfg
        self.evaluations = 0

    def __call__(self, X: np.ndarray) -> np.ndarray:
        self.evaluations += 1
        return model.token_velocity(self.cfg.moved_to(X))

    def retract(self, X: np.ndarray) -> np.ndarray:
        if self.cfg.geometry != "sphere":
            return X
        return X / np.linalg.norm(X, axis=1, keepdims=True)


def integrate(
    cfg: Configuration,
    t_final: float,
    *,
    rtol: float = 1e-8,
    atol: float = 1e-10,
    record_times: Sequence[float] | np.ndarray | None = None,
    observables: Sequence[str] = DEFAULT_OBSERVABLES,
    events: Sequence[Event] = (),
    controller: Controller | None = None,
    first_step: float | None = None,
    max_steps: int = 1_000_000,
    keep_states: bool = True,
    on_record: Callable[[float], None] | None = None,
) -> Trajectory:
    """Integrate the dynamics of `cfg` from t = 0 to `t_final` (or a terminal event).

    `record_times`: times in [0, t_final] at which the observables are recorded (steps land on
    them exactly); None records t = 0 and every accepted step. The end state is always recorded.
    """
    t_final = _positive("t_final", t_final)
    rtol, atol = _positive("rtol", rtol), _positive("atol", atol)
    pending = _record_grid(record_times, t_final)
    flow = _Flow(cfg)
    recorder = Recorder(tuple(observables), keep_states)
    controller = controller or PIController()
    y = flow.retract(np.array(cfg.tokens, dtype=float))
    k = flow(y)
    given = first_step is not None
    h = _positive("first_step", first_step) if given else _initial_step(flow, y, k, rtol, atol, t_final)
    t, accepted, rejected, fired, status = 0.0, 0, 0, [], "completed"
    g_old = [e.function(cfg.moved_to(y)) for e in events]

    def save(time: float, state: np.ndarray) -> None:
        recorder.record(time, cfg.moved_to(state))
        if on_record is not None:
            on_record(time)

    if record_times is None or (pending and pending[0] == 0.0):
        save(0.0, y)
        pending = pending[1:] if pending and pending[0] == 0.0 else pending
    while t < t_final:
        if accepted + rejected >= max_steps:
            status = "max_steps"
            break
        target = min(t_final, pending[0]) if pending else t_final
        h_try = target - t if h >= (target - t) * (1.0 - 1e-9) else h  # no sliver step before a target
        if h_try <= 16 * np.finfo(float).eps * max(1.0, abs(t)):
            status = "step size underflow"
            break
        try:
            step = dormand_prince_step(flow, y, k, h_try)
        except InputError:  # a stage overflowed or left the finite range: a shorter step may stay inside
            rejected, h = rejected + 1, h_try * NON_FINITE_SHRINK
            continue
        ok, h_next = controller.decide(h_try, error_norm(step.error, y, step.state, rtol, atol))
        if not ok:
            rejected, h = rejected + 1, h_next
            continue
        accepted += 1
        y_new = flow.retract(step.state)
        g_new = [e.function(cfg.moved_to(y_new)) for e in events]
        hit = [i for i, (a, b) in enumerate(zip(g_old, g_new, strict=True)) if a > 0 >= b]
        stop = None
        for h_event, i in _located(flow, y, k, h_try, events, hit, g_old, g_new):
            fired.append((events[i].name, t + h_event))
            if events[i].terminal:
                stop = (h_event, i)
                break
        if stop is not None:
            h_event, i = stop
            y = y_new if h_event >= h_try else flow.retract(dormand_prince_step(flow, y, k, h_event).state)
            t, status = t + h_event, f"event:{events[i].name}"
            break
        landed = h_try == target - t
        t = target if landed else t + h_try
        y, k, g_old = y_new, step.last_stage, g_new
        h = max(h, h_next) if h_try < h else h_next  # a step shortened to land does not shrink h
        if landed and pending and target == pending[0]:
            pending = pending[1:]
            save(t, y)
        elif record_times is None:
            save(t, y)
    if not recorder.times or recorder.times[-1] != t:
        save(t, y)
    times, states, values = recorder.arrays()
    run = Trajectory(times, states, values, fired, cfg.moved_to(y), t, status, flow.evaluations, accepted, rejected)
    if status == "step size underflow":
        raise IntegrationFailure(run, "step size underflow: the dynamics is too stiff or blows up")
    return run


def _located(
    flow: _Flow,
    y: np.ndarray,
    k: np.ndarray,
    h: float,
    events: Sequence[Event],
    hit: list[int],
    g_old: list[float],
    g_new: list[float],
) -> list[tuple[float, int]]:
    """(offset within the step, event index) of every event that fired in the step, earliest first."""
    located = []
    for i in hit:

        def g(s: float, i: int = i) -> float:
            state = flow.retract(dormand_prince_step(flow, y, k, s).state)
            return events[i].function(flow.cfg.moved_to(state))

        located.append((locate_crossing(g, 0.0, g_old[i], h, g_new[i], 1e-13 * max(h, 1.0)), i))
    return sorted(located)


def _initial_step(flow: _Flow, y: np.ndarray, k: np.ndarray, rtol: float, atol: float, t_final: float) -> float:
    """Hairer's starting step: from the sizes of y, f(y) and a finite-difference second derivative."""
    scale = atol + rtol * np.abs(y)
    d0 = float(np.sqrt(np.mean((y / scale) ** 2)))
    d1 = float(np.sqrt(np.mean((k / scale) ** 2)))
    h0 = 1e-6 if d0 < 1e-5 or d1 < 1e-5 else 0.01 * d0 / d1
    k1 = flow(y + h0 * k)
    d2 = float(np.sqrt(np.mean(((k1 - k) / scale) ** 2))) / h0
    h1 = max(1e-6, h0 * 1e-3) if max(d1, d2) <= 1e-15 else (0.01 / max(d1, d2)) ** (1.0 / ORDER)
    return min(100 * h0, h1, t_final)


def _record_grid(record_times: Sequence[float] | np.ndarray | None, t_final: float) -> list[float]:
    if record_times is None:
        return []
    grid = np.asarray(record_times, dtype=float)
    if grid.ndim != 1 or not np.all(np.isfinite(grid)) or np.any(grid < 0) or np.any(grid > t_final):
        raise InputError("record_times", "...", f"expected finite times in [0, {t_final:g}]")
    return sorted(set(grid.tolist()))


def _positive(name: str, value: float) -> float:
    number = float(value)
    if not math.isfinite(number) or number <= 0:
        raise InputError(name, value, "must be positive and finite")
    return number
