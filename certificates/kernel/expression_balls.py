"""Rigorous evaluation of SymPy expressions as python-flint balls (arb).

One evaluator serves the constants tables, the interval certificates and the claims files, so
that a formula is never rewritten for one of them. Only the node types below are accepted; any
other node raises UnsupportedExpression. It lives in `certificates`, not beside the SymPy forms of
`identities`, because it computes with balls: the identities stay SymPy only.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import sympy as sp
from flint import arb, ctx

from certificates.kernel.exact import ball_of, precision


class UnsupportedExpression(ValueError):
    """The expression has a node the ball evaluator does not know."""


def to_arb(expr: sp.Expr, env: Mapping[sp.Symbol, arb] | None = None, prec: int | None = None) -> arb:
    """Evaluate `expr` as a ball with symbols bound by `env`, at `prec` bits (default: the working precision)."""
    with precision(ctx.prec if prec is None else prec):
        return _eval(sp.sympify(expr, strict=True), dict(env or {}))


def _eval(e: sp.Basic, env: dict[sp.Symbol, arb]) -> arb:
    if e.is_Rational or e.is_Float:
        return ball_of(Fraction(sp.Rational(e)))
    if e is sp.pi:
        return arb.pi()
    if e is sp.E:
        return arb(1).exp()
    if e is sp.GoldenRatio:
        return (1 + arb(5).sqrt()) / 2
    if e.is_Symbol:
        if e not in env:
            raise UnsupportedExpression(f"no value bound for symbol {e}")
        return env[e]
    if isinstance(e, sp.Add):
        total = arb(0)
        for term in e.args:
            total += _eval(term, env)
        return total
    if isinstance(e, sp.Mul):
        product = arb(1)
        for factor in e.args:
            product *= _eval(factor, env)
        return product
    if isinstance(e, sp.Pow):
        base, exponent = e.args
        if exponent.is_Integer:
            b = _eval(base, env)
            k = int(exponent)
            return b**k if k >= 0 else 1 / (b ** (-k))
        if exponent == sp.Rational(1, 2):
            return _eval(base, env).sqrt()
        if exponent == sp.Rational(-1, 2):
            return _eval(base, env).rsqrt()
        return (_eval(exponent, env) * _eval(base, env).log()).exp()
    if isinstance(e, sp.exp):
        return _eval(e.args[0], env).exp()
    if isinstance(e, sp.log):
        return _eval(e.args[0], env).log()
    if isinstance(e, sp.LambertW):
        if len(e.args) != 1:
            raise UnsupportedExpression("only the principal Lambert W branch is supported")
        return _eval(e.args[0], env).lambertw()
    raise UnsupportedExpression(f"cannot evaluate {type(e).__name__} as a ball")
