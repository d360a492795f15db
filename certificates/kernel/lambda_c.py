"""Certified balls for lambda_c, the inflection point of phi: the one ball-arithmetic root finder.

u_c = beta lambda_c is the root of g(u) = (u - 2) e^u - (n - 1)(u + 2)
(`identities.closed_forms.lambda_c_equation`, stored as a tree by `certificates.kernel.stored_forms` and evaluated by
`certificates.kernel.exprtree.evaluate`, the one ball evaluator; its derivative g' is the kernel's own
(`certificates.kernel.derivatives`); the equation is not written again here).
The uniqueness argument, used by both entry points below: g''(u) = u e^u > 0 for u > 0 (proved by
`identities.scalar_regime.prove_lambda_c_equation`), so g is convex on (0, inf), and g(2) = -4(n - 1) < 0 for
n > 1. Hence g has exactly one zero u_c in (2, inf), g < 0 on (2, u_c) and g > 0 on (u_c, inf): a ball on
which g is certainly negative (positive) lies left (right) of u_c, and g(a) < 0 < g(b) with 2 <= a < b puts
u_c in [a, b]. The argument holds for every n > 1, so a sign certified for all n in a ball of n brackets the
root of each of them.

- `certify_root(n, bits)`: an exact n > 1 (an integer or a rational), any precision. Newton's method from
  the right of the root (where a convex increasing g makes it converge monotonically) finds the midpoint, in floats
  first (`_float_root`), then at doubling precision (g and g' share e^u, compiled once); the last step is an interval
  Newton step, which certifies: for a ball X in (2, inf) holding the point m, with g' > 0 on X (its ball over X),
  every zero of g in X lies in N = m - g(m) / g'(X), and N inside X proves that X holds a zero (Moore's theorem),
  so u_c, the only zero in (2, inf), lies in N. Only g(m) is computed at the full precision. Should the test
  fail, the signs of g at the ends of a small ball around the point certify it instead.
- `enclose(n, beta)`: balls of n and beta (the claims files' boxes and the certificates' trees), at the
  context precision. The certified roots at the two exact ends of n (cached) give a = the left end of the one at
  n_lo and b = the right end of the one at n_hi; g(a, n_lo) < 0 < g(b, n_hi) and dg/dn < 0 over [a, b] x the ball
  of n, all signed with balls, give g(a, n) < 0 < g(b, n) at every n of the ball, so each u_c(n) lies in [a, b]
  (the uniqueness argument above) and lambda_c in [a, b] / beta: no lemma is taken on trust.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from flint import arb, ctx

from certificates.kernel import stored_forms
from certificates.kernel.derivatives import derivative
from certificates.kernel.exact import ExponentTooLarge, dyadic_fmpz, exact_value, precision, rational_ball, shown
from certificates.kernel.exprtree import Tree, evaluate
from certificates.kernel.programs import Program, compile_trees

#: The symbols of the equation's tree: the unknown u and the number of tokens n.
_U, _N = "u", stored_forms.symbol("n")
#: g(u) and g'(u) over the symbols u and n, as trees.
_EQUATION: Tree = stored_forms.tree(stored_forms.LAMBDA_C_EQUATION)
_SLOPE: Tree = derivative(_EQUATION, _U)
#: dg/dn, which `enclose` signs over a box.
_N_SLOPE: Tree = derivative(_EQUATION, _N)
#: g, g' and both at once (e^u and (u - 2) e^u computed once), compiled (`certificates.kernel.programs`).
_G, _G_SLOPE, _BOTH = compile_trees(_EQUATION), compile_trees(_SLOPE), compile_trees(_EQUATION, _SLOPE)
#: Exact ends n of the balls `enclose` has rooted, per precision: certified roots are reused.
ROOT_CACHE = 4096
#: Largest |binary exponent| of an end of n that is rooted (u_c(n) is then at most about 45,000).
MAX_END_EXPONENT = 1 << 16


class RootError(ArithmeticError, ValueError):
    """lambda_c could not be enclosed: outside its domain (n <= 1, beta <= 0) or not certified."""


def _values(program: Program, tokens: Fraction, point: arb, prec: int) -> tuple[arb, ...]:
    """g, g' or both (`program`: `_G`, `_G_SLOPE`, `_BOTH`) at u = `point` (a ball) for the exact n = `tokens`, at
    `prec` bits (set directly: `precision(prec)` costs two calls more, and a root at 1,000 digits evaluates a
    dozen times in some 100 microseconds)."""
    saved, ctx.prec = ctx.prec, prec
    try:
        return _run(program, tokens, point, prec)
    finally:
        ctx.prec = saved


def _run(program: Program, tokens: Fraction, point: arb, prec: int) -> tuple[arb, ...]:
    """`_values` at the context precision, which is `prec`."""
    return program.run({_U: point, _N: rational_ball(tokens.numerator, tokens.denominator, prec)})


def _value(program: Program, tokens: Fraction, point: arb, prec: int) -> arb:
    """g or g' (`_G` or `_G_SLOPE`) at u = `point`: `_values` of a program of one tree."""
    (found,) = _values(program, tokens, point, prec)
    return found


def _newton(tokens: Fraction, point: arb, prec: int) -> tuple[arb, arb]:
    """One Newton step at `prec` bits (g and g' share e^u): (the next point, only the midpoint: the certificate
    comes later; g' at `point`, which estimates the next step's slope). The precision set as in `_values`."""
    saved, ctx.prec = ctx.prec, prec
    try:
        value, slope = _run(_BOTH, tokens, point, prec)
        return (point - value / slope).mid(), slope
    finally:
        ctx.prec = saved


def _float_root(tokens: Fraction, start: arb) -> float | None:
    """u_c(n) to about 50 bits by Newton in floats on g(u) e^-u = (u - 2) - (n - 1)(u + 2) e^-u (no overflow for
    any n the floats hold), from `_start`'s point `start` right of the root; None when n - 1 is beyond the floats or
    the iteration does not settle. Only a start: the certificate is the interval Newton step at the end."""
    try:
        m, u = (tokens.numerator - tokens.denominator) / tokens.denominator, float(start)  # integers: no Fraction
    except OverflowError:
        return None
    for _ in range(100):
        damped = m * math.exp(-u)
        step = ((u - 2) - damped * (u + 2)) / (1 + damped * (u + 1))
        u -= step
        if not (math.isfinite(u) and u > 2):
            return None
        if abs(step) < 1e-12 * u:
            return u
    return None


def _start(tokens: Fraction) -> arb:
    """A point right of u_c: for b >= 6, (b - 2)/(b + 2) >= 1/2 and e^b > 2 (n - 1) give g(b) > 0.

    The logarithm is taken of the integer ceil(2 (n - 1)) (math.log is exact enough on integers of any size,
    and e^b > e ceil(2 (n - 1)) leaves a margin of 1 for its rounding): n may be far beyond the floats. With
    n = p/q, ceil(2 (n - 1)) = -floor((2 q - 2 p) / q), in integers (Fraction arithmetic costs microseconds)."""
    p, q = tokens.numerator, tokens.denominator
    ceiling = max(-((2 * q - 2 * p) // q), 1)
    return arb(max(6, math.floor(math.log(ceiling)) + 2))


def _bits_below(small: arb, large: arb) -> int:
    """About log2(|large| / |small|) for a non-zero exact `small` and `large` (0 when `small` is zero)."""
    if small == 0:
        return 0
    (m, e), (n, f) = dyadic_fmpz(small), dyadic_fmpz(large)
    return (f + abs(n).bit_length()) - (e + abs(m).bit_length())


def _interval_newton(tokens: Fraction, point: arb, prec: int, rough: arb | None = None) -> tuple[arb | None, arb]:
    """(N, the next point): N = m - g(m) / g'(X) with m = `point` (exact) and X = m +- 2 |Newton step| (plus 2^-prec
    relative), when X lies in (2, inf), g' > 0 on X and N lies inside X (then N holds u_c: module docstring);
    None and the ordinary Newton point otherwise. g(m) is evaluated at `prec` bits, g'(X) at what N's width needs
    (the step's size sets it). `rough`: g' near m, for the step's size (g'(m) at 64 bits when None); only the box
    rests on it, and the test above on the box."""
    if rough is None:
        rough = _value(_G_SLOPE, tokens, point, 64)
    with precision(prec):
        (value,) = _run(_G, tokens, point, prec)
        step = (value / rough).mid()
        if not step.is_finite():
            return None, point
        newton = (point - step).mid()
        accurate = max(_bits_below(step, point), 0)
        mantissa, exponent = dyadic_fmpz(point)
        radius = 2 * abs(step) + arb(2) ** (exponent + abs(mantissa).bit_length() - prec)
        box = arb(point, radius)
    slope = _value(_G_SLOPE, tokens, box, max(prec - accurate, 0) + 64)
    with precision(prec):
        enclosure = point - value / slope
    if box > 2 and slope > 0 and enclosure.is_finite() and box.contains(enclosure):
        return enclosure, enclosure.mid()
    return None, newton


def _by_signs(tokens: Fraction, point: arb, bits: int) -> arb | None:
    """A ball around `point` of radius about 2^-bits relative whose ends have the signs of g left and right of u_c
    (so it holds u_c: module docstring), or None."""
    mantissa, exponent = dyadic_fmpz(point)
    radius = arb(2) ** (exponent + abs(mantissa).bit_length() - bits)
    check_prec = bits + 64
    with precision(check_prec):
        low, high = point - radius, point + radius
    if low > 2 and _value(_G, tokens, low, check_prec) < 0 and _value(_G, tokens, high, check_prec) > 0:
        with precision(check_prec):
            return low.union(high)  # holds every point between the two (balls around the) ends
    return None


def certify_root(tokens: int | Fraction, bits: int) -> arb:
    """A ball containing u_c(n) whose radius is about 2^-bits relative, for an exact n > 1; raises RootError
    if not certified."""
    if not tokens > 1:
        raise RootError("lambda_c(n, beta) needs n > 1")
    exact = Fraction(tokens)
    point = _start(exact)
    rough = _float_root(exact, point)
    if rough is not None:  # one step at 64 bits takes the float's 50 bits to what the loop below reaches
        point = _newton(exact, arb(rough), 64)[0]
    elif not _value(_G, exact, point, 64) > 0:  # Newton from the start below converges only right of the root
        raise RootError(f"lambda_c: no sign change at the start point for n={shown(tokens)}")
    for _ in range(0 if rough is not None else 200):
        nxt = _newton(exact, point, 64)[0]
        if abs(float(nxt - point)) < 1e-12 * float(point):
            point = nxt
            break
        point = nxt
    working = bits + 64  # the interval step keeps about working - 2 * (its step's bits below the point)
    prec, slope = 64, None
    while 2 * prec < working:
        prec = min(2 * prec, working)
        point, slope = _newton(exact, point, prec + 32)
    for extra in (0, 64, 128, 256):
        enclosure, point = _interval_newton(exact, point, working + extra, slope)
        if enclosure is not None:
            return enclosure
        slope = None
    for extra in (32, 64, 128, 256):
        point = _newton(exact, point, bits + extra + 32)[0]
        enclosure = _by_signs(exact, point, bits)
        if enclosure is not None:
            return enclosure
    raise RootError(f"lambda_c: could not certify the root for n={shown(tokens)} at {bits} bits")


@lru_cache(maxsize=ROOT_CACHE)
def _root(tokens: Fraction, bits: int) -> arb:
    return certify_root(tokens, bits)


def root_count() -> int:
    """How many roots `enclose` has certified in this process (the checker bounds it per certificate)."""
    return _root.cache_info().misses


def _exact(end: arb) -> Fraction:
    """The exact value of a ball end (python-flint's lower() and upper() are exact); RootError when its binary
    exponent exceeds MAX_END_EXPONENT (n = exp(exp(100)) has an end of 2^(10^43): no exact value of it fits)."""
    try:
        return exact_value(end, MAX_END_EXPONENT)
    except ExponentTooLarge:
        raise RootError(
            f"lambda_c(n, beta): n or an end of its ball is beyond 2^+-{MAX_END_EXPONENT}, not rooted"
        ) from None


def enclose(tokens: arb, inverse_temperature: arb) -> arb:
    """A ball containing lambda_c(n, beta) = u_c(n) / beta for every n, beta in the given balls (n > 1, beta > 0):
    [a, b] / beta, a the left end of the certified root at n_lo and b the right end of the one at n_hi, once
    g(a) < 0 < g(b) holds for every n of the ball (so each u_c(n) lies in [a, b]: module docstring)."""
    if not (tokens.is_finite() and inverse_temperature.is_finite()):
        raise RootError("lambda_c(n, beta) needs finite n and beta")
    if not tokens - 1 > 0:
        raise RootError("lambda_c(n, beta) needs n > 1")
    if not inverse_temperature > 0:
        raise RootError("lambda_c(n, beta) needs beta > 0")
    bits = ctx.prec
    low, high = (_root(_exact(end), bits) for end in (tokens.lower(), tokens.upper()))
    left, right = low.lower(), high.upper()
    if not any(_brackets(tokens, left, right, bits + extra) for extra in (64, 128, 256, 512)):
        raise RootError("lambda_c: the roots at the ends of the ball of n do not bracket the roots inside it")
    return left.union(right) / inverse_temperature


def _brackets(tokens: arb, left: arb, right: arb, prec: int) -> bool:
    """g(left, n) < 0 < g(right, n) at every n of the ball, left > 2, at `prec` bits: g(left) < 0 at n_lo and
    g(right) > 0 at n_hi (the ball's exact ends), and dg/dn < 0 on [left, right] x the ball, so g decreases in n
    there. g is tiny at the exact ends of a certified root: it takes more bits than the root to sign."""
    with precision(prec):
        falling = evaluate(_N_SLOPE, {_U: left.union(right), _N: tokens}) < 0
        low = evaluate(_EQUATION, {_U: left, _N: tokens.lower()})
        high = evaluate(_EQUATION, {_U: right, _N: tokens.upper()})
        return bool(left > 2 and falling and low < 0 and high > 0)
