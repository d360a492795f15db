"""The domain of an inequality as covers see it: sides in dependency order, integers, dependent bounds.

A claims-file domain is not a box: `l = { min = "lambda_c(n, beta) + 1/100", max = 10 }` bounds l by a
function of its parents, and `n = { min = 2, max = 10, integer = true }` takes integer values only. A
`Region` holds each variable's side: integer or real, and a lower and an upper bound that are an exact
rational, an expression tree in the variables before it, or absent. The prover
(`certificates.provers.intervals`) and the checker (`certificates.kernel.recheck`) share one operation on it:

`clip(box)`: the box shrunk to what the region leaves of it. In dependency order, each side is raised to
its lower bound (a rational, or the lower end of the bound's ball over the clipped sides of its parents)
and lowered to its upper bound; an integer side is rounded inwards to integers. By induction over the
order, every point of the region inside the box is inside the clipped box; an empty clipped box (None)
holds no point of the region. A bound whose ball is not finite clips nothing (a larger box is still a
superset). Variables in `relaxed` keep their box side (only the integer rounding applies): the faces of
a monotone node are not in the region (`headflow.certificates.kernel.recheck`).

Clipping only ever removes points outside the region, so a cover of every clipped box of a tree whose
root box contains the region (`uncovered`) proves the claim on the whole region: the checker checks
that the cases exhaust the domain, it does not take it on trust. Clipping treats open ends as closed (a
superset); `contains`, which settles whether one exact point is in the region, honours them.
"""

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from flint import arb

from .balls import eval_ball
from .exact import ball_of, exact_value, holds, interval_ball
from .exprtree import Tree, exact_rational, symbols

Box = dict[str, tuple[Fraction, Fraction]]
Bound = Fraction | Tree | None
#: The ends of a side: the names of its bounds (`getattr(side, end)`).
ENDS = ("low", "high")


@dataclass(frozen=True)
class Side:
    """One variable of the region: integer or real, and its lower and upper bounds."""

    name: str
    integer: bool = False
    low: Bound = None
    high: Bound = None
    low_open: bool = False
    high_open: bool = False

    def tied(self) -> bool:
        """Whether the side is one real value given by a tree: both bounds the same tree, both ends closed."""
        tree = isinstance(self.low, list) and self.low == self.high
        return tree and not (self.integer or self.low_open or self.high_open)

    def parents(self) -> set[str]:
        """The variables its bounds refer to."""
        return {name for bound in (self.low, self.high) if isinstance(bound, list) for name in symbols(bound)}


@dataclass(frozen=True)
class Region:
    """Sides in dependency order (every bound uses only the variables before its own)."""

    sides: tuple[Side, ...]

    def referencing(self, name: str) -> frozenset[str]:
        """The variables whose bounds refer to `name`."""
        return frozenset(s.name for s in self.sides if name in s.parents())

    def bound_end(self, side: Side, end: str, box: Box) -> Fraction | None:
        """The exact outer end of the bound over the box's parents (the lower end of its ball for a lower bound);
        None when there is no bound or its ball is not finite."""
        bound = getattr(side, end)
        if bound is None or isinstance(bound, Fraction):
            return bound
        value = eval_ball(bound, {k: interval_ball(lo, hi) for k, (lo, hi) in box.items()})
        return exact_value(value.lower() if end == "low" else value.upper()) if value.is_finite() else None

    def clip(self, box: Box, relaxed: frozenset[str] = frozenset()) -> Box | None:
        """The box shrunk to the region (module docstring); None when no point of the region is in it."""
        clipped = dict(box)
        for side in (s for s in self.sides if s.name in box):  # the box's sides, in dependency order
            lo, hi = clipped[side.name]
            if side.name not in relaxed:
                low, high = (self.bound_end(side, end, clipped) for end in ENDS)
                lo, hi = (lo if low is None else max(lo, low)), (hi if high is None else min(hi, high))
            if side.integer:
                lo, hi = Fraction(math.ceil(lo)), Fraction(math.floor(hi))
            if lo > hi:
                return None
            clipped[side.name] = (lo, hi)
        return clipped

    def uncovered(self, box: Box) -> str | None:
        """Why the box does not contain the region (a variable it lacks, a side unbounded or a bound outside it, or
        a bound without a finite ball, or a lower end above the upper one), or None when it does (every side of the
        box then has lo <= hi)."""
        if set(box) != {s.name for s in self.sides}:
            return f"the box's variables {sorted(box)} are not the region's {[s.name for s in self.sides]}"
        for side in self.sides:
            lo, hi = box[side.name]
            low, high = self.bound_end(side, "low", box), self.bound_end(side, "high", box)
            if low is None or high is None or not lo <= low <= high <= hi:
                return f"the side of {side.name} does not contain its bounds (both finite, low <= high)"
        return None

    def contains(self, given: Mapping[str, Fraction]) -> dict[str, Fraction | arb] | None:
        """The point `given` (every side, a side tied to one tree possibly left out), with the ball of each tied
        side left out filled in, when it satisfies every bound (open ends strictly); None when it does not or that
        is unsure. Each bound is settled
        exactly when it is a rational or a tree of rational arithmetic at exact values, else by balls; a tied side
        is in its side by identity wherever its ball is finite (the bound is defined there)."""
        point: dict[str, Fraction | arb] = dict(given)
        for side in self.sides:
            balls = {k: v if isinstance(v, arb) else ball_of(v) for k, v in point.items()}
            if side.tied() and side.name not in given:
                point[side.name] = eval_ball(side.low, balls)
                if not point[side.name].is_finite():
                    return None
                continue
            value, exacts = given[side.name], {k: v for k, v in point.items() if isinstance(v, Fraction)}
            if side.integer and value.denominator != 1:
                return None
            for end, bound, strict in (("low", side.low, side.low_open), ("high", side.high, side.high_open)):
                if bound is None:
                    continue
                exact = bound if isinstance(bound, Fraction) else exact_rational(bound, exacts)
                above = exact - value if exact is not None else eval_ball(bound, balls) - ball_of(value)
                if not holds(-above if end == "low" else above, ">" if strict else ">="):
                    return None
        return point
