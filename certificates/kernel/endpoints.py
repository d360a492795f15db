"""Products, powers and monotone functions of wide balls by their end points (interval arithmetic on balls).

python-flint's balls are midpoint-radius: [-5, -0.065] is -2.53 +/- 2.47, and the product of two wide
balls bounds |m1| r2 + |m2| r1 + r1 r2 around m1 m2, which can reach across 0 although every product of
their points has one sign ([-5, -0.065] x [2.9, 403] gives about [-2014, 988], not [-2015, -0.19]); exp of
a wide ball is bounded through its derivative at the upper end. A cover over wide boxes then fails where
interval arithmetic would settle the relation. For a ball accurate to fewer than WIDE_BITS bits these
functions work on the exact end points instead (`arb.lower()`, `arb.upper()`, rounded outwards) and return
a ball holding every result between them (`arb.union` of balls is a ball, so it holds their hull):
- a product of intervals is the hull of its four corner products;
- x^k: odd k is increasing in x, even k in |x| (between `arb.abs_lower()` and `arb.abs_upper()`);
- 1/x: python-flint's own reciprocal, which is the interval's (decreasing, from the end points);
- exp, log, sqrt, lambertw are increasing on their domains; the ball's own value is computed first, so the
  end points are used only when the whole ball is in the domain (a non-finite result falls back to it).
Narrow balls (points of a certificate, midpoints) keep python-flint's operations.
"""

from collections.abc import Callable
from functools import reduce

from flint import arb

#: A finite ball is wide when it is accurate to fewer bits than this relative to its midpoint (`arb.rel_accuracy_bits`:
#: about -log2(rad / |mid|); a ball around 0 has none).
WIDE_BITS = 20


def wide(x: arb) -> bool:
    """Whether the ball is wide enough for end-point arithmetic (finite and not nearly a point); one call answers
    for a narrow ball (every product and function of a point or a midpoint asks)."""
    return x.rel_accuracy_bits() < WIDE_BITS and x.is_finite()


def hull(*balls: arb) -> arb:
    """A ball holding every given ball (hence every point between them)."""
    return reduce(arb.union, balls)


def times(x: arb, y: arb) -> arb:
    """x y: the hull of the corner products when either ball is wide."""
    if not (wide(x) or wide(y)) or not (x.is_finite() and y.is_finite()):
        return x * y
    return hull(*(end * other for end in (x.lower(), x.upper()) for other in (y.lower(), y.upper())))


def power(x: arb, k: int) -> arb:
    """x^k for an integer k (k < 0: 1 / x^-k, infinite or undefined when the ball holds 0; k = 0: 1, as x**0 is)."""
    if k < 0:  # python-flint's reciprocal of a ball without 0 is already [1/upper, 1/lower]
        return 1 / power(x, -k)
    if not wide(x):
        return x**k
    ends = (x.lower(), x.upper()) if k % 2 == 1 else (x.abs_lower(), x.abs_upper())  # x^k, |x|^k increasing
    return hull(*(end**k for end in ends))


def increasing(function: Callable[[arb], arb], x: arb) -> arb:
    """function(x) for a function increasing on its domain: from the end points when x is wide and inside it."""
    value = function(x)
    if not wide(x) or not value.is_finite():
        return value
    ends = hull(function(x.lower()), function(x.upper()))
    return ends if ends.is_finite() else value
