"""The starts of one claim integrated together: `integrate`'s numpy engine over B configurations that share their
heads and options (only the tokens differ: the random starts of one family with fixed heads), stepped as one
(B, n, d) array.

Why: a random-start claim integrates ~29 starts of a few tokens each, and at n = 2..16 a velocity evaluation is
mostly numpy's per-call cost; the field evaluated at every start at once (`token_blocks.Heads.batched_tangent_velocity`,
the same formulas laid out with a batch axis) pays it once for all of them.

Each start keeps its own run, the one `solver.integrate` takes alone: its own step size and PI controller (the
controllers' `decide`, `trial` and `limit` are called per start), its own error norm (`controller.error_norm` over
each start's (n, d) block), its own stiffness bound, acceptances and rejections, max_steps count and step-size
underflow, and its own records (from its step's dense output at its own fractions of the step). The stages of every
start are formed in one pass (`stepper.fill_stages` with one step size per start); a start that has reached its end
(or the step budget) is carried along with a zero step and never changes again. So each start's trajectory is the
one it would have alone, to the rounding of batched products (the velocity agrees to ~1e-16,
tests/checks/integrator/test_batch.py).

Covered: record times given, no events, no jitted backend, the sphere with heads that `batched_tangent_velocity`
covers (`batchable`); anything else is for `solver.integrate`, one start at a time. A stage that leaves the finite
range raises `Unbatched`: the caller then runs the starts one at a time (where such a step is retried shorter).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from headflow.certificates.errors import InputError
from headflow.checks.integrator.controller import PIController, error_norm
from headflow.checks.integrator.methods import tableau_for
from headflow.checks.integrator.stepper import fill_stages
from headflow.checks.integrator.trajectory import IntegrationFailure, Trajectory, initial_step, record_grid, retract
from headflow.checks.model.configuration import Configuration
from headflow.checks.model.token_blocks import heads_of


class Unbatched(Exception):
    """The batch cannot be stepped together (a stage left the finite range): run its starts one at a time."""


def batchable(cfgs: Sequence[Configuration]) -> bool:
    """Whether `integrate_batch` covers these starts: two or more, on the sphere, sharing heads, beta, attention,
    mask and interaction (only the tokens differ), with heads that `Heads.batched_tangent_velocity` covers."""
    if len(cfgs) < 2:
        return False
    first = cfgs[0]
    if not heads_of(first).batchable():
        return False

    def same(a: np.ndarray | None, b: np.ndarray | None) -> bool:
        return (a is None and b is None) or (a is not None and b is not None and np.array_equal(a, b))

    return all(
        cfg.tokens.shape == first.tokens.shape
        and cfg.beta == first.beta
        and cfg.attention == first.attention
        and cfg.geometry == first.geometry
        and cfg.interaction == first.interaction
        and np.array_equal(cfg.score_matrices, first.score_matrices)
        and np.array_equal(cfg.values, first.values)
        and same(cfg.mask, first.mask)
        for cfg in cfgs[1:]
    )


def integrate_batch(
    cfgs: Sequence[Configuration],
    t_final: float,
    *,
    rtol: float,
    atol: float,
    record_times: Sequence[float] | np.ndarray,
    max_steps: int,
) -> list[Trajectory | IntegrationFailure]:
    """Each start's `solver.integrate(cfg, t_final, rtol=rtol, atol=atol, record_times=record_times, observables=(),
    max_steps=max_steps, backend="numpy")`, stepped together (module docstring): its Trajectory, or the
    IntegrationFailure that run raises (step-size underflow). Requires `batchable(cfgs)`."""
    B, first = len(cfgs), cfgs[0]
    heads = heads_of(first)
    tableau = tableau_for(rtol, "auto", first.attention)
    evaluations = np.zeros(B, dtype=int)

    def f(X: np.ndarray) -> np.ndarray:
        evaluations[:] += 1
        try:
            return heads.batched_tangent_velocity(X)
        except InputError as exc:
            raise Unbatched(str(exc)) from None

    def geometry_retract(X: np.ndarray) -> np.ndarray:
        return retract(X.reshape(-1, X.shape[-1]), first.geometry).reshape(X.shape)

    s, total = tableau.stages, len(tableau.c)
    combined = s - 1 if tableau.fsal else s
    following = s - 1 if tableau.fsal else total
    last_in_error = tableau.fsal and bool(np.any(tableau.error_weights[:, -1]))
    estimated = s if last_in_error else combined
    y = geometry_retract(np.stack([np.array(cfg.tokens, dtype=float) for cfg in cfgs]))
    K = np.empty((total + (0 if tableau.fsal else 1), *y.shape))
    state = np.empty(y.shape)
    K[0] = f(y)
    h = np.empty(B)
    for b in range(B):  # Hairer's starting step of each start alone (one more evaluation each)
        h[b] = initial_step(
            lambda X, b=b: heads.batched_tangent_velocity(X[None])[0], y[b], K[0, b], tableau.order, rtol, atol, t_final
        )
    evaluations += 1
    controllers = [PIController(tableau.error_order) for _ in range(B)]
    grid = record_grid(record_times, t_final)
    pending = [list(grid) for _ in range(B)]
    times: list[list[float]] = [[] for _ in range(B)]
    states: list[list[np.ndarray]] = [[] for _ in range(B)]
    for b in range(B):
        if pending[b] and pending[b][0] == 0.0:
            times[b].append(0.0)
            states[b].append(y[b].copy())
            pending[b] = pending[b][1:]
    t = np.zeros(B)
    accepted, rejected = np.zeros(B, dtype=int), np.zeros(B, dtype=int)
    status = ["running"] * B
    tiny = 16 * np.finfo(float).eps
    while True:
        h_try = np.zeros(B)
        for b in range(B):
            if status[b] != "running":
                continue
            if t[b] >= t_final:
                status[b] = "completed"
            elif accepted[b] + rejected[b] >= max_steps:
                status[b] = "max_steps"
            else:
                h_try[b] = controllers[b].trial(h[b], t_final - t[b])
                if h_try[b] <= tiny * max(1.0, abs(t[b])):
                    status[b], h_try[b] = "step size underflow", 0.0
        running = np.array([st == "running" for st in status])
        if not running.any():
            break
        step = h_try[:, None, None]
        fill_stages(tableau, f, y, step, K, range(1, combined), state)
        flat = K.reshape(len(K), B, -1)
        y_new = geometry_retract(
            y + step * np.einsum("s,sbe->be", tableau.weights[:combined], flat[:combined]).reshape(y.shape)
        )
        if last_in_error:
            K[s - 1] = f(y_new)
        errors = step[None] * np.einsum("ks,sbe->kbe", tableau.error_weights[:, :estimated], flat[:estimated]).reshape(
            -1, *y.shape
        )
        if not last_in_error:
            K[following] = f(y_new)  # the velocity at every new state (the accepted starts' next first stage)
        stable = _stable_steps(tableau, K, y, y_new, h_try)
        ok = np.zeros(B, dtype=bool)
        for b in np.flatnonzero(running):
            norm = error_norm(errors[:, b], y[b], y_new[b], rtol, atol)
            ok[b], h[b] = controllers[b].decide(h_try[b], norm)
            if not ok[b]:
                rejected[b] += 1
                continue
            accepted[b] += 1
            h[b] = controllers[b].limit(h[b], stable[b])
        extended = False
        t_new = np.where(h_try == t_final - t, t_final, t + h_try)
        while True:  # each accepted start's records inside its step, from the step's dense output
            due = [b for b in np.flatnonzero(ok) if pending[b] and pending[b][0] <= t_new[b]]
            if not due:
                break
            if not extended and tableau.dense_matrix is not None:
                fill_stages(tableau, f, y, step, K, range(tableau.stages, total), state)
                extended = True
            theta = np.ones(B)
            for b in due:
                theta[b] = 1.0 if pending[b][0] >= t_new[b] else (pending[b][0] - t[b]) / h_try[b]
            dense = _dense(tableau, K, y, y_new, h_try, theta, geometry_retract)
            for b in due:
                times[b].append(pending[b][0])
                states[b].append(dense[b].copy())
                pending[b] = pending[b][1:]
        y = np.where(ok[:, None, None], y_new, y)
        K[0] = np.where(ok[:, None, None], K[following], K[0])
        t = np.where(ok, t_new, t)
    runs: list[Trajectory | IntegrationFailure] = []
    for b, cfg in enumerate(cfgs):
        if not times[b] or times[b][-1] != t[b]:
            times[b].append(float(t[b]))
            states[b].append(y[b].copy())
        final = "completed" if status[b] == "running" else status[b]
        run = Trajectory(
            np.array(times[b]),
            np.array(states[b]),
            {},
            [],
            cfg.moved_to(y[b]),
            float(t[b]),
            final,
            int(evaluations[b]),
            int(accepted[b]),
            int(rejected[b]),
            tableau.name,
        )
        failed = final == "step size underflow"
        runs.append(
            IntegrationFailure(run, "step size underflow: the dynamics is too stiff or blows up") if failed else run
        )
    return runs


def _stable_steps(tableau, K: np.ndarray, y: np.ndarray, y_new: np.ndarray, h: np.ndarray) -> np.ndarray:
    """`Stepper.stable_step` of each start (inf where no bound is known)."""
    pair = tableau.stiffness_stages
    if pair is None:
        return np.full(len(h), np.inf)
    p, q = pair
    B = len(h)
    flat = K.reshape(len(K), B, -1)
    state_p = y + h[:, None, None] * np.einsum("s,sbe->be", tableau.matrix[p, :p], flat[:p]).reshape(y.shape)
    distance = np.linalg.norm((y_new - state_p).reshape(B, -1), axis=1)
    change = np.linalg.norm((K[q] - K[p]).reshape(B, -1), axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        bound = tableau.stability_boundary * distance / change
    return np.where((distance == 0.0) | (change == 0.0), np.inf, bound)


def _dense(tableau, K: np.ndarray, y: np.ndarray, y_new: np.ndarray, h: np.ndarray, theta: np.ndarray, retract_all):
    """`Stepper.dense` of each start at its own fraction theta of its step (y_new where theta >= 1)."""
    B = len(h)
    weights = np.stack([tableau.dense_weights(min(th, 1.0)) for th in theta])  # (B, stages)
    flat = K.reshape(len(K), B, -1)
    moved = retract_all(
        y + h[:, None, None] * np.einsum("bs,sbe->be", weights, flat[: weights.shape[1]]).reshape(y.shape)
    )
    return np.where((theta >= 1.0)[:, None, None], y_new, moved)
