"""Rigorous ball evaluation of claims-file expressions (inert SymPy, `certificates.kernel.inert`), lambda_c included.

The expression is written as a tree (`certificates.kernel.exprtree.from_sympy`) and evaluated with python-flint
balls by `certificates.kernel.exprtree.eval_ball`, the evaluator `headflow check-cert` uses on certificates;
`lambda_c` is enclosed by `certificates.kernel.lambda_c`. No SymPy evaluation takes part: a sign is a ball's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache

import sympy as sp
from flint import arb

from certificates.kernel.exact import ball_of, precision
from certificates.kernel.exprtree import Tree, TreeError, eval_ball, exact_rational, from_sympy, rational_text

#: Largest binary exponent of a ball end turned into an exact rational.
MAX_END_EXPONENT = 4096


class EvaluationError(ValueError):
    """The expression has no finite value at this point (outside a function's domain, or unsupported)."""


def ball(expr: sp.Expr, env: Mapping[sp.Symbol, sp.Rational], prec: int) -> arb:
    """A ball at `prec` bits containing the value of `expr` at the exact point `env`.

    Raises EvaluationError when the value is not a finite real (a log of a negative, a pole...).
    """

    def bind() -> dict[str, arb]:
        return {symbol.name: ball_of(value) for symbol, value in env.items()}

    return _enclosure(expr, bind, prec, "no finite value at this point")


def ball_over(expr: sp.Expr, env: Mapping[sp.Symbol, arb], prec: int) -> arb:
    """A ball containing every value of `expr` when each symbol ranges over its ball in `env` (boxes, not points)."""
    return _enclosure(expr, lambda: {symbol.name: value for symbol, value in env.items()}, prec, "no finite enclosure")


def exact(expr: sp.Expr, env: Mapping[sp.Symbol, sp.Rational]) -> Fraction | None:
    """The exact value of a rational expression (rationals, symbols, + * and integer powers of its tree) at the
    exact point `env`; None for any other expression, an undefined value or one too large to compute. A ball
    cannot settle a relation at equality (`x < 1/10` at x = 1/10): this can."""
    try:
        tree = tree_of(sp.sympify(expr, strict=True))
    except (TreeError, TypeError, ValueError):
        return None
    return exact_rational(tree, {symbol.name: Fraction(int(v.p), int(v.q)) for symbol, v in env.items()})


def exact_witness(point: Mapping[sp.Symbol, sp.Rational], left: Fraction, right: Fraction) -> dict[str, str]:
    """The record of a claim's sides computed exactly at a point (a counterexample verified without balls)."""
    return {
        "verified_by": "exact",
        "point": {str(symbol): str(value) for symbol, value in point.items()},
        "lhs": rational_text(left),
        "rhs": rational_text(right),
    }


@lru_cache(maxsize=4096)
def tree_of(expr: sp.Expr) -> Tree:
    """The tree of an inert expression (TreeError for a node no tree holds)."""
    return from_sympy(expr)


def _enclosure(expr: sp.Expr, bind: Callable[[], dict[str, arb]], prec: int, undefined: str) -> arb:
    """`expr` at `prec` bits with the symbols bound by `bind()` (called at that precision); EvaluationError
    with `undefined` when the value is not finite."""
    try:
        tree = tree_of(sp.sympify(expr, strict=True))
        with precision(prec):
            value = eval_ball(tree, bind())
    except (TreeError, ZeroDivisionError, ValueError, TypeError) as exc:
        raise EvaluationError(str(exc)) from None
    if not value.is_finite():
        raise EvaluationError(undefined)
    return value


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
