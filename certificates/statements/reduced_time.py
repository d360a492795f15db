"""Elaboration of asymptotic claims on the clustering time (`quantity = "clustering_time"`) into statements of form
`reduced-time` (`headflow.certificates.kernel.reduced_time`).

The quantity is Theorem 25's on the exact reduction (docs/claims-files.md, "asymptotic"): equiangular tokens under one
scalar head lam I, from the start rho0 of the attention kind (`STARTS`: the orthogonal start 0 for softmax, the
typical overlap d^(-1/2) of random tokens for relu) to rho1, for every lam > 0, beta > 0, rho1 in (0, 1), integer
n >= 2 and, for relu, d >= rho1^(-2) (rho0 <= rho1). The relation h of T is the `limit` form's (`limits.body`, with Q
the time T); the payload's `limit` and `sign` are the search's results, as there.
"""

from __future__ import annotations

from typing import Any

import sympy as sp
from headflow.certificates.claims.schema import AsymptoticClaim
from headflow.certificates.kernel.real_statements import FORM as REAL
from headflow.certificates.kernel.reduced_time import FORM, T
from headflow.certificates.statements.limits import body
from headflow.certificates.statements.real import conditions_data, with_domain_point

#: The named quantity of the form (and of the kernel table's `orders`, `statements.orders`).
QUANTITY = "clustering_time"
#: rho0 of each attention kind.
STARTS = {"softmax": ["rat", "0"], "relu": ["rpow", ["sym", "d"], ["rat", "-1/2"]]}
_OPEN, _POSITIVE = {"low_open": True, "high": None, "high_open": False}, {"low": ["rat", "0"]}
#: Each parameter's domain, in dependency order (d only for relu).
DOMAINS = {
    "lam": _POSITIVE | _OPEN,
    "beta": _POSITIVE | _OPEN,
    "rho1": _POSITIVE | _OPEN | {"high": ["rat", "1"], "high_open": True},
    "n": {"low": ["rat", "2"], "low_open": False, "high": None, "high_open": False},
    "d": {"low": ["pow", ["sym", "rho1"], -2], "low_open": False, "high": None, "high_open": False},
}


def elaborate(claim: AsymptoticClaim, kind: str, payload: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The statement of an smt certificate of the claim with this payload's search data, or None when this form does
    not state it (another quantity, a variable other than n or d, a payload without a bracket)."""
    data = payload if isinstance(payload, dict) else {}
    if kind != "smt" or claim.quantity != QUANTITY or not {"bracket", "errors", "limit"} <= set(data):
        return None
    start = STARTS.get(claim.attention or "")
    names = [name for name in DOMAINS if name != "d" or claim.attention == "relu"]
    v = claim.variable.name
    if start is None or v not in ("n", "d") or v not in names:
        return None
    symbols = {name: sp.Symbol(name, positive=True) for name in names}
    found = body(claim, T, data, symbols)
    if found is None or {"infinite", "at"} & set(found):
        return None
    order = [name for name in names if name != v] + [v]
    variables = [{"name": name, "integer": name == "n"} | DOMAINS[name] for name in order]
    variables = [{k: d[k] for k in ("name", "integer", "low", "low_open", "high", "high_open")} for d in variables]
    common = {"claim": claim.id, "variables": variables, "conditions": conditions_data(claim.id, claim.conditions)}
    probe = {"form": REAL, **common, "lhs": start, "op": "=", "rhs": start, "point": {}}
    point = with_domain_point(probe)["point"]
    return {
        "form": FORM,
        **common,
        "attention": claim.attention,
        "start": start,
        "variable": v,
        **found,
        "point": point,
    }
