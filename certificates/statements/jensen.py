"""Elaboration of a claims-file inequality over every number H of heads into a statement of form `jensen`
(`headflow.certificates.kernel.jensen`), where the claim is Jensen's inequality for one per-head term.

The claim must read `sum_h(F(lam_h)) >= H * F(mean_h(lam_h))` or `mean_h(F(lam_h)) >= F(mean_h(lam_h))` (or `>`, with
`not_all_equal`), with one per-head symbol lam_h, H the count, F(mean) the same tree as F(lam_h) with the mean in
lam_h's place (the claim's text parsed faithfully, `parse_tree`). The statement names the member lam_1 (the name the
family statements use), F at it, the other parameters with their domains (not H: the statement is for every H >= 1,
the claim's H domain is part of it), and the definedness conditions at a one-member family (the parser's), but those
of the sums themselves (H != 0: they name H, which the statement does not).
"""

from __future__ import annotations

from typing import Any

from headflow.certificates.claims.expressions import parse_tree
from headflow.certificates.claims.schema import InequalityClaim, UserClaim
from headflow.certificates.kernel.exprtree import substitute
from headflow.certificates.kernel.exprtree import symbols as kernel_symbols
from headflow.certificates.kernel.jensen import FORM
from headflow.certificates.kernel.real_statements import FORM as REAL
from headflow.certificates.statements import head_families
from headflow.certificates.statements.head_families import conditions_at, member_names
from headflow.certificates.statements.real import variable_data, with_domain_point


def statement(claim: InequalityClaim) -> dict[str, Any] | None:
    """The `jensen` statement of the claim, or None when it does not read as Jensen's inequality (the module's
    docstring), or its domain has no point."""
    scope = claim.heads
    names = member_names(claim, 1) if scope is not None and len(scope.names) == 1 else None
    strict = claim.op == ">" and claim.not_all_equal
    if names is None or claim.punctures or not (claim.op == ">=" or strict):
        return None
    ((member, (renamed,)),) = names.items()
    symbols = {s.name: s for s in claim.order}
    lhs, rhs = (parse_tree(claim.raw[side], symbols, scope) for side in ("lhs", "rhs"))
    term = lhs[1] if lhs[0] in ("sum_h", "mean_h") and len(lhs) == 2 else None
    at_mean = substitute(term, {member: ["mean_h", ["sym", member]]})
    expected = ["mul", ["sym", scope.count.name], at_mean] if lhs[0] == "sum_h" else at_mean
    if term is None or rhs != expected:
        return None
    domain = claim.raw.get("domain", {})
    variables = [variable_data(claim, s, domain.get(s.name), symbols) for s in claim.order if s != scope.count]
    variables = [v | {"name": renamed} if v["name"] == member else v for v in variables]
    function = substitute(term, {member: ["sym", renamed]})
    conditions = [
        c for c in conditions_at(claim, symbols, names) if scope.count.name not in kernel_symbols(c["expression"])
    ]
    common = {
        "claim": claim.id,
        "variables": variables,
        "conditions": conditions,
    }  # F's at a member (H's are the sums')
    probe = {"form": REAL, **common, "lhs": function, "op": "=", "rhs": function, "point": {}}
    point = with_domain_point(probe)["point"]  # Rejected where the domain has none: the statement would be vacuous
    return {"form": FORM, **common, "member": renamed, "function": function, "op": claim.op, "point": point}


def elaborate(parsed: UserClaim, kind: str, payload: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """An inequality's statement (`head_families.elaborate`); an smt certificate of one over every number of heads:
    its `jensen` statement."""
    if isinstance(parsed, InequalityClaim) and parsed.heads is not None and kind == "smt":
        return statement(parsed)
    return head_families.elaborate(parsed, kind, payload)
