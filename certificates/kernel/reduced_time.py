"""Form `reduced-time`: how the clustering time of equiangular tokens under one scalar head behaves as a variable
v -> oo, from a bracket of the time that the kernel checks and the `limit` form's relations on its two ends.

The statement: `{"form": "reduced-time", "claim", "attention": relu | softmax, "variables", "start": rho0, "expression":
h, "variable": v, "limit": L, "conditions", "point"}`, optionally `"sign"` as in `limits`. The variables are lam, beta,
rho1, n (an integer >= 2) and, where rho0 names it, d; T is the time the equiangular tokens (one head M = W = lam I,
inverse temperature beta, on the sphere) take to go from correlation rho0 to rho1, and h a tree in T and the variables:
T or log(T), either over g, or any of these minus L0 (g, L0 free of T), so that h moves monotonically with T. The
claim: h -> L as v -> oo for every value of the others (L sign 0 with a sign); or, with `"upper": U` (the order form,
each end its own limit), L <= liminf h <= limsup h <= U (with a sign: L > 0, so h is bounded away from 0 and oo); or,
with `"infinite": true` (L = 0, no sign), h -> +oo. In these two forms h increases with T: g > 0 is shown.

The payload: `{"limit", "sign"?, "bracket": {"antiderivative": A(rho), "factor": G(rho), "at_start", "at_target", "low":
a, "high": b},
"errors": [the error of each end], "cuts": one list per built statement}`. The rate is the kernel's own: the table's
lemma REDUCTION (`equiangular`) gives rho' = R(rho) = (1 - rho)(1 + (n - 1) rho) S(rho). The kernel checks exactly
(`interaction.formal_zero`) that A'(rho) G(rho) R(rho) = 1, and by smt certificates (`real_statements`) that 0 < rho0
(relu: its weight's formula needs rho > 0), rho0 <= rho1, R > 0 and a <= G <= b on [rho0, rho1], a > 0, and that
A(rho0) and A(rho1) are the values `at_start` and `at_target` (the same numbers written as the prover chose: split
logarithms are easier for the solvers); then the `limit` relations of h at T = a (A(rho1) - A(rho0)) and at T = b
(A(rho1) - A(rho0)), each with its error, against the same L. Cited, not re-checked (CITED): along rho' = R(rho) > 0
the correlation rises from rho0 to rho1, and t -> A(rho(t)) has derivative A'(rho) R(rho) = 1/G(rho) in [1/b, 1/a],
so by the mean value theorem a (A(rho1) - A(rho0)) <= T <= b (A(rho1) - A(rho0)); h at T lies between h at the two
ends, which both tend to L (squeeze). In the order form the ends' relations are against L and U, and h (increasing)
lies between them; h -> +oo is built from the lower end alone (its |h| -> oo and h > 0 there), which h exceeds.
"""

from typing import Any

from . import limits, real_statements
from .derivatives import derivative
from .equiangular import initial_rate, pull
from .exprtree import count_nodes, parse_rational, substitute, symbols
from .format import MAX_TERM_NODES
from .interaction import formal_zero
from .recheck import Rejected, require_keys, require_list
from .tree_text import term_text

FORM = "reduced-time"
KEYS = {"form", "claim", "attention", "variables", "start", "expression", "variable", "limit", "conditions", "point"}
BRACKET = ("antiderivative", "factor", "at_start", "at_target", "low", "high")
T, RHO, ZERO, ONE = ["sym", "T"], ["sym", "rho"], ["rat", "0"], ["rat", "1"]
CITED = (
    "cited, not re-checked: along rho' = R(rho) > 0 on [rho0, rho1] the correlation rises to rho1, t -> A(rho(t)) has "
    "derivative 1/G(rho) in [1/b, 1/a] (chain rule), so a (A(rho1) - A(rho0)) <= T <= b (A(rho1) - A(rho0)) (mean "
    "value theorem); h between its values at the two ends tends to L where both do (squeeze), and (increasing in T, "
    "g > 0) has its limits inferior and superior between the ends' limits, and tends to +oo with its lower end"
)
#: The statement's optional fields: a sign of L, the upper end's own limit (the order form), h -> +oo.
OPTIONS = ("sign", "upper", "infinite")


def reduction(kind: str, variables: dict[str, Any]) -> dict[str, Any]:
    """The `equiangular` data of the reduction: n tokens, one head of strength lam, inverse temperature beta, at rho
    (`variables`: the domains a relu weight's sign is read from)."""
    n = ["sym", "n"]
    data = {"quantity": "cluster_gap", "attention": kind, "n": n, "order": n, "beta": ["sym", "beta"]}
    return data | {"strengths": [["sym", "lam"]], "variables": variables, "rho0": RHO}


def rate(statement: dict[str, Any]) -> list[Any]:
    """R(rho) = (1 - rho)(1 + (n - 1) rho) S(rho), the table's reduction for one head of strength lam (a relu weight
    read on rho > 0, which a built statement shows of rho0)."""
    variables = {v["name"]: v for v in statement["variables"]} | {"rho": {"low": ZERO, "low_open": True}}
    data = reduction(statement["attention"], variables)
    return ["neg", initial_rate(data, pull(data, RHO))]


def built(statement: dict[str, Any], payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The statements of form `real` the claim rests on, built here from the statement and the bracket, after checking
    their shapes and the exact identity A' G R = 1; Rejected otherwise."""
    require_keys(statement, KEYS | (set(OPTIONS) & set(statement)), f"statement of form {FORM}")
    data = {key: statement[key] for key in ("limit", *OPTIONS) if key in statement}
    require_keys(payload, {"bracket", "errors", "cuts", *data}, f"the payload of a {FORM} certificate")
    bracket = require_keys(payload["bracket"], BRACKET, "the bracket")
    infinite, upper = data.get("infinite", False), data.get("upper")
    ends = 1 if infinite else 2
    errors = require_list(payload["errors"], ends, "the errors of the ends", ends)
    names = {v.get("name") for v in require_list(statement["variables"], 5, "the variables", 4)}
    start, h, kind = statement["start"], statement["expression"], statement["attention"]
    wanted = {"lam", "beta", "rho1", "n"} | ({"d"} & symbols(start))
    n = next((v for v in statement["variables"] if v.get("name") == "n"), {})
    ok = kind in ("relu", "softmax") and names == wanted and n.get("integer") is True and _at_least(n.get("low"), 2)
    shape = _shape(h)
    ok = (
        ok
        and {key: payload[key] for key in data} == data
        and shape is not None
        and isinstance(statement["point"], dict)
    )
    ok = ok and infinite in (False, True) and (not infinite or (upper is None and "sign" not in data))
    ok = ok and "rho" not in symbols(start)
    ok = ok and all(count_nodes(bracket[k], MAX_TERM_NODES) for k in BRACKET)  # bounded before any derivative
    ok = ok and all(symbols(bracket[k]) <= names | ({"rho"} if k in BRACKET[:2] else set()) for k in BRACKET)
    if not ok:
        raise Rejected(f"{FORM}: variables lam, beta, rho1, an integer n >= 2 (d if rho0 names it); h monotone in T")
    A, G, at_start, at_target, low, high = (bracket[k] for k in BRACKET)
    base, along = _domains(statement)
    R = rate(statement)
    if not formal_zero(["sub", _identity(along, bracket, R)["lhs"], ONE]):
        raise Rejected(f"{FORM}: A'(rho) G(rho) R(rho) = 1 is not an identity")
    found = [base | {"lhs": ZERO, "op": "<", "rhs": start}] * (kind == "relu")
    found += [base | {"lhs": start, "op": "<=", "rhs": ["sym", "rho1"]}, along | {"lhs": R, "op": ">", "rhs": ZERO}]
    found += [along | {"lhs": G, "op": ">=", "rhs": low}, along | {"lhs": G, "op": "<=", "rhs": high}]
    found += [base | {"lhs": low, "op": ">", "rhs": ZERO}]
    ends = ((start, at_start), (["sym", "rho1"], at_target))
    found += [base | {"lhs": substitute(A, {"rho": rho}), "op": "=", "rhs": value} for rho, value in ends]
    gained = ["sub", at_target, at_start]
    limit = {key: statement[key] for key in ("claim", "variables", "variable", "conditions", "point")}
    limit |= {"form": limits.FORM, **{k: data[k] for k in ("limit", "sign", "infinite") if k in data}}
    ordered = infinite or upper is not None  # h must increase with T: g > 0
    found += [base | {"lhs": shape, "op": ">", "rhs": ZERO}] * (ordered and shape != ONE)
    at_low = substitute(h, {"T": ["mul", low, gained]})
    found += limits.relations(limit | {"expression": at_low, "error": errors[0]})
    found += [base | {"lhs": at_low, "op": ">", "rhs": ZERO}] * infinite
    if not infinite:
        at_high = substitute(h, {"T": ["mul", high, gained]})
        own = limit if upper is None else {k: v for k, v in limit.items() if k != "sign"} | {"limit": upper}
        found += limits.relations(own | {"expression": at_high, "error": errors[1]})
    return [_pinned(statement) for statement in found]


def _pinned(statement: dict[str, Any]) -> dict[str, Any]:
    """The built statement with each variable whose domain is one rational (a closed interval [q, q]) written as that
    number: the same statement, without the variable the solvers would otherwise carry."""
    one = [v for v in statement["variables"] if v["low"] is not None and v["low"] == v["high"] and v["low"][0] == "rat"]
    fixed = {v["name"]: v["low"] for v in one if not (v["low_open"] or v["high_open"])}
    if not fixed:
        return statement
    kept = [v for v in statement["variables"] if v["name"] not in fixed]
    body = substitute({k: w for k, w in statement.items() if k not in ("variables", "point")}, fixed)
    point = {k: q for k, q in statement["point"].items() if k not in fixed}
    return body | {"variables": substitute(kept, fixed), "point": point}


def _domains(statement: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the base of a built statement of form `real`, the base along the path rho in [rho0, rho1])."""
    rho = {"name": "rho", "integer": False, "low": statement["start"], "low_open": False, "high": ["sym", "rho1"]}
    base = {key: statement[key] for key in ("claim", "variables", "point")} | {"form": "real", "conditions": []}
    path = [*statement["variables"], rho | {"high_open": False}]  # rho on [rho0, rho1], at the point's rho1
    return base, base | {"variables": path, "point": base["point"] | {"rho": base["point"].get("rho1")}}


def identity(statement: dict[str, Any], payload: dict[str, Any]) -> dict[str, Any]:
    """A'(rho) G(rho) R(rho) = 1 along the path (A' the kernel's derivative), the identity `built` checks exactly: for
    Coq, once `built` has accepted the certificate."""
    return _identity(_domains(statement)[1], payload["bracket"], rate(statement))


def _identity(along: dict[str, Any], bracket: dict[str, Any], R: list[Any]) -> dict[str, Any]:
    lhs = ["mul", derivative(bracket["antiderivative"], "rho"), bracket["factor"], R]
    return along | {"lhs": lhs, "op": "=", "rhs": ONE}


def _at_least(bound: object, least: int) -> bool:
    return isinstance(bound, list) and bound[:1] == ["rat"] and parse_rational(bound[1]) >= least


def _shape(h: object) -> Any:
    """g (1 where h has none) when h is T or log(T), either over g, or any of these minus L0 (g and L0 free of T);
    None for any other h."""
    if isinstance(h, list) and h[:1] == ["sub"] and len(h) == 3 and "T" not in symbols(h[2]):
        h = h[1]
    if isinstance(h, list) and h[:1] == ["div"] and len(h) == 3 and "T" not in symbols(h[2]):
        return ONE if h[2] == ONE else h[2] if h[1] in (T, ["log", T]) else None
    return ONE if h in (T, ["log", T]) else None


def check(statement: dict[str, Any], claim_id: str, kind: str, payload: Any, seconds: float) -> tuple[str, str]:
    """Each built statement by its own cuts (`real_statements.check_each`), then the sentence."""
    if kind != "smt" or not isinstance(payload, dict):
        raise Rejected(f"{claim_id}: a reduced time is proved by an smt certificate with its bracket")
    proofs, how = real_statements.check_each(built(statement, payload), payload["cuts"], claim_id, seconds)
    bracket = {k: term_text(v) for k, v in payload["bracket"].items()}
    h, limit = term_text(statement["expression"]), term_text(statement["limit"])
    sign = f" ({limit} {statement['sign']} 0)" if "sign" in statement else ""
    shown = f"with T the {statement['attention']} clustering time of equiangular tokens from rho0 = "
    shown += f"{term_text(statement['start'])} to rho1, "
    if statement.get("infinite") is True:
        shown += f"{h} -> +oo"
    elif "upper" in statement:
        shown += f"{limit} <= liminf {h} <= limsup {h} <= {term_text(statement['upper'])}{sign}"
    else:
        shown += f"{h} -> {limit}{sign}"
    shown += f" as {statement['variable']} -> oo"
    exact = "A'(rho) G(rho) R(rho) = 1 (exact), " + ", ".join(f"{key} = {bracket[key]}" for key in BRACKET)
    return f"claims-file claim {claim_id!r}: {shown}, since {exact}; {proofs}; {CITED}", "exact algebra; " + how
