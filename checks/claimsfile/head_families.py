"""Families of heads for claims about any number H of heads: sampled members, sums written out, exact comparisons.

A family is a tuple of members (each per-head symbol's value, and how many heads take it), so a huge H costs no
more than its few distinct members: sum_h E is then sum_k m_k E(v_k) exactly. Families are drawn with the
other parameters fixed: each value inside the per-head symbol's domain at that point (`domain_sampling`), so every
head provably lies in the domain. The small H of the domain come first (H = 1, 2, 3 is where a statement "true only
for H = 2" fails), then random and huge ones.

Sums compared for every H and every family: `sum_h` is linear, so sum_h(c a(lambda) + b(lambda)) = c sum_h a +
sum_h b for c free of the per-head symbols, and sum_h c = H c. `linear_atoms` splits each sum into such terms and
puts one fresh symbol for each sum_h of a per-head term; a difference that exact algebra reduces to 0 with those
symbols as independent unknowns is 0 for every family (a substitution instance), never the converse.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator

import numpy as np
import sympy as sp
from headflow.certificates.claims.conditions import Condition
from headflow.certificates.claims.domains import Domain
from headflow.certificates.claims.head_sums import HeadScope, HeadSum, Member, expand_sums
from headflow.certificates.claims.schema import InequalityClaim
from headflow.checks.claimsfile.domain_sampling import sample_value

#: The largest H a sample takes (beyond the domain's small ones): a family of a few members, so its cost is that of
#: its members, not of H.
HUGE = 10**9
#: Distinct members of a sampled family, at most.
MEMBERS = 4

Point = dict[sp.Symbol, sp.Rational]


def head_counts(domain: Domain, point: Point, rng: np.random.Generator) -> list[int]:
    """H values to try: the domain's three least, the point's, a random one and the largest (unbounded: HUGE, or 50
    above the least when that is larger: a domain may start beyond HUGE)."""
    low = int(domain.low)
    high = None if domain.high is None or not domain.high.is_Rational else int(sp.floor(domain.high))
    top = max(HUGE, low + 50) if high is None else high
    counts = [low, low + 1, low + 2, int(point.get(_symbol(point, "H"), low)), low + int(rng.integers(0, 50)), top]
    return list(dict.fromkeys(h for h in counts if low <= h <= top))


def _symbol(point: Point, name: str) -> sp.Symbol | None:
    return next((s for s in point if str(s) == name), None)


def families(
    scope: HeadScope,
    domains: dict[sp.Symbol, Domain],
    point: Point,
    size: int,
    rng: np.random.Generator,
    distinct: bool,
) -> Iterator[tuple[Member, ...]]:
    """Families of `size` heads at the point: on the boundary (every head at a closed rational end, or the two ends),
    all heads at one value (unless `distinct`), then families of 2 to MEMBERS distinct members with random
    multiplicities (none when size is 1 and `distinct`)."""
    symbols = {str(s): s for s in domains}
    names = sorted(scope.names)
    ends = [_ends(domains[symbols[name]], {**point, scope.count: sp.Integer(size)}) for name in names]
    if all(ends):  # the boundary: every head at the domain's first closed end, then the two ends half and half
        low = {name: e[0] for name, e in zip(names, ends, strict=True)}
        high = {name: e[-1] for name, e in zip(names, ends, strict=True)}
        if not distinct:
            yield ((low, size),)
        if size >= 2 and low != high:
            yield ((low, size // 2), (high, size - size // 2))
    shapes = ([] if distinct else [1]) + [k for k in range(2, MEMBERS + 1) if k <= size]
    for members in shapes:
        values = [_values(names, symbols, domains, point, rng) for _ in range(members)]
        if any(v is None for v in values):
            continue
        if distinct and all(v == values[0] for v in values):
            continue
        yield tuple(zip(values, _split(size, members, rng), strict=True))  # type: ignore[arg-type]


def _ends(domain: Domain, values: Point) -> list[sp.Rational]:
    """The closed ends of a domain that are rational at the point and the number of heads (where a family may sit on
    the boundary: `lam_h in [0, H]` at H = 3 has the ends 0 and 3)."""
    ends = [(domain.low, domain.low_open), (domain.high, domain.high_open)]
    at = [(e.xreplace(values), is_open) for e, is_open in ends if e is not None]
    return [e for e, is_open in at if e.is_Rational and not is_open]


def _values(
    names: list[str], symbols: dict[str, sp.Symbol], domains: dict[sp.Symbol, Domain], point: Point, rng
) -> dict[str, sp.Rational] | None:
    values = {}
    for name in names:
        value = sample_value(domains[symbols[name]], point, rng)
        if value is None:
            return None
        values[name] = value
    return values


def _split(size: int, parts: int, rng: np.random.Generator) -> list[int]:
    """`size` (>= parts) as `parts` positive multiplicities: distinct random cut points in 1..size-1, any size."""
    cuts: set[int] = set()
    while len(cuts) < parts - 1:
        cuts.add(1 + (int(rng.integers(0, size - 1)) if size < 2**62 else int(rng.random() * (size - 1))))
    ends = [0, *sorted(cuts), size]
    return [b - a for a, b in itertools.pairwise(ends)]


def at_family(claim: InequalityClaim, family: tuple[Member, ...]) -> InequalityClaim:
    """The claim for one family: its sums written out, H its size, the per-head conditions for every member."""
    scope = claim.heads
    assert scope is not None
    symbols = {str(s): s for s in claim.order}
    conditions: list[Condition] = []
    for condition in claim.conditions:
        per_head = {symbols[name] for name in scope.names} & condition.expr.free_symbols
        copies = (
            [condition.expr.xreplace({symbols[k]: v for k, v in values.items()}) for values, _ in family]
            if per_head
            else [condition.expr]
        )
        for expr in copies:
            written = expand_sums(expr, symbols, family, scope.count)
            conditions.append(Condition(written, condition.relation, condition.reason, condition.necessary))
    return dataclasses.replace(
        claim,
        lhs=expand_sums(claim.lhs, symbols, family, scope.count),
        rhs=expand_sums(claim.rhs, symbols, family, scope.count),
        conditions=tuple(conditions),
        domains={s: d for s, d in claim.domains.items() if str(s) not in scope.names},
        order=[s for s in claim.order if str(s) not in scope.names],
        heads=None,
        not_all_equal=False,
    )


def family_record(family: tuple[Member, ...]) -> list[dict[str, str]]:
    """A family as report data: each member's values and its number of heads."""
    return [{**{k: str(v) for k, v in values.items()}, "heads": str(m)} for values, m in family]


def linear_atoms(expr: sp.Expr, scope: HeadScope) -> tuple[sp.Expr, dict[sp.Expr, sp.Symbol]]:
    """`expr` with every HeadSum split by linearity into coefficient * sum_h(term), each sum_h of a per-head term
    replaced by one fresh symbol (the same term, the same symbol), a term free of the heads by H times it; the map
    term -> symbol."""
    table: dict[sp.Expr, sp.Symbol] = {}

    def split(node: HeadSum) -> sp.Expr:
        (argument,) = node.args
        total = sp.Integer(0)
        for term in sp.Add.make_args(sp.expand(argument, power_exp=False, log=False, power_base=False)):
            factors = sp.Mul.make_args(term)
            varying = [f for f in factors if any(str(s) in scope.names for s in f.free_symbols)]
            fixed = sp.Mul(*[f for f in factors if f not in varying])
            if not varying:
                total += scope.count * fixed
                continue
            key = sp.Mul(*varying)
            table.setdefault(key, sp.Symbol(f"sum_h_{len(table)}", real=True))
            total += fixed * table[key]
        return total

    return expr.replace(lambda e: isinstance(e, HeadSum), split), table
