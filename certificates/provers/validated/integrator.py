"""The adaptive validated integration from an exact start to T: a chain of validated steps (`step`), each step size
chosen from the size of its Taylor remainder, halved where a step cannot be validated."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb
from headflow.certificates.kernel.exact import ball_of, precision
from headflow.certificates.kernel.exact_data import ExactConfiguration
from headflow.certificates.provers.validated.step import (
    LohnerSet,
    Step,
    StepFailure,
    max_width,
    recheck_step,
    take_step,
)
from headflow.certificates.provers.validated.taylor import identity, model_field, series_length

#: Default order p of the Taylor polynomial (the remainder is of order h^(p+1)).
ORDER = 10
#: Default working precision (bits): 64-bit midpoints make a 64 x 64 ball matrix product five times faster than
#: 128-bit ones, and round at 1e-19, far below the widths a step adds.
BITS = 64
#: The largest remainder a step is accepted with, in units of its aim (tolerance x h): the step size's factor from
#: the remainder is the remainder's ratio to the aim to the power -1/order, which at order 10 is only 0.5 for a
#: remainder 1000 times the aim.
ACCEPTED = 4.0
#: How much the step size's ceiling rises with each accepted step after a step size failed.
CEILING_GROWTH = 1.125
#: The steps after which a run that cannot reach its horizon within its budget is stopped (`beyond_pace`).
PACE_STEPS = 16


def beyond_pace(steps: int, t: Fraction, horizon: Fraction, max_steps: int, room: int = 1) -> bool:
    """Whether, after at least PACE_STEPS steps, the steps so far at their pace (t reached in `steps`) would need more
    than `room` times the budget of `max_steps` to reach the horizon: such a run is not taken to the end of its budget
    (both the claims route's Lohner enclosure and the replayable chains stop on it, counted, never timed)."""
    return steps >= PACE_STEPS and t * max_steps * room < horizon * steps


@dataclass
class Enclosure:
    """The validated steps from the exact start of `cfg` (t = 0) towards T, and why the integration ended
    (`status`: "reached T", or where and why it stopped: every recorded step stays valid)."""

    cfg: ExactConfiguration
    T: Fraction
    steps: list[Step] = field(default_factory=list)
    status: str = "reached T"
    seconds: float = 0.0
    #: The start given as balls, one per coordinate (None: the exact tokens of `cfg`).
    balls: tuple[arb, ...] | None = None

    @property
    def reached(self) -> bool:
        return self.status == "reached T"

    def times(self) -> list[Fraction]:
        """0 and the end time of every step."""
        return [Fraction(0)] + [s.t + s.h for s in self.steps]

    def boxes(self) -> list[list[arb]]:
        """The state enclosed at each of `times` (the hull of each step's end set; the start first)."""
        return [self.start().hull()] + [s.end.hull() for s in self.steps]

    def widths(self) -> list[float]:
        """The largest width of the enclosure at each of `times`."""
        return [max_width(box) for box in self.boxes()]

    def start(self) -> LohnerSet:
        return self.steps[0].start if self.steps else start_set(self.cfg, self.balls)


def start_set(cfg: ExactConfiguration, balls: Sequence[arb] | None = None) -> LohnerSet:
    """The start as a set: centre the balls' midpoints, frame I, the balls less their midpoints in the box. The balls
    are the exact tokens' (whose rounding is in the box: nothing where the tokens are dyadic) or the given ones, one
    per coordinate, token by token (a ball start: every solution from a point of the balls is enclosed); ValueError
    for given balls that are not n x d finite balls."""
    if balls is None:
        balls = [ball_of(v) for x in cfg.tokens for v in x]
    elif len(balls) != cfg.n * len(cfg.tokens[0]) or not all(isinstance(b, arb) and b.is_finite() for b in balls):
        raise ValueError(f"a ball start is {cfg.n * len(cfg.tokens[0])} finite balls (n x d, token by token)")
    centre = tuple(b.mid() for b in balls)
    return LohnerSet(centre, identity(len(balls)), tuple(b - c for b, c in zip(balls, centre, strict=True)))


def enclose(
    cfg: ExactConfiguration,
    T: Fraction,
    *,
    order: int = ORDER,
    tolerance: float = 1e-10,
    first_step: Fraction | None = None,
    min_step: Fraction = Fraction(1, 2**20),
    max_steps: int = 10_000,
    max_width_allowed: float = 0.5,
    bits: int = BITS,
    start: Sequence[arb] | None = None,
    stops: Sequence[Fraction] = (),
    on_step: Callable[[Step], None] | None = None,
) -> Enclosure:
    """Validated steps of the configuration's flow from its exact tokens over [0, T]. `tolerance`: the width per unit
    time the step size aims the Taylor remainder at. The integration stops (with the reason in `status`) at T, where
    no step of at least `min_step` can be validated, after `max_steps` steps, or when the enclosure is wider than
    `max_width_allowed`. `start`: balls to start from instead of the exact tokens (`start_set`); `stops`: times in
    (0, T) where a step ends (the enclosure at such a time is an end set, not a box over a step). ValueError when
    the configuration is outside what the integrator covers."""
    field_ = model_field(cfg)
    balls = None if start is None else tuple(start)
    result, started = Enclosure(cfg, Fraction(T), balls=balls), time.perf_counter()
    t, h = Fraction(0), Fraction(first_step) if first_step is not None else min(Fraction(T), Fraction(1, 8))
    ceiling = h  # below the last step size that failed, rising by CEILING_GROWTH with each accepted step
    ends = sorted({Fraction(s) for s in stops if 0 < s < T} | {Fraction(T)})
    with precision(bits), series_length(order + 2):
        current = start_set(cfg, balls)
        while t < result.T:
            if len(result.steps) >= max_steps:
                result.status = f"stopped at t={float(t):.6g}: {max_steps} steps were taken"
                break
            h = min(h, next(e for e in ends if e > t) - t)
            try:
                step = take_step(field_, current, t, h, order, bits)
            except StepFailure as exc:
                if h / 2 < min_step:
                    result.status = f"stopped at t={float(t):.6g}: {exc}; no step of at least {float(min_step):.3g}"
                    break
                h = ceiling = _dyadic(h / 2)
                continue
            error = max((abs(r).upper() for r in step.remainder), default=arb(0))
            factor = _factor(float(error), tolerance * float(h), order)
            if float(error) > ACCEPTED * tolerance * float(h) and h / 2 >= min_step:  # far above the aim
                h = _dyadic(h * Fraction(factor))
                continue
            result.steps.append(step)
            if on_step is not None:
                on_step(step)
            ceiling = _dyadic(max(ceiling, h) * Fraction(CEILING_GROWTH))
            t, current, h = t + h, step.end, min(ceiling, _dyadic(h * Fraction(factor)))
            if (width := step.width()) > max_width_allowed:
                result.status = (
                    f"stopped at t={float(t):.6g}: the enclosure's width {width:.3g} passed {max_width_allowed:g}"
                )
                break
    result.seconds = time.perf_counter() - started
    return result


def _factor(error: float, aim: float, order: int) -> float:
    """The step size's factor that brings a remainder of this size to the aim (it scales as h^order per unit time),
    between 1/4 and 2."""
    if error <= 0:
        return 2.0
    return min(2.0, max(0.25, 0.9 * (aim / error) ** (1 / order)))


def _dyadic(h: Fraction) -> Fraction:
    """A step size with a short binary expansion (a float's), so that every time is an exact ball."""
    return Fraction(float(h))


def recheck(enclosure: Enclosure) -> list[str]:
    """Why the chain of steps does not hold (empty when it does): the first starts at t = 0 from the exact tokens,
    each next one at the previous end time from the previous end set, and every step re-checks (`recheck_step`). A
    ball start is the enclosure's `balls`."""
    failures: list[str] = []
    t, previous, where = Fraction(0), None, "at the exact tokens"
    for k, step in enumerate(enclosure.steps):
        if previous is None:
            with precision(step.bits):
                previous = start_set(enclosure.cfg, enclosure.balls)
        if step.t != t or not _same(step.start, previous):
            failures.append(f"step {k} does not start {where}")
        failures += [f"step {k}: {reason}" for reason in recheck_step(enclosure.cfg, step)]
        t, previous, where = step.t + step.h, step.end, f"where step {k} ended"
    return failures


def _same(a: LohnerSet, b: LohnerSet) -> bool:
    """Whether b's set lies inside a's: the same centre and frame, and b's box inside a's."""
    return (
        all(x.mid() == y.mid() and x.rad() == y.rad() for x, y in zip(a.centre, b.centre, strict=True))
        and a.frame == b.frame
        and all(r.contains(s) for r, s in zip(a.spread, b.spread, strict=True))
    )
