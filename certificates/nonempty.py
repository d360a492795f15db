"""Whether a region (`certificates.kernel.regions`) has a point: a verified exact point, a proof that it has none, or
neither.

A universal claim over an empty domain is vacuously true, and certifying it says nothing: `n` integer in
[0.3, 0.6], or `l` in [lambda_c(n, beta), lambda_max(n, beta)] (lambda_c > lambda_max), hold no point. So before
a claim is decided, and again when its certificate is re-checked, its domain is shown non-empty by an exact
point that `Region.contains` verifies (integer sides exactly; each bound exactly when it is a rational or of
rational arithmetic, else by its ball at the point, at rising precision), never by a float.

The point is searched in dependency order: each side's bounds are evaluated at the point chosen for its
parents (their inner ball ends), and a few values inside them are tried (the simplest rational, the
midpoint, the closed ends; for integers the middle and the two ends), depth first within a budget. Without a point,
emptiness is proved by clipping (`Region.clip`: sound, since clipping removes no point of the region) the
box of the bounds' outer ends and the halves of its splits; a box is empty when a side's lower bound exceeds
its upper bound over the box, or no integer lies between them. A region with neither is unsettled: the
caller reports that its non-emptiness could not be established.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb
from headflow.certificates.kernel.balls import eval_ball
from headflow.certificates.kernel.exact import ball_of, exact_value, precision
from headflow.certificates.kernel.exprtree import TreeError, exact_rational, rational_text
from headflow.certificates.kernel.regions import Box, Region, Side
from headflow.certificates.kernel.tree_text import term_text

#: Precisions (bits) at which bounds are evaluated at a point.
PRECISIONS = (64, 256, 1024)
#: Candidate points tried (complete or partial), and boxes clipped to prove emptiness.
MAX_CANDIDATES = 400
MAX_BOXES = 400

#: A point of a region: exact rationals, and balls for the sides tied to one tree (`Side.tied`).
Point = dict[str, Fraction | arb]


@dataclass(frozen=True)
class Emptiness:
    """`point`: a verified point (non-empty); else `empty` with the conflicting bounds, or unsettled."""

    point: Point | None = None
    empty: bool = False
    reason: str = ""
    sides: tuple[str, ...] = field(default=())

    def describe(self) -> str:
        """The point as `x = 1/2, n = 2` (or the reason)."""
        if self.point is None:
            return self.reason
        values = [f"{k} = {v.str(6) if isinstance(v, arb) else rational_text(v)}" for k, v in self.point.items()]
        return ", ".join(values) or "no parameters"


def settle(region: Region) -> Emptiness:
    """A verified point of the region, or a proof that it is empty, or why neither was found."""
    try:
        for prec in PRECISIONS:
            with precision(prec):
                point = _search(region)
                exact = None if point is None else {k: v for k, v in point.items() if isinstance(v, Fraction)}
                verified = None if exact is None else region.contains(exact)
                if verified is not None:
                    return Emptiness(verified)
        with precision(PRECISIONS[-1]):
            return _emptiness(region)
    except (TreeError, ZeroDivisionError, ValueError, OverflowError) as exc:
        return Emptiness(reason=f"the domain's bounds cannot be evaluated ({str(exc)[:120]})")


def _search(region: Region) -> Point | None:
    """Depth first over the sides, a few candidates each, within MAX_CANDIDATES; None when none fits."""
    budget = [MAX_CANDIDATES]

    def extend(point: Point, index: int) -> Point | None:
        if index == len(region.sides):
            return point
        side = region.sides[index]
        for value in _candidates(region, side, point):
            budget[0] -= 1
            if budget[0] < 0:
                return None
            found = extend(point | {side.name: value}, index + 1)
            if found is not None:
                return found
        return None

    return extend({}, 0)


def _candidates(region: Region, side: Side, point: Point) -> list[Fraction | arb]:
    """Values of the side inside its bounds at the parents' point (inner ends of their balls); for a side tied to
    one tree, the ball of its value."""
    if side.tied():
        value = _bound_at(side, "low", point)
        return [value] if isinstance(value, Fraction) or (isinstance(value, arb) and value.is_finite()) else []
    ends: list[Fraction | None] = []
    for end in ("low", "high"):
        bound = _bound_at(side, end, point)
        if isinstance(bound, arb):
            if not bound.is_finite():
                return []
            bound = exact_value(bound.upper() if end == "low" else bound.lower())
        ends.append(bound)
    low, high = ends
    if side.integer:
        return _integers(low, high, side)
    return _reals(low, high, side)


def _bound_at(side: Side, end: str, point: Point) -> Fraction | arb | None:
    """The bound at a point of its parents: exact when it is a rational or a tree of rational arithmetic at exact
    values, else its ball at the current precision (None: no bound)."""
    bound = getattr(side, end)
    if bound is None or isinstance(bound, Fraction):
        return bound
    exact = exact_rational(bound, {k: v for k, v in point.items() if isinstance(v, Fraction)})
    if exact is not None:
        return exact
    return eval_ball(bound, {k: v if isinstance(v, arb) else ball_of(v) for k, v in point.items()})


def _integers(low: Fraction | None, high: Fraction | None, side: Side) -> list[Fraction]:
    first = None if low is None else math.floor(low) + 1 if side.low_open and low.denominator == 1 else math.ceil(low)
    last = (
        None if high is None else math.ceil(high) - 1 if side.high_open and high.denominator == 1 else math.floor(high)
    )
    if first is None and last is None:
        values = [0, 1, -1]
    elif last is None:
        values = [first, first + 1]  # type: ignore[operator]
    elif first is None:
        values = [last, last - 1]
    else:
        values = [(first + last) // 2, first, last] if first <= last else []
    return [Fraction(v) for v in dict.fromkeys(values)]


def _reals(low: Fraction | None, high: Fraction | None, side: Side) -> list[Fraction]:
    if low is None and high is None:
        return [Fraction(0), Fraction(1), Fraction(-1)]
    if high is None:
        return [low + 1] if side.low_open else [low, low + 1]  # type: ignore[operator, list-item]
    if low is None:
        return [high - 1] if side.high_open else [high, high - 1]
    if low == high:
        return [] if side.low_open or side.high_open else [low]
    if low > high:
        return []
    middle = (low + high) / 2
    ends = ([] if side.low_open else [low]) + ([] if side.high_open else [high])
    return list(dict.fromkeys([_simplest(low, high, middle), middle, *ends]))


def _simplest(low: Fraction, high: Fraction, middle: Fraction) -> Fraction:
    """A rational of small denominator strictly between low and high (the midpoint when none is small)."""
    for bits in range(0, 64):
        value = middle.limit_denominator(2**bits)
        if low < value < high:
            return value
    return middle


def side_of(region: Region, name: str) -> Side | None:
    """The side of a variable (None for a name that is not a variable of the region)."""
    return next((s for s in region.sides if s.name == name), None)


def outer_box(region: Region) -> Box | None:
    """The box of the bounds' outer ends, in dependency order (None when a side is unbounded or a bound has no
    finite ball): the root box of the emptiness search here and of the prover's covers."""
    box: Box = {}
    for side in region.sides:
        low, high = region.bound_end(side, "low", box), region.bound_end(side, "high", box)
        if low is None or high is None:
            return None
        box[side.name] = (low, high)
    return box


def _emptiness(region: Region) -> Emptiness:
    """Empty when every box of a split of the outer box clips to nothing, naming the sides that emptied them."""
    root = outer_box(region)
    if root is None:
        return Emptiness(reason=_unsettled(region, "a side is unbounded or a bound has no finite ball"))
    stack, emptied, boxes = [root], {}, 0
    while stack:
        box = stack.pop()
        boxes += 1
        if boxes > MAX_BOXES:
            return Emptiness(reason=_unsettled(region, f"{MAX_BOXES} boxes did not prove it empty"))
        clipped = region.clip(box)
        if clipped is None:  # the first side whose clipped interval is empty (clipping goes in dependency order)
            side = next(s for i, s in enumerate(region.sides) if Region(region.sides[: i + 1]).clip(box) is None)
            emptied.setdefault(side.name, side)
            continue
        halves = _split(clipped, region)
        if halves is None:
            return Emptiness(reason=_unsettled(region, "a box of single points is not settled by balls"))
        stack.extend(halves)
    conflicts = "; ".join(_conflict(side) for side in emptied.values())
    return Emptiness(empty=True, reason=f"empty domain: {conflicts}", sides=tuple(emptied))


def _split(box: Box, region: Region) -> list[Box] | None:
    """The two halves of the box along its widest side (integer sides at an integer); None when it is a point."""
    name, (lo, hi) = max(box.items(), key=lambda item: item[1][1] - item[1][0])
    if lo == hi:
        return None
    side = side_of(region, name)
    if side is not None and side.integer:
        middle = Fraction(math.floor((lo + hi) / 2))
        return [box | {name: (lo, middle)}, box | {name: (middle + 1, hi)}]
    middle = (lo + hi) / 2
    return [box | {name: (lo, middle)}, box | {name: (middle, hi)}]


def _bound_text(side: Side, end: str) -> str:
    bound = getattr(side, end)
    if bound is None:
        return "-oo" if end == "low" else "oo"
    return rational_text(bound) if isinstance(bound, Fraction) else term_text(bound)


def _conflict(side: Side) -> str:
    """The bounds of a side that admit no value, in words."""
    low, high = _bound_text(side, "low"), _bound_text(side, "high")
    where = f" for every {', '.join(sorted(side.parents()))} of the domain" if side.parents() else ""
    if side.integer:
        return f"no integer {side.name} lies in [{low}, {high}]{where}"
    return f"the lower bound {low} of {side.name} exceeds its upper bound {high}{where}"


def _unsettled(region: Region, why: str) -> str:
    names = ", ".join(s.name for s in region.sides)
    return f"the domain of {names} could not be shown non-empty (no verified point; {why})"
