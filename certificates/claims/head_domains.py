"""The domain of a claim about any number of heads: its per-head symbols and their count H, checked.

(`headflow.certificates.claims.head_sums` is what formulas use; this module reads domains, which parse formulas.)
"""

from __future__ import annotations

import sympy as sp
from headflow.certificates.claims.domains import Domain
from headflow.certificates.claims.head_sums import HeadScope, per_head
from headflow.certificates.errors import InputError


def domain_scope(domains: dict[sp.Symbol, Domain], field: str = "domain") -> HeadScope | None:
    """The scope of a domain with per-head symbols (None without any): the count is its symbol H, an integer with a
    rational min >= 1; no bound may use a per-head symbol (each head's value is drawn from the same domain)."""
    names = frozenset(str(symbol) for symbol in domains if per_head(str(symbol)))
    if not names:
        return None
    count = next((symbol for symbol in domains if str(symbol) == "H"), None)
    if count is None:
        first = min(names)
        raise InputError(f"{field}.{first}", first, "a per-head symbol (name ending in _h) needs H in the domain")
    check_count(domains[count], f"{field}.H")
    for symbol, domain in domains.items():
        used = sorted(name for name in domain.dependencies() if name in names)
        if used:
            raise InputError(f"{field}.{symbol}", domain.text, f"a bound cannot use the per-head symbol {used[0]}")
    return HeadScope(names, count)


def check_count(domain: Domain, field: str) -> None:
    """H's domain: integers with a rational min >= 1."""
    low = domain.low
    if not domain.integer or low is None or not low.is_Rational or low < 1:
        raise InputError(field, domain.text, 'H needs an integer domain with min >= 1 (e.g. "integer>=1")')
