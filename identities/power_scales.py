"""Limits as var -> oo of expressions built from powers var**a (a symbolic), exponentials and log var, on the scale
u = log var: var = e^u, so var**a = e^(a u), log var = u, and u -> oo as var -> oo.

`limits.at_infinity` sends var to infinity through var = 1/s; that needs every power of var to be a power of s with
a known exponent, and n**gamma/(n**gamma + n - 1) (the own token's softmax weight at beta = gamma log n) has
neither: which of n**gamma and n wins depends on the sign of gamma - 1, known only from the claim's domain. Here:

1. var -> e^u structurally (never by SymPy's substitution): var**a -> exp(a u) (var > 0 for large var, so var**a is
   exp(a log var) by definition), log(var) -> u, log(var**a) -> a u (a proved real), var -> exp(u); the expression
   must then be free of var.
2. Over a common denominator N/D (exact algebra), N and D expanded into terms c u^j exp(a u) (c free of u, j >= 0 an
   integer, a free of u; a factor exp(a u + b) is c = exp(b), the split checked by the exact zero test); terms with
   the same (a, j) (exact zero test on the a's) are merged, those with a coefficient identically 0 dropped.
3. The dominant term of D: c* u^j* exp(a* u) with, for every other term of D, a* - a > 0 proved by
   `headflow.identities.signs` from the facts (the domain; `signs.prove_using_upper_ends`, so that a domain's upper
   end counts), or a identically a* and j < j*; and c* != 0 proved.
4. Divided by it: each other term of D tends to 0, so D/(c* u^j* e^(a* u)) -> 1 [cited: u^j e^(-c u) -> 0 as u -> oo
   for c > 0, u^(-k) -> 0 for k > 0]; each term of N with a* - a > 0 proved, or a identical and j < j*, tends to 0;
   those with a identical and j = j* give their coefficients; a term of N that is not shown below the dominant one
   leaves the limit to another route (None). The limit is the sum of those coefficients over c*, every coefficient
   shown defined and real at every point of the facts (`signs.sign_of`).

Every order between exponents is a sign proof from the facts, never SymPy's comparison or evaluation of an
expression whose symbols' signs come from the domain. The proofs are given in `how`, the text of the limit step.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp
from headflow.identities import signs
from headflow.identities.zero_test import is_identically_zero


@dataclass(frozen=True)
class Term:
    """coefficient * u**degree * exp(rate * u)."""

    rate: sp.Expr
    degree: int
    coefficient: sp.Expr


class _Refused(Exception):
    """The expression is not of the form this route works on."""


def on_log_scale(expr: sp.Expr, var: sp.Symbol, u: sp.Symbol, known: signs.Facts) -> sp.Expr | None:
    """expr with var = e^u (step 1 of the module docstring), or None when var is left somewhere else."""

    def walk(node: sp.Expr) -> sp.Expr:
        if node == var:
            return sp.exp(u)
        if not node.has(var):
            return node
        if isinstance(node, sp.Pow) and node.base == var:
            return sp.exp(walk(node.exp) * u)
        if isinstance(node, sp.log):
            (argument,) = node.args
            if argument == var:
                return u
            if isinstance(argument, sp.Pow) and argument.base == var and not argument.exp.has(var):
                if signs.sign_of(argument.exp, known) is None:
                    raise _Refused  # log(var**a) = a log var needs a real
                return argument.exp * u
            raise _Refused  # log of anything else of var: not this route's case
        return node.func(*(walk(arg) for arg in node.args))

    try:
        rewritten = walk(expr)
    except _Refused:
        return None
    return None if rewritten.has(var) else rewritten


def terms_of(polynomial: sp.Expr, u: sp.Symbol) -> list[Term] | None:
    """The merged terms c u^j exp(a u) of an expanded polynomial (step 2), or None when a term has another form."""
    found: list[Term] = []
    for term in sp.Add.make_args(signs.exact_expand(polynomial)):
        exponent, degree, coefficient = sp.Integer(0), 0, sp.Integer(1)
        for factor in sp.Mul.make_args(term):
            if not factor.has(u):
                coefficient *= factor
            elif isinstance(factor, sp.exp):
                exponent += factor.args[0]
            elif factor == u:
                degree += 1
            elif isinstance(factor, sp.Pow) and factor.base == u and factor.exp.is_Integer and factor.exp > 0:
                degree += int(factor.exp)
            else:
                return None
        rate = sp.diff(exponent, u)
        offset = exponent.xreplace({u: sp.Integer(0)})
        if rate.has(u) or not is_identically_zero(exponent - rate * u - offset):
            return None
        found.append(Term(rate, degree, coefficient * sp.exp(offset)))
    merged: list[Term] = []
    for term in found:
        same = next(
            (k for k, t in enumerate(merged) if t.degree == term.degree and is_identically_zero(t.rate - term.rate)),
            None,
        )
        if same is None:
            merged.append(term)
        else:
            kept = merged[same]
            merged[same] = Term(kept.rate, kept.degree, kept.coefficient + term.coefficient)
    return [t for t in merged if not is_identically_zero(t.coefficient)]


def _below(top: Term, other: Term, known: signs.Facts) -> str | None:
    """Why other / top -> 0 as u -> oo (text with its proof's size), or None when it is not shown."""
    if is_identically_zero(top.rate - other.rate):
        return f"same exponent {top.rate}, u^{other.degree - top.degree} -> 0" if other.degree < top.degree else None
    gap = top.rate - other.rate
    proof = signs.prove_using_upper_ends(gap, ">0", known)
    if proof is None:
        return None
    ends = "".join(f"; {step}" for step in proof if step.startswith("substitute"))
    return f"exponent {top.rate} > {other.rate} [{gap} > 0 by signs, {len(proof)} rule steps{ends}]"


def limit(expr: sp.Expr, var: sp.Symbol, known: signs.Facts) -> tuple[sp.Expr, str] | None:
    """(lim_{var -> oo} expr, how) by the module docstring's route, or None when a step does not close."""
    u = sp.Dummy("u", positive=True)  # u = log var > 0 for var > 1, the only values the limit looks at
    rewritten = on_log_scale(expr, var, u, known)
    if rewritten is None:
        return None
    numerator, denominator = sp.fraction(sp.together(rewritten))
    top_terms, bottom_terms = terms_of(numerator, u), terms_of(denominator, u)
    if top_terms is None or not bottom_terms:
        return None
    if any(signs.sign_of(t.coefficient, known) is None for t in (*top_terms, *bottom_terms)):
        return None  # a coefficient not shown defined and real at every point of the facts
    for index, lead in enumerate(bottom_terms):
        reasons = [_below(lead, other, known) for k, other in enumerate(bottom_terms) if k != index]
        if any(reason is None for reason in reasons):
            continue
        if signs.prove_using_upper_ends(lead.coefficient, "!=0", known) is None:
            return None
        kept, gone = sp.Integer(0), []
        for term in top_terms:
            if term.degree == lead.degree and is_identically_zero(term.rate - lead.rate):
                kept += term.coefficient
                continue
            reason = _below(lead, term, known)
            if reason is None:
                return None  # a term of N at least as large as D's: the ratio may not be finite
            gone.append(reason)
        shown = f"{lead.coefficient} u^{lead.degree} exp(({lead.rate}) u)"
        how = (
            f"{var} = e^u (u = log {var} -> oo); the denominator's dominant term is {shown}: "
            f"{'; '.join(str(r) for r in reasons) or 'its only term'}; divided by it, the numerator's other terms -> 0 "
            f"({'; '.join(gone) or 'none'}) [cited: u^j e^(-c u) -> 0 as u -> oo for c > 0, u^(-k) -> 0 for k > 0]"
        )
        return kept / lead.coefficient, how
    return None
