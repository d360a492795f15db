"""A dynamics claim about the trajectory from the user's own exact tokens, decided along a validated enclosure of it.

The validated integrator (`headflow.certificates.provers.validated`) encloses the one trajectory from exact tokens
(`tokens = "given"` with exact rational `points`, scalar or given heads, aligned, identity or given values) step by
step: each step's a priori box holds every state of [t, t + h] and its end set the state at t + h. Along it an
observable q (the pairwise quantities of `given_start.PAIRWISE`, the energy E or E_h, dE/dt; each the least or
largest of its terms) is enclosed with balls:

- at each step end: q of the end set's hull, a ball of q(t + h);
- over each step: q(t + s) = q(t) + int_0^s dq/dt, and dq/dt = grad q . xdot lies in the first coefficient of q along
  the series B + s f(B) (B the step's box tightened by Picard images, f(B) the field over it: the same evaluators
  over python-flint's arb_series), so q on [t, t + h] lies in q(t) + [0, h] r and in q(t + h) - [0, h] r, r that
  coefficient's ball; each end of the interval is the tighter of the two (at t = 0 q(0) is exact for the pairwise
  quantities: a bound the start attains exactly can hold).

It decides, for a finite horizon [0, T] (`time`, or `dynamics_starts.HORIZON`; the claimed T* of a clustering time):

- `non-negative`, `at-least`, `at-most`: REFUTED when a step end's ball lies strictly beyond the bound (a time t > 0
  where the claim fails; t = 0 is `given_start`'s); it holds when every step's interval lies on the bound's side;
- `stays-non-negative`, `stays-at-least c` (an invariant region: the claim is about a start with q >= c at t = 0):
  read as `at-least c` once the exact start is shown (exactly, or by balls) to satisfy q(0) >= c; a start shown below
  c is outside the hypothesis (the claim says nothing about it) and one balls cannot place is undecided. A refutation
  is then a start inside the region and a later state outside it: a certified trajectory leaving the region;
- `non-decreasing`: REFUTED when a later step end's ball lies strictly below an earlier one's (or the exact start);
  it holds when every term's rate ball is >= 0 over every step;
- `clustering_time` (the first t with cluster_gap <= level): `at-most T*` REFUTED when the gap stays strictly above
  the level over every step of [0, T*], `at-least T*` REFUTED when a step end before T* has the gap <= level; each
  holds in the other case.

A refutation is a counterexample verified with balls (`witness.verified_by` = "ball": the time, the ball and the
reading); a claim the enclosure shows true, or false, then gets a certificate of the claim (CERTIFIED) or of its
negation (REFUTED) that the checking kernel replays (`trajectory_certificates`: a `trajectory` statement and a chain of
steps); where none is accepted (a quantity or a relation no statement form states, a chain that stops) a true claim is
not CERTIFIED: the other routes decide it (CONFIRMED at most), and the outcome's notes and details say that the
enclosure holds the bound and why there is no certificate. Where the integrator does not cover the model, the state is
too large for the profile, or the enclosure does not reach T within its counted budget, the route does not decide and
says why.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from flint import arb, arb_series
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.kernel.exact import ball_of, precision
from headflow.certificates.kernel.exact_data import ExactConfiguration
from headflow.certificates.kernel.trajectory import coefficient
from headflow.certificates.model_balls import TermAtTokens
from headflow.certificates.provers.validated import Step, enclose
from headflow.certificates.provers.validated.integrator import BITS, PACE_STEPS, beyond_pace
from headflow.certificates.provers.validated.step import time_interval
from headflow.certificates.provers.validated.taylor import coverage_failure, model_field, series_length
from headflow.certificates.statements.trajectory import INVARIANT_REGIONS, LIMITS, bound_reading, given_configuration
from headflow.checks.claimsfile import trajectory_certificates
from headflow.checks.claimsfile.given_start import PAIRWISE
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict

#: The largest n x d the route integrates in each profile (the compiled field: 16 x 4 reaches T = 10 in ~170 steps,
#: ~40 s on one core, benchmarks/validated.py).
MAX_SIZE = {"quick": 24, "thorough": 64}
#: One claim's work in steps x (n d)^2, counted, never timed (quick: ~80 steps at n d = 12, ~20 at n d = 24;
#: thorough: ~240 steps at n d = 64).
WORK = {"quick": 12_000, "thorough": 1_000_000}
#: How often a step's box is replaced by its Picard image before the observable's rate is read over it.
TIGHTENINGS = 2
#: The model terms (`certificates.kernel.model_terms`) of the quantities read from the chain: (without, with) a head.
TERMS = {"energy": ("E", "E_h"), "energy_rate": ("dE_dt", None)}
METHOD = (
    "balls along a validated enclosure of the trajectory from the user's exact tokens (Lohner steps, or where they "
    "stop short a chain of steps the kernel replays)"
)

LIMIT_METHOD = "a validated enclosure (balls) into an open hemisphere, then the cone collapse theorem"

Number = Fraction | arb
Terms = Callable[[Sequence[Sequence[Any]]], list[Any]]


@dataclass(frozen=True)
class Enclosed:
    """What the enclosure showed: a REFUTED or CERTIFIED outcome, or a note and details for the outcome the other
    routes give (both empty where the route does not apply)."""

    decided: Outcome | None = None
    note: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    def annotate(self, outcome: Outcome) -> Outcome:
        """The outcome with this note and details added (unchanged when there are none)."""
        if not self.note:
            return outcome
        notes = "; ".join(text for text in (outcome.notes, self.note) if text)
        return dataclasses.replace(
            outcome, notes=notes, details=outcome.details | {"validated_enclosure": self.details}
        )


@dataclass(frozen=True)
class Reading:
    """What the claim asks of its observable: its terms (`terms` of the state's rows) and whether the quantity is
    their least or largest (`pick`), the relation (`at-least`, `at-most`, `non-decreasing`, or `clustering-at-most`
    / `clustering-at-least` of a level), the bound (or level) and the horizon T."""

    terms: Terms
    pick: Callable[..., Any]
    relation: str
    bound: Fraction
    horizon: Fraction
    #: The terms are rational functions of the tokens (the pairwise ones): exact at the exact start.
    rational: bool = True
    #: The bound is also the claim's hypothesis at t = 0 (an invariant region): decided only for a start inside it.
    hypothesis: bool = False


def decide_by_enclosure(claim: DynamicsClaim, ctx: Context) -> Enclosed:
    """REFUTED when the enclosure shows the claim fails at some time; a note when it shows it holds, or why it does
    not decide; nothing when the claim is not about the one trajectory of exact data."""
    cfg = given_configuration(claim.options)
    if cfg is None or claim.exists:
        return Enclosed()
    size = cfg.n * len(cfg.tokens[0])
    too_large = f"n x d = {size} is more than the {ctx.profile} profile encloses ({MAX_SIZE[ctx.profile]})"
    if claim.property in LIMITS:  # the kernel's statement says which models it covers
        return _undecided(too_large, {"size": size}) if size > MAX_SIZE[ctx.profile] else _decide_limit(claim, ctx)
    reading = _reading(claim, cfg)
    if reading is None:
        return Enclosed()
    if reason := coverage_failure(cfg):
        return _undecided(f"{reason}", {"covered": False})
    if size > MAX_SIZE[ctx.profile]:
        return _undecided(too_large, {"size": size})
    return _Watch(claim, cfg, reading, ctx).run()


def _decide_limit(claim: DynamicsClaim, ctx: Context) -> Enclosed:
    """CERTIFIED or REFUTED by an accepted certificate of the claim's limit statement or of its negation (the kernel
    states at most one of them: it compares the stated limit exactly with the value at a collapse, and accepts a chain
    that reaches an open hemisphere, where the cone collapse theorem applies); otherwise the note why not."""
    whys = []
    for negated in (False, True):
        path, how = trajectory_certificates.certify(claim, negated, ctx)
        if path is None:
            whys.append(how)
            continue
        is_limit = (claim.property == "tends-to") != negated  # the certified statement says the limit is L
        reading = (
            "the tokens enter an open hemisphere (balls of a validated enclosure), so by the cone collapse theorem "
            f"they converge to one point, where {claim.quantity}'s limit is {'' if is_limit else 'not '}{claim.target}"
        )
        witness = {"verified_by": "ball", "quantity": claim.quantity, "reading": reading}
        verdict, details = (Verdict.REFUTED, {"witness": witness}) if negated else (Verdict.CERTIFIED, {})
        return Enclosed(decided=Outcome(verdict, LIMIT_METHOD, certificates=[path], notes=how, **details))
    if set(whys) == {trajectory_certificates.NO_STATEMENT}:
        return Enclosed()  # not a limit the kernel states (its quantity, an interaction): the other routes decide
    return _undecided("; ".join(dict.fromkeys(whys)), {"limit": True})


def _reading(claim: DynamicsClaim, cfg: ExactConfiguration) -> Reading | None:
    """The claim's observable, relation, bound and horizon (`bound_reading`), or None when the route does not read
    the claim."""
    reading, head = bound_reading(claim, cfg.geometry), claim.options.get("head")
    if reading is None:
        return None
    relation, bound, horizon = reading
    if relation.startswith("clustering"):
        return Reading(*PAIRWISE["cluster_gap"], relation, bound, horizon)
    region = claim.property in INVARIANT_REGIONS
    if claim.quantity in PAIRWISE and head is None:
        return Reading(*PAIRWISE[claim.quantity], relation, bound, horizon, hypothesis=region)
    if claim.quantity in TERMS and (name := TERMS[claim.quantity][head is not None]) is not None:
        term = TermAtTokens(cfg, name, head)
        return Reading(lambda rows: [term(rows)], max, relation, bound, horizon, rational=False, hypothesis=region)
    return None


def _undecided(why: str, details: dict[str, Any]) -> Enclosed:
    return Enclosed(note=f"no validated enclosure decides it: {why}", details={"decided": False, **details})


class _Stop(Exception):
    """Ends the integration from inside its step callback (decided, or the budget's pace is not enough)."""


class _Watch:
    """The claim checked along the enclosure as each validated step comes (`enclose`'s callback)."""

    def __init__(self, claim: DynamicsClaim, cfg: ExactConfiguration, reading: Reading, ctx: Context) -> None:
        self.claim, self.cfg, self.reading, self.ctx = claim, cfg, reading, ctx
        self.d, self.field = len(cfg.tokens[0]), model_field(cfg)
        size = cfg.n * self.d
        self.max_steps = max(PACE_STEPS, WORK[ctx.profile] // (size * size))
        self.steps: list[Step] = []
        self.held = True  # every step so far on the claimed side
        self.straddled: tuple[float, float] | None = None  # the first step whose balls do not decide
        self.refuted: Outcome | None = None
        self.holds_early: str = ""  # a clustering time shown at most T* at a step end
        self.stopped = ""
        self.lowest: Number | None = None  # the least lower end of the observable over the steps so far
        with precision(BITS):
            rows = cfg.tokens if reading.rational else [[ball_of(v) for v in row] for row in cfg.tokens]
            start = reading.terms(rows)
        self.values: list[Number] = start  # the terms at the current step's start (exact at t = 0 when rational)
        self.start = _interval(start, reading.pick)
        self.earliest_low: tuple[Number, Fraction] = (self.start[0], Fraction(0))  # non-decreasing: the largest low

    def run(self) -> Enclosed:
        outside = self._outside_hypothesis()
        if outside:
            return _undecided(outside, {"start": [_text(end) for end in self.start]})
        try:
            enclosure = enclose(self.cfg, self.reading.horizon, max_steps=self.max_steps, on_step=self.step)
            status = enclosure.status
        except _Stop:
            status = self.stopped
        if self.refuted is not None:
            return Enclosed(decided=self._certified(self.refuted))
        reached = status == "reached T"
        details = self._details(reached, status)
        T = f"[0, {float(self.reading.horizon):.6g}]"
        if self.holds_early:
            return self._holding(f"a validated enclosure (balls) {self.holds_early}", details)
        if not reached:  # its counted budget or pace (a large state), or its steps, stopped it: a chain may go on
            return self._chained(f"the validated enclosure stopped: {status}", details)
        if self.held:
            holds = f"a validated enclosure (balls) holds the bound on {T} ({len(self.steps)} steps)"
            return self._holding(holds, details | {"holds": True})
        assert self.straddled is not None
        a, b = self.straddled
        return _undecided(f"the enclosure reached T, but its balls straddle the bound on [{a:.6g}, {b:.6g}]", details)

    def _certificate(self, negated: bool) -> tuple[str | None, str]:
        """An accepted certificate of the claim (or of its negation) and what happened, or (None, why not)."""
        return trajectory_certificates.certify(self.claim, negated, self.ctx)

    def _holding(self, holds: str, details: dict[str, Any]) -> Enclosed:
        """CERTIFIED when a replayable certificate of the claim is accepted, else the enclosure's note."""
        outcome, how = self._claim_certified(holds, details)
        return Enclosed(decided=outcome) if outcome else Enclosed(note=f"{holds}; {how}", details=details)

    def _chained(self, stopped: str, details: dict[str, Any]) -> Enclosed:
        """CERTIFIED when a certificate of the claim is accepted where the enclosure stopped short of T (its chain of
        steps, which the kernel replays, is an enclosure of its own that holds the bound: at n d = 64 it reaches
        T = 10 where the Lohner enclosure's pace does not), else undecided with both reasons."""
        holds = (
            f"{stopped}; a chain of validated steps (balls) holds the bound on [0, {float(self.reading.horizon):.6g}]"
        )
        outcome, how = self._claim_certified(holds, details | {"holds": True})
        return Enclosed(decided=outcome) if outcome else _undecided(f"{stopped}; {how}", details)

    def _claim_certified(self, holds: str, details: dict[str, Any]) -> tuple[Outcome | None, str]:
        """(CERTIFIED with an accepted certificate of the claim, or None; what its certification did)."""
        path, how = self._certificate(negated=False)
        if path is None:
            return None, how
        enclosure = {"validated_enclosure": details}
        return Outcome(Verdict.CERTIFIED, METHOD, certificates=[path], notes=f"{holds}; {how}", details=enclosure), how

    def _certified(self, refuted: Outcome) -> Outcome:
        """The refutation with an accepted certificate of the claim's negation, or with the note why it has none."""
        path, how = self._certificate(negated=True)
        notes = f"the counterexample is verified with balls; {how}"
        return dataclasses.replace(refuted, certificates=[path] if path else [], notes=notes)

    def _outside_hypothesis(self) -> str:
        """Why an invariant region's claim says nothing decidable about this start ("" when it is inside)."""
        bound, (low, high) = self.reading.bound, self.start
        if not self.reading.hypothesis or _at_most(bound, low):
            return ""
        if _below(high, bound):
            return f"the start is outside the region (q(0) < {bound}): the claim says nothing about its trajectory"
        return f"balls do not show the start inside the region (q(0) >= {bound})"

    def _details(self, reached: bool, status: str) -> dict[str, Any]:
        widths = [step.width() for step in self.steps]
        return {
            "decided": bool(self.held and reached) or bool(self.holds_early),
            "status": status,
            "steps": len(self.steps),
            "t_reached": float(self.steps[-1].t + self.steps[-1].h) if self.steps else 0.0,
            "widest_end_set": max(widths, default=0.0),
        }

    def step(self, step: Step) -> None:
        """Check the claim over the step and at its end; _Stop when decided or when the pace would not reach T."""
        self.ctx.check_budget()
        self.steps.append(step)
        reading, end_time = self.reading, step.t + step.h
        with precision(step.bits), series_length(2):
            box, velocity = _tightened(self.field, step)
            along = self._rows([arb_series([b, v], prec=2) for b, v in zip(box, velocity, strict=True)])
            rates = [coefficient(value, 1) for value in reading.terms(along)]
            ends = reading.terms(self._rows(step.end.hull()))
            over = [_over_step(*term, step.h) for term in zip(self.values, ends, rates, strict=True)]
        over_step, at_end = _combined(over, reading.pick), _interval(ends, reading.pick)
        self.values = ends
        self._judge(step, over_step, at_end, rates)
        if self.refuted is not None or self.holds_early:
            self.stopped = "decided"
            raise _Stop
        if beyond_pace(k := len(self.steps), end_time, reading.horizon, self.max_steps):
            self.stopped = (
                f"at t = {float(end_time):.6g} after {k} steps, a pace that needs more than the {self.ctx.profile} "
                f"profile's {self.max_steps} steps to reach T = {float(reading.horizon):.6g}"
            )
            raise _Stop

    def _rows(self, state: Sequence[Any]) -> list[list[Any]]:
        return [list(state[i : i + self.d]) for i in range(0, len(state), self.d)]

    def _judge(self, step: Step, over: tuple[Number, Number], end: tuple[Number, Number], rates: list[arb]) -> None:
        """Refute at the step's end, or record whether the step holds the claim."""
        relation, bound, t_end = self.reading.relation, self.reading.bound, step.t + step.h
        if relation == "at-least":
            self._refute_if(_below(end[1], bound), t_end, end, f"< {bound}")
            self._holds_if(_at_most(bound, over[0]), step)
        elif relation == "at-most":
            self._refute_if(_below(bound, end[0]), t_end, end, f"> {bound}")
            self._holds_if(_at_most(over[1], bound), step)
        elif relation == "non-decreasing":
            earlier, when = self.earliest_low
            if _below(end[1], earlier):
                self._refute_if(True, t_end, end, f"< its value {_text(earlier)} (lower end) at t = {float(when):.6g}")
            if _below(earlier, end[0]):
                self.earliest_low = (end[0], t_end)
            self._holds_if(all(bool(r >= 0) for r in rates), step)
        else:
            self._clustering(step, over, end)

    def _clustering(self, step: Step, over: tuple[Number, Number], end: tuple[Number, Number]) -> None:
        """The first t with cluster_gap <= level against T*: the horizon of the enclosure is T*."""
        level, T, t_end = self.reading.bound, self.reading.horizon, step.t + step.h
        clustered = _at_most(end[1], level)  # the gap at t_end is <= level: clustering_time <= t_end
        if self.reading.relation == "clustering-at-least":  # the gap < level at T* is < level just before T* too
            early = (clustered and t_end < T) or _below(end[1], level)
            relation = f"{'<=' if t_end < T else '<'} level {level}: clustering_time < T* = {T}"
            self._refute_if(early, t_end, end, relation)
        elif clustered:
            self.holds_early = f"shows cluster_gap <= {level} at t = {float(t_end):.6g} <= T* = {float(T):.6g}"
        self._holds_if(_below(level, over[0]), step)  # the gap stays above the level over the step
        self.lowest = over[0] if self.lowest is None or _below(over[0], self.lowest) else self.lowest
        if self.reading.relation == "clustering-at-most" and t_end == T and self.held:
            self.refuted = self._outcome(
                t_end,
                f">= {_text(self.lowest)}",
                f"cluster_gap > level {level} at every time of [0, {T}]: over each of the {len(self.steps)} steps "
                f"its balls lie strictly above the level (least lower end {_text(self.lowest)}), so clustering_time "
                "> T*",
            )

    def _holds_if(self, holds: bool, step: Step) -> None:
        if not holds and self.held:
            self.held, self.straddled = False, (float(step.t), float(step.t + step.h))

    def _refute_if(self, fails: bool, t: Fraction, end: tuple[Number, Number], relation: str) -> None:
        if fails and self.refuted is None:
            value = _hull(end)
            name = "cluster_gap" if self.claim.quantity == "clustering_time" else self.claim.quantity
            reading = f"at t = {float(t):.10g} {name} in {value} {relation} (a ball of the enclosed state)"
            if self.reading.hypothesis:
                low = _text(self.start[0])
                reading += (
                    f", from a start inside the region (at t = 0 {name} >= {low} >= {self.reading.bound}): the "
                    "trajectory leaves the region"
                )
            self.refuted = self._outcome(t, value, reading)

    def _outcome(self, t: Fraction, value: str, reading: str) -> Outcome:
        witness = {
            "verified_by": "ball",
            "time": float(t),
            "quantity": self.claim.quantity,
            "value": value,
            "reading": reading,
            "enclosure": {"steps": len(self.steps), "widest_end_set": max(s.width() for s in self.steps)},
        }
        return Outcome(Verdict.REFUTED, METHOD, witness=witness, cases=len(self.steps))


def _tightened(field: Callable[[Sequence[Any]], list[Any]], step: Step) -> tuple[list[arb], list[arb]]:
    """A box of the states over the step and the field over it: the step's a priori box B holds every state of
    [t, t + h], so each state also lies in the Picard image hull(start) + [0, h] f(B) (an integral of f along a path
    inside B), a box as tight as the motion over the step; taken TIGHTENINGS times, each inside the last."""
    box, start, interval = list(step.box), step.start.hull(), time_interval(step.h)
    velocity = field(box)
    for _ in range(TIGHTENINGS):
        image = [x + interval * v for x, v in zip(start, velocity, strict=True)]
        box = [b.intersection(c) if b.overlaps(c) else b for b, c in zip(box, image, strict=True)]
        velocity = field(box)
    return box, velocity


def _ball(value: Number) -> arb:
    return value if isinstance(value, arb) else ball_of(value)


def _low(value: Number) -> Number:
    return value if isinstance(value, Fraction) else value.lower()


def _high(value: Number) -> Number:
    return value if isinstance(value, Fraction) else value.upper()


def _below(a: Number, b: Number) -> bool:
    """a < b, for every point of the balls (exactly for rationals)."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a < b
    return bool(_ball(a) < _ball(b))


def _at_most(a: Number, b: Number) -> bool:
    """a <= b, for every point of the balls (exactly for rationals)."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a <= b
    return bool(_ball(a) <= _ball(b))


def _over_step(start: Number, end: Number, rate: arb, h: Fraction) -> tuple[Number, Number]:
    """The interval of q(t + s), s in [0, h], from q(t), q(t + h) and a ball r of dq/dt over the step: forwards
    q(t + s) lies in q(t) + [0, h] r, backwards in q(t + h) - [0, h] r; each end of the interval is the tighter of
    the two (where r has a sign, the values at the step's ends: the interval of a monotone step)."""
    hb = ball_of(h)
    forward = (
        _low(start) if rate >= 0 else (_ball(_low(start)) + hb * rate.lower()).lower(),
        _high(start) if rate <= 0 else (_ball(_high(start)) + hb * rate.upper()).upper(),
    )
    backward = (
        _low(end) if rate <= 0 else (_ball(_low(end)) - hb * rate.upper()).lower(),
        _high(end) if rate >= 0 else (_ball(_high(end)) - hb * rate.lower()).upper(),
    )
    low = backward[0] if _below(forward[0], backward[0]) else forward[0]
    high = backward[1] if _below(backward[1], forward[1]) else forward[1]
    return low, high


def _extreme(values: Sequence[Number], pick: Callable[..., Any]) -> Number:
    """min or max (`pick`) of numbers: the least or largest rational when it lies beyond every ball (exact), else a
    ball containing it (not finite when a ball is not)."""
    exact = [v for v in values if isinstance(v, Fraction)]
    balls = [v for v in values if isinstance(v, arb)]
    best = pick(exact) if exact else None
    if not balls:
        return best  # type: ignore[return-value]
    if not all(b.is_finite() for b in balls):
        return arb("nan")
    low, high = pick(b.lower() for b in balls), pick(b.upper() for b in balls)
    if best is not None:
        if _at_most(best, low) if pick is min else _at_most(high, best):
            return best
        low, high = pick(low, ball_of(best).lower()), pick(high, ball_of(best).upper())
    return low.union(high)


def _combined(intervals: Sequence[tuple[Number, Number]], pick: Callable[..., Any]) -> tuple[Number, Number]:
    """The interval of the least or largest of the terms, from each term's interval."""
    return _low(_extreme([i[0] for i in intervals], pick)), _high(_extreme([i[1] for i in intervals], pick))


def _interval(values: Sequence[Number], pick: Callable[..., Any]) -> tuple[Number, Number]:
    """The interval of the least or largest of the terms' values (rationals or balls)."""
    return _combined([(_low(v), _high(v)) for v in values], pick)


def _text(value: Number) -> str:
    return str(value) if isinstance(value, Fraction) else value.str(12, radius=True)


def _hull(interval: tuple[Number, Number]) -> str:
    """The interval as text: the exact value, or a ball."""
    low, high = interval
    if isinstance(low, Fraction) and low == high:
        return str(low)
    return _ball(low).union(_ball(high)).str(12, radius=True)
