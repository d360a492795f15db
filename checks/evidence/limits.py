"""The limit of a quantity along one trajectory, in floats, judged only once the motion has stopped.

A value at the horizon is not a limit: a run with `time = 1e-6` ends where it started. `settle`
integrates to the horizon and, while the run is still moving, continues from where it ended over a
span as long as the time run so far (the horizon doubles), at most `extensions` times, each span
within MAX_STEPS integrator steps (counts, so the same start always gets the same answer). The motion
has stopped at T when

- the token speed max_i |dx_i/dt| at T is below SPEED_TOLERANCE, and
- the quantity's changes over the last three quarters of the final span decay geometrically: with
  D_0 = |Q(3T'/4) - Q(T'/2)| and D_1 = |Q(T') - Q(3T'/4)| (T' the end of the span), the ratio q = D_1 / D_0
  is at most MAX_RATIO, and what is left after T, bounded by the geometric tail D_1 q / (1 - q), is
  below RESOLUTION (1 + |Q|).

The limit is then Q(T) with an error estimate: that tail, the integrator's tolerance (INTEGRATION_ERRORS
times rtol, relative) and a rounding floor.

A run whose tokens never moved measurably (no token ever more than MIN_DISPLACEMENT from its start) has
not *stopped*: a float run cannot tell an equilibrium from a motion below rounding. Softmax with a large
beta moves orthogonal tokens at speed ~ e^(-beta), which is below rounding for beta = 40, yet they
collapse (the cluster gap tends to 0, not to its initial value 1). Such a run is "still moving" as far
as floats can tell: the start stays undecided, never judged at its initial value.

Floats only: a run that stops supports a limit (at most CONFIRMED) or shows a float candidate against
it; a run that does not stop says "still moving at t".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from headflow.checks.integrator import IntegrationFailure, Trajectory, integrate
from headflow.checks.integrator.batch import Unbatched, batchable, integrate_batch
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration

#: Speed below which the tokens count as stopped, and the largest leftover change (relative) of a settled run.
SPEED_TOLERANCE = 1e-6
RESOLUTION = 1e-6
#: The largest ratio of successive quarter-span changes that counts as a decaying tail.
MAX_RATIO = 0.5
#: Relative integrator tolerance of the runs, the multiple of it counted as integration error, rounding floor.
RTOL, ATOL = 1e-10, 1e-12
INTEGRATION_ERRORS = 100.0
ROUNDING = 1e-12
#: Records per span (the quarter-span windows read four of them); accepted and rejected steps per span
#: (a count, not seconds: a run that needs more is still moving as far as this budget can tell).
RECORDS = 201
MAX_STEPS = 50_000
#: The least token displacement (from the start, at some record) that shows the run moved at all; far above
#: the rounding of positions over MAX_STEPS steps (~1e-13), far below any motion that converges measurably.
MIN_DISPLACEMENT = 1e-9


@dataclass
class Limit:
    """Q at the end of the run, its error estimate (per entry), and whether (and why not) the motion stopped."""

    value: np.ndarray
    error: np.ndarray
    t_end: float
    speed: float
    settled: bool
    reason: str
    final: Configuration
    #: The vector-field evaluations of the runs.
    evaluations: int = 0

    def distance(self, target: float) -> np.ndarray:
        return np.abs(self.value - target)

    def contains(self, target: float) -> bool:
        """Whether the claimed limit lies within the error of every entry."""
        return bool(np.all(self.distance(target) <= self.error))

    def record(self, target: float) -> dict[str, Any]:
        """The worst entry's fitted limit and error next to the claimed one, the end time and speed."""
        k = int(np.argmax(self.distance(target) - self.error))
        error = float(self.error.flat[k])
        return {
            "claimed": target,
            "fitted": float(self.value.flat[k]),
            "error": error if np.isfinite(error) else None,  # None: no bound on what is left (still moving)
            "t_end": self.t_end,
            "speed": self.speed,
            "settled": self.settled,
        }


def settle(
    cfg: Configuration,
    evaluate: Callable[..., np.ndarray],
    horizon: float,
    extensions: int,
    *,
    timed: Callable[[Configuration, float], float] | None = None,
) -> Limit:
    """Integrate from `cfg` to `horizon`, then over doubling spans while the motion has not stopped (at
    most `extensions` more spans); the quantity `evaluate` at the end with its error estimate.

    `timed`: the quantity is one of the state and its time t (from `cfg`, the start of the trajectory: the records
    carry their times), `evaluate(state, t)`, and `timed(state, t)` is the speed of what it reads (the rescaled
    tokens', `checks.model.rescaled`), which must fall below SPEED_TOLERANCE in place of the tokens' own."""
    run = _Settling(cfg, evaluate, horizon, extensions, timed)
    while True:
        traj = integrate(
            run.state,
            run.span,
            rtol=RTOL,
            atol=ATOL,
            record_times=run.grid(),
            observables=(),
            max_steps=MAX_STEPS,
            backend="numpy",
        )
        limit = run.spanned(traj)
        if limit is not None:
            return limit


def settle_all(
    cfgs: list[Configuration],
    evaluate: Callable[..., np.ndarray],
    horizon: float,
    extensions: int,
    *,
    timed: Callable[[Configuration, float], float] | None = None,
) -> list[Limit | IntegrationFailure]:
    """`settle` of each start, the starts' spans integrated together (`checks.integrator.batch`) where they can be:
    each start's spans, records and judgement are its own (`_Settling`), so each Limit is the one `settle` gives
    alone, to the rounding of batched products. A start whose run `settle` would end with an IntegrationFailure gets
    that failure in its place; starts that cannot be stepped together are settled one at a time."""
    runs = [_Settling(cfg, evaluate, horizon, extensions, timed) for cfg in cfgs]
    results: list[Limit | IntegrationFailure | None] = [None] * len(cfgs)
    while True:
        left = [k for k, result in enumerate(results) if result is None]
        if not left:
            return [result for result in results if result is not None]
        spans = {runs[k].span for k in left}
        states = [runs[k].state for k in left]
        try:
            if len(spans) != 1 or not batchable(states):
                raise Unbatched("the starts' spans or heads differ")
            trajs = integrate_batch(
                states, spans.pop(), rtol=RTOL, atol=ATOL, record_times=runs[left[0]].grid(), max_steps=MAX_STEPS
            )
        except Unbatched:  # each start left alone, from its start (the same run `settle` takes)
            for k in left:
                try:
                    results[k] = settle(cfgs[k], evaluate, horizon, extensions, timed=timed)
                except IntegrationFailure as failure:
                    results[k] = failure
            continue
        for k, traj in zip(left, trajs, strict=True):
            results[k] = traj if isinstance(traj, IntegrationFailure) else runs[k].spanned(traj)


class _Settling:
    """One start's `settle`: where its run stands (state, time, next span, evaluations, displacement), and the
    judgement of each span's trajectory (`spanned`), shared by `settle` and `settle_all`."""

    def __init__(
        self,
        cfg: Configuration,
        evaluate: Callable[..., np.ndarray],
        horizon: float,
        extensions: int,
        timed: Callable[[Configuration, float], float] | None,
    ) -> None:
        self.cfg, self.evaluate, self.extensions, self.timed = cfg, evaluate, extensions, timed
        self.state, self.t0, self.span, self.evaluations, self.moved, self.attempt = cfg, 0.0, horizon, 0, 0.0, 0

    def grid(self) -> np.ndarray:
        return np.linspace(0.0, self.span, RECORDS)

    def spanned(self, traj: Trajectory) -> Limit | None:
        """The Limit once the run ends with this span's trajectory (settled, out of extensions or steps), else None
        (the next span doubles the time so far)."""
        cfg, state, t0, timed, evaluate = self.cfg, self.state, self.t0, self.timed, self.evaluate
        self.evaluations += traj.evaluations
        # the quantity only where `_judge` reads it (half, three quarters and the end of the span's records): the
        # records between are for the displacement below; evaluating it at all RECORDS cost a tenth of a start
        at = [(state.moved_to(traj.states[k]), t0 + float(traj.times[k])) for k in _read(traj)]
        values = np.array([np.asarray(evaluate(*(a if timed else a[:1])), dtype=float) for a in at])
        state, t0 = traj.final, t0 + traj.t_end
        self.state, self.t0 = state, t0
        speed = None if timed is None else timed(state, t0)
        self.moved = max(self.moved, max(float(np.max(np.linalg.norm(X - cfg.tokens, axis=-1))) for X in traj.states))
        if traj.status == "max_steps":
            limit = _judge(values, state, t0, self.evaluations, speed)
            reason = f"still moving at t = {t0:.6g}: {MAX_STEPS} integrator steps did not reach the span's end"
            return dataclasses.replace(limit, settled=False, reason=reason)
        limit = _judge(values, state, t0, self.evaluations, speed)
        if limit.settled and self.moved < MIN_DISPLACEMENT:
            reason = (
                f"still moving at t = {t0:.6g} as far as floats can tell: no token moved more than {self.moved:.3g}"
                f" (< {MIN_DISPLACEMENT:g}) from its start, so this run cannot tell an equilibrium from a motion"
                " below rounding"
            )
            limit = dataclasses.replace(limit, settled=False, reason=reason)
        if limit.settled or self.attempt == self.extensions:
            return limit
        self.attempt += 1
        self.span = t0
        return None


def _read(traj: Trajectory) -> tuple[int, int, int]:
    """The records `_judge` reads: half, three quarters and the end of the span (the last record)."""
    last = len(traj.states) - 1
    quarter = last // 4
    return last - 2 * quarter, last - quarter, last


def _judge(
    values: np.ndarray, final: Configuration, t_end: float, evaluations: int, speed: float | None = None
) -> Limit:
    """Whether the quantity at half, three quarters and the end of one span's records (`_read`), and the speed at its
    end (`speed`, or the tokens' directions'), show the motion stopped."""
    half, three_quarters, last = values
    d0 = np.abs(three_quarters - half)
    d1 = np.abs(last - three_quarters)
    floor = ROUNDING * (1.0 + np.abs(last))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(d1 <= floor, 0.0, d1 / d0)
    tail = np.where(ratio <= MAX_RATIO, d1 * ratio / (1.0 - np.minimum(ratio, MAX_RATIO)), np.inf)
    if speed is None:  # the directions' (pre-ln)
        speed = float(np.max(np.linalg.norm(model.direction_velocity(final), axis=-1)))
    error = tail + INTEGRATION_ERRORS * RTOL * (1.0 + np.abs(last)) + floor
    reasons = []
    if speed > SPEED_TOLERANCE:
        reasons.append(f"token speed {speed:.3g} > {SPEED_TOLERANCE:g}")
    if not np.all(np.isfinite(tail)):
        reasons.append(f"the quantity's last changes do not decay (ratio {float(np.max(ratio)):.3g} > {MAX_RATIO:g})")
    elif np.any(tail > RESOLUTION * (1.0 + np.abs(last))):
        reasons.append(f"what is left of the quantity's change ({float(np.max(tail)):.3g}) exceeds {RESOLUTION:g}")
    reason = f"still moving at t = {t_end:.6g}: " + "; ".join(reasons) if reasons else ""
    return Limit(last, error, t_end, speed, not reasons, reason, final, evaluations)
