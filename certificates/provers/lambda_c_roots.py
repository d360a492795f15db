"""u_c(n) = beta lambda_c to many digits, for `headflow constants`: a Newton root finder, outside the kernel.

u_c is the unique zero in (2, inf) of g(u) = (u - 2) e^u - (n - 1)(u + 2) (the argument and the equation's tree are
the kernel's, `certificates.kernel.lambda_c`, which encloses lambda_c in certificates by bisection with ball signs;
this module is the fast path at thousands of digits). g' is the kernel's derivative of the tree
(`headflow.certificates.kernel.derivatives`), g and g' are compiled once (`headflow.certificates.provers.programs`).

`certify_root(n, bits)`: an exact n > 1 (an integer or a rational), any precision. Newton's method from the right of
the root (where a convex increasing g makes it converge monotonically) finds the midpoint, in floats first
(`_float_root`), then at doubling precision (g and g' share e^u, compiled once); the last step is an interval Newton
step, which certifies: for a ball X in (2, inf) holding the point m, with g' > 0 on X (its ball over X), every zero
of g in X lies in N = m - g(m) / g'(X), and N inside X proves that X holds a zero (Moore's theorem), so u_c, the only
zero in (2, inf), lies in N. Only g(m) is computed at the full precision. Should the test fail, the signs of g at the
ends of a small ball around the point certify it instead.
"""

from __future__ import annotations

import math
from fractions import Fraction

from flint import arb, ctx
from headflow.certificates.ball_reading import shown
from headflow.certificates.kernel.derivatives import derivative
from headflow.certificates.kernel.exact import dyadic_fmpz, precision, rational_ball
from headflow.certificates.kernel.exprtree import Tree
from headflow.certificates.kernel.lambda_c import EQUATION, N, RootError, U, right_of_root
from headflow.certificates.provers.programs import Program, compile_trees

#: g'(u) over the symbols u and n, as a tree (g is the kernel's `EQUATION`).
SLOPE: Tree = derivative(EQUATION, U)
#: g, g' and both at once (e^u and (u - 2) e^u computed once), compiled (`headflow.certificates.provers.programs`).
_G, _G_SLOPE, _BOTH = compile_trees(EQUATION), compile_trees(SLOPE), compile_trees(EQUATION, SLOPE)


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
    return program.run({U: point, N: rational_ball(tokens.numerator, tokens.denominator, prec)})


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
    any n the floats hold), from `start` (`right_of_root`) right of the root; None when n - 1 is beyond the floats
    or the iteration does not settle. Only a start: the certificate is the interval Newton step at the end."""
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
    point = arb(right_of_root(exact))
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
