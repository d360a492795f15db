"""Dynamics claims with quantified parameters: n, d, beta, rho and the strengths as symbols with domains.

A dynamics claim may write any of QUANTIFIABLE as the name of a symbol declared in its `[claim.domain]` table
(the domain syntax of `headflow.certificates.claims.domains`), e.g. `n = "n"`, `lambdas = ["lam", 0.5]`,
`[claim.domain] n = "integer>=2"`, `lam = "positive"`. The claim then states its property for every point of
the domain. This module reads which fields are quantified, holds each domain to what its field admits for
every point (n, d integers, n >= 2, beta > 0, rho inside the family's (-1/(n-1), 1) for every n of the domain;
checked on the domains' rational bounds, never sampled), and writes the claim's fields at one exact point (an
instance, which the schema validates like any dynamics claim).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp
from headflow.certificates.claims.domains import Domain
from headflow.certificates.claims.head_domains import check_count
from headflow.certificates.claims.head_sums import per_head
from headflow.certificates.claims.numbers import TomlFloat
from headflow.certificates.errors import InputError
from headflow.certificates.families import RHO

#: The fields a dynamics claim may quantify (lambdas: each entry of the list, or the whole list as one per-head
#: symbol `lam_h`, with H heads: `headflow.certificates.claims.head_sums`).
QUANTIFIABLE = ("n", "d", "beta", "rho", "lambdas", "H")
#: Names a domain symbol may not take unless it is that field's own symbol: targets read them as the fields.
FIELD_NAMES = ("n", "d", "H", "beta")


def quantified_fields(raw: dict[str, Any], symbols: dict[str, sp.Symbol]) -> dict[str, sp.Symbol]:
    """Field path ("n", "lambdas[1]") -> its symbol, for every field written as a symbol name; InputError for a
    name not declared in the domain, a declared symbol no field uses, or a symbol used by two fields."""
    found: dict[str, sp.Symbol] = {}
    for key in QUANTIFIABLE:
        values = raw.get(key)
        entries = list(enumerate(values)) if key == "lambdas" and isinstance(values, list) else [(None, values)]
        for index, value in entries:
            if not isinstance(value, str):
                continue
            path = key if index is None else f"{key}[{index}]"
            if value.strip() not in symbols:
                raise InputError(path, value, f"not a symbol of [claim.domain] (declared: {', '.join(symbols)})")
            found[path] = symbols[value.strip()]
    for path, symbol in found.items():
        if per_head(str(symbol)) != (path == "lambdas"):
            reason = 'lambdas = "lam_h" names a per-head symbol (ending _h), and only it ends so'
            raise InputError(path, str(symbol), reason)
    if "lambdas" in found and "H" not in found and not isinstance(raw.get("H"), int):
        raise InputError("H", raw.get("H"), 'lambdas = "lam_h" needs the number of heads: H = 3, or H = "H"')
    if "H" in found and "lambdas" not in found:
        raise InputError("H", raw["H"], 'a quantified H needs per-head strengths: lambdas = "lam_h"')
    used = list(found.values())
    for symbol in symbols.values():
        if symbol not in used:
            raise InputError(f"domain.{symbol}", str(symbol), f"no parameter uses it ({', '.join(QUANTIFIABLE)})")
        if used.count(symbol) > 1:
            raise InputError(f"domain.{symbol}", str(symbol), "two parameters cannot share one symbol")
    for name in FIELD_NAMES:
        if name in symbols and found.get(name) is not symbols[name]:
            raise InputError(f"domain.{name}", name, f"a symbol named {name} must be the value of the field {name}")
    return found


def check_domains(found: dict[str, sp.Symbol], domains: dict[sp.Symbol, Domain], n: int | None) -> None:
    """Each quantified field's domain admits only values its field takes at every point: n and d integers (n >= 2;
    d >= 1, or a min in the other symbols), beta > 0, rho in (-1/(n-1), 1) for every n of the domain (`n` the
    file's number, None when n is quantified); read from the rational bounds, so a bound that depends on other
    symbols proves nothing here."""
    for path, symbol in found.items():
        domain, key = domains[symbol], path.partition("[")[0]
        low = _rational(domain.low)
        if key in ("n", "d"):  # d's min may depend on n (min = "n"): each point is then checked as an instance
            least, dependent = (2, False) if key == "n" else (1, domain.low is not None and low is None)
            if not domain.integer or not (dependent or (low is not None and low >= least)):
                raise InputError(f"domain.{symbol}", domain.text, f"{key} needs an integer domain with min >= {least}")
        if key == "H":
            check_count(domain, f"domain.{symbol}")
        if key == "beta" and (low is None or low < 0 or (low == 0 and not domain.low_open)):
            raise InputError(f"domain.{symbol}", domain.text, "beta needs a positive domain (min > 0 or (0, ...))")
        if key == "rho":
            _check_rho(symbol, domain, _largest_n(found, domains, n), found.get("n"))


def _largest_n(found: dict[str, sp.Symbol], domains: dict[sp.Symbol, Domain], n: int | None) -> int | None:
    """The largest n of the claim (None: unbounded)."""
    if "n" not in found:
        return n
    high = _rational(domains[found["n"]].high)
    return None if high is None else int(high)


def _check_rho(symbol: sp.Symbol, domain: Domain, largest_n: int | None, tokens: sp.Symbol | None = None) -> None:
    """rho's domain inside (-1/(n-1), 1) for every n: the end -1/(n-1) rises with n, so the largest n decides it
    (unbounded n: rho >= 0); or the open end -1/(n - 1) itself, written with the claim's n symbol."""
    low, high = _rational(domain.low), _rational(domain.high)
    floor = Fraction(0) if largest_n is None else RHO.domain.low.at(largest_n)
    ceiling = RHO.domain.high.at(2)
    simplex = tokens is not None and domain.low is not None and domain.low_open and domain.low == -1 / (tokens - 1)
    above = simplex or (low is not None and (low > floor or (low == floor and (domain.low_open or largest_n is None))))
    below = high is not None and (high < ceiling or (high == ceiling and domain.high_open))
    if not (above and below):
        unbounded = "n unbounded: min >= 0 or min = -1/(n - 1) open"
        where = unbounded if largest_n is None else f"n up to {largest_n}: min > {floor}"
        raise InputError(f"domain.{symbol}", domain.text, f"rho needs rational ends inside (-1/(n-1), 1) ({where})")


def instance_fields(raw: dict[str, Any], found: dict[str, sp.Symbol], point: dict[sp.Symbol, Any]) -> dict:
    """The claim's fields at one exact point: each quantified field its number (an integer, or a float literal
    whose float is exactly the point's value), no domain table; InputError when a value has no faithful float.
    A per-head symbol's value is the list of the heads' values (H is its length)."""
    fields = {key: value for key, value in raw.items() if key != "domain"}
    for path, symbol in found.items():
        value = point[symbol]
        if path == "lambdas":
            fields["lambdas"], fields["H"] = [_literal(path, v) for v in value], len(value)
            continue
        if path == "H":
            continue  # the length of the per-head list
        number = int(value) if value.denominator == 1 and path in ("n", "d") else _literal(path, value)
        key, _, index = path.partition("[")
        if index:
            fields[key] = list(fields[key])
            fields[key][int(index[:-1])] = number
        else:
            fields[key] = number
    return fields


def _literal(path: str, value: Fraction) -> TomlFloat:
    literal = TomlFloat(repr(float(value)))
    if Fraction(literal.text) != value:
        raise InputError(path, str(value), "this value has no float literal that denotes it exactly")
    return literal


def _rational(bound: sp.Expr | None) -> Fraction | None:
    return Fraction(int(bound.p), int(bound.q)) if bound is not None and bound.is_Rational else None
