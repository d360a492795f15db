"""A certified ball for u_c, the root of the lambda_c equation g(u) = (u - 2) e^u - (n - 1)(u + 2).

The equation comes from `identities.closed_forms.lambda_c_equation` and is evaluated with
`identities.balls.to_arb`; it is not written again here. Why a sign change certifies the root:
g''(u) = u e^u > 0 for u > 0 (tested symbolically), so g is convex on (0, inf); with g(2) = -4(n - 1)
< 0 it has exactly one zero in (2, inf). If g(a) < 0 < g(b) rigorously with 2 < a < b, that
zero lies in [a, b]. Newton's method from the right of the root (where a convex increasing g
makes it converge monotonically) finds the midpoint; it is run at doubling precision, so the
cost is a few evaluations at the final precision.
"""

from __future__ import annotations

import math
from functools import lru_cache

import sympy as sp
from flint import arb, ctx

from identities.balls import to_arb
from identities.closed_forms import lambda_c_equation, u


@lru_cache(maxsize=64)
def _equation(tokens: int) -> tuple[sp.Expr, sp.Expr]:
    g = lambda_c_equation(u, sp.Integer(tokens))
    return g, sp.diff(g, u)


def _value(expr: sp.Expr, point: arb, prec: int) -> arb:
    return to_arb(expr, {u: point}, prec)


def _newton(g: sp.Expr, dg: sp.Expr, point: arb, prec: int) -> arb:
    """One Newton step at `prec` bits; only the midpoint is kept (the certificate comes later)."""
    with ctx.workprec(prec):
        return (point - _value(g, point, prec) / _value(dg, point, prec)).mid()


def _start(tokens: int) -> arb:
    """A point right of u_c: for b >= 6, (b - 2)/(b + 2) >= 1/2 and e^b > 2 (n - 1) give g(b) > 0."""
    return arb(max(6, math.floor(math.log(2 * (tokens - 1))) + 2))


def certify_root(tokens: int, bits: int) -> arb:
    """A ball containing u_c(n) whose radius is about 2^-bits relative; raises if not certified."""
    g, dg = _equation(tokens)
    point = _start(tokens)
    if not _value(g, point, 64) > 0:
        raise ArithmeticError(f"lambda_c: no sign change at the start point for n={tokens}")
    for _ in range(200):
        nxt = _newton(g, dg, point, 64)
        if abs(float(nxt - point)) < 1e-12 * float(point):
            point = nxt
            break
        point = nxt
    prec = 64
    while prec < bits:
        prec = min(2 * prec, bits)
        point = _newton(g, dg, point, prec + 32)
    extra = 32
    for _ in range(8):
        point = _newton(g, dg, point, bits + extra + 32)
        man, exp = point.man_exp()
        radius = arb(2) ** (int(exp) + man.bit_length() - bits)
        check_prec = bits + extra + 64
        with ctx.workprec(check_prec):
            low, high = point - radius, point + radius
        if low > 2 and _value(g, low, check_prec) < 0 and _value(g, high, check_prec) > 0:
            with ctx.workprec(check_prec):
                return low.union(high)  # holds every point between the two (balls around the) ends
        extra *= 2
    raise ArithmeticError(f"lambda_c: could not certify the root for n={tokens} at {bits} bits")
