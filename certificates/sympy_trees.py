"""SymPy expressions and formulas -> the kernel's expression trees (`headflow.certificates.kernel.exprtree`).

The deciding side proposes with SymPy; what reaches a certificate is a tree. This writer is not trusted: a tree
stands for what the kernel evaluates of it, and a statement's trees are compared with the claim's (a claims file's
formulas are parsed into trees as written, never through SymPy's evaluation: `certificates.claims.expressions`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from headflow.certificates.kernel.exprtree import UNARY, Tree, TreeError, rational_text


def from_sympy(expr: Any) -> Tree:
    """The tree of a SymPy expression built from + * integer powers, exp, log, sqrt, LambertW, lambda_c, pi and
    the inert nodes of `headflow.certificates.inert` (whose real powers become `rpow`)."""
    import sympy as sp
    from headflow.certificates import inert
    from headflow.identities.closed_forms import LambdaC

    e = sp.sympify(expr, strict=True)
    if e.is_Rational:
        return ["rat", rational_text(Fraction(int(e.p), int(e.q)))]
    if e is sp.E:
        return ["exp", ["rat", "1"]]
    if e is sp.pi or isinstance(e, inert.Pi):
        return ["pi"]
    if e.is_Symbol:
        return ["sym", e.name]
    if isinstance(e, inert.Inert) and e.text in UNARY:
        return [e.text, from_sympy(e.args[0])]
    if isinstance(e, inert.W):
        return ["lambertw", from_sympy(e.args[0])]
    if isinstance(e, inert.RealPower):
        return ["rpow", from_sympy(e.args[0]), from_sympy(e.args[1])]
    if isinstance(e, sp.Add):
        return ["add", *[from_sympy(a) for a in e.args]]
    if isinstance(e, sp.Mul):
        return ["mul", *[from_sympy(a) for a in e.args]]
    if isinstance(e, sp.Pow):
        base, k = e.args
        if k.is_Integer:
            return ["pow", from_sympy(base), int(k)]
        if k == sp.Rational(1, 2):
            return ["sqrt", from_sympy(base)]
        if k == sp.Rational(-1, 2):
            return ["pow", ["sqrt", from_sympy(base)], -1]
        raise TreeError(f"unsupported power {e}")
    for name, cls in (("exp", sp.exp), ("log", sp.log), ("lambertw", sp.LambertW)):
        if isinstance(e, cls) and len(e.args) == 1:
            return [name, from_sympy(e.args[0])]
    if isinstance(e, LambdaC):
        return ["lambda_c", *[from_sympy(a) for a in e.args]]
    raise TreeError(f"unsupported node {type(e).__name__}")


_SYMPY_RELATIONS = {"StrictLessThan": "<", "LessThan": "<=", "StrictGreaterThan": ">", "GreaterThan": ">="}


def formula_from_sympy(formula: Any) -> Tree:
    """The tree of a SymPy boolean formula over polynomial relations (an SMT hypothesis or goal)."""
    import sympy as sp

    if formula is sp.true or formula is sp.false:
        return [str(bool(formula)).lower()]
    name = type(formula).__name__
    if name in _SYMPY_RELATIONS:
        return [_SYMPY_RELATIONS[name], from_sympy(formula.lhs), from_sympy(formula.rhs)]
    if isinstance(formula, sp.Equality):
        return ["=", from_sympy(formula.lhs), from_sympy(formula.rhs)]
    if isinstance(formula, sp.Unequality):
        return ["not", ["=", from_sympy(formula.lhs), from_sympy(formula.rhs)]]
    if isinstance(formula, sp.Not):
        return ["not", formula_from_sympy(formula.args[0])]
    if isinstance(formula, sp.And | sp.Or):
        return ["and" if isinstance(formula, sp.And) else "or", *[formula_from_sympy(a) for a in formula.args]]
    if isinstance(formula, sp.Implies | sp.Equivalent) and len(formula.args) == 2:
        op = "implies" if isinstance(formula, sp.Implies) else "iff"
        return [op, *[formula_from_sympy(a) for a in formula.args]]
    raise TreeError(f"unsupported formula node {name}")
