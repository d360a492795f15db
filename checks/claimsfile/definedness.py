"""Deciding where a claim's formulas are defined: proofs on the domain, checks at exact points, candidate points.

A universal claim is false at a point of its domain where a side is undefined (SPEC section 3),
so its deciders must establish the conditions recorded by the expression builder
(`checks.claimsfile.conditions`):

- `proved_symbolically`: SymPy's assumption system decides the sign of each condition after each
  symbol with a rational lower end a is written a + t (t >= 0, or > 0 for an open end), or with
  only an upper end b as b - t, then of its expansion (a polynomial in the t's with non-negative
  coefficients is settled); so `x - 1 != 0` is proved on [2, 5], `x != 0` on "positive",
  `(n - 1)*(H**2 - 2*H + 3) > 0` for integers n, H >= 2.
  A condition on constants alone (`golden != 0`) is settled with balls instead.
- `check_point`: at an exact rational point each condition is settled exactly (SymPy on rationals)
  or with balls; a necessary condition that fails makes the claim false there (`undefined`).
- `candidate_points`: points where a condition fails at a single point (a denominator's zero)
  are rarely hit by random sampling, so the rational roots of `expr = 0` in each symbol are tried
  (polynomial numerators, or numerators with radicals once these are eliminated by resultants).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp

from certificates.exact import fails, holds, shown
from checks.claimsfile.conditions import Condition
from checks.claimsfile.domains import Domain, contains, sample_point
from checks.claimsfile.evaluation import EvaluationError, ball
from checks.claimsfile.symbolic import within
from identities.algebraic import eliminate, ring_form

#: Seconds SymPy may spend on one condition (a sign query, an exact value, solving for a root).
SYMBOLIC_SECONDS = 1.0
PRECISIONS = (64, 256)
#: Random points of the domain at which each condition is solved for each of its symbols.
ROOT_BASES = 3
#: Rational roots kept per solve, and the largest degree of a polynomial solved.
MAX_ROOTS = 8
MAX_DEGREE = 20

_SIGN = {"!=": "is_nonzero", ">": "is_positive", ">=": "is_nonnegative"}


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


def proved_symbolically(condition: Condition, domains: dict[sp.Symbol, Domain], order: list[sp.Symbol]) -> bool:
    """Whether SymPy's assumptions prove the condition on the whole domain (False: not proved)."""
    if not condition.expr.free_symbols:  # constants are settled with balls, not SymPy's float sign evaluation
        return _settle(condition, {})[0] is True
    shifted = condition.expr.xreplace(_shifts(domains, order))
    sign = _SIGN[condition.relation]
    verdict = within(SYMBOLIC_SECONDS, lambda: getattr(shifted, sign) or getattr(sp.expand(shifted), sign))
    return verdict is True


def _shifts(domains: dict[sp.Symbol, Domain], order: list[sp.Symbol]) -> dict[sp.Symbol, sp.Expr]:
    """symbol -> a + t (or b - t) with t a fresh non-negative symbol, for each rational end a (or b)."""
    swap: dict[sp.Symbol, sp.Expr] = {}
    for symbol in order:
        domain = domains[symbol]
        facts = {"integer": True} if domain.integer else {}
        if domain.low is not None and domain.low.is_Rational and (domain.low.is_integer or not domain.integer):
            facts["positive" if domain.low_open else "nonnegative"] = True
            swap[symbol] = domain.low + sp.Dummy(f"{symbol}_up", **facts)
        elif domain.high is not None and domain.high.is_Rational and (domain.high.is_integer or not domain.integer):
            facts["positive" if domain.high_open else "nonnegative"] = True
            swap[symbol] = domain.high - sp.Dummy(f"{symbol}_down", **facts)
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
    exact = within(SYMBOLIC_SECONDS, lambda: condition.expr.xreplace(point))
    if exact is not None and exact.is_Rational:
        return holds(exact, condition.relation), shown(exact), "exact"
    for prec in PRECISIONS:
        try:
            value = ball(condition.expr, point, prec)
        except EvaluationError:
            return None, "not evaluable", ""
        if holds(value, condition.relation):
            return True, value.str(20, radius=True), "ball"
        if fails(value, condition.relation):
            return False, value.str(20, radius=True), "ball"
    return None, "", ""


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
        found = within(SYMBOLIC_SECONDS, roots)
    except Exception:  # SymPy's polynomial code fails in many ways; a root not found is only a candidate lost
        return []
    return (found or [])[:MAX_ROOTS]


def _without_radicals(expr: sp.Expr) -> sp.Expr:
    """A polynomial that vanishes wherever expr does, its radicals eliminated by resultants (`identities.algebraic`):
    `sqrt(x) - 1` gives 1 - x, whose root 1 is then tried. Its other roots are only more candidates."""
    form = ring_form(expr)
    return form.value_of(eliminate(form, form.numerator))
