"""Elaboration of a claims-file inequality over every number H of heads and every family of per-head values
(`sum_h`, `mean_h`) at one H into a statement of form `real` (`headflow.certificates.kernel.real_statements`).

At H heads the claim says: for all its other parameters and every lam_1, ..., lam_H in the per-head domain, the
inequality with each sum over the heads written out (`sum_h(e)` is e at lam_1 plus ... plus e at lam_H, `mean_h(e)`
that sum over H, the count H the number). The sums are written out in the claim's own tree (`parse_tree`, never a
SymPy expression after SymPy evaluated it); the definedness conditions are the parser's at a family of symbols, one
per head. A point where that statement fails refutes the claim (H is in its domain, checked here and again by
`check-cert --claims`, which elaborates the statement again at the H the certificate's point has). A claim over
families whose heads are not all equal, or with a punctured domain, has no such statement (the kernel's `real` form
states neither), nor a family of more than MAX_HEADS heads (one variable per head).
"""

from __future__ import annotations

from typing import Any

import sympy as sp
from headflow.certificates.claims.conditions import Condition, unique
from headflow.certificates.claims.domains import contains
from headflow.certificates.claims.expressions import parse_defined, parse_tree
from headflow.certificates.claims.head_sums import HEAD_FUNCTIONS, HeadScope, HeadSum
from headflow.certificates.claims.schema import InequalityClaim, UserClaim
from headflow.certificates.kernel.exprtree import Tree
from headflow.certificates.kernel.real_statements import FORM
from headflow.certificates.statements import real
from headflow.certificates.statements.real import conditions_data, variable_data, with_domain_point

#: The most heads a statement writes out (one variable each).
MAX_HEADS = 16


def elaborate(parsed: UserClaim, kind: str, payload: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """An inequality's statement (`real.elaborate`); a witness of one over families of heads: the family statement at
    the H of the witness's point (`heads_of`)."""
    if isinstance(parsed, InequalityClaim) and parsed.heads is not None and kind == "witness":
        return family_statement(parsed, heads_of(parsed, (payload or {}).get("point") or {}))
    return real.elaborate(parsed, kind, payload)


def member_names(claim: InequalityClaim, heads: int) -> dict[str, list[str]] | None:
    """Each per-head symbol's names at heads 1..H (`lam_h` -> lam_1, ..., lam_H), or None when one of them is
    already a name of the claim."""
    assert claim.heads is not None
    taken = {s.name for s in claim.order}
    names = {name: [f"{name.removesuffix('_h')}_{k}" for k in range(1, heads + 1)] for name in claim.heads.names}
    return None if taken & {n for listed in names.values() for n in listed} else names


def heads_of(claim: InequalityClaim, point: dict[str, Any]) -> int:
    """The H of a point of a family statement: how many of its names are heads' (0 when none is)."""
    assert claim.heads is not None
    names = member_names(claim, MAX_HEADS) or {}
    return max((k + 1 for listed in names.values() for k, name in enumerate(listed) if name in point), default=0)


def family_statement(claim: InequalityClaim, heads: int) -> dict[str, Any] | None:
    """`for all parameters and lam_1..lam_H in the domain: lhs op rhs` at H = `heads` (the module's docstring), with
    a verified point of the domain; None when the claim has no such statement at that H."""
    scope, count = claim.heads, claim.heads.count if claim.heads else None
    if scope is None or claim.not_all_equal or claim.punctures or not isinstance(count, sp.Symbol):
        return None
    names = member_names(claim, heads) if 1 <= heads <= MAX_HEADS else None
    domain = claim.domains[count]
    if names is None or domain.dependencies() or not contains({count: domain}, [count], {count: sp.Integer(heads)}):
        return None  # H out of its domain, or a domain that depends on the other parameters
    symbols = {s.name: s for s in claim.order}
    written = {"count": count.name, "heads": heads, "names": names}
    sides = {side: _written_out(parse_tree(claim.raw[side], symbols, scope), written) for side in ("lhs", "rhs")}
    variables = []
    for symbol in claim.order:
        if symbol == count:
            continue
        variable = variable_data(claim, symbol, claim.raw.get("domain", {}).get(symbol.name), symbols)
        copies = [variable | {"name": name} for name in names.get(symbol.name, [symbol.name])]
        variables += [_written_out(v, written) for v in copies]
    statement = {"form": FORM, "claim": claim.id, "variables": variables, **sides, "op": claim.op}
    return with_domain_point(statement | {"conditions": _conditions(claim, symbols, names, heads), "point": {}})


def _written_out(tree: Any, written: dict[str, Any]) -> Any:
    """`tree` at H heads: every `sum_h` and `mean_h` written out over the members, the count a number."""
    if isinstance(tree, dict):
        return {key: _written_out(value, written) for key, value in tree.items()}
    if not isinstance(tree, list) or not tree:
        return tree
    if tree == ["sym", written["count"]]:
        return ["rat", str(written["heads"])]
    if tree[0] in HEAD_FUNCTIONS:
        members = [_member(tree[1], written, k) for k in range(written["heads"])]
        total = members[0]
        for member in members[1:]:
            total = ["add", total, member]
        return total if tree[0] == "sum_h" else ["div", total, ["rat", str(written["heads"])]]
    return [tree[0], *(_written_out(part, written) for part in tree[1:])]


def _member(tree: Tree, written: dict[str, Any], k: int) -> Any:
    """The argument of a sum over the heads at head k + 1: its per-head symbols renamed, its count a number."""
    renamed = {name: listed[k] for name, listed in written["names"].items()}

    def walk(node: Any) -> Any:
        if isinstance(node, list) and len(node) == 2 and node[0] == "sym" and node[1] in renamed:
            return ["sym", renamed[node[1]]]
        return [node[0], *(walk(part) for part in node[1:])] if isinstance(node, list) and node else node

    return _written_out(walk(tree), written)


def _conditions(
    claim: InequalityClaim, symbols: dict[str, sp.Symbol], names: dict[str, list[str]], heads: int
) -> list[dict[str, Any]]:
    """The definedness conditions at a family of one symbol per head (the parser's, for each member), with those of
    the claim that name no head, the count the number H."""
    assert claim.heads is not None
    family = tuple(({name: sp.Symbol(listed[k]) for name, listed in names.items()}, 1) for k in range(heads))
    at_family = HeadScope(claim.heads.names, sp.Integer(heads), family)
    found = [c for side in ("lhs", "rhs") for c in parse_defined(claim.raw[side], symbols, at_family)[1]]
    per_head = {symbols[name] for name in claim.heads.names}
    found += [c for c in claim.conditions if not c.expr.has(HeadSum) and not c.expr.free_symbols & per_head]
    count = {claim.heads.count: sp.Integer(heads)}
    instance = [Condition(c.expr.xreplace(count), c.relation, c.reason, c.necessary) for c in unique(found)]
    return conditions_data(claim.id, unique(instance))
