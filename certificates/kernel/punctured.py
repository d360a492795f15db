"""Form `punctured`: f(u) < b (or <=, >, >=) for every u != c in u's interval and every value of the other variables:
c the unique strict maximiser (minimiser) of f there, from the sign of f' = g P on each side of c.

The statement: `{"form": "punctured", "claim", "variables", "member": u, "except": c, "function": f, "numerator": g,
"factor": P, "op": a relation of TURNED, "value": b, "conditions", "points": [left, right]}` (g and P, the search's,
repeated in the payload beside the cuts): u a real variable (not an integer) that no other bound, c or b names. The
kernel builds statements of form `real` and checks each by the payload's smt cuts (`real_statements.check`): on each
side of c (u in (u's low, c) and in (c, u's high), with the statement's conditions), f' = g P, P > 0 with f defined
(the right side 0 f), and g' < 0 (> 0 for `>` and `>=`) with g defined; then g(c) = 0, f(c) <= b (>= b) with both
sides defined and low <= c <= high for u's bounds (conditions; over every variable, u too, the relations free of it).
f' and g' are the kernel's own derivatives (`derivatives`: a tree is differentiable where it and its derivative are
defined). So g, continuous at c where it is 0 and strictly monotone on each side, has one sign before c and the
other after it, and f' the same: f increases up to c and decreases after it (a maximiser), f(u) < f(c) <= b for
every u != c of the interval (the mean value theorem, cited: textbook). The points are those of the two sides (the
kernel verifies each; the last statements' is the left one).
"""

from typing import Any

from . import real_statements
from .derivatives import derivative
from .exprtree import rational_tree as _rat, substitute, symbols
from .recheck import Rejected, require_keys, require_list
from .tree_text import term_text

FORM = "punctured"
#: The relations, each with the one it turns into when the sides are swapped (`b op f` is `f op' b`).
TURNED = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
KEYS = {"form", "claim", "variables", "member", "except", "function", "numerator", "factor", "op", "value"}
KEYS |= {"conditions", "points"}


def relations(statement: dict[str, Any]) -> list[dict[str, Any]]:
    """The statements of form `real` the claim rests on (the docstring), built from its data after checking its
    shape."""
    require_keys(statement, KEYS, f"statement of form {FORM}")
    u, c, f, op, value = (statement[k] for k in ("member", "except", "function", "op", "value"))
    variables = require_list(statement["variables"], real_statements.MAX_VARIABLES, "the variables", 1)
    member = next((v for v in variables if isinstance(v, dict) and v.get("name") == u), None)
    others = [v for v in variables if v is not member]
    named = [symbols(v[end] or _rat(0)) for v in others for end in ("low", "high")] + [symbols(c), symbols(value)]
    if op not in TURNED or member is None or member["integer"] is not False or any(u in s for s in named):
        raise Rejected(f"{FORM}: a relation < <= > >=; the member a real variable that no bound, c or b names")
    points = require_list(statement["points"], 2, "the points of the two sides", 2)
    g, factor, falling = statement["numerator"], statement["factor"], op[0] == "<"  # a maximiser: g decreasing
    built, base = [], {"form": "real", "claim": statement["claim"], "conditions": statement["conditions"]}
    sides = (member | {"high": c, "high_open": True}, member | {"low": c, "low_open": True})
    df, dg = derivative(f, u), derivative(g, u)  # once for both sides
    for region, point in zip(sides, points, strict=True):
        on = base | {"variables": [*others, region], "point": point}
        built += [on | {"lhs": df, "op": "=", "rhs": ["mul", g, factor]}]
        built += [on | {"lhs": factor, "op": ">", "rhs": ["mul", _rat(0), f]}]
        built += [on | {"lhs": dg, "op": "<" if falling else ">", "rhs": ["mul", _rat(0), g]}]
    ends = [(["sub", c, member["low"]], "low"), (["sub", member["high"], c], "high")]
    within = [{"expression": tree, "relation": ">="} for tree, end in ends if member[end] is not None]
    at_c = base | {"variables": [*others, member], "conditions": within, "point": points[0]}  # u kept: never none
    zero = at_c | {"lhs": substitute(g, {u: c}), "op": "=", "rhs": _rat(0)}
    return [*built, zero, at_c | {"lhs": substitute(f, {u: c}), "op": op[0] + "=", "rhs": value}]


def check(statement: dict[str, Any], claim_id: str, kind: str, payload: Any, seconds: float) -> tuple[str, str]:
    """Each built statement by its own cuts, then the sentence rendered from the statement's trees."""
    built = relations(statement)
    data = {key: statement[key] for key in ("numerator", "factor")}
    if kind != "smt" or not isinstance(payload, dict) or payload != data | {"cuts": payload.get("cuts")}:
        raise Rejected(f"{claim_id}: a {FORM} statement is proved by an smt certificate of its built relations")
    proofs, how = real_statements.check_each(built, payload["cuts"], claim_id, seconds)
    u, c, f = statement["member"], term_text(statement["except"]), term_text(statement["function"])
    shown = f"{f} {statement['op']} {term_text(statement['value'])} for every {u} != {c} of its interval"
    cited = f"the mean value theorem: g and f = {f} are strictly monotone on each side of {c} (textbook)"
    return f"claims-file claim {claim_id!r}: {shown}, since {proofs}; and {cited}", how
