"""Claims on the cluster gap of equiangular tokens (form `equiangular`), re-checked from the statement's data alone.

A statement names the attention kind, n, beta > 0, the heads' strengths lambda_h (M_h = W_h = lambda_h I), the start
rho0 (every <x_i, x_j> = rho0, unit tokens, the sphere, no mask, no interaction), a property of PROPERTIES with its
number `value`, and whether the claim `holds` (a proof) or fails (a refutation). At an equiangular configuration the
model's field of token i is sum_h c lambda_h (w^h_ii x_i + w^h_ij sum_(j != i) x_j) (c = 1/n for usa, 1 else; the
weight of another token w^h_ij = e^(beta lambda_h rho) for usa, that over e^(beta lambda_h) + (n - 1) e^(beta
lambda_h rho) for softmax, max(beta lambda_h rho, 0) / n for relu), so the table's lemma REDUCTION (D, O any reals),
re-checked here, gives d rho/dt = (1 - rho)(1 + (n - 1) rho) S(rho) with S = 2 O = 2 c sum_h lambda_h w^h_ij (`pull`).
Then eps = 1 - rho, and the kernel checks, exactly in `exp_field` (a strict sign by balls once the exact zero test
has said the difference is not 0), the facts its verdict rests on (`obligations`): the sign of S(rho0), which picks
the limit (0 for > 0, n/(n - 1) for < 0, 1 - rho0 for = 0); `tends-to` L against it; `decays-at-rate` r: S(rho0) > 0
and r = r* = n S(1); `decays-exponentially` r0 (some r > r0 and C with eps <= C e^(-r t)): S(rho0) > 0 and r0 < r*;
`initial-rate` v = -(1 - rho0)(1 + (n - 1) rho0) S(rho0); a refutation, the facts that one of them fails. CITED lists
what the sentence cites and nothing re-checks. The Coq statement is the lemma's identity and the facts, as found.
"""

from fractions import Fraction
from typing import Any

from . import inner_products, registry_statements
from .exact import precision
from .exp_field import ExpNumber
from .exprtree import count_nodes, evaluate, parse_rational, rational_text, symbols
from .model_chain import compiled_in
from .recheck import Rejected, natural, require_keys, require_list
from .tree_text import term_text

FORM = "equiangular"
REDUCTION = "lemma.equiangular-pair"
PROPERTIES = ("tends-to", "decays-at-rate", "decays-exponentially", "initial-rate", "decays-like")
#: The one shape of `decays-like` stated: exp(k t), k a number (its tree: t once among k's factors).
TIME = ["sym", "t"]
KINDS = ("usa", "softmax", "relu")
KEYS = ("form", "claim", "attention", "n", "beta", "strengths", "rho0", "property", "value", "holds")
#: Ball precisions (bits), in order, at which a difference shown not 0 gets its sign.
BITS = (64, 512, 4096)
RELATION = {-1: "<", 0: "=", 1: ">"}
CITED = (
    "Cited, not re-checked: the equiangular Gram matrix with this rho is the trajectory's (a unique solution); S is "
    "non-decreasing in rho for beta > 0; the scalar ODE's asymptotics: S(rho0) > 0 gives eps -> 0, eps e^(r* t) -> "
    "C > 0, S(rho0) < 0 gives eps -> n/(n - 1), S(rho0) = 0 keeps eps"
)


def _rat(value: Fraction | int) -> list[Any]:
    return ["rat", rational_text(Fraction(value))]


def _data(statement: dict[str, Any], claim_id: str) -> dict[str, Any]:
    """The statement's numbers, each within the form's bounds (Rejected otherwise)."""
    require_keys(statement, KEYS, "the equiangular statement")
    n, strengths = statement["n"], require_list(statement["strengths"], 64, "the strengths", least=1)
    data = statement | {"beta": parse_rational(statement["beta"]), "rho0": parse_rational(statement["rho0"])}
    data["strengths"] = [parse_rational(s) for s in strengths]
    ok = statement["claim"] == claim_id and statement["attention"] in KINDS and statement["property"] in PROPERTIES
    ok = ok and natural(n, 2, 10**6) and isinstance(statement["holds"], bool) and data["beta"] > 0
    if not (
        ok
        and -1 < data["rho0"] * (n - 1) < n - 1
        and count_nodes(data["value"], 10**4)
        and symbols(data["value"]) <= ({"t"} if data["property"] == "decays-like" else set())
    ):
        raise Rejected(f"{claim_id}: the statement is outside the equiangular form or names another claim")
    return data


def pull(data: dict[str, Any], rho: Fraction) -> list[Any]:
    """S(rho) = 2 c sum_h lambda_h w^h_ij(rho), each weight by the model's definition of the kind (the docstring)."""
    n, beta, kind = data["n"], data["beta"], data["attention"]
    terms = []
    for lam in data["strengths"]:
        other = ["exp", _rat(beta * lam * rho)]
        if kind == "softmax":
            other = ["div", other, ["add", ["exp", _rat(beta * lam)], ["mul", _rat(n - 1), other]]]
        weight = _rat(max(beta * lam * rho, Fraction(0)) / n) if kind == "relu" else other
        terms.append(["mul", _rat(2 * lam * (Fraction(1, n) if kind == "usa" else 1)), weight])
    return ["add", *terms]


def sign(a: list[Any], b: list[Any]) -> int:
    """The sign of a - b: 0 by the exact zero test in `exp_field`, else by the first ball that settles it."""
    difference = ["add", a, ["mul", ["rat", "-1"], b]]
    if compiled_in(difference, ExpNumber.rational)({}).is_zero():
        return 0
    for bits in BITS:
        with precision(bits):
            ball = evaluate(difference, {})
        if ball > 0 or ball < 0:
            return 1 if ball > 0 else -1
    raise Rejected(f"the sign of {term_text(difference)[:80]} is not settled by balls")


def obligations(data: dict[str, Any]) -> list[tuple[list[Any], list[Any], tuple[int, ...]]]:
    """(a, b, the signs of a - b the verdict needs), for the statement's property and `holds` (the docstring)."""
    n, rho0, value, holds = data["n"], data["rho0"], data["value"], data["holds"]
    start = pull(data, rho0)
    s0 = sign(start, _rat(0))
    pulled = (start, _rat(0), (s0,))
    if data["property"] == "initial-rate":
        return [(value, ["mul", _rat((rho0 - 1) * (1 + (n - 1) * rho0)), start], (0,) if holds else (-1, 1))]
    if data["property"] == "tends-to":
        limit = {1: Fraction(0), -1: Fraction(n, n - 1), 0: 1 - rho0}[s0]
        return [pulled, (value, _rat(limit), (0,) if holds else (-1, 1))]
    if s0 <= 0:  # eps does not tend to 0: it decays at no rate
        return [(start, _rat(0), (1,) if holds else (-1, 0))]
    if data["property"] == "decays-like":  # eps ~ C e^(-r* t) is like exp(k t) iff k = -r*
        factors = value[1][1:] if value[:1] == ["exp"] and value[1][:1] == ["mul"] else []
        if len(k := [f for f in factors if f != TIME]) != len(factors) - 1 or symbols(["mul", *k]):
            raise Rejected("a decays-like statement states the shape exp(k t), k a number, only")
        value = ["mul", ["rat", "-1"], *k]
    wanted = (-1,) if data["property"] == "decays-exponentially" else (0,)
    other = tuple(s for s in (-1, 0, 1) if s not in wanted)
    return [pulled, (value, ["mul", _rat(n), pull(data, Fraction(1))], wanted if holds else other)]


def facts(statement: dict[str, Any], claim_id: str) -> list[list[Any]]:
    """The relations a < b, a = b or a > b found for the obligations, each one the verdict needs (Rejected else)."""
    found = []
    for a, b, wanted in obligations(_data(statement, claim_id)):
        if (s := sign(a, b)) not in wanted:
            raise Rejected(f"{claim_id}: {term_text(a)[:60]} {RELATION[s]} {term_text(b)[:60]}: not what it needs")
        found.append([RELATION[s], a, b])
    return found


def check(statement: dict[str, Any], claim_id: str, kind: str, payload: Any, seconds: float) -> tuple[str, str]:
    """The reduction's lemma re-checked, then every fact the verdict needs (`facts`)."""
    if kind != FORM or payload != {"holds": statement.get("holds")}:
        raise Rejected(f"{claim_id}: an equiangular statement is proved by an {FORM} certificate with its `holds`")
    shown = "; ".join(f"{term_text(a)} {op} {term_text(b)}" for op, a, b in facts(statement, claim_id))
    inner_products.check(registry_statements.table()[REDUCTION], REDUCTION, {}, seconds)
    data = ", ".join(f"{key} = {statement[key]}" for key in KEYS[2:7])
    verdict = "holds" if statement["holds"] else "fails"
    claim = f"cluster_gap {statement['property']} {term_text(statement['value'])} ({data}) {verdict}"
    return f"{claim}: by {REDUCTION} with S(rho) = 2 c sum_h lambda_h w_h(rho), {shown}. {CITED}", "exact, balls"
