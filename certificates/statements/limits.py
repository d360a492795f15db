"""Elaboration of asymptotic claims on a closed form (`quantity = "expression"`) into statements of form `limit`
(`headflow.certificates.kernel.limits`; `docs/design/limit-form.md`).

With Q the claim's expression, g its reference (`order`) or `over`, R = Q (a `limit` claim without `over`) or
`["div", Q, g]` and L0 the value R tends to when the claim holds (`limit` L0: L0; `~ g`: 1; `o(g)`: 0):

| claim | holds: h = R tends to | fails |
|---|---|---|
| `limit L0`, `~ g`, `o(g)` | L0 (no sign) | h = R - L0 tends to D, D > 0 or D < 0 (a sign) |
| `Theta(g)`, `Omega(g)` | L > 0 (sign `>`) | h = R tends to 0 (no sign) |
| `O(g)` | L, any (no sign) | |R| -> oo (below) |

Any claim but `Omega(g)` also fails where |R| -> oo (the payload's `infinite`: 1/R -> 0).

The search's results travel in the payload (`limit`: D or L where the claim does not fix it; `error`; `sign`), so
that the statement is a function of the claim and the payload, and `check-cert --claims` elaborates the same one; a
payload's `sign` says which column it is. The variable v is put last (no other bound may name it), its lower bound
the claim's when that is > 0 (> 1 for the log scale), else 1 (2). The formulas are the claim's text parsed faithfully
(`parse_tree`), the definedness conditions the parser's (proved, never assumed).
"""

from __future__ import annotations

import ast
from typing import Any

from headflow.certificates.claims.expressions import parse_tree
from headflow.certificates.claims.schema import AsymptoticClaim
from headflow.certificates.kernel.exprtree import Tree, parse_rational, symbols
from headflow.certificates.kernel.limits import FORM
from headflow.certificates.kernel.real_statements import FORM as REAL
from headflow.certificates.statements.real import conditions_data, variable_data, with_domain_point

#: The value R tends to when the claim holds, for the relations that fix it (`limit`: the claim's own).
FIXED = {"~": ["rat", "1"], "o": ["rat", "0"]}


def elaborate(claim: AsymptoticClaim, kind: str, payload: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The statement of an smt certificate of the claim with this payload's search data, or None when this form does
    not state it (a quantity other than an expression, a payload without a limit and an error, O(g) refuted)."""
    data = payload if isinstance(payload, dict) else {}
    if kind != "smt" or claim.quantity != "expression" or not {"limit", "error"} <= set(data):
        return None
    names = {s.name: s for s in claim.order}
    found = body(claim, parse_tree(claim.raw["expr"], names), data, names)
    return None if found is None else statement(claim, found | {"error": data["error"]}, names)


def body(
    claim: AsymptoticClaim, expression: Tree, data: dict[str, Any], names: dict[str, Any]
) -> dict[str, Any] | None:
    """The relation's `expression` h (of the quantity Q = `expression`), `limit` and, by the table above, `sign`,
    `infinite` or `at` from the payload's search data `data`; None where the form does not state it (O(g) refuted)."""
    over = reference(claim, names)
    ratio = expression if over is None else ["div", expression, over]
    signed = "sign" in data
    body: dict[str, Any] = {"expression": ratio, "limit": data["limit"]}
    body |= {"at": data["at"]} if "at" in data and (signed or data.get("infinite") is True) else {}  # fails there
    if data.get("infinite") is True and claim.relation != "Omega" and not signed:  # |R| -> oo: the claim fails
        body |= {"limit": ["rat", "0"], "infinite": True}
    elif claim.relation in ("limit", "~", "o"):
        fixed = parse_tree(claim.raw["limit"], names) if claim.relation == "limit" else FIXED[claim.relation]
        body |= {"expression": ["sub", ratio, fixed], "sign": data["sign"]} if signed else {"limit": fixed}
    elif claim.relation in ("Theta", "Omega"):
        body |= {"sign": ">"} if signed else {"limit": ["rat", "0"]}
    elif claim.relation != "O" or signed:
        return None
    return body


def statement(claim: AsymptoticClaim, body: dict[str, Any], names: dict[str, Any]) -> dict[str, Any] | None:
    """The statement with the claim's variables (v last, its lower bound `_least`), conditions and a verified point;
    None when v has an upper bound or another variable's bound names it."""
    v = claim.variable.name
    others = [variable_data(claim, s, claim.raw.get("domain", {}).get(s.name), names) for s in claim.order]
    last = next(d for d in others if d["name"] == v)
    others = [d for d in others if d["name"] != v]
    if last["high"] is not None or any(v in symbols(d[end] or ["rat", "0"]) for d in others for end in ("low", "high")):
        return None
    least = _least(last, body["error"])
    variables = [*others, last | {"low": least, "low_open": last["low_open"] and least == last["low"]}]
    common = {"claim": claim.id, "variables": variables, "conditions": conditions_data(claim.id, claim.conditions)}
    probe = {"form": REAL, **common, "lhs": body["expression"], "op": "=", "rhs": body["expression"], "point": {}}
    point = with_domain_point(probe)["point"]
    return {"form": FORM, **common, "variable": v, **body, "point": point}


def _least(variable: dict[str, Any], error: object) -> Tree:
    """v's lower bound in the statement: the claim's when it is a rational above the scale's threshold, else 1 (2 for
    the log scale)."""
    threshold = 1 if isinstance(error, dict) and error.get("scale") == "log" else 0
    low = variable["low"]
    if low is not None and low[0] == "rat" and parse_rational(low[1]) > threshold:
        return low
    return ["rat", str(threshold + 1)]


def reference(claim: AsymptoticClaim, names: dict[str, Any]) -> Tree | None:
    """g as written: the order's argument, or `over`; None for a `limit` claim without `over`."""
    if claim.relation == "limit":
        return parse_tree(claim.raw["over"], names) if "over" in claim.raw else None
    text = str(claim.raw["order"]).strip()
    if text.startswith("~"):
        return parse_tree(text[1:], names)
    call = ast.parse(text, mode="eval").body
    assert isinstance(call, ast.Call)
    return parse_tree(ast.get_source_segment(text, call.args[0]), names)
