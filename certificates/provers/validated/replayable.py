"""A certificate of a trajectory statement: a chain of steps that the checking kernel replays
(`headflow.certificates.kernel.trajectory`), built with the kernel's own step (`replay_step`) so that every step
written is one the checker accepts.

Each end set is a ball in the max norm around a dyadic centre (the Taylor polynomial's value at the step's end, its
midpoint), of the radius the kernel's step needs times a small slack; the box is the hull of the step's two sets
widened by a margin that grows until Picard's inclusion holds, and the step size halves when it never does and grows
after each accepted step. Every budget is counted (steps, tries), never timed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from flint import arb
from headflow.certificates.kernel.exact import ball_of, exact_value, interval_ball, precision
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.trajectory import Statement, over_step, replay_step, solution_coefficients
from headflow.certificates.provers.validated.compiled_field import CompiledStatement
from headflow.certificates.provers.validated.taylor import polynomial

#: Order of the Taylor polynomials (the remainder's series has length ORDER + 2, within python-flint's default cap of
#: 10 where the kernel replays it) and working precision (bits) of the chain.
ORDER, BITS = 8, 128
#: The radius written is the needed one times this slack (the box, and so the step's remainder and growth, depend a
#: little on the radius itself): a slack s compounds to s^steps, so it is small.
SLACK = 1 + Fraction(1, 2**16)
#: Tries of a step: margins (each 4 times the last) per step size, radii settled, log-norm bounds raised (each 3/2
#: times the last), and step-size halvings.
MARGIN_TRIES, SETTLING, MU_TRIES, HALVINGS = 5, 3, 8, 12
#: Growth of the step size after an accepted step, and the largest growth rate of the radius a step may show (a larger
#: one: a shorter step, whose smaller box lowers the log-norm bound: at 32 softmax 3 x 2 stopped at t = 7.5, at 4 it
#: reaches T = 10 with radius 1e-7).
GROWTH, GROWTH_RATE = Fraction(5, 4), 4
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


def _predicted(statement: Statement | CompiledStatement, centre: list[Fraction], h: Fraction) -> list[Fraction]:
    """The Taylor polynomial's value at h from the centre, as exact midpoints."""
    coefficients = solution_coefficients(statement.field, [ball_of(v) for v in centre], ORDER)
    return [exact_value(v.mid()) for v in polynomial(coefficients, ball_of(h))]


def _try(
    statement: Statement | CompiledStatement,
    centre: list,
    radius: Fraction,
    h: Fraction,
    mu: Fraction,
    tolerance: Fraction,
) -> dict[str, Any] | None:
    """A step of size h the kernel accepts from (centre, radius), its log-norm bound mu raised until shown, or None
    (also when its remainder passes `tolerance` per unit time)."""
    following = _predicted(statement, centre, h)
    motion = max(abs(a - b) for a, b in zip(centre, following, strict=True))
    margin, r = motion / 16 + Fraction(1, 2**100), radius * 2 + Fraction(1, 2**100)
    for _ in range(MARGIN_TRIES + SETTLING + MU_TRIES):
        try:
            box, needed = replay_step(statement, centre, radius, (h, following, r, margin, mu), ORDER, "")
        except Rejected as exc:
            if "logarithmic norm" in str(exc):
                mu = mu * 3 / 2 + Fraction(1, 8)
            else:
                margin *= 4
            continue
        if float(needed) > float(tolerance * h + radius * (1 + GROWTH_RATE * h)):
            return None  # a step whose remainder or growth is too large: a shorter one
        if needed <= ball_of(r) and r <= _dyadic_up(needed * ball_of(SLACK * SLACK)):
            start = [interval_ball(c - radius, c + radius) for c in centre]
            if statement.when == "always" and not over_step(statement, start, box, h, not radius):
                return None  # the bound is not shown over this step: a shorter one
            return {"h": h, "centre": following, "radius": r, "margin": margin, "mu": mu}
        r = _dyadic_up(needed * ball_of(SLACK))  # the box depends a little on the radius: settle it
    return None


def build_chain(statement: Statement, horizon: Fraction, max_steps: int) -> Chain:
    """Steps from the exact start until they reach `horizon` (a `sometime` statement: until a step end shows its
    bound), or until the counted budget ends (`Chain.stopped` says where and why): with each of TOLERANCES in turn
    until a chain does not stop, or stops at its step budget."""
    trial = CompiledStatement(statement)  # the trial steps on the compiled field
    for tolerance in TOLERANCES:
        chain = _chain(trial, horizon, max_steps, tolerance)
        if not chain.stopped or len(chain.steps) >= max_steps:  # done, or out of steps (a tighter one takes more)
            break
    return chain


def _chain(trial: CompiledStatement, horizon: Fraction, max_steps: int, tolerance: Fraction) -> Chain:
    """`build_chain` with one tolerance."""
    chain = Chain()
    centre = [v for x in trial.cfg.tokens for v in x]
    h = min(horizon / 8, Fraction(1, 8))
    with precision(BITS):
        at_start = trial.when == "sometime" and _shown_at(trial, centre, Fraction(0))
        while chain.t < horizon:
            if len(chain.steps) >= max_steps:
                chain.stopped = f"the budget of {max_steps} steps ended at t = {float(chain.t):.6g}"
                return chain
            for _ in range(HALVINGS):
                step = _try(trial, centre, chain.radius, min(h, horizon - chain.t), chain.mu, tolerance)
                if step is not None:
                    break
                h /= 2
            else:
                chain.stopped = f"no step could be validated at t = {float(chain.t):.6g}"
                return chain
            chain.steps.append({k: _text(v) for k, v in step.items()})
            chain.t, centre, chain.radius = chain.t + step["h"], step["centre"], step["radius"]
            h, chain.mu = step["h"] * GROWTH, step["mu"] * 7 / 8
            if trial.when == "sometime" and (at_start or _shown_at(trial, centre, chain.radius)):
                return chain  # the start or a step end shows the bound: the kernel reads no later step
    if trial.when == "sometime":
        chain.stopped = f"no step end up to t = {float(horizon):.6g} shows the bound"
    return chain


def _shown_at(statement: Statement | CompiledStatement, centre: list[Fraction], radius: Fraction) -> bool:
    """Whether the statement's bound is shown on the set {|x - centre|_oo <= radius} (`Statement.met`)."""
    return statement.met(statement.field([interval_ball(c - radius, c + radius) for c in centre], "residuals"))


def _text(value: Any) -> Any:
    """Rationals (and lists of them) as the certificate's text."""
    return [str(v) for v in value] if isinstance(value, list) else str(value)
