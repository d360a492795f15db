"""Rigorous ball evaluation of claims-file expressions (inert SymPy, `headflow.certificates.inert`), lambda_c included.

The boundary between the claims files' SymPy and the balls: the expression is written as a tree once
(`certificates.sympy_trees.from_sympy`, cached) and evaluated by `certificates.kernel.balls.eval_ball`, the
evaluator `headflow check-cert` uses on certificates. No SymPy evaluation takes part: a sign is a ball's.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache

import sympy as sp
from flint import arb
from headflow.certificates.kernel.balls import eval_ball
from headflow.certificates.kernel.exact import ball_of, precision
from headflow.certificates.kernel.exprtree import Tree, TreeError, exact_rational, rational_text
from headflow.certificates.sympy_trees import from_sympy


class EvaluationError(ValueError):
    """The expression has no finite value at this point (outside a function's domain, or unsupported)."""


def ball(expr: sp.Expr, env: Mapping[sp.Symbol, sp.Rational], prec: int) -> arb:
    """A ball at `prec` bits containing the value of `expr` at the exact point `env`.

    Raises EvaluationError when the value is not a finite real (a log of a negative, a pole...).
    """
    try:
        tree = tree_of(sp.sympify(expr, strict=True))
        with precision(prec):
            value = eval_ball(tree, {symbol.name: ball_of(v) for symbol, v in env.items()})
    except (TreeError, ZeroDivisionError, ValueError, TypeError) as exc:
        raise EvaluationError(str(exc)) from None
    if not value.is_finite():
        raise EvaluationError("no finite value at this point")
    return value


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
