"""Exact points of a claims-file domain: the deciders' samples (the kernel only checks membership).

A random point is drawn symbol by symbol in the domain's dependency order; dependent bounds are evaluated as balls
and the value is drawn inside the ball's inner ends, so the point provably satisfies every bound. The boundary
points (`boundary_points`) come before any random one: every combination of each symbol's special values (its closed
ends, its integer ends, 0 where a sign turns inside the domain), which is where claims that hold inside fail.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import sympy as sp
from headflow.certificates.claims.domains import Domain
from headflow.certificates.claims.evaluation import EvaluationError, ball
from headflow.certificates.kernel.exact import ExponentTooLarge, exact_value

#: Magnitudes of unbounded samples, and the steps of a bounded one.
_MAGNITUDE_DENOMINATORS = (1, 2, 3, 4, 5, 7, 8, 10, 16)
_STEPS = 1000
#: Dependent bounds are rounded to multiples of 1/_GRID towards the inside of the domain.
_GRID = 10**6
#: Largest binary exponent of a ball end turned into an exact rational (|k| of m 2^k: memory stays small).
MAX_END_EXPONENT = 4096


def sample_point(
    domains: dict[sp.Symbol, Domain], order: list[sp.Symbol], rng: np.random.Generator, prec: int = 64
) -> dict[sp.Symbol, sp.Rational] | None:
    """A random exact rational point of the domain, or None when a dependent bound is empty here.

    Dependent bounds are evaluated as balls and the sample is drawn inside the ball's outer
    ends, so the point provably satisfies every bound.
    """
    point: dict[sp.Symbol, sp.Rational] = {}
    for symbol in order:
        value = sample_value(domains[symbol], point, rng, prec)
        if value is None:
            return None
        point[symbol] = value
    return point


def sample_value(
    domain: Domain, point: dict[sp.Symbol, sp.Rational], rng: np.random.Generator, prec: int = 64
) -> sp.Rational | None:
    """A random exact value of one symbol's domain at the values `point` gives the symbols its bounds use (another
    head's value of a per-head symbol, say), or None when the bounds are empty or cannot be enclosed there."""
    try:
        low = _inner_end(domain.low, point, prec, upper=True)
        high = _inner_end(domain.high, point, prec, upper=False)
    except (EvaluationError, ExponentTooLarge):
        return None
    nice_low = None if low is None else _rounded(low, up=True)
    nice_high = None if high is None else _rounded(high, up=False)
    if nice_low is None or nice_high is None or nice_low < nice_high:
        low, high = nice_low, nice_high  # (rounding must not shrink a thin interval to a point or nothing)
    return _draw(domain, low, high, rng)


def _inner_end(bound: sp.Expr | None, point: dict[sp.Symbol, sp.Rational], prec: int, upper: bool) -> sp.Rational:
    """A rational bound itself, else the inner end of its ball at the point (the upper end for a lower bound);
    ExponentTooLarge when that end is too large or too small to sample from."""
    if bound is None or bound.is_Rational:
        return bound
    value = ball(bound, point, prec)
    return sp.Rational(exact_value(value.upper() if upper else value.lower(), MAX_END_EXPONENT))


def _rounded(end: sp.Rational, up: bool) -> sp.Rational:
    """A lower end rounded up (an upper end down) to a multiple of 1/_GRID: still inside the bound, and readable."""
    if end.q == 1 or (end * _GRID).q == 1:
        return end
    scaled = end * _GRID
    return (sp.ceiling(scaled) if up else sp.floor(scaled)) / _GRID


def _draw(
    domain: Domain, low: sp.Rational | None, high: sp.Rational | None, rng: np.random.Generator
) -> sp.Rational | None:
    """A random value between the exact ends (ball ends of the bounds, so inside the true bounds)."""
    low_open, high_open = domain.low_open, domain.high_open
    if domain.integer:
        first = None if low is None else int(sp.floor(low)) + 1 if (low_open or not low.is_integer) else int(low)
        last = None if high is None else int(sp.ceiling(high)) - 1 if (high_open or not high.is_integer) else int(high)
        if first is None and last is None:
            return sp.Integer(int(rng.integers(-20, 21)))
        if last is None:
            return sp.Integer(first + int(rng.integers(0, 21)))
        if first is None:
            return sp.Integer(last - int(rng.integers(0, 21)))
        return None if first > last else sp.Integer(first + _integer_up_to(rng, last - first))
    if low is not None and high is not None:
        if high < low or (high == low and (low_open or high_open)):
            return None
        step = int(rng.integers(1 if low_open else 0, _STEPS if high_open else _STEPS + 1))
        return low + (high - low) * sp.Rational(step, _STEPS)
    size = sp.Rational(int(rng.integers(1, 201)), int(rng.choice(_MAGNITUDE_DENOMINATORS)))
    if low is not None:
        return low if not low_open and rng.random() < 0.1 else low + size
    if high is not None:
        return high if not high_open and rng.random() < 0.1 else high - size
    return size if rng.random() < 0.5 else -size


def _integer_up_to(rng: np.random.Generator, span: int) -> int:
    """A uniform integer in [0, span] of any size (numpy's integers stop at int64; domains reach 1e100 and beyond)."""
    if span < 2**62:
        return int(rng.integers(0, span + 1))
    bits = span.bit_length()
    while True:  # rejection: each draw is accepted with probability above 1/2
        value = int.from_bytes(rng.bytes((bits + 7) // 8), "little") >> (-bits % 8)
        if value <= span:
            return value


@dataclass
class Boundary:
    """A domain's boundary points, and why they are not its whole boundary (empty: they are)."""

    points: list[dict[sp.Symbol, sp.Rational]] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)


def boundary_points(
    domains: dict[sp.Symbol, Domain], order: list[sp.Symbol], limit: int, rng: np.random.Generator
) -> Boundary:
    """Every combination of the symbols' special values (`special_values`, in dependency order, each at the values
    before it), at most `limit` of them; a symbol with none (both ends open or absent) takes a random value there.
    The gaps name each closed end that is not a rational number at its point, and a cut at `limit`."""
    out = Boundary()

    def extend(point: dict[sp.Symbol, sp.Rational], rest: list[sp.Symbol]) -> bool:
        if not rest:
            out.points.append(point)
            return len(out.points) < limit
        symbol, domain = rest[0], domains[rest[0]]
        values, gaps = special_values(domain, point)
        out.gaps += [f"{symbol} = {gap}" for gap in gaps if f"{symbol} = {gap}" not in out.gaps]
        if not values:
            value = sample_value(domain, point, rng)
            values = [] if value is None else [value]
        return all(extend(point | {symbol: value}, rest[1:]) for value in values)

    if not extend({}, list(order)):
        out.gaps.append(f"more than {limit} boundary points: the first {limit} decided")
    return out


def special_values(domain: Domain, point: dict[sp.Symbol, sp.Rational]) -> tuple[list[sp.Rational], list[str]]:
    """(the domain's special values at the point, its closed ends that are not rational there): each closed end
    (an integer domain's least and largest integers), and 0 where it lies strictly inside (a strength, rho or a
    shift where a sign turns: lambda = 0, orthogonal tokens)."""
    values: list[sp.Rational] = []
    gaps: list[str] = []
    ends: list[sp.Expr | None] = []
    for bound, is_open, upper in ((domain.low, domain.low_open, False), (domain.high, domain.high_open, True)):
        end = None if bound is None else bound.xreplace(point)
        ends.append(end)
        if end is None or (is_open and not domain.integer):
            continue
        if not end.is_Rational:
            gaps.append(f"{bound} (not a rational number: not decided at it)")
            continue
        if domain.integer:
            inward = sp.floor(end) if upper else sp.ceiling(end)
            end = inward - (1 if upper else -1) if is_open and inward == end else inward
        values.append(sp.Rational(end))
    low, high = ends
    irrational = any(end is not None and not end.is_Rational for end in ends)  # where 0 lies is then not known
    if not domain.integer and not irrational and (low is None or low < 0) and (high is None or high > 0):
        values.append(sp.Integer(0))
    if domain.integer and len(values) == 2 and values[0] > values[1]:
        return [], gaps
    return list(dict.fromkeys(values)), gaps
