"""Inert SymPy nodes: the claims-file expressions in SymPy with no sign, branch or zero test inside.

SymPy evaluates while it builds: `sqrt(e**2)` becomes `-e` when it believes `e` negative, a belief it
gets from a low-precision numerical sign of a cancelling constant (`1 - c_star(10**30)**2`). In the
claims-file path every non-polynomial operation is therefore one of the nodes below, which SymPy
cannot rewrite: their `eval` never looks at a sign, they have no assumptions and no numerical value
(`_eval_evalf` is None, so an `is_positive` query can never be answered from floats). What SymPy still
does automatically is arithmetic of Add, Mul and integer powers over rationals, symbols and these
nodes, that is, rational-function arithmetic, which is the same for every value of the atoms (a
cancelled denominator keeps its definedness condition, recorded from the text by the builder).

`Sqrt(x)`, `RealPower(x, q)` (`x**q` for a non-integer exponent q: the real power, x >= 0), `Exp(x)`,
`Log(x)`, `W(x)` (principal Lambert W) and `Pi()`. The only evaluations are exact and sign-free: the
square root or real power of a rational that is an exact power of a rational, `Exp(0) = 1`,
`Log(1) = 0`, an integer exponent of `RealPower` (an ordinary power). `inert(expr)` turns an ordinary
SymPy formula (the closed forms of `headflow.identities.closed_forms`, built on plain symbols, which SymPy
cannot rewrite by sign) into inert form; `headflow.certificates.sympy_trees.from_sympy` writes inert trees.
"""

from __future__ import annotations

from typing import Any

import sympy as sp
from sympy.core.function import Function


class Inert(Function):
    """A node SymPy keeps as written: no automatic rewrite, no assumptions, no numerical value."""

    #: The name the claims-file grammar and the printed formulas use.
    text = ""

    def _eval_evalf(self, prec: int) -> None:
        return None

    def _sympystr(self, printer: Any) -> str:
        return f"{self.text}({', '.join(printer.doprint(a) for a in self.args)})"

    def _latex(self, printer: Any, exp: str | None = None) -> str:
        body = rf"\operatorname{{{self.text}}}\left({', '.join(printer.doprint(a) for a in self.args)}\right)"
        return body if exp is None else rf"{body}^{{{exp}}}"


def _exact_root(value: sp.Rational, degree: int) -> sp.Rational | None:
    """The non-negative rational r with r**degree = value, when there is one (value >= 0)."""
    if value < 0:
        return None
    top, exact_top = sp.integer_nthroot(int(value.p), degree)
    bottom, exact_bottom = sp.integer_nthroot(int(value.q), degree)
    return sp.Rational(top, bottom) if exact_top and exact_bottom else None


class Sqrt(Inert):
    """The real square root (argument >= 0)."""

    nargs = 1
    text = "sqrt"

    @classmethod
    def eval(cls, x: sp.Expr) -> sp.Expr | None:
        return _exact_root(x, 2) if x.is_Rational else None

    def radical_parts(self) -> tuple[sp.Expr, int, int, sp.Expr]:
        """(base, p, q, the node of base**(1/q)): what `headflow.identities.algebraic` makes a radical atom of."""
        return self.args[0], 1, 2, self


class RealPower(Inert):
    """x**q for a non-integer exponent q: for rational q = a/b the real b-th root of x**a (x >= 0, x > 0 when
    a < 0); for a symbolic q, exp(q log x) (x > 0)."""

    nargs = 2
    text = "pow"

    @classmethod
    def eval(cls, base: sp.Expr, exponent: sp.Expr) -> sp.Expr | None:
        if exponent.is_Integer:
            return base**exponent
        if base.is_Rational and exponent.is_Rational and base >= 0:
            root = _exact_root(base, int(exponent.q))
            if root is not None and (root != 0 or exponent > 0):
                return root ** int(exponent.p)
        return None

    def radical_parts(self) -> tuple[sp.Expr, int, int, sp.Expr] | None:
        base, exponent = self.args
        if not exponent.is_Rational:
            return None
        return base, int(exponent.p), int(exponent.q), RealPower(base, sp.Rational(1, exponent.q))

    def _sympystr(self, printer: Any) -> str:
        base, exponent = (printer.doprint(a) for a in self.args)
        return f"({base})**({exponent})"


class Exp(Inert):
    """exp(x)."""

    nargs = 1
    text = "exp"

    @classmethod
    def eval(cls, x: sp.Expr) -> sp.Expr | None:
        return sp.Integer(1) if x == 0 else None


class Log(Inert):
    """The natural logarithm (argument > 0)."""

    nargs = 1
    text = "log"

    @classmethod
    def eval(cls, x: sp.Expr) -> sp.Expr | None:
        return sp.Integer(0) if x == 1 else None


class W(Inert):
    """The principal branch of Lambert W (argument >= -1/e)."""

    nargs = 1
    text = "lambertw"


class Pi(Inert):
    """pi."""

    nargs = 0
    text = "pi"

    def _sympystr(self, printer: Any) -> str:
        return "pi"


#: Ordinary SymPy function classes and their inert counterparts.
_UNARY = {sp.exp: Exp, sp.log: Log, sp.LambertW: W}


def inert(expr: sp.Expr) -> sp.Expr:
    """An ordinary SymPy formula in inert form: rational powers, exp, log, LambertW, E and pi become inert nodes
    (other functions, such as `headflow.identities.closed_forms.LambdaC`, keep their class, with inert arguments)."""
    if expr.is_Rational or expr.is_Symbol:
        return expr
    if expr is sp.E:
        return Exp(sp.Integer(1))
    if expr is sp.pi:
        return Pi()
    if expr is sp.GoldenRatio:
        return (1 + Sqrt(5)) / 2
    args = [inert(a) for a in expr.args]
    if isinstance(expr, sp.Pow):
        base, exponent = args
        if exponent.is_Integer:
            return base**exponent
        return Sqrt(base) if exponent == sp.Rational(1, 2) else RealPower(base, exponent)
    for ordinary, node in _UNARY.items():
        if isinstance(expr, ordinary) and len(args) == 1:
            return node(*args)
    if isinstance(expr, sp.Add | sp.Mul | Function):
        return expr.func(*args)
    raise ValueError(f"no inert form of {type(expr).__name__}")
