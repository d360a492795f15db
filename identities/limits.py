"""Limits a derivation can rest on, computed without `sp.limit`: evaluation at a point where the expression is
shown smooth, and the reduction of limits at infinity to such points.

`sp.limit` is a heuristic (Gruntz's algorithm with series and sign tests that go through SymPy's evaluation):
its answer only proposes. Here a limit is a computation whose every side condition is checked:

- var -> a (finite): the expression is put over a common denominator N/D (exact algebra), every power and function
  in N and D defined at a (`defined_at`: SymPy's substitution can turn 0 * zoo**gamma into 0). If D(a) != 0
  (proved by `headflow.identities.signs`) and N(a) is defined, the limit is N(a)/D(a). Otherwise, when N and D and their
  first k - 1 derivatives vanish at a exactly (`headflow.identities.zero_test`) and D^(k)(a) != 0 (proved), the limit is
  N^(k)(a)/D^(k)(a) [cited: Taylor's theorem at a, N and D smooth near a (elementary functions defined there)].
- var -> oo: var = 1/s with s -> 0+, the same test at s = 0 (one-sided is enough: the expression at s = 0 is
  approached from both sides by a function smooth at 0).
- var -> oo through log var: when the expression depends on var only through log(var) (checked: var is not
  free once log(var) is replaced by 1/s), s = 1/log(var) -> 0+ [cited: log var -> oo].
- var -> oo through exp: when the expression depends on var only through exponentials exp(q_k c var) (c free of
  var and proved > 0, q_k rational, checked by the exact zero test), exp(c var / m) = 1/s with m the common
  denominator of the q_k, s -> 0+ [cited: exp(c var) -> oo as var -> oo for c > 0]; tried when the direct route
  does not close.
- `split_logs` writes log(c prod f_i^q_i) = log c + sum q_i log f_i (a factorization SymPy proposes, checked
  equal by the exact zero test) only where every f_i > 0 is proved, so that a limit through log var sees log var.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import sympy as sp
from headflow.identities import signs
from headflow.identities.derivation import Derivation
from headflow.identities.zero_test import is_identically_zero

#: Derivatives tried at a point where N and D both vanish.
MAX_ORDER = 3


def split_logs(expr: sp.Expr, known: signs.Facts) -> sp.Expr:
    """expr with each log(a) written log c + sum_i q_i log f_i, where a = c prod_i f_i^q_i is SymPy's factorization
    of a (`sp.factor`), accepted only when the exact zero test shows the product equal to a, with c a positive
    rational, q_i rational and every f_i (or -f_i, the sign moved into c) proved > 0 from `known`. A logarithm
    whose factorization is not checked this way is left as it is."""

    def split(node: sp.Expr) -> sp.Expr:
        argument = node.args[0]
        factored = sp.factor(sp.together(argument))
        if not is_identically_zero(factored - argument):
            return node
        constant, terms = sp.Integer(1), []
        for part in sp.Mul.make_args(factored):
            base, power = part.as_base_exp()
            if base.is_Rational and power.is_Integer:
                constant *= part
            elif not power.is_Rational:
                return node
            elif signs.prove(base, ">0", known) is not None:
                terms.append(power * sp.log(base))
            elif power.is_Integer and signs.prove(-base, ">0", known) is not None:
                terms.append(power * sp.log(-base))
                constant *= (-1) ** power
            else:
                return node
        if not (constant.is_Rational and constant > 0):
            return node
        return sp.Add(sp.log(constant), *terms)

    return expr.replace(lambda e: isinstance(e, sp.log), split)


def at_point(expr: sp.Expr, var: sp.Symbol, point: sp.Expr, known: signs.Facts) -> tuple[sp.Expr, str] | None:
    """(lim_{var -> point} expr, how) by the checks of the module docstring, or None when they do not close.

    `known` holds the facts about every other symbol (var itself is not free once evaluated at point)."""
    numerator, denominator = sp.fraction(sp.together(expr))
    for order in range(MAX_ORDER + 1):
        parts = [sp.diff(part, var, order) for part in (numerator, denominator)]
        if not all(defined_at(part, var, point, known) for part in parts):
            return None  # a power or function undefined at the point, which SymPy's substitution may hide
        top, bottom = (part.subs(var, point) for part in parts)
        if any(part.has(sp.nan, sp.zoo, sp.oo, -sp.oo) for part in (top, bottom)):
            return None  # a part undefined at the point (exp(1/s) at s = 0): not this route's case
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


def defined_at(expr: sp.Expr, var: sp.Symbol, point: sp.Expr, known: signs.Facts) -> bool:
    """Whether every power and function inside expr is defined at var = point: each argument has a value there (no
    nan, zoo, oo), and a power whose base is 0 there has an exponent that is a positive integer or proved > 0.
    SymPy's substitution can hide an undefined part: s ((s + 1)/s)**gamma at s = 0 becomes 0 * zoo**gamma = 0."""
    undefined = (sp.nan, sp.zoo, sp.oo, -sp.oo)
    for node in sp.preorder_traversal(expr):
        if not (isinstance(node, sp.Pow | sp.Function) and node.has(var)):
            continue
        values = [arg.subs(var, point) for arg in node.args]
        if any(value.has(*undefined) for value in values):
            return False
        if isinstance(node, sp.Pow) and is_identically_zero(values[0]):
            exponent = values[1]
            if not (exponent.is_Integer and exponent > 0) and signs.prove(exponent, ">0", known) is None:
                return False
    return True


def at_infinity(
    expr: sp.Expr,
    var: sp.Symbol,
    known: signs.Facts,
    through_log: bool = False,
    form: Callable[[sp.Symbol], sp.Expr] = lambda s: 1 / s,
) -> tuple[sp.Expr, str] | None:
    """(lim_{var -> oo} expr, how): var = form(s) with form(s) -> oo as s -> 0+ (default 1/s), or log var = 1/s;
    logs split where proved, and the limit at s = 0+ (`at_zero`); None if it does not close."""
    s = sp.Dummy("s", positive=True)
    at = known.with_signs(positive=[s])
    if through_log:
        rewritten = split_logs(expr, known).xreplace({sp.log(var): 1 / s})
        if rewritten.has(var):
            return None
    else:
        rewritten = split_logs(expr.xreplace({var: form(s)}), at)
    found = at_zero(rewritten, s, at)
    if found is None:
        return None if through_log else _through_exp(expr, var, known)
    via = f"log {var} = 1/s" if through_log else f"{var} = {form(sp.Symbol('s'))}"
    return found[0], f"{via}, s -> 0+: {found[1]}"


def _through_exp(expr: sp.Expr, var: sp.Symbol, known: signs.Facts) -> tuple[sp.Expr, str] | None:
    """lim_{var -> oo} expr when expr depends on var only through exp(q_k c var), c > 0 proved, q_k rational: with
    exp(c var / m) = 1/s (m the q_k's common denominator) the limit at s = 0+ (`at_zero`); None otherwise."""
    # sorted: `atoms` is a set, whose order (and so the base c and the step's text) changed between processes
    powers = sorted((node for node in expr.atoms(sp.exp) if node.has(var)), key=sp.default_sort_key)
    if not powers:
        return None
    rates = [sp.cancel(node.args[0] / var) for node in powers]
    if any(
        rate.has(var) or not is_identically_zero(rate * var - node.args[0])
        for rate, node in zip(rates, powers, strict=True)
    ):
        return None
    base = next((sign * rates[0] for sign in (1, -1) if signs.prove(sign * rates[0], ">0", known) is not None), None)
    if base is None:
        return None
    ratios = [sp.cancel(rate / base) for rate in rates]
    if not all(q.is_Rational and is_identically_zero(rate - q * base) for q, rate in zip(ratios, rates, strict=True)):
        return None
    m = math.lcm(*(int(sp.Rational(q).q) for q in ratios))
    s = sp.Dummy("s", positive=True)
    rewritten = expr.xreplace({node: s ** (-q * m) for node, q in zip(powers, ratios, strict=True)})
    if rewritten.has(var):
        return None
    found = at_zero(rewritten, s, known.with_signs(positive=[s]))
    if found is None:
        return None
    shown = sp.exp(base * var / m)
    return found[0], f"{shown} = 1/s (exp(c {var}) -> oo, c = {base} > 0), s -> 0+: {found[1]}"


def at_zero(expr: sp.Expr, s: sp.Symbol, known: signs.Facts) -> tuple[sp.Expr, str] | None:
    """lim_{s -> 0+} expr: `at_point`, or, when expr has log s, as a quotient N/D of polynomials in L = log s:
    with k the degree of D in L, the limit is [L^k]N(0) / [L^k]D(0) when [L^k]D(0) != 0 (proved), every other
    coefficient of D and those of N up to L^k have finite limits, and each coefficient c_j of N with j > k has
    c_j(s)/s with a finite limit [cited: divide by L^k; s |log s|^j -> 0 and 1/|log s| -> 0 as s -> 0+]."""
    direct = at_point(expr, s, sp.Integer(0), known)
    if direct is not None or not expr.has(sp.log(s)):
        return direct
    L = sp.Dummy("L")
    numerator, denominator = sp.fraction(sp.together(expr.xreplace({sp.log(s): L})))
    try:
        top, bottom = sp.Poly(signs.exact_expand(numerator), L), sp.Poly(signs.exact_expand(denominator), L)
    except sp.PolynomialError:
        return None
    if any(c.has(L) for c in (*top.coeffs(), *bottom.coeffs())):
        return None
    k = bottom.degree()
    leading = bottom.coeff_monomial(L**k)
    if signs.prove(leading.subs(s, 0), "!=0", known) is None:
        return None
    lead = at_point(leading, s, sp.Integer(0), known)
    for (j,), coefficient in [*top.terms(), *bottom.terms()]:
        if at_point(coefficient / s if j > k else coefficient, s, sp.Integer(0), known) is None:
            return None
    above = at_point(top.coeff_monomial(L**k), s, sp.Integer(0), known)
    if lead is None or above is None:
        return None
    return above[0] / lead[0], f"a quotient of polynomials in log s of degree {k} in the denominator"


def record_limit(
    derivation: Derivation,
    text: str,
    found: tuple[sp.Expr, str] | None,
    claimed: sp.Expr,
    latex: str = "",
) -> bool:
    """A derivation step `text`: the limit `found` (from at_point / at_infinity) exists and equals `claimed`."""
    if found is None:
        derivation.failures.append(
            f"{text}: the limit is not established by the checked route (headflow.identities.limits)"
        )
        return False
    value, how = found
    return derivation.zero(f"{text} [limit: {how}]", value - claimed, latex)
