"""Deciding where a claim's formulas are defined: proofs on the domain, checks at exact points, candidate points.

A universal claim is false at a point of its domain where a side is undefined (SPEC section 3),
so its deciders must establish the conditions recorded by the expression builder
(`headflow.certificates.claims.conditions`):

- `proved_on_domain`: exact algebra, no SymPy assumption. Each symbol with a rational end a (an
  integer one: its least integer) is written a + t with t >= 0 (t > 0 for an open end), or with only an
  upper end b as b - t; each inert atom of known sign (a square root or real power >= 0, exp, lambda_c
  and pi > 0: true wherever the atom is defined, which its own recorded condition establishes) becomes a
  fresh variable of that sign; then the expression, as N / D, is settled when N and D are polynomials
  with rational coefficients all of one sign in these variables (a positive coefficient on a monomial of
  strictly positive variables makes it strict). So `x - 1 != 0` is proved on [2, 5], `x != 0` on
  "positive", `(n - 1)*(H**2 - 2*H + 3) > 0` for integers n, H >= 2, `sqrt(x) + 1 > 0`. A condition
  on constants alone (`golden != 0`) is settled with balls at rising precision.
- `check_point`: at an exact rational point each condition is settled exactly (SymPy on rationals)
  or with balls; a necessary condition that fails makes the claim false there (`undefined`).
- `candidate_points`: points where a condition fails at a single point (a denominator's zero)
  are rarely hit by random sampling, so the rational roots of `expr = 0` in each symbol are tried
  (polynomial numerators, or numerators with radicals once these are eliminated by resultants).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp
from headflow.certificates.ball_reading import fails, shown
from headflow.certificates.claims.conditions import Condition
from headflow.certificates.claims.domains import Domain, contains
from headflow.certificates.claims.evaluation import EvaluationError, ball
from headflow.certificates.claims.names import LambdaC
from headflow.certificates.counted import spend
from headflow.certificates.inert import Exp, Pi, RealPower, Sqrt, W
from headflow.certificates.kernel.exact import holds
from headflow.checks.claimsfile.domain_sampling import sample_point
from headflow.identities.algebraic import eliminate, ring_form

#: Operations (`certificates.counted`) SymPy may spend on one condition (a sign query, an exact value, solving for a
#: root).
SYMBOLIC_OPERATIONS = 3_000_000
PRECISIONS = (64, 256, 1024)
#: Random points of the domain at which each condition is solved for each of its symbols.
ROOT_BASES = 3
#: Rational roots kept per solve, and the largest degree of a polynomial solved.
MAX_ROOTS = 8
MAX_DEGREE = 20


@dataclass(frozen=True)
class PointCheck:
    """`defined` (every condition verified), `undefined` (a necessary one verified to fail) or `unknown`."""

    status: str
    condition: Condition | None = None
    value: str = ""
    verified_by: str = ""

    def witness(self, point: dict[sp.Symbol, sp.Rational]) -> dict[str, Any]:
        """The refutation record of an undefined point."""
        where = ", ".join(f"{symbol} = {value}" for symbol, value in point.items())
        assert self.condition is not None
        return {
            "verified_by": self.verified_by,
            "point": {str(symbol): str(value) for symbol, value in point.items()},
            "undefined": f"{self.condition.reason} at {where or 'the constant'}",
            "condition": self.condition.text(),
            "condition_value": self.value,
        }


def proved_on_domain(condition: Condition, domains: dict[sp.Symbol, Domain], order: list[sp.Symbol]) -> bool:
    """Whether exact algebra (or balls, for a constant) proves the condition on the whole domain (False: not proved)."""
    if not condition.expr.free_symbols:
        return _settle(condition, {})[0] is True
    verdict, _ = spend(SYMBOLIC_OPERATIONS, lambda: _signed(condition.expr, condition.relation, domains, order))
    return verdict is True


def _signed(expr: sp.Expr, relation: str, domains: dict[sp.Symbol, Domain], order: list[sp.Symbol]) -> bool:
    """`expr relation 0` from the signs its structure gives, else from the coefficients of N and D."""
    variables: dict[sp.Symbol, bool] = {}  # variable -> strictly positive

    def fresh(strict: bool) -> sp.Symbol:
        variable = sp.Dummy(f"t{len(variables)}")
        variables[variable] = strict
        return variable

    def lambert_sign(argument: sp.Expr) -> str | None:
        """W(z) has the sign of z (W is increasing with W(0) = 0): ">" or ">=" when proved for z, else None."""
        return next((r for r in (">", ">=") if _signed(argument, r, domains, order)), None)

    atoms = {node: fresh(strict) for node, strict in _signed_atoms(expr, lambert_sign)}
    shifted = expr.xreplace(atoms).xreplace(_shifts(domains, order, fresh))
    if shifted.atoms(sp.Function):
        return False
    known = {variable: frozenset({1} if strict else {0, 1}) for variable, strict in variables.items()}
    if _settles(_structure(shifted, known), relation):
        return True
    numerator, denominator = sp.fraction(sp.together(shifted))
    if (numerator.free_symbols | denominator.free_symbols) - set(variables):
        return False
    quotient = _product([_coefficients(numerator, variables), _coefficients(denominator, variables)])
    return _settles(quotient, relation)


#: The signs a quantity may have, as a set of -1, 0, 1.
Signs = frozenset[int]
_ANY: Signs = frozenset({-1, 0, 1})


def _settles(signs: Signs, relation: str) -> bool:
    if relation == "!=":
        return 0 not in signs
    return signs == {1} if relation == ">" else signs <= {0, 1}


def _structure(expr: sp.Expr, known: dict[sp.Symbol, Signs]) -> Signs:
    """The signs `expr` may take, from rationals, the variables' signs, even powers, sums and products of known
    sign; a real symbol of no known sign may take any (every symbol of a claim is real)."""
    if expr.is_Rational:
        return frozenset({int(expr.p > 0) - int(expr.p < 0)})
    if expr.is_Symbol:
        return known.get(expr, _ANY)
    if expr.is_Pow and expr.exp.is_Integer:
        base, k = _structure(expr.base, known), int(expr.exp)
        if k < 0:
            base = base - {0}  # defined only where the base is not 0 (its own recorded condition)
        return frozenset(s ** abs(k) for s in base) if base else _ANY
    if expr.is_Mul:
        return _product([_structure(a, known) for a in expr.args])
    if expr.is_Add:
        return _sum([_structure(a, known) for a in expr.args])
    return _ANY


def _product(factors: list[Signs]) -> Signs:
    result: Signs = frozenset({1})
    for signs in factors:
        result = frozenset(a * b for a in result for b in signs)
    return result


def _sum(terms: list[Signs]) -> Signs:
    for sign in (1, -1):
        if all(signs <= {0, sign} for signs in terms):
            return frozenset({sign}) if any(signs == {sign} for signs in terms) else frozenset({0, sign})
    return _ANY


#: Inert atoms that are > 0 wherever defined, and those that are >= 0.
_POSITIVE = (Exp, LambdaC, Pi)
_NONNEGATIVE = (Sqrt, RealPower)


def _signed_atoms(expr: sp.Expr, lambert_sign: Callable[[sp.Expr], str | None]) -> list[tuple[sp.Expr, bool]]:
    """The outermost inert atoms of known sign, each with whether it is strictly positive (what they contain does
    not matter to their sign, but for lambertw, whose sign is its argument's: `lambert_sign`)."""
    found: list[tuple[sp.Expr, bool]] = []
    stack = [expr]
    while stack:
        node = stack.pop()
        sign = lambert_sign(node.args[0]) if isinstance(node, W) else None
        if isinstance(node, _POSITIVE + _NONNEGATIVE) or sign is not None:
            found.append((node, isinstance(node, _POSITIVE) or sign == ">"))
        else:
            stack.extend(node.args)
    return found


def _coefficients(polynomial: sp.Expr, variables: dict[sp.Symbol, bool]) -> Signs:
    """The signs of a polynomial in variables >= 0 (the strict ones > 0) whose coefficients all have one sign."""
    poly = sp.Poly(polynomial, *variables, domain=sp.QQ)
    terms = poly.terms()
    lax = [i for i, strict in enumerate(variables.values()) if not strict]
    for sign in (1, -1):
        if terms and all(sign * coefficient >= 0 for _, coefficient in terms):
            positive = any(sign * c > 0 and all(m[i] == 0 for i in lax) for m, c in terms)
            return frozenset({sign}) if positive else frozenset({0, sign})
    return _ANY


def _shifts(
    domains: dict[sp.Symbol, Domain], order: list[sp.Symbol], fresh: Callable[[bool], sp.Symbol]
) -> dict[sp.Symbol, sp.Expr]:
    """symbol -> a + t (or b - t) with t a fresh variable >= 0 (> 0 for an open end), for each rational end."""
    swap: dict[sp.Symbol, sp.Expr] = {}
    for symbol in order:
        domain = domains[symbol]
        low, high = domain.low, domain.high
        if low is not None and low.is_Rational:
            if domain.integer:
                first = sp.floor(low) + 1 if (domain.low_open or not low.is_integer) else low
                swap[symbol] = first + fresh(False)
            else:
                swap[symbol] = low + fresh(domain.low_open)
        elif high is not None and high.is_Rational:
            if domain.integer:
                last = sp.ceiling(high) - 1 if (domain.high_open or not high.is_integer) else high
                swap[symbol] = last - fresh(False)
            else:
                swap[symbol] = high - fresh(domain.high_open)
    return swap


def check_point(conditions: tuple[Condition, ...], point: dict[sp.Symbol, sp.Rational]) -> PointCheck:
    """Settle every condition at an exact point, inner operations first."""
    for condition in conditions:
        holds, value, how = _settle(condition, point)
        if holds is None:
            return PointCheck("unknown", condition, value)
        if not holds:
            return PointCheck("undefined" if condition.necessary else "unknown", condition, value, how)
    return PointCheck("defined")


def _settle(condition: Condition, point: dict[sp.Symbol, sp.Rational]) -> tuple[bool | None, str, str]:
    """(holds, value, how): exactly when the condition is a rational at the point, else with balls."""
    exact, _ = spend(SYMBOLIC_OPERATIONS, lambda: condition.expr.xreplace(point))  # inert: rational arithmetic only
    if exact is not None and exact.is_Rational:
        return holds(exact, condition.relation), shown(exact), "exact"
    for prec in PRECISIONS:
        try:
            value = ball(condition.expr, point, prec)
        except EvaluationError:
            continue  # not finite at this precision (a root of a ball reaching below 0): try the next
        if holds(value, condition.relation):
            return True, value.str(20, radius=True), "ball"
        if fails(value, condition.relation):
            return False, value.str(20, radius=True), "ball"
    return None, "not settled by balls", ""


def candidate_points(
    conditions: tuple[Condition, ...],
    domains: dict[sp.Symbol, Domain],
    order: list[sp.Symbol],
    rng: np.random.Generator,
) -> Iterator[dict[sp.Symbol, sp.Rational]]:
    """Exact points of the domain where some condition's expression is 0 (a zero denominator, log(0)...)."""
    for condition in conditions:
        if not condition.necessary or condition.relation == ">=":
            continue  # a >= condition fails on an open set, which random points reach
        for symbol in sorted(condition.expr.free_symbols & set(order), key=str):
            for _ in range(ROOT_BASES):
                base = sample_point(domains, order, rng)
                if base is None:
                    continue
                others = {s: v for s, v in base.items() if s != symbol}
                for root in _rational_roots(condition.expr.xreplace(others), symbol):
                    point = base | {symbol: root}
                    if contains(domains, order, point):
                        yield point
                if not condition.expr.free_symbols - {symbol}:
                    break  # one symbol: the roots do not depend on the base point


def _rational_roots(expr: sp.Expr, symbol: sp.Symbol) -> list[sp.Rational]:
    """The rational roots of the numerator of expr when it is a polynomial in `symbol` of degree at most
    MAX_DEGREE (a transcendental equation has no rational root SymPy could find quickly); [] otherwise."""

    def roots() -> list[sp.Rational]:
        numerator = sp.numer(sp.together(expr))
        if not numerator.is_polynomial(symbol):
            numerator = _without_radicals(numerator)
        if not numerator.is_polynomial(symbol):
            return []
        poly = sp.Poly(numerator, symbol)
        if poly.degree() > MAX_DEGREE or not all(c.is_Rational for c in poly.all_coeffs()):
            return []
        return [root for root in sp.roots(poly, filter="Q") if root.is_Rational]

    try:
        found, _ = spend(SYMBOLIC_OPERATIONS, roots)
    except Exception:  # SymPy's polynomial code fails in many ways; a root not found is only a candidate lost
        return []
    return (found or [])[:MAX_ROOTS]


def _without_radicals(expr: sp.Expr) -> sp.Expr:
    """A polynomial that vanishes wherever expr does, its radicals eliminated by resultants (`identities.algebraic`):
    `sqrt(x) - 1` gives 1 - x, whose root 1 is then tried. Its other roots are only more candidates."""
    form = ring_form(expr)
    return form.value_of(eliminate(form, form.numerator))
