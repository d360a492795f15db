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

import numpy as np
import sympy as sp

from certificates.kernel.claims.evaluation import EvaluationError, ball, exact_ends
from certificates.kernel.claims.expressions import parse_expression
from certificates.kernel.claims.names import RESERVED
from certificates.kernel.claims.numbers import exact_number, is_number
from certificates.kernel.claims.problems import ExpressionError
from certificates.kernel.errors import InputError
from certificates.kernel.exprtree import from_sympy
from certificates.kernel.regions import Bound, Region, Side

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
_TABLE_KEYS = frozenset({"min", "max", "integer"})
#: Magnitudes of unbounded samples, and the steps of a bounded one.
_MAGNITUDE_DENOMINATORS = (1, 2, 3, 4, 5, 7, 8, 10, 16)
_STEPS = 1000
#: Dependent bounds are rounded to multiples of 1/_GRID towards the inside of the domain.
_GRID = 10**6
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
        domain = Domain(_describe_table(spec), integer, low, high)
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


def sample_point(
    domains: dict[sp.Symbol, Domain], order: list[sp.Symbol], rng: np.random.Generator, prec: int = 64
) -> dict[sp.Symbol, sp.Rational] | None:
    """A random exact rational point of the domain, or None when a dependent bound is empty here.

    Dependent bounds are evaluated as balls and the sample is drawn inside the ball's outer
    ends, so the point provably satisfies every bound.
    """
    point: dict[sp.Symbol, sp.Rational] = {}
    for symbol in order:
        domain = domains[symbol]
        try:
            low = _inner_end(domain.low, point, prec, upper=True)
            high = _inner_end(domain.high, point, prec, upper=False)
        except EvaluationError:
            return None
        nice_low = None if low is None else _rounded(low, up=True)
        nice_high = None if high is None else _rounded(high, up=False)
        if nice_low is None or nice_high is None or nice_low < nice_high:
            low, high = nice_low, nice_high  # (rounding must not shrink a thin interval to a point or nothing)
        value = _draw(domain, low, high, rng)
        if value is None:
            return None
        point[symbol] = value
    return point


def _inner_end(bound: sp.Expr | None, point: dict[sp.Symbol, sp.Rational], prec: int, upper: bool) -> sp.Rational:
    """A rational bound itself, else the inner end of its ball at the point (the upper end for a lower bound)."""
    if bound is None or bound.is_Rational:
        return bound
    return exact_ends(ball(bound, point, prec))[1 if upper else 0]


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


def _rounded(end: sp.Rational, up: bool) -> sp.Rational:
    """A lower end rounded up (an upper end down) to a multiple of 1/_GRID: still inside the bound, and readable."""
    if end.q == 1 or (end * _GRID).q == 1:
        return end
    scaled = end * _GRID
    return (sp.ceiling(scaled) if up else sp.floor(scaled)) / _GRID


def _draw(
    domain: Domain, low: sp.Rational | None, high: sp.Rational | None, rng: np.random.Generator
) -> sp.Rational | None:
    """A random value between the exact ends (ball ends of the bounds, so inside the true bounds)."""
    low_open, high_open = domain.low_open, domain.high_open
    if domain.integer:
        first = None if low is None else int(sp.floor(low)) + 1 if (low_open or not low.is_integer) else int(low)
        last = None if high is None else int(sp.ceiling(high)) - 1 if (high_open or not high.is_integer) else int(high)
        if first is None and last is None:
            return sp.Integer(int(rng.integers(-20, 21)))
        if last is None:
            return sp.Integer(first + int(rng.integers(0, 21)))
        if first is None:
            return sp.Integer(last - int(rng.integers(0, 21)))
        return None if first > last else sp.Integer(first + _integer_up_to(rng, last - first))
    if low is not None and high is not None:
        if high < low or (high == low and (low_open or high_open)):
            return None
        step = int(rng.integers(1 if low_open else 0, _STEPS if high_open else _STEPS + 1))
        return low + (high - low) * sp.Rational(step, _STEPS)
    size = sp.Rational(int(rng.integers(1, 201)), int(rng.choice(_MAGNITUDE_DENOMINATORS)))
    if low is not None:
        return low if not low_open and rng.random() < 0.1 else low + size
    if high is not None:
        return high if not high_open and rng.random() < 0.1 else high - size
    return size if rng.random() < 0.5 else -size


def _integer_up_to(rng: np.random.Generator, span: int) -> int:
    """A uniform integer in [0, span] of any size (numpy's integers stop at int64; domains reach 1e100 and beyond)."""
    if span < 2**62:
        return int(rng.integers(0, span + 1))
    bits = span.bit_length()
    while True:  # rejection: each draw is accepted with probability above 1/2
        value = int.from_bytes(rng.bytes((bits + 7) // 8), "little") >> (-bits % 8)
        if value <= span:
            return value


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
    """ "in [a, b]", ">= a", "<= b" (with "integer" in front for integer ranges), for statements."""
    kind = "integer " if spec.get("integer") else ""
    if "min" in spec and "max" in spec:
        return f"{kind}in [{spec['min']}, {spec['max']}]"
    if "min" in spec:
        return f"{kind}>= {spec['min']}"
    if "max" in spec:
        return f"{kind}<= {spec['max']}"
    return kind.strip() or "real"
