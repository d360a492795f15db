"""Elaboration of asymptotic claims on the clustering time (`quantity = "clustering_time"`), and of orders in beta of
a dynamics claim's merge or clustering time on the equiangular reduction (`grows_like`), into statements of form
`reduced-time` (`headflow.certificates.kernel.reduced_time`).

The quantity is Theorem 25's on the exact reduction (docs/claims-files.md, "asymptotic"): equiangular tokens under one
scalar head lam I, from the start rho0 of the attention kind (`STARTS`: the orthogonal start 0 for softmax, the
typical overlap d^(-1/2) of random tokens for relu) to rho1, for every lam > 0, beta > 0, rho1 in (0, 1), integer
n >= 2 and, for relu, d >= rho1^(-2) (rho0 <= rho1). The relation h of T is the `limit` form's (`limits.body`, with Q
the time T); the payload's `limit` and `sign` are the search's results, as there.

An order in beta (`property = "grows-like"`, metastability) is about one family: n, lam, rho0 and the target rho1 (a
merge at radius r: rho1 = 1 - r^2/2; a cluster gap at `level`: rho1 = 1 - level) are the claim's numbers, so their
domains are points, and beta >= 1 (the order is as beta -> oo) is the variable. h is Q / g with Q = T, or log T
(`of = "log"`), g the order's function. A Theta that holds is the order form (each end's limit, the lower one > 0:
log T/beta between lam (1 - rho1) and lam (1 - rho0)); Theta, O, o or ~ that fail are h -> +oo (T/beta -> oo, log
T/sqrt(beta) -> oo).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import AsymptoticClaim, DynamicsClaim
from headflow.certificates.kernel.exprtree import rational_tree
from headflow.certificates.kernel.real_statements import FORM as REAL
from headflow.certificates.kernel.reduced_time import FORM, T
from headflow.certificates.statements.limits import body
from headflow.certificates.statements.real import conditions_data, with_domain_point
from headflow.certificates.sympy_trees import from_sympy

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


def in_reduction(claim: DynamicsClaim) -> bool:
    """The merge or clustering time on the equiangular softmax reduction with one scalar head (every option as the
    reduction has it)."""
    o = claim.options
    return (
        claim.quantity in ("merge_time", "clustering_time")
        and o["tokens"] == "equiangular"
        and o["heads"] == "scalar"
        and o["attention"] == "softmax"
        and o["geometry"] == "sphere"
        and o["H"] == 1
        and len(o["lambdas"]) == 1
        and stated(o["lambdas"][0]) > 0
        and o.get("values", "aligned") == "aligned"
        and "mask" not in o
        and "interaction" not in o
    )


def target(claim: DynamicsClaim) -> Fraction:
    """rho1: a merge at radius r once the merge height sqrt(2 - 2 rho) <= r, a cluster gap 1 - rho <= level."""
    o = claim.options
    return 1 - stated(o["radius"]) ** 2 / 2 if claim.quantity == "merge_time" else 1 - stated(o["level"])


def grows_like(claim: DynamicsClaim, kind: str, payload: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The statement of an smt certificate of an order in beta (module docstring) with this payload's search data, or
    None when this form does not state it (outside the reduction, another relation, a payload without a bracket)."""
    data = payload if isinstance(payload, dict) else {}
    if kind != "smt" or claim.property != "grows-like" or not in_reduction(claim):
        return None
    if not {"bracket", "errors", "limit"} <= set(data) or claim.target is None:
        return None
    o = claim.options
    relation, g = o["order"], from_sympy(claim.target)
    quantity = ["log", T] if o["of"] == "log" else T
    h = quantity if g == ["rat", "1"] else ["div", quantity, g]
    if data.get("infinite") is True and relation != "Omega" and "sign" not in data:
        body = {"limit": ["rat", "0"], "infinite": True}
    elif relation == "Theta" and data.get("sign") == ">" and "upper" in data:
        body = {"limit": data["limit"], "sign": ">", "upper": data["upper"]}
    else:
        return None

    def point(name: str, value: Fraction) -> dict[str, Any]:
        tree = rational_tree(value)
        return {"name": name, "integer": name == "n", "low": tree, "low_open": False, "high": tree, "high_open": False}

    variables = [point("lam", stated(o["lambdas"][0])), point("rho1", target(claim)), point("n", Fraction(o["n"]))]
    variables += [{"name": "beta", "integer": False, "low": ["rat", "1"], "low_open": False, "high": None}]
    variables[-1] |= {"high_open": False}
    common = {"claim": claim.id, "variables": variables, "conditions": []}
    start = rational_tree(stated(o["rho"]))
    probe = {"form": REAL, **common, "lhs": start, "op": "=", "rhs": start, "point": {}}
    found = {"form": FORM, **common, "attention": "softmax", "start": start, "variable": "beta", "expression": h}
    return found | body | {"point": with_domain_point(probe)["point"]}
