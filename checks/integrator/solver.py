"""The one entry point `integrate(cfg, t_final, ...)`: an adaptive explicit Runge-Kutta pair along the model's dynamics.

The right-hand side is `model.velocity_function(cfg)` (`token_velocity` with one workspace per run). The pair
is DP5(4) or DOP853 (`methods`: `auto` chooses from rtol and the attention kind), stepped by
`stepper.Stepper` under the PI controller, which also keeps each step inside the pair's stability
interval at the stiffness estimated in the last step (`controller`); records and events between
steps come from the pair's dense output, so recording at many times does not shorten the steps. The remaining
interval is stepped in equal steps (`trajectory.trial_step`): no sliver or short step at the end. The velocity at
the end state (DOP853's FSAL stage, evaluated once a step is accepted) is left out after the last step when no
event or record inside that step needs the step's dense output (as in the jitted backend).

Sphere: after each step every row is divided by its norm (a retraction). The exact flow keeps
|x_i| = 1, and a Runge-Kutta step leaves it only by the local error, so the normalization moves
the state by O(h^(p+1)): it keeps |x_i| = 1 to rounding over arbitrarily long runs (no drift
accumulates) without lowering the order p of the method, for every tableau. It acts row by row
and is a fixed point on the sphere, so it does not reorder or mix tokens. The velocity that
starts the next step is evaluated at the retracted state, and interpolated states are retracted
too (nGPT's tokens too). Flat dynamics and the residual streams of pre-ln, peri-ln and mix-ln: no retraction.

A trial step whose stages leave the finite range (an exp overflow, a non-finite state) is rejected
and retried with a smaller step. When the step size underflows (a flat run that blows up in finite
time, or a stiff one), the run raises IntegrationFailure, an InputError that carries the trajectory
of the interval actually integrated, [0, t_reached]: its records and the last state reached.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from headflow.certificates.errors import InputError
from headflow.checks.choices import BACKENDS
from headflow.checks.integrator.backends import chosen
from headflow.checks.integrator.controller import Controller, PIController, error_norm
from headflow.checks.integrator.events import Event, locate_crossing
from headflow.checks.integrator.methods import tableau_for
from headflow.checks.integrator.recorder import DEFAULT_OBSERVABLES, Recorder
from headflow.checks.integrator.stepper import Stepper
from headflow.checks.integrator.trajectory import (
    NON_FINITE_SHRINK,
    IntegrationFailure,
    Trajectory,
    initial_step,
    record_grid,
    retract,
)
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration


class _Flow:
    """The vector field of one configuration's dynamics, counting its evaluations."""

    def __init__(self, cfg: Configuration) -> None:
        self.cfg = cfg
        self.evaluations = 0
        self.velocity = model.velocity_function(cfg)  # one workspace for the whole trajectory

    def __call__(self, X: np.ndarray) -> np.ndarray:
        self.evaluations += 1
        state = X.view()  # the stepper's buffer, read-only for the field (checked finite there)
        state.flags.writeable = False
        return self.velocity(state)

    def retract(self, X: np.ndarray) -> np.ndarray:
        return retract(X, self.cfg.geometry)


def integrate(
    cfg: Configuration,
    t_final: float,
    *,
    rtol: float = 1e-8,
    atol: float = 1e-10,
    method: str = "auto",
    record_times: Sequence[float] | np.ndarray | None = None,
    observables: Sequence[str] = DEFAULT_OBSERVABLES,
    events: Sequence[Event] = (),
    controller: Controller | None = None,
    first_step: float | None = None,
    max_steps: int = 1_000_000,
    keep_states: bool = True,
    on_record: Callable[[float], None] | None = None,
    backend: str = "auto",
) -> Trajectory:
    """Integrate the dynamics of `cfg` from t = 0 to `t_final` (or a terminal event).

    `method`: "auto" (DP5(4) or DOP853 by rtol and attention kind, see `methods`), "dp54" or
    "dop853". `record_times`: times in [0, t_final] at which the observables are recorded (from
    the dense output); None records t = 0 and every accepted step. The end state is always recorded.
    `backend`: "numpy", the deterministic engine; "jax", the optional jitted one (`jax_solver`: the extra
    headflow[jit]; no events; records end a step at each record time; None records t = 0 and the end); "auto" (the
    default), jax when it is installed and the run is one it gives with the same meaning (record times given, no
    events, its field covers cfg), numpy otherwise (`backends.chosen`). The trajectory says which ran (`backend`).
    Code whose results must not depend on what is installed (the claim deciders) names "numpy".
    """
    t_final = _positive("t_final", t_final)
    rtol, atol = _positive("rtol", rtol), _positive("atol", atol)
    if backend not in BACKENDS:
        raise InputError("backend", backend, f"expected one of {', '.join(BACKENDS)}")
    backend = chosen(backend, cfg, events=events, controller=controller, record_times=record_times)
    if backend == "jax":
        if events:
            raise InputError("events", [e.name for e in events], "the jax backend takes no events; use backend numpy")
        from headflow.checks.integrator.jax_solver import integrate_jax

        given = None if first_step is None else _positive("first_step", first_step)
        return integrate_jax(
            cfg,
            t_final,
            rtol=rtol,
            atol=atol,
            method=method,
            record_times=record_times,
            observables=observables,
            controller=controller,
            first_step=given,
            max_steps=max_steps,
            keep_states=keep_states,
            on_record=on_record,
        )
    tableau = tableau_for(rtol, method, cfg.attention)
    pending = record_grid(record_times, t_final)
    flow = _Flow(cfg)
    recorder = Recorder(tuple(observables), keep_states)
    controller = controller or PIController(tableau.error_order)
    stepper = Stepper(tableau, flow, flow.retract, flow.retract(np.array(cfg.tokens, dtype=float)))
    given = first_step is not None
    h = (
        _positive("first_step", first_step)
        if given
        else initial_step(flow, stepper.y, stepper.velocity, tableau.order, rtol, atol, t_final)
    )
    t, accepted, rejected, fired, status, stopped_at = 0.0, 0, 0, [], "completed", None
    g_old = [e.function(cfg.moved_to(stepper.y)) for e in events]

    def save(time: float, state: np.ndarray) -> None:
        recorder.record(time, cfg.moved_to(state))
        if on_record is not None:
            on_record(time)

    if record_times is None or (pending and pending[0] == 0.0):
        save(0.0, stepper.y)
        pending = pending[1:] if pending and pending[0] == 0.0 else pending
    while t < t_final:
        if accepted + rejected >= max_steps:
            status = "max_steps"
            break
        h_try = controller.trial(h, t_final - t)
        if h_try <= 16 * np.finfo(float).eps * max(1.0, abs(t)):
            status = "step size underflow"
            break
        try:
            error = stepper.attempt(h_try)
        except InputError:  # a stage overflowed or left the finite range: a shorter step may stay inside
            rejected, h = rejected + 1, h_try * NON_FINITE_SHRINK
            continue
        ok, h = controller.decide(h_try, error_norm(error, stepper.y, stepper.y_new, rtol, atol))
        if not ok:
            rejected += 1
            continue
        accepted += 1
        t_new = t_final if h_try == t_final - t else t + h_try
        if t_new < t_final or events or (pending and pending[0] < t_final):  # else nothing reads f at the end
            stepper.accept()
            h = controller.limit(h, stepper.stable_step())
        g_new = [e.function(cfg.moved_to(stepper.y_new)) for e in events]
        stop = _first_terminal(cfg, stepper, events, g_old, g_new, t, fired)
        t_end = t_new if stop is None else t + stop[0] * h_try
        while pending and pending[0] <= t_end:
            save(pending[0], stepper.dense(1.0 if pending[0] >= t_new else (pending[0] - t) / h_try))
            pending = pending[1:]
        if stop is not None:
            t, stopped_at, status = t_end, stepper.dense(stop[0]), f"event:{events[stop[1]].name}"
            break
        if record_times is None:
            save(t_new, stepper.y_new)
        stepper.advance()
        t, g_old = t_new, g_new
    y = stepper.y if stopped_at is None else stopped_at
    if not recorder.times or recorder.times[-1] != t:
        save(t, y)
    times, states, values = recorder.arrays()
    run = Trajectory(
        times, states, values, fired, cfg.moved_to(y), t, status, flow.evaluations, accepted, rejected, tableau.name
    )
    if status == "step size underflow":
        raise IntegrationFailure(run, "step size underflow: the dynamics is too stiff or blows up")
    return run


def _first_terminal(
    cfg: Configuration,
    stepper: Stepper,
    events: Sequence[Event],
    g_old: list[float],
    g_new: list[float],
    t: float,
    fired: list,
) -> tuple[float, int] | None:
    """Locate the events that fired in the accepted step on its dense output, earliest first, and log them in
    `fired` up to the first terminal one; return (fraction of the step, event index) of that one, or None."""
    located = []
    for i, (before, after) in enumerate(zip(g_old, g_new, strict=True)):
        if before > 0 >= after:

            def g(theta: float, i: int = i) -> float:
                return events[i].function(cfg.moved_to(stepper.dense(theta)))

            located.append((locate_crossing(g, 0.0, before, 1.0, after, 1e-13 * max(stepper.h, 1.0) / stepper.h), i))
    for theta, i in sorted(located):
        fired.append((events[i].name, t + theta * stepper.h))
        if events[i].terminal:
            return theta, i
    return None


def _positive(name: str, value: float) -> float:
    number = float(value)
    if not math.isfinite(number) or number <= 0:
        raise InputError(name, value, "must be positive and finite")
    return number
