"""The sizes a `model` claim is about: every n >= 2, d >= 1, H >= 1, beta > 0, or the ranges its `domain` states.

`domain` is a table like the other kinds' (`certificates.claims.domains`): each of n, d, H an integer (one size: `H =
2`) or a domain string or table with rational ends (`n = { min = 2, max = 5 }`, `d = "[3, 8]"`; integer sizes are the
integers in it); `beta` a domain string or table (`beta = "[1/2, 2]"`). A range cannot reach below the model's own least
sizes. The claim is then for (or, with `exists`, at some) sizes in the ranges only: the prover uses the lower ends (a
proof for n >= 3 holds on [3, 5]), the search draws inside them and a witness is checked to lie in them (the statement's
given conditions on n, d, H, beta: `certificates.statements.model.size_conditions`), so that a claim false only outside
its ranges is never refuted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from headflow.certificates.claims.domains import parse_domain
from headflow.certificates.errors import InputError

#: The least value of each integer size of the model (n >= 2 tokens, d >= 1, H >= 1).
LEAST = {"n": 2, "d": 1, "H": 1}
SIZE_NAMES = ("n", "d", "H", "beta")


@dataclass(frozen=True)
class Sizes:
    """Integer ranges of n, d, H (upper end None: unbounded) and beta's interval (0, oo) by default: what the
    elaborator writes as given conditions of the statement (`certificates.statements.model.size_conditions`)."""

    low: dict[str, int] = field(default_factory=lambda: dict(LEAST))
    high: dict[str, int | None] = field(default_factory=lambda: dict.fromkeys(LEAST))
    #: beta's ends (None: 0 open below, unbounded above) and whether each is open.
    beta: tuple[Fraction | None, Fraction | None, bool, bool] = (None, None, True, True)

    def range_text(self, name: str) -> str:
        """The range of `name` as the claim's statement and reports write it (`n >= 2`, `beta > 0`, `2 <= H <= 4`)."""
        if name == "beta":
            low, high, low_open, high_open = self.beta
            lower = "beta > 0" if low is None else f"beta {'>' if low_open else '>='} {low}"
            return lower if high is None else f"{lower}, beta {'<' if high_open else '<='} {high}"
        low, high = self.low[name], self.high[name]
        if high == low:
            return f"{name} = {low}"
        return f"{name} >= {low}" if high is None else f"{low} <= {name} <= {high}"


def parse_sizes(raw: Any) -> Sizes:
    """The sizes of a model claim's `domain` table (InputError naming the bad size)."""
    if raw is None:
        return Sizes()
    if not isinstance(raw, dict) or not raw:
        raise InputError("domain", raw, "a table of ranges of n, d, H, beta, e.g. { n = { min = 2, max = 5 }, H = 2 }")
    unknown = sorted(set(raw) - set(SIZE_NAMES))
    if unknown:
        raise InputError(f"domain.{unknown[0]}", raw[unknown[0]], "a model claim's domain ranges n, d, H and beta")
    sizes = Sizes()
    for name in ("n", "d", "H"):
        if name in raw:
            low, high = _integer_range(name, raw[name])
            sizes.low[name], sizes.high[name] = low, high
    if "beta" in raw:
        domain = parse_domain("beta", raw["beta"], set())
        low, high = (_rational("beta", end) for end in (domain.low, domain.high))
        if domain.integer:
            raise InputError("domain.beta", raw["beta"], "beta is a real range, not an integer one")
        if low is None or low < 0 or (low == 0 and not domain.low_open):
            raise InputError("domain.beta", raw["beta"], "beta > 0: its range has a positive lower end, or (0, ...")
        open_low = domain.low_open or low == 0
        sizes = Sizes(sizes.low, sizes.high, (None if low == 0 else low, high, open_low, domain.high_open))
    return sizes


def _integer_range(name: str, spec: Any) -> tuple[int, int | None]:
    field_name = f"domain.{name}"
    if isinstance(spec, int) and not isinstance(spec, bool):
        low: int | None = spec
        high: int | None = spec
    else:
        domain = parse_domain(name, spec, set())
        lo, hi = (_rational(name, end) for end in (domain.low, domain.high))
        low = None if lo is None else math.ceil(lo) + (1 if domain.low_open and lo == math.ceil(lo) else 0)
        high = None if hi is None else math.floor(hi) - (1 if domain.high_open and hi == math.floor(hi) else 0)
    least = LEAST[name]
    if low is None or low < least:
        raise InputError(field_name, spec, f"the model has {name} >= {least}: a range starts there or above")
    if high is not None and high < low:
        raise InputError(field_name, spec, f"no integer {name} lies in this range")
    return low, high


def _rational(name: str, end: Any) -> Fraction | None:
    if end is None:
        return None
    if not end.is_Rational:
        raise InputError(f"domain.{name}", str(end), "a size's range has rational ends")
    return Fraction(int(end.p), int(end.q))
