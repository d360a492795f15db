"""Certified balls for lambda_c, the inflection point of phi, checked by bisection with ball signs.

u_c = beta lambda_c is the root of g(u) = (u - 2) e^u - (n - 1)(u + 2)
(`identities.closed_forms.lambda_c_equation`, stored as a tree by `certificates.kernel.stored_forms` and evaluated by
`headflow.certificates.kernel.exprtree.evaluate`, the one ball evaluator; the equation is not written again here).
The uniqueness argument: g''(u) = u e^u > 0 for u > 0 (proved by `identities.scalar_regime.prove_lambda_c_equation`),
so g is convex on (0, inf), and g(2) = -4(n - 1) < 0 for n > 1. Hence g has exactly one zero u_c in (2, inf),
g < 0 on (2, u_c) and g > 0 on (u_c, inf): a point where g is certainly negative (positive) lies left (right) of
u_c, and g(a) < 0 < g(b) with 2 <= a < b puts u_c in [a, b]. And g decreases in n where u > -2 (its n term is
-(n - 1)(u + 2)): g(a, n_lo) < 0 gives g(a, n) < 0 for every n >= n_lo, and g(b, n_hi) > 0 gives g(b, n) > 0 for
every n <= n_hi.

`enclose(n, beta)` takes balls of n and beta (the claims files' boxes and the certificates' trees) at the context
precision. At each exact end of the ball of n it halves [2, `right_of_root(n)`] by the sign of g at the midpoint
(`_bracket`: a bounded, deterministic count of steps, cached per end and precision, each end of a bracket a point
where the ball signs g); a the left end of the bracket at n_lo and b the right end of the one at n_hi, so
g(a, n) < 0 < g(b, n) at every n of the ball: each u_c(n) lies in [a, b] and lambda_c in [a, b] / beta. Only signs
of balls are used; no step is taken on trust. (`headflow constants` computes lambda_c to many digits with a Newton
iteration outside the kernel, `headflow.certificates.provers.lambda_c_roots`.)
"""

import math
from fractions import Fraction
from functools import lru_cache

from flint import arb, ctx

from . import stored_forms
from .exact import exact_value, precision, rational_ball
from .exprtree import Tree, evaluate

#: The symbols of the equation's tree: the unknown u and the number of tokens n.
U, N = "u", "n"
#: g(u, n) as a tree.
EQUATION: Tree = stored_forms.tree(stored_forms.LAMBDA_C_EQUATION)
#: Exact ends n of the balls `enclose` has bracketed, per precision: brackets are reused.
ROOT_CACHE = 4096
#: Largest |binary exponent| of an end of n that is bracketed (u_c(n) is then at most about 45,000).
MAX_END_EXPONENT = 1 << 16
#: Bits beyond the context precision at which signs are taken (g is tiny near its root; a midpoint of the bisection,
#: of at most bits + 2 log2(`right_of_root`) bits, is exact while `right_of_root` < 2^32).
GUARD_BITS = 64


class RootError(ArithmeticError, ValueError):
    """lambda_c could not be enclosed: outside its domain (n <= 1, beta <= 0) or not certified."""


def right_of_root(tokens: Fraction) -> int:
    """An integer b meant to lie right of u_c: for b >= 6, (b - 2)/(b + 2) >= 1/2 and e^b > 2 (n - 1) give g(b) > 0.

    The logarithm is taken of the integer ceil(2 (n - 1)) (math.log is exact enough on integers of any size,
    and e^b > e ceil(2 (n - 1)) leaves a margin of 1 for its rounding): n may be far beyond the floats. With
    n = p/q, ceil(2 (n - 1)) = -floor((2 q - 2 p) / q), in integers. `_bracket` signs g(b) > 0 instead of trusting
    this; the Newton finder outside the kernel starts here."""
    p, q = tokens.numerator, tokens.denominator
    ceiling = max(-((2 * q - 2 * p) // q), 1)
    return max(6, math.floor(math.log(ceiling)) + 2)


def _g(tokens: arb, point: Fraction, prec: int) -> arb:
    """The ball of g(`point`, n) at `prec` bits: its sign is certified where it excludes 0."""
    with precision(prec):
        return evaluate(EQUATION, {U: rational_ball(point.numerator, point.denominator, prec), N: tokens})


@lru_cache(maxsize=ROOT_CACHE)
def _bracket(tokens: Fraction, bits: int) -> tuple[Fraction, Fraction]:
    """Exact a < b with g(a) < 0 < g(b) for the exact n = `tokens` > 1, b - a at most 2^-bits unless a midpoint's
    sign is beyond `bits` + GUARD_BITS: [2, `right_of_root`] halved at most bits + log2(its width) times."""
    low, high, prec = Fraction(2), Fraction(right_of_root(tokens)), bits + GUARD_BITS
    ball = rational_ball(tokens.numerator, tokens.denominator, prec + tokens.numerator.bit_length())
    if not (_g(ball, low, prec) < 0 < _g(ball, high, prec)):
        raise RootError(f"lambda_c: no sign change on [2, {high}] for n = {ball.str(10, radius=False)}")
    for _ in range(bits + high.numerator.bit_length()):
        middle = (low + high) / 2
        value = _g(ball, middle, prec)
        if not (value < 0 or value > 0):  # no sign at this precision
            break
        low, high = (middle, high) if value < 0 else (low, middle)
    return low, high


def root_count() -> int:
    """How many roots `enclose` has bracketed in this process (the checker bounds it per certificate)."""
    return _bracket.cache_info().misses


def enclose(tokens: arb, inverse_temperature: arb) -> arb:
    """A ball containing lambda_c(n, beta) = u_c(n) / beta for every n, beta in the given balls (n > 1, beta > 0):
    [a, b] / beta, a the left end of the bracket at n_lo and b the right end of the one at n_hi, once
    g(a) < 0 < g(b) holds for every n of the ball (so each u_c(n) lies in [a, b]: module docstring). The exact ends
    of n's ball (python-flint's lower() and upper() are exact) are bracketed up to a binary exponent of
    MAX_END_EXPONENT (n = exp(exp(100)) has an end of 2^(10^43): no exact value of it fits; beyond, the exact end
    raises `certificates.kernel.exact.ExponentTooLarge`, which `certificates.kernel.balls` takes as undefined)."""
    if not (tokens.is_finite() and inverse_temperature.is_finite() and tokens > 1 and inverse_temperature > 0):
        raise RootError("lambda_c(n, beta) needs finite n > 1 and beta > 0")
    ends = [exact_value(end, MAX_END_EXPONENT) for end in (tokens.lower(), tokens.upper())]
    low, high = (_bracket(end, ctx.prec) for end in ends)
    left, right = (rational_ball(end.numerator, end.denominator, ctx.prec + GUARD_BITS) for end in (low[0], high[1]))
    return left.union(right) / inverse_temperature
