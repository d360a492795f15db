"""Form `exit-gap`: how the exit gap of Condition 8 behaves as n -> oo, from a bracket of it that the kernel checks and
the `limit` form's relations on its two ends.

The quantity: for H >= 2 equal heads alpha I (usa, inverse temperature beta) and n tokens, E is the zero in (0, 1) of
g(E) = h(1 - E), with h(rho) = (n - 1)(1 - rho)(1 + (n - 1) rho) - (H - 1)(exp(kappa (1 - rho)) + (n - 1) rho)^2 and
kappa = alpha beta (`EXIT`, the kernel's own; that the trajectory from orthonormal tokens leaves the Condition 8
region where h changes sign is the registry's lemma `C8.invariance`, named, not re-checked: `LEMMA`). The statement:
`{"form": "exit-gap", "claim", "variables": alpha, beta, H, n (n last, unbounded above), "variable": "n",
"expression": h, "limit": L, "conditions", "point"}`, optionally `"sign"` and `"at"` as in `limits`; h is E or E - L0
(L0 free of E), increasing in E. The claim: h -> L as n -> oo for every value of the others (or at the point `at`).

The payload: `{"limit", "sign"?, "at"?, "bracket": {"low": a, "high": b, "from": N0, "point"}, "errors": [the error of
each end], "cuts": one list per built statement}`. The kernel builds, over the variables with n >= N0 (a tree over the
others; `point` a point of that domain, which the kernel verifies), the statements of form `real`: h'' <= 0 on rho in
[0, 1], h(0) > 0, a >= 0, b <= 1, h(1 - a) < 0 < h(1 - b), then the `limit` relations of h at E = a and at E = b, each
with its error, against the same L; at a point `at`, every one of them there (`limits.instance`); and checks each by
its smt certificate. Cited, not re-checked (CITED): h concave on [0, 1] with h(0) > 0 and h(1 - b) > 0 > h(1 - a) has
exactly one zero in (0, 1), between 1 - b and 1 - a, so a < E < b; h between its values at the ends tends to L where
both do (squeeze).
"""

from typing import Any

from . import limits, real_statements
from .derivatives import derivative
from .exprtree import count_nodes, substitute, symbols
from .format import MAX_TERM_NODES
from .recheck import Rejected, require_keys, require_list
from .tree_text import term_text

FORM = "exit-gap"
KEYS = {"form", "claim", "variables", "variable", "expression", "limit", "conditions", "point"}
OPTIONS = ("sign", "at")
BRACKET = ("low", "high", "from", "point")
NAMES = ("alpha", "beta", "H", "n")
E, RHO, ZERO, ONE = ["sym", "E"], ["sym", "rho"], ["rat", "0"], ["rat", "1"]
_M, _KAPPA = ["sub", ["sym", "n"], ONE], ["mul", ["sym", "alpha"], ["sym", "beta"]]
_U = ["add", ["exp", ["mul", _KAPPA, ["sub", ONE, RHO]]], ["mul", _M, RHO]]
#: h(rho), the Condition 8 margin of H equal heads over alpha^2 w^2 (`identities.condition8_invariance`).
EXIT = [
    "sub",
    ["mul", _M, ["sub", ONE, RHO], ["add", ONE, ["mul", _M, RHO]]],
    ["mul", ["sub", ["sym", "H"], ONE], ["pow", _U, 2]],
]
LEMMA = (
    "that the trajectory leaves the Condition 8 region at the zero of h is the lemma of C8.invariance, not re-checked"
)
CITED = (
    "cited, not re-checked: h concave on [0, 1] with h(0) > 0 and h(1 - b) > 0 > h(1 - a) has one zero in (0, 1), "
    "between 1 - b and 1 - a, so a < E < b; h between its values at the ends tends to L where both do (squeeze)"
)


def built(statement: dict[str, Any], payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The statements of form `real` the claim rests on, built here from the statement and the bracket after checking
    their shapes; Rejected otherwise."""
    require_keys(statement, KEYS | (set(OPTIONS) & set(statement)), f"statement of form {FORM}")
    data = {key: statement[key] for key in ("limit", *OPTIONS) if key in statement}
    require_keys(payload, {"bracket", "errors", "cuts", *data}, f"the payload of a {FORM} certificate")
    bracket = require_keys(payload["bracket"], BRACKET, "the bracket")
    errors = require_list(payload["errors"], 2, "the errors of the ends", 2)
    variables = require_list(statement["variables"], 4, "the variables", 4)
    h, last, low, high = statement["expression"], variables[-1], bracket["low"], bracket["high"]
    ok = [v.get("name") for v in variables] == list(NAMES) and statement["variable"] == "n" and last["high"] is None
    ok = ok and {key: payload[key] for key in data} == data and (h == E or (h[:2] == ["sub", E] and len(h) == 3))
    ok = ok and "E" not in symbols(["add", statement["limit"], *h[2:]]) and isinstance(bracket["point"], dict)
    ok = ok and all(count_nodes(bracket[k], MAX_TERM_NODES) and symbols(bracket[k]) <= set(NAMES) for k in BRACKET[:3])
    if not ok or "n" in symbols(bracket["from"]):
        raise Rejected(f"{FORM}: variables alpha, beta, H, n (n last, unbounded); h = E or E - L0; N0 free of n")
    domain = [*variables[:-1], last | {"low": bracket["from"], "low_open": False}]
    base = {"form": "real", "claim": statement["claim"], "variables": domain, "conditions": statement["conditions"]}
    base["point"] = bracket["point"]
    rho = {"name": "rho", "integer": False, "low": ZERO, "low_open": False, "high": ONE, "high_open": False}
    along = base | {"variables": [*domain, rho], "point": base["point"] | {"rho": "0"}}
    found = [along | {"lhs": derivative(derivative(EXIT, "rho"), "rho"), "op": "<=", "rhs": ZERO}]
    found += [base | {"lhs": substitute(EXIT, {"rho": ZERO}), "op": ">", "rhs": ZERO}]
    found += [base | {"lhs": low, "op": ">=", "rhs": ZERO}, base | {"lhs": high, "op": "<=", "rhs": ONE}]
    for end, op in ((low, "<"), (high, ">")):  # g(a) < 0 < g(b)
        found += [base | {"lhs": substitute(EXIT, {"rho": ["sub", ONE, end]}), "op": op, "rhs": ZERO}]
    limit = base | {"form": limits.FORM, "variable": "n", "limit": statement["limit"]}
    for k, (end, error) in enumerate(zip((low, high), errors, strict=True)):  # L's sign once, with the lower end
        sign = {"sign": statement["sign"]} if "sign" in statement and k == 0 else {}
        found += limits.relations(limit | sign | {"expression": substitute(h, {"E": end}), "error": error})
    if "at" in statement:  # a claim for every value refuted at one: every built statement there
        found = [_without(limits.instance(s | {"at": statement["at"], "variable": "n"}), "variable") for s in found]
    return found


def _without(statement: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in statement.items() if k != key}


def check(statement: dict[str, Any], claim_id: str, kind: str, payload: Any, seconds: float) -> tuple[str, str]:
    """Each built statement by its own cuts (`real_statements.check_each`), then the sentence."""
    if kind != "smt" or not isinstance(payload, dict):
        raise Rejected(f"{claim_id}: an exit gap is proved by an smt certificate with its bracket")
    proofs, how = real_statements.check_each(built(statement, payload), payload["cuts"], claim_id, seconds)
    ends = ", ".join(f"{k} = {term_text(payload['bracket'][k])}" for k in BRACKET[:3])
    limit, sign = term_text(statement["limit"]), statement.get("sign")
    shown = f"with E the zero in (0, 1) of h(1 - E), h(rho) = {term_text(EXIT)}, "
    shown += f"{term_text(statement['expression'])} -> {limit}" + f" ({limit} {sign} 0)" * bool(sign) + " as n -> oo"
    shown += "".join(f", at {k} = {q} (in its domain)" for k, q in statement.get("at", {}).items())
    return f"claims-file claim {claim_id!r}: {shown}, since {ends}: {proofs}; {CITED}; {LEMMA}", how
