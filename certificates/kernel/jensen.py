"""Form `jensen`: sum_h F(lam_h) >= H F(mean_h lam_h) for every number H of heads and every family of values in an
interval (> for a family not all equal), from the convexity of F there.

The statement: `{"form": "jensen", "claim", "variables", "member": u, "function": F, "op": ">=" or ">", "conditions",
"point"}`: u one of the variables (its domain an interval, which no other variable's bound names), F a tree in u and the
others. The kernel builds the statement of form `real` F''(u) >= 0 (> 0 for `>`) over the same variables, conditions and
point, F'' its own derivative of F (`derivatives`), and checks it by the payload's smt cuts (`real_statements.check`); a
strict claim's payload may instead prove F'' >= 0 on u's interval and F'' > 0 inside it (`interior`: F'' vanishes at
lambda_c, the end of the convex regime). The sentence cites Jensen's inequality (textbook): F convex on an interval I
gives sum_h F(lam_h) >= H F(mean) for values in I (their mean is in I), strictly where F'' > 0 and they are not all
equal.
"""

from typing import Any

from . import real_statements
from .derivatives import derivative
from .exprtree import rational_tree as _rat, symbols
from .recheck import Rejected, require_keys
from .tree_text import term_text

FORM = "jensen"
KEYS = {"form", "claim", "variables", "member", "function", "op", "conditions", "point"}


def convexity(statement: dict[str, Any], interior: bool = False) -> list[dict[str, Any]]:
    """The statements of form `real` the claim rests on, built from the statement's data: F''(u) >= 0 (> 0 for `>`)
    on u's interval I; with `interior`, F''(u) >= 0 on I and F''(u) > 0 with u's ends open (F'' may vanish at an end:
    F' then still increases strictly on I, so F is strictly convex there)."""
    require_keys(statement, KEYS, f"statement of form {FORM}")
    u, op, variables = statement["member"], statement["op"], statement["variables"]
    bounds = [symbols(v[end] or _rat(0)) for v in variables if v["name"] != u for end in ("low", "high")]
    if op not in (">=", ">") or u not in [v["name"] for v in variables] or any(u in named for named in bounds):
        raise Rejected(f"{FORM}: the relation >= or >; the member a variable that no other variable's bound names")
    base = {key: statement[key] for key in ("claim", "variables", "conditions", "point")}
    second = derivative(derivative(statement["function"], u), u)
    closed = base | {"form": "real", "lhs": second, "op": ">=" if interior else op, "rhs": _rat(0)}
    opened = [
        v | {f"{e}_open": True for e in ("low", "high") if v[e] is not None} if v["name"] == u else v for v in variables
    ]
    return [closed] + [closed | {"variables": opened, "op": ">"}] * interior


def check(statement: dict[str, Any], claim_id: str, kind: str, payload: Any, seconds: float) -> tuple[str, str]:
    """The convexity by its smt certificate (`{"cuts"}`, or with `interior` for `>`: `convexity`'s two statements),
    then the sentence rendered from the statement's trees."""
    interior = isinstance(payload, dict) and "interior" in payload
    keys = {"cuts", "interior"} if interior else {"cuts"}
    if kind != "smt" or not isinstance(payload, dict) or set(payload) != keys:
        raise Rejected(f"{claim_id}: a {FORM} statement is proved by an smt certificate of its convexity")
    if interior and statement.get("op") != ">":
        raise Rejected(f"{claim_id}: a {FORM} statement's interior is stated for a strict claim")
    cuts = [payload["cuts"], payload["interior"]] if interior else [payload["cuts"]]
    proved, how = real_statements.check_each(convexity(statement, interior), cuts, claim_id, seconds)
    u, op, strict = statement["member"], statement["op"], statement["op"] == ">"
    jensen = f"sum_h F(x_h) {op} H F(mean_h x_h) for every H >= {1 + strict} and values x_h in {u}'s domain"
    cited = "Jensen's inequality for F convex on an interval (strictly convex: values not all equal), textbook"
    cited += "; F'' >= 0 on an interval and > 0 inside it makes F strictly convex there" * interior
    sentence = f"{jensen}{' not all equal' * strict}, F({u}) = {term_text(statement['function'])}"
    return f"claims-file claim {claim_id!r}: {sentence}, since {proved}; and {cited}", how
