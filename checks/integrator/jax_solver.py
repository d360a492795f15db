"""The optional jitted backend of `integrate` (backend="jax"): the same Runge-Kutta engine in one `lax.while_loop`.

The field is `headflow.checks.model.jax_field` (the options it covers; the others are refused there). The engine is the
numpy one's, sharing its data and rules rather than copying them: the tableau's float arrays
(`headflow.checks.integrator.tableau`, chosen by `methods.tableau_for`), the scaled error norm with DOP853's blend
(`controller.error_norm` over jax.numpy), the PI controller's constants (the `PIController` instance is read),
the STABILITY_FRACTION limit, the retraction (`trajectory.retract`), the shrink of a step that left the finite range
(`trajectory.NON_FINITE_SHRINK`), the equal steps to the end (`trajectory.trial_step`, here to the segment's end)
and Hairer's initial step (`trajectory.initial_step` over jax.numpy, inside the first segment: a run with records
at its start and end only is one jitted call).
Two formulas exist in both backends, each a few lines: the PI decision (`_decide`, beside `PIController.decide`)
and the stiffness estimate (`_stable_step`, beside `Stepper.stable_step`); tests/checks/integrator/test_jax_backend.py
pins both backends to the same accepted and rejected step counts and final states on DP5(4) and DOP853 runs.

A run is jitted once per (tableau, attention kind, geometry) and traced once per shape (n, d, H): tolerances,
times, beta and the heads are traced arguments, so a new tolerance or T does not recompile. The loop runs from
one record time to the next (records end a step there, so a dense grid costs about one step per record; the
numpy backend interpolates instead), and the observables are evaluated on the host by the numpy model.
Events are refused (they need the dense output of every step on the host). DOP853's FSAL stage (the velocity at
the new state, evaluated once a step is accepted) is left out after the run's last step, as the numpy engine does
when no record falls inside that step.

Softmax's numerators are exp(beta s) unshifted while the step's states keep |beta s| <= UNSHIFTED_SOFTMAX_BOUND
(the numpy field's rule, on `formulas.score_bound`; no pass for the row maxima). A step whose states leave the
bound is discarded and the run goes on from it with the shifted loop, compiled then (status _UNBOUNDED): the same
function, to rounding, in both loops.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import numpy as np
from headflow.certificates.errors import InputError
from headflow.checks.integrator.controller import STABILITY_FRACTION, Controller, PIController, error_norm
from headflow.checks.integrator.methods import METHODS, tableau_for
from headflow.checks.integrator.recorder import Recorder
from headflow.checks.integrator.tableau import Tableau
from headflow.checks.integrator.trajectory import (
    NON_FINITE_SHRINK,
    IntegrationFailure,
    Trajectory,
    initial_step,
    record_grid,
    retract,
    trial_step,
)
from headflow.checks.model import formulas, jax_field
from headflow.checks.model.configuration import Configuration
from headflow.checks.model.token_blocks import UNSHIFTED_SOFTMAX_BOUND

#: Status codes of one jitted segment: running (or done), a velocity left float64 (at the start: its own code), a
#: step's states left the bound under which softmax's numerators are taken unshifted (`jax_field.unshifted`).
_RUNNING, _NON_FINITE, _NON_FINITE_START, _UNBOUNDED = 0, 1, 2, 3
#: What a segment does before its first step (`counts[3]`): nothing, the velocity at the start, or that and
#: Hairer's first step.
_CONTINUE, _START, _START_AND_STEP = 0, 1, 2


def _decide(constants: Any, h: Any, err: Any, previous: Any, jnp: Any) -> tuple[Any, Any, Any, Any]:
    """`PIController.decide` in jax.numpy: (accepted, step if accepted, step if rejected, next previous error);
    `constants` = (alpha, beta, safety, min_factor, max_factor) of the controller."""
    alpha, beta, safety, min_factor, max_factor = constants
    proportional = jnp.maximum(err, 1e-300) ** alpha
    factor = jnp.minimum(1.0 / min_factor, jnp.maximum(1.0 / max_factor, proportional / previous**beta / safety))
    rejected_step = h / jnp.minimum(1.0 / min_factor, proportional / safety)
    return err <= 1.0, h / factor, rejected_step, jnp.maximum(err, 1e-4)


def _combination(coefficients: np.ndarray, K: list) -> Any:
    """sum_j coefficients_j K[j] over the non-zero coefficients (the tableau's zeros cost nothing)."""
    terms = [float(c) * K[j] for j, c in enumerate(coefficients) if c != 0.0]
    total = terms[0]
    for term in terms[1:]:
        total = total + term
    return total


def _stable_step(tableau: Tableau, K: list, y: Any, y_new: Any, h: Any, jnp: Any) -> Any:
    """`Stepper.stable_step` in jax.numpy: the stability boundary over the stiffest rate met in the step."""
    pair = tableau.stiffness_stages
    if pair is None:
        return jnp.inf
    p, q = pair
    distance = jnp.linalg.norm(y_new - (y + h * _combination(tableau.matrix[p, :p], K)))
    change = jnp.linalg.norm(K[q] - K[p])
    known = (distance != 0.0) & (change != 0.0)
    return jnp.where(known, tableau.stability_boundary * distance / jnp.where(known, change, 1.0), jnp.inf)


@cache
def _segment(method: str, attention: str, geometry: str, shifted: bool) -> Callable[..., Any]:
    """The jitted loop of one tableau (its name in `methods.METHODS`), kind, geometry and softmax shift
    (`jax_field.velocity`): the start of the run if asked, then the steps from t to t_stop (module docstring).

    Arguments: y, K0 (the velocity at y, or any array of its shape at the start), reals = (t, t_stop, h,
    previous error, rtol, atol, t_final, and the controller's constants: alpha, beta, safety, min_factor,
    max_factor), counts = (accepted, rejected, max_steps, start), M (beta folded in), W. Returns y, K0,
    (t, h, previous error), (accepted, rejected, evaluations, status).
    """
    jax = jax_field.jax_module()
    jnp, lax = jax.numpy, jax.lax
    tableau = METHODS[method]
    s = tableau.stages
    combined = s - 1 if tableau.fsal else s  # the mirror of Stepper's rows
    last_in_error = tableau.fsal and bool(np.any(tableau.error_weights[:, -1]))
    estimated = s if last_in_error else combined
    A, b, E = tableau.matrix, tableau.weights, tableau.error_weights
    per_attempt = combined - 1 + (1 if last_in_error else 0)
    guarded = attention == "softmax" and not shifted  # every step's states are checked against the bound

    def run(y: Any, K0: Any, reals: Any, counts: Any, M: Any, W: Any) -> Any:
        t, t_stop, h, previous, rtol, atol, t_final = (reals[i] for i in range(7))
        constants = reals[7:]
        max_steps, start = counts[2], counts[3]

        def f(X: Any) -> Any:
            return jax_field.velocity(X, M, W, attention, geometry, shifted)

        def begin(y: Any, K0: Any, h: Any) -> tuple[Any, Any, Any]:
            """The velocity at the start and, if asked, Hairer's first step (by the shifted field: any scores)."""

            def exact(X: Any) -> Any:
                return jax_field.velocity(X, M, W, attention, geometry, True)

            K = exact(y)
            h = lax.cond(
                start == _START_AND_STEP,
                lambda: initial_step(exact, y, K, tableau.order, rtol, atol, t_final, jnp),
                lambda: h,
            )
            return K, h, jnp.where(start == _START_AND_STEP, 2, 1).astype(jnp.int64)

        K0, h, used = lax.cond(start > _CONTINUE, begin, lambda y, K0, h: (K0, h, jnp.zeros((), jnp.int64)), y, K0, h)
        started = jnp.all(jnp.isfinite(K0))

        def trial(t: Any, h: Any) -> tuple[Any, Any]:
            remaining = t_stop - t
            return remaining, trial_step(h, remaining, jnp)

        def going(state: tuple) -> Any:
            t, _, _, h, _, accepted, rejected, _, status = state
            h_try = trial(t, h)[1]
            room = h_try > 16 * jnp.finfo(jnp.float64).eps * jnp.maximum(1.0, jnp.abs(t))
            return (t < t_stop) & (accepted + rejected < max_steps) & room & (status == _RUNNING)

        def step(state: tuple) -> tuple:
            t, y, K0, h, previous, accepted, rejected, evaluations, _ = state
            remaining, h_try = trial(t, h)
            K, states = [K0], []
            for i in range(1, combined):
                states.append(y + h_try * _combination(A[i, :i], K))
                K.append(f(states[-1]))
            y_new = retract(y + h_try * _combination(b[:combined], K), geometry, jnp)
            if last_in_error:
                K.append(f(y_new))
            bounded = (
                formulas.score_bound(jnp.concatenate([*states, y_new]), M, jnp) <= UNSHIFTED_SOFTMAX_BOUND
                if guarded
                else True
            )
            errors = h_try * jnp.stack([_combination(row[:estimated], K) for row in E])
            finite = jnp.all(jnp.isfinite(jnp.stack(K))) & jnp.all(jnp.isfinite(y_new))
            ok, h_accepted, h_rejected, previous_accepted = _decide(
                constants, h_try, error_norm(errors, y, y_new, rtol, atol, jnp), previous, jnp
            )
            ok = ok & finite & bounded
            if last_in_error:
                K_next, evaluated = K[s - 1], False
            else:  # the FSAL stage, for an accepted step that does not end the run (no next step needs it)
                evaluated = ok & ~((h_try == remaining) & (t_stop == t_final))
                K_next = lax.cond(evaluated, f, jnp.zeros_like, y_new)
                K = [*K, K_next] if len(K) == s - 1 else K
            h_accepted = jnp.minimum(h_accepted, STABILITY_FRACTION * _stable_step(tableau, K, y, y_new, h_try, jnp))
            failed = ok & ~jnp.all(jnp.isfinite(K_next))
            ok = ok & ~failed
            h_next = jnp.where(finite, jnp.where(ok, h_accepted, h_rejected), h_try * NON_FINITE_SHRINK)
            return (
                jnp.where(ok, jnp.where(h_try == remaining, t_stop, t + h_try), t),
                jnp.where(ok, y_new, y),
                jnp.where(ok, K_next, K0),
                jnp.where(bounded, h_next, h),
                jnp.where(ok, previous_accepted, previous),
                accepted + ok,
                rejected + (~(ok | failed) & bounded),
                evaluations + per_attempt + evaluated,
                jnp.where(failed, _NON_FINITE, jnp.where(bounded, _RUNNING, _UNBOUNDED)),
            )

        status = jnp.where(started, _RUNNING, _NON_FINITE_START)
        begun = (t, y, K0, h, previous, counts[0], counts[1], used, status)
        t, y, K0, h, previous, accepted, rejected, evaluations, status = lax.while_loop(going, step, begun)
        return y, K0, jnp.stack([t, h, previous]), jnp.stack([accepted, rejected, evaluations, status])

    return jax.jit(run)


def integrate_jax(
    cfg: Configuration,
    t_final: float,
    *,
    rtol: float,
    atol: float,
    method: str,
    record_times: Sequence[float] | np.ndarray | None,
    observables: Sequence[str],
    controller: Controller | None,
    first_step: float | None,
    max_steps: int,
    keep_states: bool,
    on_record: Callable[[float], None] | None,
) -> Trajectory:
    """`integrate` with the jitted backend (arguments checked by `integrate`); None as `record_times` records the
    start and the end only (the loop does not return to the host between steps)."""
    jax_field.require_supported(cfg)
    tableau = tableau_for(rtol, method, cfg.attention)
    controller = controller or PIController(tableau.error_order)
    if not isinstance(controller, PIController):
        raise InputError("controller", type(controller).__name__, "the jax backend steps with the PI controller only")
    grid = record_grid([0.0, t_final] if record_times is None else record_times, t_final)
    recorder = Recorder(tuple(observables), keep_states)
    y = retract(np.array(cfg.tokens, dtype=float), cfg.geometry)

    def save(time: float, state: Configuration) -> None:
        recorder.record(time, state)
        if on_record is not None:
            on_record(time)

    if grid and grid[0] == 0.0:
        save(0.0, cfg.moved_to(y))
    stops = [time for time in grid if time > 0.0]
    if not stops or stops[-1] != t_final:
        stops.append(t_final)
    name = next(key for key, known in METHODS.items() if known is tableau)
    shifted = cfg.attention != "softmax"  # softmax starts unshifted: a step out of the bound switches (_UNBOUNDED)
    c = controller
    t, h, previous, steps, evaluations, status = 0.0, first_step or 0.0, c.previous_error, (0, 0), 0, "completed"
    start = _START_AND_STEP if first_step is None else _START
    M, W = cfg.beta * np.asarray(cfg.score_matrices), np.asarray(cfg.values)
    constants = [c.alpha, c.beta, c.safety, c.min_factor, c.max_factor]
    with jax_field.float64():  # numpy arguments: the jitted call converts them (faster than jax.numpy's asarray)
        state_y, state_K = y, y
        for stop in stops:
            code = _UNBOUNDED
            while code == _UNBOUNDED:
                loop = _segment(name, cfg.attention, cfg.geometry, shifted)
                reals = np.array([t, stop, h, previous, rtol, atol, t_final, *constants])
                counts = np.array([*steps, max_steps, start])
                state_y, state_K, reals_out, counts_out = loop(state_y, state_K, reals, counts, M, W)
                (t, h, previous), (accepted, rejected, used, code) = np.asarray(reals_out), np.asarray(counts_out)
                t, h, previous, code = float(t), float(h), float(previous), int(code)
                steps, evaluations, start = (int(accepted), int(rejected)), evaluations + int(used), _CONTINUE
                shifted = shifted or code == _UNBOUNDED
            if code == _NON_FINITE_START:
                raise InputError(
                    "beta*scores", "> 709.78", "the velocity at the start leaves float64; lower beta or the scale"
                )
            if code == _NON_FINITE:
                raise InputError("beta*scores", "> 709.78", f"the velocity leaves float64 at t={t:.6g}")
            final = cfg.moved_to(np.asarray(state_y))
            if t < stop:
                status = "max_steps" if sum(steps) >= max_steps else "step size underflow"
                break
            if stop in grid:
                save(stop, final)
    if not recorder.times or recorder.times[-1] != t:
        save(t, final)
    times, states, values = recorder.arrays()
    run = Trajectory(
        times, states, values, [], final, t, status, evaluations, steps[0], steps[1], tableau.name, backend="jax"
    )
    if status == "step size underflow":
        raise IntegrationFailure(run, "step size underflow: the dynamics is too stiff or blows up")
    return run
