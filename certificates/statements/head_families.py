"""Elaboration of a claims-file inequality over every number H of heads and every family of per-head values
(`sum_h`, `mean_h`) at one shape of family into a statement of form `real`
(`headflow.certificates.kernel.real_statements`).

The shape has K members: lam_1 on H - K + 1 heads and lam_2, ..., lam_K on one head each. For it the claim says: for
all its other parameters, every H >= K of its domain and every lam_1, ..., lam_K in the per-head domain, the
inequality with each sum over the heads written out (`sum_h(e)` is (H - K + 1) e(lam_1) + e(lam_2) + ... + e(lam_K),
`mean_h(e)` that sum over H). The sums are written out in the claim's own tree (`parse_tree`, never a SymPy
expression after SymPy evaluated it); the definedness conditions are the parser's at a family of symbols, one per
member. A point where that statement fails refutes the claim: it is a family of H values in the domain (H >= K is
among the statement's bounds). `check-cert --claims` elaborates the statement again at the K of the certificate's
point. A claim over families whose heads are not all equal has it with the condition that the members' values are
not all equal (`_distinct`: a counterexample's family meets it), from K = 2 members on. A claim with a punctured
domain has no such statement, nor a family of another shape or of more than MAX_MEMBERS members, nor a claim whose H
has a bound that depends on other parameters.
"""

from __future__ import annotations

from typing import Any

import sympy as sp
from headflow.certificates.claims.conditions import unique
from headflow.certificates.claims.expressions import parse_defined, parse_tree
from headflow.certificates.claims.head_sums import HEAD_FUNCTIONS, HeadScope, HeadSum
from headflow.certificates.claims.schema import InequalityClaim, UserClaim
from headflow.certificates.kernel.exprtree import Tree
from headflow.certificates.kernel.real_statements import FORM
from headflow.certificates.statements import real
from headflow.certificates.statements.real import conditions_data, variable_data, with_domain_point

#: The most members a statement writes out (one variable each).
MAX_MEMBERS = 16


def elaborate(parsed: UserClaim, kind: str, payload: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """An inequality's statement (`real.elaborate`); a witness of one over families of heads: the family statement
    with as many members as the witness's point names (`members_of`)."""
    if isinstance(parsed, InequalityClaim) and parsed.heads is not None and kind == "witness":
        return family_statement(parsed, members_of(parsed, (payload or {}).get("point") or {}))
    return real.elaborate(parsed, kind, payload)


def member_names(claim: InequalityClaim, members: int) -> dict[str, list[str]] | None:
    """Each per-head symbol's names at members 1..K (`lam_h` -> lam_1, ..., lam_K), or None when one of them is
    already a name of the claim."""
    assert claim.heads is not None
    taken = {s.name for s in claim.order}
    names = {name: [f"{name.removesuffix('_h')}_{k}" for k in range(1, members + 1)] for name in claim.heads.names}
    return None if taken & {n for listed in names.values() for n in listed} else names


def members_of(claim: InequalityClaim, point: dict[str, Any]) -> int:
    """The K of a point of a family statement: how many members its names give values (0 when none)."""
    names = member_names(claim, MAX_MEMBERS) or {}
    return max((k + 1 for listed in names.values() for k, name in enumerate(listed) if name in point), default=0)


def family_statement(claim: InequalityClaim, members: int) -> dict[str, Any] | None:
    """`for all parameters, H >= K and lam_1..lam_K in the domain: lhs op rhs` for the shape of K = `members`
    members (the module's docstring), with a verified point of the domain; None when the claim has none."""
    scope = claim.heads
    if (
        scope is None
        or claim.punctures
        or not isinstance(scope.count, sp.Symbol)
        or (claim.not_all_equal and members < 2)
    ):
        return None
    count, domain = scope.count, claim.domains[scope.count]
    names = member_names(claim, members) if 1 <= members <= MAX_MEMBERS else None
    if names is None or domain.dependencies() or (domain.high is not None and domain.high < members):
        return None
    symbols = {s.name: s for s in claim.order}
    shape = {"count": count.name, "members": members, "names": names}
    sides = {side: _written_out(parse_tree(claim.raw[side], symbols, scope), shape) for side in ("lhs", "rhs")}
    variables = []
    for symbol in claim.order:
        variable = variable_data(claim, symbol, claim.raw.get("domain", {}).get(symbol.name), symbols)
        if symbol == count and (domain.low is None or domain.low < members):
            variable |= {"low": ["rat", str(members)], "low_open": False}  # the shape needs H >= K heads
        variables += [variable | {"name": name} for name in names.get(symbol.name, [symbol.name])]
    statement = {"form": FORM, "claim": claim.id, "variables": variables, **sides, "op": claim.op}
    conditions = conditions_at(claim, symbols, names) + (_distinct(names) if claim.not_all_equal else [])
    return with_domain_point(statement | {"conditions": conditions, "point": {}})


def _distinct(names: dict[str, list[str]]) -> list[dict[str, Any]]:
    """Heads not all equal: the sum of the squared differences of every two members' values is > 0, a condition the
    point of a counterexample meets (a universal proof would have to show it everywhere, and cannot: none is
    written)."""
    squares = [
        ["pow", ["sub", ["sym", listed[a]], ["sym", listed[b]]], 2]
        for listed in names.values()
        for a in range(len(listed))
        for b in range(a + 1, len(listed))
    ]
    return [{"expression": ["add", *squares], "relation": ">"}]


def _written_out(tree: Any, shape: dict[str, Any]) -> Any:
    """`tree` with every `sum_h` and `mean_h` written out over the shape's members."""
    if not isinstance(tree, list) or not tree:
        return tree
    if tree[0] in HEAD_FUNCTIONS:
        heads, first = ["sym", shape["count"]], shape["members"] - 1
        total = ["mul", ["sub", heads, ["rat", str(first)]] if first else heads, _member(tree[1], shape, 0)]
        for k in range(1, shape["members"]):
            total = ["add", total, _member(tree[1], shape, k)]
        return total if tree[0] == "sum_h" else ["div", total, heads]
    return [tree[0], *(_written_out(part, shape) for part in tree[1:])]


def _member(tree: Tree, shape: dict[str, Any], k: int) -> Any:
    """The argument of a sum over the heads at member k + 1: its per-head symbols renamed."""
    renamed = {name: listed[k] for name, listed in shape["names"].items()}
    if isinstance(tree, list) and len(tree) == 2 and tree[0] == "sym" and tree[1] in renamed:
        return ["sym", renamed[tree[1]]]
    return [tree[0], *(_member(part, shape, k) for part in tree[1:])] if isinstance(tree, list) and tree else tree


def conditions_at(claim: InequalityClaim, symbols: dict[str, sp.Symbol], names: dict[str, list[str]]) -> list[Any]:
    """The definedness conditions at a family of one symbol per member (the parser's, for each member: the number of
    heads a member has changes no condition), with those of the claim that name no head."""
    assert claim.heads is not None
    members = len(next(iter(names.values())))
    family = tuple(({name: sp.Symbol(listed[k]) for name, listed in names.items()}, 1) for k in range(members))
    at_family = HeadScope(claim.heads.names, claim.heads.count, family)
    found = [c for side in ("lhs", "rhs") for c in parse_defined(claim.raw[side], symbols, at_family)[1]]
    per_head = {symbols[name] for name in claim.heads.names}
    found += [c for c in claim.conditions if not c.expr.has(HeadSum) and not c.expr.free_symbols & per_head]
    return conditions_data(claim.id, unique(found))


def family_point(claim: InequalityClaim, witness: dict[str, Any]) -> dict[str, str] | None:
    """The point of the family statement at a witness of the search (its point, H and members with their numbers of
    heads), the member on most heads first; None when the family has another shape (two members on several heads)."""
    members = sorted(witness["family"], key=lambda member: -int(member["heads"]))
    names = member_names(claim, len(members))
    if names is None or any(int(member["heads"]) != 1 for member in members[1:]):
        return None
    values = {listed[k]: members[k][name] for name, listed in names.items() for k in range(len(members))}
    return dict(witness["point"]) | {str(claim.heads.count): witness["H"]} | values  # type: ignore[union-attr]
