"""Domains of the symbols of a claim: kinds, intervals, integer ranges and bounds depending on other symbols.

A domain is written either as a string (`"real"`, `"positive"`, `"nonnegative"`, `"negative"`,
`"integer"`, `"integer>=2"`, or an interval `"[a, b]"`, `"(a, b]"`, ... with rational end
points) or as a table `{ min = ..., max = ..., integer = true }` whose bounds are numbers or
expressions in the other symbols (`min = "lambda_c(n, beta)"`). The SymPy assumptions of a
symbol are derived from its numeric bounds only, so they never claim more than the domain.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass
from fractions import Fraction
from graphlib import CycleError, TopologicalSorter
from typing import Any

import sympy as sp
from headflow.certificates.claims.evaluation import EvaluationError, ball
from headflow.certificates.claims.expressions import parse_expression
from headflow.certificates.claims.names import RESERVED
from headflow.certificates.claims.numbers import exact_number, is_number
from headflow.certificates.claims.problems import ExpressionError
from headflow.certificates.errors import InputError
from headflow.certificates.kernel.regions import Bound, Region, Side
from headflow.certificates.sympy_trees import from_sympy

_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,30}$")
_KINDS = {
    "real": (None, None, False, False, False),
    "positive": (0, None, True, False, False),
    "nonnegative": (0, None, False, False, False),
    "negative": (None, 0, False, True, False),
    "integer": (None, None, False, False, True),
}
_INTEGER_FROM = re.compile(r"^integer\s*>=\s*(-?[0-9]{1,6})$")
_INTERVAL = re.compile(r"^([\[(])\s*([^,]+?)\s*,\s*([^,]+?)\s*([\])])$")
_TABLE_KEYS = frozenset({"min", "max", "integer", "min_open", "max_open"})
#: Precision of the balls that check a point against dependent bounds.
_CONTAINS_PREC = 256


@dataclass(frozen=True)
class Domain:
    """Integer or real values between `low` and `high` (None: unbounded), each bound open or closed."""

    text: str
    integer: bool = False
    low: sp.Expr | None = None
    high: sp.Expr | None = None
    low_open: bool = False
    high_open: bool = False

    def dependencies(self) -> set[str]:
        """Names of the other symbols the bounds refer to."""
        return {str(s) for bound in (self.low, self.high) if bound is not None for s in bound.free_symbols}

    def assumptions(self) -> dict[str, bool]:
        """SymPy assumptions implied by the rational bounds (other bounds imply none: comparing them may not decide)."""
        facts = {"integer": True} if self.integer else {"real": True}
        low = self.low if self.low is not None and self.low.is_Rational else None
        high = self.high if self.high is not None and self.high.is_Rational else None
        if low is not None and (low > 0 or (low == 0 and self.low_open)):
            facts["positive"] = True
        elif low is not None and low >= 0:
            facts["nonnegative"] = True
        if high is not None and (high < 0 or (high == 0 and self.high_open)):
            facts["negative"] = True
        elif high is not None and high <= 0:
            facts["nonpositive"] = True
        return facts

    def with_symbols(self, symbols: dict[str, sp.Symbol]) -> Domain:
        """The same domain with placeholder symbols in the bounds replaced by the final ones."""
        swap = {sp.Symbol(name): symbol for name, symbol in symbols.items()}
        low = None if self.low is None else self.low.xreplace(swap)
        high = None if self.high is None else self.high.xreplace(swap)
        return Domain(self.text, self.integer, low, high, self.low_open, self.high_open)


def parse_domain(name: str, spec: Any, names: set[str]) -> Domain:
    """The domain of symbol `name` from its TOML value; `names` are the symbols bounds may use."""
    check_symbol_name(name)
    placeholders = {other: sp.Symbol(other) for other in names if other != name}
    if isinstance(spec, str):
        return _from_string(name, spec.strip())
    if isinstance(spec, dict):
        unknown = set(spec) - _TABLE_KEYS
        if unknown:
            raise InputError(name, sorted(unknown), f"unknown keys in a domain table (allowed: {sorted(_TABLE_KEYS)})")
        integer = spec.get("integer", False)
        if not isinstance(integer, bool):
            raise InputError(f"{name}.integer", integer, "must be true or false")
        low = None if "min" not in spec else _bound(f"{name}.min", spec["min"], placeholders)
        high = None if "max" not in spec else _bound(f"{name}.max", spec["max"], placeholders)
        ends = []
        for key, end in (("min_open", "min"), ("max_open", "max")):
            value = spec.get(key, False)
            if not isinstance(value, bool) or (value and end not in spec):
                raise InputError(f"{name}.{key}", value, f"true or false, and only with a {end}")
            ends.append(value)
        domain = Domain(_describe_table(spec), integer, low, high, *ends)
        _check_order(name, domain)
        return domain
    raise InputError(name, spec, 'a domain is a string like "positive" or "[0, 1]", or a table {min, max, integer}')


def check_symbol_name(name: str) -> None:
    """Symbol names are plain identifiers that do not shadow a built-in name."""
    if not _NAME.match(name):
        raise InputError(name, name, "a symbol name is a letter followed by letters, digits or _ (at most 31)")
    if name in RESERVED:
        raise InputError(name, name, "this name is a built-in function or constant")
    if keyword.iskeyword(name):
        raise InputError(name, name, "a Python keyword cannot be used in formulas, so not as a symbol")


def dependency_order(domains: dict[str, Domain]) -> list[str]:
    """The symbols in an order where every bound only uses symbols before it; cycles are errors."""
    graph = {}
    for name, domain in domains.items():
        missing = domain.dependencies() - set(domains)
        if missing:
            raise InputError(name, sorted(missing), "a bound refers to undeclared symbols")
        graph[name] = domain.dependencies()
    try:
        return list(TopologicalSorter(graph).static_order())
    except CycleError as exc:
        raise InputError("domain", exc.args[1], "bounds depend on each other in a cycle") from None


def domain_region(domains: dict[sp.Symbol, Domain], order: list[sp.Symbol]) -> Region:
    """The domains as a `certificates.kernel.regions.Region`: each parameter in dependency order, integer or real, its
    bounds as exact rationals or expression trees, open ends marked (TreeError for a bound with no tree)."""

    def bound(value: sp.Expr | None) -> Bound:
        if value is None:
            return None
        if value.is_Rational:
            return Fraction(int(value.p), int(value.q))
        return from_sympy(value)

    return Region(
        tuple(
            Side(s.name, d.integer, bound(d.low), bound(d.high), d.low_open, d.high_open)
            for s, d in ((s, domains[s]) for s in order)
        )
    )


def contains(domains: dict[sp.Symbol, Domain], order: list[sp.Symbol], point: dict[sp.Symbol, sp.Rational]) -> bool:
    """Whether the exact point provably satisfies every declared bound (integers, open and closed ends)."""
    for symbol in order:
        domain, value = domains[symbol], point[symbol]
        if domain.integer and not value.is_integer:
            return False
        for bound, below, strict in ((domain.low, True, domain.low_open), (domain.high, False, domain.high_open)):
            if bound is None:
                continue
            if bound.is_Rational:  # exactly: a ball of 1/10 cannot tell x = 1/10 from the bound 1/10
                gap = bound - value if below else value - bound
            else:
                try:
                    end, at = ball(bound, point, _CONTAINS_PREC), ball(value, {}, _CONTAINS_PREC)
                except EvaluationError:
                    return False
                gap = end - at if below else at - end
            if not (gap < 0 if strict else gap <= 0):
                return False
    return True


def _from_string(name: str, text: str) -> Domain:
    if text in _KINDS:
        low, high, low_open, high_open, integer = _KINDS[text]
        return Domain(
            text, integer, None if low is None else sp.Integer(low), None if high is None else sp.Integer(high),
            low_open, high_open,
        )  # fmt: skip
    match = _INTEGER_FROM.match(text)
    if match:
        return Domain(text, True, sp.Integer(int(match.group(1))))
    match = _INTERVAL.match(text)
    if match:
        low = _rational(f"{name} (lower end)", match.group(2))
        high = _rational(f"{name} (upper end)", match.group(3))
        domain = Domain(f"in {text}", False, low, high, match.group(1) == "(", match.group(4) == ")")
        _check_order(name, domain)
        return domain
    raise InputError(
        name, text, 'unknown domain (use real, positive, nonnegative, negative, integer, "integer>=K" or "[a, b]")'
    )


def _rational(field: str, text: str) -> sp.Rational:
    try:
        value = parse_expression(text)
    except ExpressionError as exc:
        raise InputError(field, text, exc.reason) from None
    if not value.is_Rational:
        raise InputError(field, text, "interval ends must be rational numbers such as 2, 0.5 or 1/3")
    return value


def _bound(field: str, value: Any, placeholders: dict[str, sp.Symbol]) -> sp.Expr:
    if is_number(value):
        exact = exact_number(field, value)  # the number as written, never rounded to binary
        return sp.Rational(exact.numerator, exact.denominator)
    if not isinstance(value, str):
        raise InputError(field, value, "a bound is a number or an expression string")
    try:
        bound = parse_expression(value, placeholders)
    except ExpressionError as exc:
        raise InputError(field, value, exc.reason) from None
    if bound.is_Rational and abs(bound) > 10**100:
        raise InputError(field, value, "a bound must have magnitude at most 1e100")
    return bound


def _check_order(name: str, domain: Domain) -> None:
    if domain.low is not None and domain.high is not None and domain.low.is_Rational and domain.high.is_Rational:
        empty = domain.low > domain.high or (domain.low == domain.high and (domain.low_open or domain.high_open))
        if empty:
            raise InputError(name, domain.text, "empty domain: the lower end exceeds the upper end")


def _describe_table(spec: dict[str, Any]) -> str:
    """ "in [a, b]" (round brackets at open ends), ">= a", "<= b" (with "integer" in front), for statements."""
    kind = "integer " if spec.get("integer") else ""
    left, right = "(" if spec.get("min_open") else "[", ")" if spec.get("max_open") else "]"
    if "min" in spec and "max" in spec:
        return f"{kind}in {left}{spec['min']}, {spec['max']}{right}"
    if "min" in spec:
        return f"{kind}{'>' if spec.get('min_open') else '>='} {spec['min']}"
    if "max" in spec:
        return f"{kind}{'<' if spec.get('max_open') else '<='} {spec['max']}"
    return kind.strip() or "real"
