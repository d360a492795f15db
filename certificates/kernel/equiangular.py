"""Claims on the cluster gap (and entropy) of equiangular tokens (form `equiangular`), re-checked from their data.

A statement names the attention kind, n, beta > 0, the heads' strengths lambda_h (M_h = W_h = lambda_h I), the start
rho0 (every <x_i, x_j> = rho0, unit tokens, the sphere, no mask, no interaction), a property of PROPERTIES with its
number `value`, and whether the claim `holds` (a proof) or fails (a refutation). At an equiangular configuration the
model's field of token i is sum_h c lambda_h (w^h_ii x_i + w^h_ij sum_(j != i) x_j) (c = 1/n for usa, 1 else; the
weight of another token w^h_ij = e^(beta lambda_h rho) for usa, that over e^(beta lambda_h) + (n - 1) e^(beta
lambda_h rho) for softmax, max(beta lambda_h rho, 0) / n for relu), so the table's lemma REDUCTION (diag, off any
reals), re-checked here, gives d rho/dt = (1 - rho)(1 + (n - 1) rho) S(rho) with S = 2 off = 2 c sum_h lambda_h
w^h_ij (`pull`). Then eps = 1 - rho, and the kernel checks the facts its verdict rests on (`obligations`): the sign
of S(rho0), which picks the limit (0 for > 0, n/(n - 1) for < 0, 1 - rho0 for = 0); `tends-to` L against it;
`decays-at-rate` r: S(rho0) > 0 and r = r* = n S(1); `decays-exponentially` r0 (some r > r0 and C with eps <= C
e^(-r t)): S(rho0) > 0 and r0 < r*; `decays-like` exp(k t): S(rho0) > 0 and k = -r*; `initial-rate` v = -(1 - rho0)(1
+ (n - 1) rho0) S(rho0); a refutation, the facts that one of them fails. `decays-like` states a shape t^p e^(k t)
((1 + t)^p for t^p, `_shape`) and is the late form eps ~ C t^0 e^(-r* t) when p = 0 and k = -r* (a refutation: p != 0,
or k != -r*); `decays-at-rate` r is the shape e^(-r t).

The `geometry` is the sphere (Post-LN) or a normalization scheme of SCHEMES (at numbers, the cluster gap, every
lambda_h > 0, no initial rate): the directions follow the sphere's trajectory at a speed sigma > 0 whose integral
diverges (cited, `identities.normalized_reduction`), so the limit is the sphere's and the late form is the scheme's
eps ~ C t^p e^(-r t), read by the same facts with (p, r) of SCHEMES for (0, r*). At numbers each fact is exact in
`exp_field` (a strict sign by balls once the exact zero test has said the difference is not 0).

Data may also be `variables` of the statement (n, beta, rho0, the strengths; each with its domain's bounds), with
`family` true: every number H >= 1 of heads, each of strength the one variable lambda_h, and `value` the per-head
summand of the claimed sum over heads (the field is a sum over heads, so a per-head fact is the sum's). Such a
statement is a proof of a limit 0, a rate or an initial rate for every value in the domain (`_proved`): S(rho0) > 0
because each term is a product of factors positive on their domains (exp, a softmax normalizer, beta, the strengths,
relu's score), the numbers by `interaction.formal_zero` as identities of rational functions in the variables and
their exponentials. The `quantity` is the gap, or `attention_entropy` for its limit log n (every entry, once S(rho0)
> 0, at numbers or over variables). The `quantity` `first_pair_gap` is the gap 1 - <x_1, x_2> of the first two
tokens under the causal mask: token 1 attends to itself only and does not move, token 2 attends to tokens 1 and 2, so
the table's lemma PAIR (x moving with P_x(fixed x), y with P_y(diag y + off x)) gives d rho_12/dt = (1 - rho)(1 +
rho) S(rho) with S = off = c sum_h lambda_h w^h_21 (softmax normalized over the two tokens it attends to): the
reduction of order n = 2 (`order`) for every n, read by the same facts. CITED lists what the sentence cites and
nothing re-checks. The Coq statement is the lemma's identity and the facts, as found, over the variables' domains.
"""

from fractions import Fraction
from functools import reduce
from typing import Any

from . import inner_products, registry_statements
from .exact import precision
from .exp_field import exactly_zero
from .exprtree import count_nodes, evaluate, parse_rational, rational_tree as _rat, substitute, symbols
from .interaction import formal_zero
from .model_chain import mul, tree_of
from .real_statements import POINT_PRECISION, variable_sides
from .recheck import Rejected, require_keys, require_list
from .regions import Region
from .tree_text import term_text

FORM = "equiangular"
REDUCTION, PAIR = "lemma.equiangular-pair", "lemma.causal-pair"
PROPERTIES = ("tends-to", "decays-at-rate", "decays-exponentially", "initial-rate", "decays-like")
#: The properties at every time t >= 0 of a quantity of the table (`values`), and the table's quantities.
ALONG = ("at-least", "at-most", "non-negative", "stays-non-negative")
TABLE = ("radial_shadow", "condition8_margin", "least_inner_product", "largest_inner_product", "merge_radius")
TABLE += ("w2_to_dirac", "cluster_gap", "first_pair_gap", "attention_entropy")
DATA = ("n", "beta", "strengths", "rho0", "geometry", "family", "variables")
KINDS, VARIABLE = ("usa", "softmax", "relu"), ("name", "integer", "low", "low_open", "high", "high_open")
KEYS = ("form", "claim", "attention", *DATA, "quantity", "property", "value", "holds", "point", "head", "fails_at")
#: A shape's time t and 1 + t (`_shape`: (1 + t)^p / t^p -> 1).
TIME, BASES = ["sym", "t"], (["sym", "t"], ["add", ["rat", "1"], ["sym", "t"]])
#: Each normalization scheme's late form eps ~ C t^p e^(-r t), (p, r): the directions follow the sphere's trajectory
#: at a speed sigma > 0 (cited: `identities.normalized_reduction`), nGPT's -> 1/V* (r = r*/V* = 2), Pre-LN's, Peri-LN's
#: and Mix-LN's ~ 1/(k V* t) (p = -r*/(k V*) = -2/k, k = 1, 1, 3/4), r* = 2 V*; on the sphere (0, r*).
LATE_FORMS = {"ngpt": (0, 2), "pre-ln": (-2, 0), "peri-ln": (-2, 0), "mix-ln": (Fraction(-8, 3), 0)}
SCHEMES = {name: (p, _rat(r)) for name, (p, r) in LATE_FORMS.items()}  # each rate as the facts' tree
#: Ball precisions (bits), in order, at which a difference shown not 0 gets its sign.
BITS = (64, 512, 4096)
RELATION = {-1: "<", 0: "=", 1: ">"}
CITED = (
    "Cited, not re-checked: the equiangular Gram matrix at this rho is the trajectory's; S is non-decreasing for beta "
    "> 0; the scalar ODE: S(rho0) > 0 gives eps -> 0, eps e^(r* t) -> C > 0, S(rho0) < 0 eps -> n/(n - 1), S(rho0) = "
    "0 eps constant; an entropy is continuous in rho, log n at rho = 1 (a head's scores all lambda_h: uniform rows); "
    "first_pair_gap: under the causal mask token 1 attends to itself only and token 2 to tokens 1 and 2 (w_h their "
    "weight), a closed pair that the reduction of order n = 2 describes from any start; a normalization scheme moves "
    "the directions along the sphere's path at a speed whose integral diverges: eps ~ C t^p e^(-r t), (1 + t)^p ~ t^p; "
    "rho(t) moves monotonically from rho0 to its limit and takes every value between them but the limit; the table's "
    "quantities (`values`) are continuous in rho on [-1/(n - 1), 1] and the same at every token"
)
#: S(rho) of each lemma: both tokens of every pair move; the causal first pair's token 1 does not.
S = {REDUCTION: "2 c", PAIR: "c"}


def _times(*factors: list[Any]) -> list[Any]:
    """The product, its rational factors folded by the chain's `mul` (an exponent then reads as the claim's)."""
    return tree_of(reduce(mul, [parse_rational(f[1]) if f[0] == "rat" else f for f in factors]))


def _positive(tree: list[Any], variables: dict[str, Any], least: int = 0) -> bool:
    """The tree is a rational > least, or a variable whose domain's lower bound is a rational that shows it."""
    low, edge = (variables[tree[1]]["low"], variables[tree[1]]["low_open"] is True) if tree[0] == "sym" else (tree, 0)
    return low is not None and low[0] == "rat" and (parse_rational(low[1]), edge) > (least, False)


def _data(statement: dict[str, Any], claim_id: str) -> dict[str, Any]:
    """The statement's data as trees (a rational, or a variable's symbol), each within the form's bounds."""
    require_keys(statement, KEYS, "the equiangular statement")  # no `count`: a family's H only at a point
    listed = require_list(statement["variables"], 16, "the variables")
    variables = {v["name"]: require_keys(v, VARIABLE, "a variable") for v in listed}
    trees = {key: _data_tree(statement[key], variables) for key in ("n", "beta", "rho0")}
    data = statement | {"variables": variables} | trees  # the causal pair follows the reduction at order n = 2
    data["order"] = _rat(2) if statement["quantity"] == "first_pair_gap" else data["n"]
    data["strengths"] = [_data_tree(s, variables) for s in require_list(statement["strengths"], 64, "lambda", least=1)]
    n, value, used = data["n"], data["value"], set(variables) | ({"t"} if data["property"] == "decays-like" else set())
    q = {key: parse_rational(data[key][1]) for key in ("n", "rho0") if data[key][0] == "rat"}
    table = statement["quantity"] in TABLE and statement["property"] in ("tends-to", *ALONG) and not variables
    gap = statement["quantity"] in TABLE[-3:] and statement["property"] in PROPERTIES
    ok = statement["claim"] == claim_id and statement["attention"] in KINDS and (gap or table)
    witness = require_keys(statement["fails_at"] or {"head": 0, "rho": None}, ("head", "rho"), "fails_at")
    data["rho"] = None if witness["rho"] is None else _rat(parse_rational(witness["rho"]))  # a refutation's, if any
    heads = [h for h in (statement["head"], witness["head"]) if h is not None and type(h) is int]
    ok = ok and len(heads) == 1 + (statement["head"] is not None) and all(0 <= h < 64 for h in heads)
    data["witness"], data["witnessed"] = witness["head"], statement["fails_at"] is not None
    ok = ok and isinstance(statement["holds"], bool) and _positive(data["beta"], variables) and "t" not in variables
    ok = ok and (q["n"].denominator == 1 and 2 <= q["n"] <= 10**6 if "n" in q else variables[n[1]]["integer"] is True)
    ok = ok and _positive(n, variables, 1) and (len(q) < 2 or -1 < q["rho0"] * (q["n"] - 1) < q["n"] - 1)
    ok = ok and type(data["family"]) is bool and data["family"] <= (len(variables) > 0 and len(data["strengths"]) == 1)
    scheme = (data["quantity"], data["property"] == "initial-rate", variables) == ("cluster_gap", False, {})
    scheme = scheme and data["geometry"] in SCHEMES and all(_positive(s, {}) for s in data["strengths"])  # lambda_h > 0
    ok = ok and (data["geometry"] == "sphere" or scheme)
    if not (ok and count_nodes(value, 10**4) and symbols(value) <= used):
        raise Rejected(f"{claim_id}: the statement is outside the equiangular form or names another claim")
    return data


def _data_tree(text: object, variables: dict[str, Any]) -> list[Any]:
    return ["sym", text] if text in variables else _rat(parse_rational(text))


def weights(data: dict[str, Any], lam: list[Any], rho: list[Any]) -> tuple[list[Any], list[Any]]:
    """(w_ii, w_ij) of a head of strength lam at correlation rho, by the model's definition of the kind (the
    docstring): relu's max(beta lam s, 0) at numbers, or its score where the domains show every factor positive."""
    n, beta, kind, variables, order = data["n"], data["beta"], data["attention"], data["variables"], data["order"]
    scores = (_times(beta, lam), _times(beta, lam, rho))
    if kind == "relu" and scores[1][0] != "rat" and not all(_positive(f, variables) for f in (beta, lam, rho)):
        raise Rejected("a relu score whose sign the variables' domains do not show")
    if kind == "relu":  # max(score, 0) at numbers; the score itself where the domains show it positive
        return tuple(["div", _rat(max(parse_rational(s[1]), Fraction(0))) if s[0] == "rat" else s, n] for s in scores)
    own, other = (["exp", s] if s != _rat(0) else _rat(1) for s in scores)
    total = ["add", own, ["mul", ["add", order, _rat(-1)], other]]
    return (["div", own, total], ["div", other, total]) if kind == "softmax" else (own, other)


def pull(data: dict[str, Any], rho: list[Any]) -> list[Any]:
    """S(rho) = 2 c sum_h lambda_h w^h_ij(rho) (`weights`)."""
    moving, usa = _rat(1 if data["quantity"] == "first_pair_gap" else 2), data["attention"] == "usa"
    scale = ["div", _rat(1), data["n"]] if usa else _rat(1)  # the causal pair: token 1 is fixed
    return ["add", *[_times(moving, lam, scale, weights(data, lam, rho)[1]) for lam in data["strengths"]]]


def values(data: dict[str, Any], rho: list[Any]) -> list[list[Any]]:
    """The quantity at the equiangular state of correlation rho, one per head where it has heads
    (`identities.equiangular_quantities`, its counting re-checked there): the gap 1 - rho, an inner product rho, every
    distance sqrt(2 - 2 rho), W2 to a Dirac mass sqrt(2 - 2 sqrt((1 + (n - 1) rho)/n)), a head's entropy log(1 + (n -
    1) q) + beta lam (1 - rho)(n - 1) q/(1 + (n - 1) q) (q = e^(-beta lam (1 - rho))), its radial shadow a = lam (w_ii
    + (n - 1) rho w_ij), its Condition 8 margin lam^2 |g|^2 - a^2 - a (sum_h' a_h' - a), |g|^2 = w_ii^2 + 2 (n - 1) rho
    w_ii w_ij + (n - 1)(1 + (n - 2) rho) w_ij^2."""
    q, n, beta, heads, minus, one = data["quantity"], data["order"], data["beta"], data["strengths"], _rat(-1), _rat(1)
    others, gap = ["add", n, minus], ["add", one, ["mul", minus, rho]]
    mean = ["sqrt", ["div", ["add", _rat(1), _times(others, rho)], n]]  # |the tokens' mean|
    closed = {"cluster_gap": gap, "first_pair_gap": gap, "merge_radius": ["sqrt", _times(_rat(2), gap)]}
    closed["w2_to_dirac"] = ["sqrt", _times(_rat(2), ["add", _rat(1), ["mul", minus, mean]])]
    if q in closed or q.endswith("inner_product"):
        return [closed.get(q, rho)]
    shared = [(s, ["add", one, _times(others, ["exp", _times(minus, beta, s, gap)])]) for s in heads]  # 1 + (n - 1) q
    entropy = [["add", ["log", z], ["div", _times(beta, s, gap, ["add", z, minus]), z]] for s, z in shared]
    pairs = [weights(data, lam, rho) for lam in heads]
    shadows = [_times(lam, ["add", w, _times(others, rho, v)]) for lam, (w, v) in zip(heads, pairs, strict=True)]
    spread = _times(others, ["add", _rat(1), _times(["add", n, _rat(-2)], rho)])
    norm = [["add", ["pow", w, 2], _times(_rat(2), others, rho, w, v), _times(spread, ["pow", v, 2])] for w, v in pairs]
    total = ["add", *shadows]
    margins = [["add", _times(["pow", s, 2], norm[k]), _times(minus, shadows[k], total)] for k, s in enumerate(heads)]
    return {"attention_entropy": entropy, "radial_shadow": shadows}.get(q, margins)


def sign(a: list[Any], b: list[Any]) -> int:
    """The sign of a - b at numbers: 0 by the exact zero test in `exp_field`, else by the first ball that settles it
    (a difference without an exact value there is never found 0: a claim that needs it is not accepted)."""
    difference = ["add", a, ["mul", ["rat", "-1"], b]]
    if exactly_zero(difference, {}):
        return 0
    for bits in BITS:
        with precision(bits):
            if found := int((ball := evaluate(difference, {})) > 0) - int(ball < 0):
                return found
    raise Rejected(f"the sign of {term_text(difference)[:80]} is not settled by balls")


def obligations(data: dict[str, Any]) -> list[tuple[list[Any], list[Any], tuple[int, ...]]]:
    """(a, b, the signs of a - b the verdict needs), for the statement's property and `holds` (the docstring)."""
    n, rho0, value, holds, zero = data["order"], data["rho0"], data["value"], data["holds"], _rat(0)
    start = pull(data, rho0)
    s0 = sign(start, zero)
    pulled = (start, zero, (s0,))
    if data["property"] == "initial-rate":
        return [(value, initial_rate(data, start), (0,) if holds else (-1, 1))]
    if data["property"] in ("tends-to", *ALONG):  # rho moves monotonically from rho0 to its limit (CITED)
        return [pulled, *_along(data, s0, {1: _rat(1), -1: ["div", _rat(-1), ["add", n, _rat(-1)]], 0: rho0}[s0])]
    if s0 <= 0:  # eps does not tend to 0: it decays at no rate
        return [(start, zero, (1,) if holds else (-1, 0))]
    power, rate = SCHEMES.get(data["geometry"]) or (0, late_rate(data))  # eps ~ C t^power e^(-rate t)
    if data["property"] == "decays-exponentially":
        return [pulled, (value, rate, (-1,) if holds else (0, 1))]
    claimed, exponent = _shape(value) if data["property"] == "decays-like" else (Fraction(0), value)
    fact = (exponent, rate) if claimed == power else (_rat(claimed), _rat(power))  # the claim: both equal
    return [pulled, (*fact, (0,) if holds else (-1, 1))]


def _along(data: dict[str, Any], s0: int, limit: list[Any]) -> list[tuple[list[Any], list[Any], tuple[int, ...]]]:
    """A limit's obligations: the claimed value against the quantity's at rho's limit, every head's (the claim's
    head's) when it holds, the witness head's when it fails. A property at every time: where it holds, every margin
    at rho0 >= 0 at an equilibrium start (rho stays rho0), or, with a witness, its head's < 0 at rho0
    (stays-non-negative, vacuously); where it fails, the witness head's margin < 0 at the witness correlation, one the
    trajectory visits (between rho0 and the limit, the limit excluded; the limit itself without one: then for every
    large t), and for stays-non-negative every margin at rho0 >= 0."""
    holds, rho0, prop, w, witnessed = (data[k] for k in ("holds", "rho0", "property", "witness", "witnessed"))
    if prop == "tends-to":
        found = _chosen(data, limit, None if holds else w)
        return [(data["value"], q, (0,) if holds else (-1, 1)) for q in found]
    every = [(a, b, (0, 1)) for a, b in _margins(data, rho0)]
    if holds and (witnessed, prop) == (True, "stays-non-negative"):  # the start is outside the hypothesis
        return [(*_margins(data, rho0, w)[0], (-1,))]
    if holds and s0 == 0 and not witnessed:  # an equilibrium: the trajectory is its start
        return every
    if holds:
        raise Rejected("a property at every time holds here only at an equilibrium start, or vacuously")
    rho = data["rho"] or limit
    visited = [(rho, rho0, (0, s0) if s0 else (0,)), (rho, limit, (-s0,))][: (1 + bool(s0)) * bool(data["rho"])]
    return [*every * (prop == "stays-non-negative"), *visited, (*_margins(data, rho, w)[0], (-1,))]


def _margins(data: dict[str, Any], rho: list[Any], only: int | None = None) -> list[tuple[list[Any], list[Any]]]:
    """What a property at every time needs >= 0 at rho, as (a, b) for a - b: Q - bound, bound - Q, or Q."""
    value, prop = data["value"], data["property"]
    return [
        (q, value) if prop == "at-least" else (value, q) if prop == "at-most" else (q, _rat(0))
        for q in _chosen(data, rho, only)
    ]


def _chosen(data: dict[str, Any], rho: list[Any], only: int | None = None) -> list[list[Any]]:
    """The quantity's values at rho the claim is about: its head's where it names one (and the quantity has heads);
    with `only`, the one of them at that place."""
    found = values(data, rho)
    found = found if data["head"] is None or len(found) == 1 else found[data["head"] :][:1]
    found = found if only is None else found[only:][:1]
    if not found:
        raise Rejected("the claim's head, or the head it fails at, is not one of the statement's heads")
    return found


def initial_rate(data: dict[str, Any], start: list[Any]) -> list[Any]:
    """-(1 - rho0)(1 + (n - 1) rho0) S(rho0), d eps/dt at t = 0."""
    rho0, n = data["rho0"], data["order"]
    return ["mul", ["add", rho0, _rat(-1)], ["add", _rat(1), ["mul", ["add", n, _rat(-1)], rho0]], start]


def late_rate(data: dict[str, Any]) -> list[Any]:
    """r* = n S(1)."""
    return ["mul", data["order"], pull(data, _rat(1))]


def _shape(value: list[Any]) -> tuple[Fraction, list[Any]]:
    """(p, r) of a shape t^p e^(-r t), p a rational, r a number, each factor at most once: t, or t or 1 + t to a
    power (p = 0 without one), and exp(k t) (r = -k; 0 without one); Rejected for any other shape."""
    power, rate, shape = None, None, "a decays-like statement states a shape t^p exp(k t), k a number, only"
    for f in value[1:] if value[0] == "mul" else [value]:
        if power is None and (found := _power(f)) is not None:
            power = found
        elif f[0] == "exp" and rate is None:
            factors = f[1][1:] if f[1][0] == "mul" else [f[1]]
            if len(k := [g for g in factors if g != TIME]) != len(factors) - 1 or symbols(["mul", *k]):
                raise Rejected(shape)
            rate = ["mul", ["rat", "-1"], *k]
        else:
            raise Rejected(shape)
    return power or Fraction(0), rate or _rat(0)


def _power(f: list[Any]) -> Fraction | None:
    """p of a factor t, t^p or (1 + t)^p (p an integer, or a rational of `rpow`); None for any other factor."""
    if f == TIME or (f[0] == "pow" and f[1] in BASES and type(f[2]) is int):
        return Fraction(1 if f == TIME else f[2])
    return parse_rational(f[2][1]) if f[0] == "rpow" and f[1] in BASES and f[2][0] == "rat" else None


def _proved(data: dict[str, Any]) -> list[list[Any]]:
    """A proof over variables, or of the entropy's limit: a limit (0 for the gap, log n for every attention entropy:
    at rho = 1 every score of a head is lambda_h, so each row's weights are uniform), a rate or an initial rate of the
    gap; S(rho0) > 0 from the domains' signs (at numbers, as found), the claimed number by a formal identity."""
    prop, value, positive = data["property"], data["value"], [data["beta"], *data["strengths"]]
    positive += [data["rho0"]] if data["attention"] == "relu" else []
    entropy, start = data["quantity"] == "attention_entropy", pull(data, data["rho0"])
    if not data["holds"] or prop not in (("tends-to",) if entropy else (*PROPERTIES[:2], "initial-rate")):
        raise Rejected("a statement over variables (or an entropy's limit) states a proof of a limit or rate")
    shown = all(_positive(x, data["variables"]) for x in positive) if data["variables"] else sign(start, _rat(0)) > 0
    if prop == "initial-rate":
        found = [["=", value, initial_rate(data, start)]]
    elif not shown:
        raise Rejected("S(rho0) > 0 is not shown (from the domains, at variables)")
    else:
        limit = ["log", data["n"]] if entropy else _rat(0)
        found = [[">", start, _rat(0)], ["=", value, limit if prop == "tends-to" else late_rate(data)]]
    if not all(formal_zero(["add", a, ["mul", _rat(-1), b]]) for op, a, b in found if op == "="):
        raise Rejected("the claimed number is not the reduction's, as an identity in the variables")
    return found


def facts(statement: dict[str, Any], claim_id: str) -> list[list[Any]]:
    """The relations a < b, a = b or a > b found for the obligations, each one the verdict needs (Rejected else)."""
    if statement.get("point") is not None:  # a refutation at a point of the domain: the statement there
        return facts(instance(statement, claim_id), claim_id)
    data = _data(statement, claim_id)
    limit = (data["quantity"], data["property"], data["holds"]) == ("attention_entropy", "tends-to", True)
    if data["variables"] or limit:  # an entropy's limit log n: a formal identity
        return _proved(data)
    found = []
    for a, b, wanted in obligations(data):
        if (s := sign(a, b)) not in wanted:
            raise Rejected(f"{claim_id}: {term_text(a)[:60]} {RELATION[s]} {term_text(b)[:60]}: not what it needs")
        found.append([RELATION[s], a, b])
    return found


def check(statement: dict[str, Any], claim_id: str, kind: str, payload: Any, seconds: float) -> tuple[str, str]:
    """The reduction's lemma re-checked, then every fact the verdict needs (`facts`)."""
    if kind != FORM or payload != {key: statement.get(key) for key in ("holds", "point", "fails_at")}:
        raise Rejected(f"{claim_id}: an equiangular statement is proved by an {FORM} certificate with its `holds`")
    shown = "; ".join(f"{term_text(a)} {op} {term_text(b)}" for op, a, b in facts(statement, claim_id))
    lemma, at = lemma_of(statement), statement["point"] or {}
    inner_products.check(registry_statements.table()[lemma], lemma, {}, seconds)
    data = ", ".join(f"{key} = {statement[key]}" for key in DATA[:5])
    for v in statement["variables"]:  # each variable's domain, as its bounds say
        ends = [term_text(v[end]) if v[end] else inf for end, inf in (("low", "-oo"), ("high", "oo"))]
        data += f"; {ends[0]} {('<=', '<')[v['low_open']]} {v['name']} {('<=', '<')[v['high_open']]} {ends[1]}"
        data += " integer" * v["integer"]
    data += "".join(f"{'; at the point' if k == 0 else ','} {name} = {q}" for k, (name, q) in enumerate(at.items()))
    summed = statement["family"] and statement["quantity"] != "attention_entropy" and "count" not in statement
    value = f"sum_h({term_text(statement['value'])}) over any H >= 1 heads" * summed or term_text(statement["value"])
    value += f" (head {statement['head']})" * (statement["head"] is not None)
    claim = f"{statement['quantity']} {statement['property']} {value} ({data}) {('fails', 'holds')[statement['holds']]}"
    claim += f" (fails at: {statement['fails_at']})" * (statement["fails_at"] is not None)
    return f"{claim}: by {lemma} with S(rho) = {S[lemma]} sum_h lambda_h w_h(rho), {shown}. {CITED}", "exact, balls"


def instance(statement: dict[str, Any], claim_id: str) -> dict[str, Any]:
    """The refuted statement at its point, its data the point's numbers, once the point is shown in the variables'
    domain (every bound exactly or by balls, as a counterexample's of form `real`); a family's at one head of the
    point's strength (H = 1: an instance of every H >= 1 heads, its claimed sum that head's summand), or with
    `count`, the variable H, at H heads of that strength, its `value` the claimed one whole (a function of H)."""
    require_keys(statement, (*KEYS, *({"count"} & set(statement))), "the equiangular statement")
    sides, names = variable_sides(statement["variables"], 16, "variables")
    point = {name: parse_rational(q) for name, q in require_keys(statement["point"], names, "the point").items()}
    heads = point.get(statement.get("count"), Fraction(1))  # a family at H = `count`'s value: that many equal heads
    if heads.denominator != 1 or not 1 <= heads <= 64 or (heads != 1 and statement["family"] is not True):
        raise Rejected(f"{claim_id}: a family's number of heads at a point is an integer 1..64")
    with precision(POINT_PRECISION):
        if statement["holds"] or Region(tuple(sides)).contains(point) is None:
            raise Rejected(f"{claim_id}: a refutation at a point needs the point in the domain")
    at = {name: _rat(q) for name, q in point.items()}
    data = {key: at[statement[key]][1] if statement[key] in at else statement[key] for key in ("n", "beta", "rho0")}
    data["strengths"] = [at[s][1] if s in at else s for s in statement["strengths"]] * int(heads)
    data |= {"value": substitute(statement["value"], at), "variables": [], "point": None, "family": False}
    return {key: value for key, value in (statement | data).items() if key != "count"}


def lemma_of(statement: dict[str, Any]) -> str:
    """The table's lemma the statement's reduction rests on: the causal first pair's, or every pair's."""
    return PAIR if statement.get("quantity") == "first_pair_gap" else REDUCTION
