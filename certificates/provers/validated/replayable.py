"""A certificate of a trajectory statement: a chain of steps that the checking kernel replays
(`headflow.certificates.kernel.trajectory`), built with the kernel's own step (`replay_step`) so that every step
written is one the checker accepts.

Each end set is a Euclidean ball around a dyadic centre (the Taylor polynomial's value at the step's end, its
midpoint), of the radius the kernel's step needs rounded up (the kernel's box does not depend on that radius, so one
replay of the step gives it); the box is the hull of the start set and the next centre widened by a margin that grows
until the kernel's a priori enclosure holds, the log-norm bound rises until shown and the next step tries a lower one
first, and the step size follows its remainder (the next one's remainder about SAFETY of the step's
budget). Every budget is counted (steps, tries), never timed: the chain is the same on every machine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from flint import arb
from headflow.certificates.kernel.exact import ball_of, exact_value, interval_ball, precision
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.trajectory import Statement, over_step, replay_step, solution_coefficients
from headflow.certificates.provers.validated.integrator import PACE_STEPS, beyond_pace
from headflow.certificates.provers.validated.taylor import polynomial

#: Order of the Taylor polynomials (the remainder's series has length ORDER + 2, within python-flint's default cap of
#: 10 where the kernel replays it) and working precision (bits) of the chain.
ORDER, BITS = 8, 128
#: Tries of a step: margins (each 4 times the last) per step size, log-norm bounds raised (each 3/2 times the last),
#: and shorter step sizes.
MARGIN_TRIES, MU_TRIES, SHORTENINGS = 5, 8, 16
#: The largest growth rate of the radius a step may show (a larger one: a shorter step, whose smaller box lowers the
#: log-norm bound: at 32 softmax 3 x 2 stopped at t = 7.5, at 4 it reaches T = 10 with radius 1e-7).
GROWTH_RATE = 4
#: Step-size control: the next size spends about SAFETY of the remainder a step may add, grows at most MAX_GROWTH
#: times, and a step that fails for another reason than its remainder is retried SHRINK times as long.
SAFETY, MAX_GROWTH, SHRINK = 0.5, Fraction(3, 2), Fraction(1, 2)
#: After PACE_STEPS steps (`integrator.beyond_pace`) a chain stops when, at their pace, PACE_ROOM times its step budget
#: would not reach the horizon (its steps grow less than that later: the budget is not spent on a chain that cannot
#: end); checked once, at that step. Each step tries LOWER times the last log-norm bound first.
PACE_ROOM, LOWER = 2, Fraction(7, 8)
#: The largest remainder per unit time a step may add, tried in turn: the looser one takes longer steps (the remainder
#: of order ORDER + 1 limits them; examples/trajectories.toml: 61 s of CPU against 107 s, the same verdicts, end radii
#: ~1e-7 against ~1e-10); the tighter one only where the looser chain stopped short for another reason than its step
#: budget (a bound within the looser radius, a radius that grew until no step held).
TOLERANCES = (Fraction(1, 2**24), Fraction(1, 2**36))


@dataclass
class Chain:
    """The steps written so far (certificate data), where they reached and why the chain stopped ("" while going)."""

    steps: list[dict[str, Any]] = field(default_factory=list)
    t: Fraction = Fraction(0)
    radius: Fraction = Fraction(0)
    #: The log-norm bound the next step tries first (each step tries a little less than the last one's).
    mu: Fraction = Fraction(1)
    stopped: str = ""
    #: Whether it stopped on its step budget (spent, or its pace would spend it): a tighter tolerance takes more steps.
    out_of_steps: bool = False

    def payload(self, negated: bool) -> dict[str, Any]:
        """The certificate's payload (`negated`: the statement is a claim's negation, for the elaboration)."""
        return {"prec": BITS, "order": ORDER, "steps": self.steps, "negated": negated}


def _dyadic_up(value: arb) -> Fraction:
    """A dyadic rational >= the ball's upper end (48 significant bits)."""
    upper = exact_value(value.upper())
    if upper <= 0:
        return Fraction(0)
    exponent = upper.numerator.bit_length() - upper.denominator.bit_length() - 48
    scale = Fraction(2) ** exponent
    return (upper / scale).__ceil__() * scale


def _predicted(statement: Statement, centre: list[Fraction], h: Fraction) -> list[Fraction]:
    """The Taylor polynomial's value at h from the centre, as exact midpoints."""
    coefficients = solution_coefficients(statement.field, [ball_of(v) for v in centre], ORDER)
    return [exact_value(v.mid()) for v in polynomial(coefficients, ball_of(h))]


def _try(
    statement: Statement,
    centre: list,
    radius: Fraction,
    h: Fraction,
    mu: Fraction,
    tolerance: Fraction,
) -> tuple[dict[str, Any] | None, Fraction]:
    """(a step of size h the kernel accepts from (centre, radius), its margin widened and its log-norm bound mu
    raised until shown, or None, also when its remainder passes `tolerance` per unit time; the factor the next step
    size is scaled by, `_scale`). The kernel's box does not depend on the stated radius, so the radius written is the
    one its `replay_step` needs, rounded up."""
    following = _predicted(statement, centre, h)
    motion = max(abs(a - b) for a, b in zip(centre, following, strict=True))
    margin = motion / 16 + Fraction(1, 2**100)
    for _ in range(MARGIN_TRIES + MU_TRIES):
        try:
            box, needed = replay_step(statement, centre, radius, (h, following, margin, mu), ORDER, "")
        except Rejected as exc:
            if "logarithmic norm" in str(exc):
                mu = mu * 3 / 2 + Fraction(1, 8)
            else:
                margin *= 4
            continue
        except ValueError:  # a series division by a ball that may be 0 over the box: a shorter step
            return None, SHRINK
        allowed = float(tolerance * h + radius * (1 + GROWTH_RATE * h))
        scale = _scale(float(needed), float(tolerance * h), float(radius) * math.exp(float(h * mu)))
        if float(needed) > allowed:
            return None, min(scale, SHRINK)  # a step whose remainder or growth is too large: a shorter one
        start = [interval_ball(c - radius, c + radius) for c in centre]
        if statement.when == "always" and not over_step(statement, start, box, h, not radius):
            return None, SHRINK  # the bound is not shown over this step: a shorter one
        return {"h": h, "centre": following, "radius": _dyadic_up(needed), "margin": margin, "mu": mu}, scale
    return None, SHRINK


def _scale(needed: float, budget: float, spread: float) -> Fraction:
    """The factor from this step's size to the next one's: the remainder (needed - the spread's growth) grows like
    h^(ORDER + 1), so the size whose remainder would be SAFETY of the step's budget (tolerance x h), within [1/4,
    MAX_GROWTH]."""
    factor = (SAFETY * budget / max(needed - spread, 1e-300)) ** (1 / (ORDER + 1))
    return Fraction(min(max(factor, 0.25), float(MAX_GROWTH))).limit_denominator(64)


def build_chain(statement: Statement, horizon: Fraction, max_steps: int) -> Chain:
    """Steps from the exact start until they reach `horizon` (a `sometime` statement: until a step end shows its
    bound), or until the counted budget ends (`Chain.stopped` says where and why): with each of TOLERANCES in turn
    until a chain does not stop, or stops at its step budget."""
    for tolerance in TOLERANCES:
        chain = _chain(statement, horizon, max_steps, tolerance)
        if not chain.stopped or chain.out_of_steps:  # done, or out of steps (a tighter one takes more)
            break
    return chain


def _chain(statement: Statement, horizon: Fraction, max_steps: int, tolerance: Fraction) -> Chain:
    """`build_chain` with one tolerance."""
    chain = Chain()
    centre = [v for x in statement.cfg.tokens for v in x]
    h = min(horizon / 8, Fraction(1, 8))
    with precision(BITS):
        at_start = statement.when == "sometime" and _shown_at(statement, centre, Fraction(0))
        while chain.t < horizon:
            if len(chain.steps) >= max_steps:
                chain.stopped = f"the budget of {max_steps} steps ended at t = {float(chain.t):.6g}"
                chain.out_of_steps = True
                return chain
            if len(chain.steps) == PACE_STEPS and beyond_pace(PACE_STEPS, chain.t, horizon, max_steps, PACE_ROOM):
                chain.stopped = f"at t = {float(chain.t):.6g} after {PACE_STEPS} steps, a pace that needs more than "
                chain.stopped += f"{PACE_ROOM} x its budget of {max_steps} steps to reach {float(horizon):.6g}"
                chain.out_of_steps = True
                return chain
            for _ in range(SHORTENINGS):
                step, scale = _try(statement, centre, chain.radius, min(h, horizon - chain.t), chain.mu, tolerance)
                if step is not None:
                    break
                h *= scale
            else:
                chain.stopped = f"no step could be validated at t = {float(chain.t):.6g}"
                return chain
            chain.steps.append({k: _text(v) for k, v in step.items()})
            chain.t, centre, chain.radius = chain.t + step["h"], step["centre"], step["radius"]
            h, chain.mu = step["h"] * scale, step["mu"] * LOWER  # the next step tries a lower bound first
            if statement.when == "sometime" and (at_start or _shown_at(statement, centre, chain.radius)):
                return chain  # the start or a step end shows the bound: the kernel reads no later step
    if statement.when == "sometime":
        chain.stopped = f"no step end up to t = {float(horizon):.6g} shows the bound"
    return chain


def _shown_at(statement: Statement, centre: list[Fraction], radius: Fraction) -> bool:
    """Whether the statement's bound is shown on the set {|x - centre|_oo <= radius} (`Statement.met`)."""
    return statement.met(statement.field([interval_ball(c - radius, c + radius) for c in centre], "residuals"))


def _text(value: Any) -> Any:
    """Rationals (and lists of them) as the certificate's text."""
    return [str(v) for v in value] if isinstance(value, list) else str(value)
