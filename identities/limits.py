"""Limits a derivation can rest on, computed without `sp.limit`: evaluation at a point where the expression is
shown smooth, and the reduction of limits at infinity to such points.

`sp.limit` is a heuristic (Gruntz's algorithm with series and sign tests that go through SymPy's evaluation):
its answer only proposes. Here a limit is a computation whose every side condition is checked:

- var -> a (finite): the expression is put over a common denominator N/D (exact algebra). If D(a) != 0
  (proved by `identities.signs`) and N(a) is defined, the limit is N(a)/D(a). Otherwise, when N and D and their
  first k - 1 derivatives vanish at a exactly (`identities.zero_test`) and D^(k)(a) != 0 (proved), the limit is
  N^(k)(a)/D^(k)(a) [cited: Taylor's theorem at a, N and D smooth near a (elementary functions defined there)].
- var -> oo: var = 1/s with s -> 0+, the same test at s = 0 (one-sided is enough: the expression at s = 0 is
  approached from both sides by a function smooth at 0).
- var -> oo through log var: when the expression depends on var only through log(var) (checked: var is not
  free once log(var) is replaced by 1/s), s = 1/log(var) -> 0+ [cited: log var -> oo].
- `split_logs` rewrites log(a b) = log a + log b and log(a^q) = q log a only where a, b > 0 are proved, so
  that a limit through log var can see log var.
"""

from __future__ import annotations

import sympy as sp

from identities import signs
from identities.derivation import Derivation
from identities.zero_test import is_identically_zero

#: Derivatives tried at a point where N and D both vanish.
MAX_ORDER = 3


def split_logs(expr: sp.Expr, known: signs.Facts) -> sp.Expr:
    """expr with log(a b ...) = log a + log b + ... and log(a^q) = q log a (q rational), applied bottom-up only
    where each a is proved > 0 from `known`; other logarithms are left as they are."""

    def split(node: sp.Expr) -> sp.Expr:
        argument = node.args[0]
        if isinstance(argument, sp.Mul):
            factors = argument.args
            if all(signs.prove(f, ">0", known) is not None for f in factors):
                return sp.Add(*(split(sp.log(f)) if isinstance(sp.log(f), sp.log) else sp.log(f) for f in factors))
        rational_power = isinstance(argument, sp.Pow) and isinstance(argument.exp, sp.Rational)
        if rational_power and signs.prove(argument.base, ">0", known) is not None:
            inner = sp.log(argument.base)
            return argument.exp * (split(inner) if isinstance(inner, sp.log) else inner)
        return node

    return expr.replace(lambda e: isinstance(e, sp.log), split)


def at_point(expr: sp.Expr, var: sp.Symbol, point: sp.Expr, known: signs.Facts) -> tuple[sp.Expr, str] | None:
    """(lim_{var -> point} expr, how) by the checks of the module docstring, or None when they do not close.

    `known` holds the facts about every other symbol (var itself is not free once evaluated at point)."""
    numerator, denominator = sp.fraction(sp.together(expr))
    for order in range(MAX_ORDER + 1):
        top, bottom = (sp.diff(part, var, order).subs(var, point) for part in (numerator, denominator))
        if signs.prove(bottom, "!=0", known) is not None:
            if signs.sign_of(top, known) is None:
                return None
            how = "evaluated where the denominator is proved non-zero"
            if order:
                how = f"Taylor at the point: N, D and their first {order - 1} derivatives vanish, D^({order}) != 0"
            return top / bottom, how
        if not (is_identically_zero(top) and is_identically_zero(bottom)):
            return None
    return None


def at_infinity(
    expr: sp.Expr, var: sp.Symbol, known: signs.Facts, through_log: bool = False
) -> tuple[sp.Expr, str] | None:
    """(lim_{var -> oo} expr, how): var = 1/s (or log var = 1/s) and `at_point` at s = 0; None if it does not close."""
    s = sp.Dummy("s", positive=True)
    if through_log:
        rewritten = split_logs(expr, known).xreplace({sp.log(var): 1 / s})
        if rewritten.has(var):
            return None
    else:
        rewritten = expr.xreplace({var: 1 / s})
    found = at_point(rewritten, s, sp.Integer(0), known)
    if found is None:
        return None
    via = "s = 1/log" if through_log else "s = 1/"
    return found[0], f"{via}{var} -> 0+, then {found[1]}"


def record_limit(
    derivation: Derivation,
    text: str,
    found: tuple[sp.Expr, str] | None,
    claimed: sp.Expr,
    latex: str = "",
) -> bool:
    """A derivation step `text`: the limit `found` (from at_point / at_infinity) exists and equals `claimed`."""
    if found is None:
        derivation.failures.append(f"{text}: the limit is not established by the checked route (identities.limits)")
        return False
    value, how = found
    return derivation.zero(f"{text} [limit: {how}]", value - claimed, latex)
