"""Rigorous ball evaluation of claims-file expressions, including the implicit lambda_c(n, beta) and Abs.

`certificates.expression_balls.to_arb` evaluates every closed form; `lambda_c` has none, so each of its
occurrences is first replaced by a ball that provably contains it (`certificates.lambda_c.enclose`,
over the balls of its arguments).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import sympy as sp
from flint import arb

from certificates import lambda_c
from certificates.exact import ball_of, precision
from certificates.expression_balls import UnsupportedExpression, to_arb
from checks.claimsfile.names import LambdaC

#: Largest binary exponent of a ball end turned into an exact rational.
MAX_END_EXPONENT = 4096


class EvaluationError(ValueError):
    """The expression has no finite value at this point (outside a function's domain, or unsupported)."""


def ball(expr: sp.Expr, env: Mapping[sp.Symbol, sp.Rational], prec: int) -> arb:
    """A ball at `prec` bits containing the value of `expr` at the exact point `env`.

    Raises EvaluationError when the value is not a finite real (a log of a negative, a pole...).
    """

    def bind() -> dict[sp.Symbol, arb]:
        return {symbol: ball_of(value) for symbol, value in env.items()}

    return _enclosure(expr, bind, prec, "no finite value at this point")


def ball_over(expr: sp.Expr, env: Mapping[sp.Symbol, arb], prec: int) -> arb:
    """A ball containing every value of `expr` when each symbol ranges over its ball in `env` (boxes, not points)."""
    return _enclosure(expr, lambda: dict(env), prec, "no finite enclosure on this box")


def _enclosure(expr: sp.Expr, bind: Callable[[], dict[sp.Symbol, arb]], prec: int, undefined: str) -> arb:
    """`expr` at `prec` bits with the symbols bound by `bind()` (called at that precision); EvaluationError
    with `undefined` when the value is not finite (printing expr can be slow in SymPy, so it is not shown)."""
    try:
        with precision(prec):
            value = _evaluate(expr, bind())
    except (UnsupportedExpression, ZeroDivisionError, ValueError, TypeError) as exc:
        raise EvaluationError(str(exc)) from None
    if not value.is_finite():
        raise EvaluationError(undefined)
    return value


def _evaluate(expr: sp.Expr, point: dict[sp.Symbol, arb]) -> arb:
    """to_arb, after replacing each node it does not know (lambda_c, Abs) by a ball bound to a placeholder."""
    special = [node for node in sp.preorder_traversal(expr) if isinstance(node, LambdaC | sp.Abs)]
    if not special:
        return to_arb(expr, point)
    node = special[-1]  # preorder: the last one found holds no other occurrence
    args = [_evaluate(arg, point) for arg in node.args]
    placeholder = sp.Dummy("special")
    bound = dict(point)
    bound[placeholder] = lambda_c.enclose(*args) if isinstance(node, LambdaC) else abs(args[0])
    with sp.evaluate(False):  # substitute without SymPy re-simplifying the whole tree
        replaced = expr.xreplace({node: placeholder})
    return _evaluate(replaced, bound)


def exact_ends(value: arb) -> tuple[sp.Rational, sp.Rational]:
    """The ends of a finite ball as exact rationals (lower, upper); EvaluationError when they are huge.

    An end m 2^k is materialised exactly, so |k| is bounded (MAX_END_EXPONENT) to keep memory small.
    """
    ends = []
    for end in (value.lower(), value.upper()):
        mantissa, exponent = end.man_exp()
        if abs(int(exponent)) > MAX_END_EXPONENT:
            raise EvaluationError("a bound too large or too small to sample from")
        ends.append(sp.Integer(int(mantissa)) * sp.Integer(2) ** int(exponent))
    return ends[0], ends[1]
