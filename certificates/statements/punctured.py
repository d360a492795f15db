"""Elaboration of a claims-file inequality over a punctured domain into a statement of form `punctured`
(`headflow.certificates.kernel.punctured`): f(x) op b for every x != c, c the one point the domain of x leaves out.

The claim must have one punctured symbol x (a real one), no heads, one side free of x (b, the value) and the other
naming it (f; a claim written `b op f(x)` is stated `f(x) op' b`, the relation turned around). The formulas are the
claim's text parsed faithfully (`parse_tree`), the definedness conditions the parser's with `x - c != 0`; g and P
(f' = g P) are the payload's, the search's results; the points of the two sides are searched here (`with_domain_point`
on the kernel's own built statements) and verified there.
"""

from __future__ import annotations

from typing import Any

from headflow.certificates.claims.expressions import parse_tree
from headflow.certificates.claims.schema import InequalityClaim, UserClaim
from headflow.certificates.kernel.exprtree import symbols as kernel_symbols
from headflow.certificates.kernel.punctured import FORM, TURNED, relations
from headflow.certificates.statements import jensen
from headflow.certificates.statements.real import conditions_data, puncture_conditions, variable_data, with_domain_point


def statement(claim: InequalityClaim, payload: dict[str, Any]) -> dict[str, Any] | None:
    """The `punctured` statement of the claim with the payload's numerator g and factor P (f' = g P), or None when it
    does not have that shape (the module's docstring); Rejected when a side has no point."""
    if len(claim.punctures) != 1 or claim.heads is not None or not {"numerator", "factor"} <= set(payload):
        return None
    ((x, _),) = claim.punctures.items()
    names = {s.name: s for s in claim.order}
    domain = claim.raw.get("domain", {})
    lhs, rhs = (parse_tree(claim.raw[side], names) for side in ("lhs", "rhs"))
    named = [x.name in kernel_symbols(side) for side in (lhs, rhs)]
    if named not in ([True, False], [False, True]) or claim.domains[x].integer:
        return None
    f, value, op = (lhs, rhs, claim.op) if named[0] else (rhs, lhs, TURNED[claim.op])
    data = {
        "form": FORM,
        "claim": claim.id,
        "variables": [variable_data(claim, s, domain.get(s.name), names) for s in claim.order],
        "member": x.name,
        "except": parse_tree(domain[x.name]["except"], names),
        "function": f,
        "numerator": payload["numerator"],
        "factor": payload["factor"],
        "op": op,
        "value": value,
        "conditions": conditions_data(claim.id, claim.conditions) + puncture_conditions(claim, names),
        "points": [{}, {}],
    }
    built = relations(data)  # three statements on each side of the hole, then the value at it
    return data | {"points": [with_domain_point(built[k])["point"] for k in (0, 3)]}


def elaborate(parsed: UserClaim, kind: str, payload: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """An smt certificate of an inequality over a punctured domain: its `punctured` statement; any other: as
    `jensen.elaborate` states it."""
    if isinstance(parsed, InequalityClaim) and parsed.punctures and kind == "smt":
        return statement(parsed, payload if isinstance(payload, dict) else {})
    return jensen.elaborate(parsed, kind, payload)
