"""What an `equiangular` certificate states: a claim about the cluster gap of equiangular tokens, as data.

The regime is that of `headflow.identities.equiangular_reduction`, at numbers or over the domain's variables: n
unit tokens with every <x_i, x_j> = rho0 at t = 0, scalar heads M_h = W_h = lambda_h I, beta > 0, the sphere, no
interaction, no mask (or the causal mask for the first pair's gap, `identities.causal_reduction`). The statement
carries the claim's data and its number (the claimed limit, rate, initial rate or rate to beat) and whether the claim
holds; the kernel (`certificates.kernel.equiangular`) re-derives the reduced field
from the model's weights, checks the facts the verdict needs exactly (python-flint) and prints the steps it cites.

The reduction's identities are lemmas of the kernel's table (`LEMMAS`, beside the paper's identities): for unit x,
y with <x, y> = rho, r the sum of the n - 2 other tokens and any reals D, O, the pair moving with the tangent
projections of D x + O (y + r) and D y + O (x + r) has d<x, y>/dt = 2 O (1 - rho)(1 + (n - 1) rho), whatever D; the
causal first pair, x moving with P_x(F x) and y with P_y(D y + O x), has d<x, y>/dt = O (1 - rho)(1 + rho).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp
from headflow.certificates.claims import head_sums
from headflow.certificates.claims.head_sums import HeadSum
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import TIME, DynamicsClaim
from headflow.certificates.kernel import equiangular
from headflow.certificates.kernel.exprtree import TreeError, rational_text
from headflow.certificates.statements.inner_products import GramObligation, VectorTree, X, inner
from headflow.certificates.statements.real import variable_data
from headflow.certificates.sympy_trees import from_sympy
from headflow.identities.closed_forms import tangent_projection

Y, R = VectorTree(["vec", "y"]), VectorTree(["vec", "r"])
DIAG, OFF, RHO, N, FIXED = (["sym", name] for name in ("diag", "off", "rho", "n", "fixed"))
#: n - 2 and n - 1 as trees.
N2, N1 = (["add", N, ["rat", str(-k)]] for k in (2, 1))
ONE_MINUS_RHO = ["add", ["rat", "1"], ["mul", ["rat", "-1"], RHO]]
#: The gaps a statement states: every pair's (no mask), and the first pair's under the causal mask.
GAPS = ("cluster_gap", "first_pair_gap")

LEMMAS = {
    equiangular.REDUCTION: GramObligation(
        "for every n >= 2 and vectors x, y, r of any real inner-product space (every R^d) with <x, x> = <y, y> = 1, "
        "<x, y> = rho, <x, r> = <y, r> = (n - 2) rho and <r, r> = (n - 2)(1 + (n - 3) rho) (r the sum of the n - 2 "
        "other tokens of an equiangular configuration), and every reals diag, off: when x and y move with the tangent "
        "projections P_x(diag x + off (y + r)) and P_y(diag y + off (x + r)), d<x, y>/dt = 2 off (1 - rho)(1 + (n - 1) "
        "rho)",
        (
            (
                ["rate", inner(X, Y)],
                ["mul", ["rat", "2"], OFF, ONE_MINUS_RHO, ["add", ["rat", "1"], ["mul", N1, RHO]]],
            ),
        ),
        unit=("x", "y"),
        gram=(
            ("x", "y", RHO),
            ("r", "x", ["mul", N2, RHO]),
            ("r", "y", ["mul", N2, RHO]),
            ("r", "r", ["mul", N2, ["add", ["rat", "1"], ["mul", ["add", N, ["rat", "-3"]], RHO]]]),
        ),
        velocities=(
            ("x", tangent_projection(X, DIAG * X + (OFF * Y + OFF * R), inner).tree),
            ("y", tangent_projection(Y, DIAG * Y + (OFF * X + OFF * R), inner).tree),
        ),
    ),
    equiangular.PAIR: GramObligation(
        "for vectors x, y of any real inner-product space (every R^d) with <x, x> = <y, y> = 1 and <x, y> = rho, and "
        "every reals fixed, diag, off: when x moves with P_x(fixed x) and y with P_y(diag y + off x), d<x, y>/dt = off "
        "(1 - rho)(1 + rho) (the first two tokens under the causal mask: token 1 attends to itself only, token 2 to "
        "tokens 1 and 2)",
        ((["rate", inner(X, Y)], ["mul", OFF, ONE_MINUS_RHO, ["add", ["rat", "1"], RHO]]),),
        unit=("x", "y"),
        gram=(("x", "y", RHO),),
        velocities=(
            ("x", tangent_projection(X, FIXED * X, inner).tree),
            ("y", tangent_projection(Y, DIAG * Y + OFF * X, inner).tree),
        ),
    ),
}


#: The registry's claims that are `equiangular` statements, each as the claims-file claim that states it (the text of
#: `examples/paper.toml`): their certificates carry its statement (`registry_statement`).
REGISTRY_CLAIMS = {
    "T22.late-rate": """
[[claim]]
id = "T22.late-rate"
kind = "dynamics"
quantity = "cluster_gap"
property = "decays-at-rate"
rate = "2 * sum_h(lam_h)"
attention = "softmax"
heads = "scalar"
H = "H"
lambdas = "lam_h"
tokens = "equiangular"
rho = "rho0"
n = "n"
d = "d"
beta = "beta"
[claim.domain]
n = "integer>=2"
d = { min = "n", integer = true }
beta = "positive"
H = "integer>=1"
lam_h = "positive"
rho0 = { min = "-1/(n - 1)", max = 1, min_open = true, max_open = true }
"""
}


def registry_statement(claim_id: str) -> dict[str, Any] | None:
    """The statement of a registry claim's `equiangular` certificate (it holds), or None for a claim not listed."""
    if claim_id not in REGISTRY_CLAIMS:
        return None
    (claim,) = parse_claims(REGISTRY_CLAIMS[claim_id])
    return statement(claim, True)


#: A claim's property stated as the kernel's `tends-to` with `holds` turned around: the tokens are one equiangular
#: start up to rotation (the field is rotation-equivariant), so "some start" and "every start" are the same claim.
NEGATED = "does-not-tend-to"


def covered(claim: DynamicsClaim) -> bool:
    """Whether the claim is one an `equiangular` statement states: the cluster gap (or the attention entropy's limit) in
    the reduction's regime, its data numbers (beta > 0) or symbols of its domain (then a proof only, of a limit, a rate
    or an initial rate), one of the kernel's properties, a target over them (a shape: of t)."""
    options = claim.options
    lambdas = options.get("lambdas")
    data = [options.get(key) for key in ("n", "beta", "rho")] + (lambdas if isinstance(lambdas, list) else [lambdas])
    names = {symbol.name for symbol in claim.parameters.values()}
    pair = claim.quantity == "first_pair_gap" and options.get("mask") == "causal"  # tokens 1 and 2: a closed system
    table = claim.quantity in equiangular.TABLE and claim.property in ("tends-to", *equiangular.ALONG)
    negated = claim.property == NEGATED and not claim.parameters  # at numbers: one start up to rotation
    return (
        (claim.quantity in GAPS or (claim.quantity == "attention_entropy" and claim.property == "tends-to") or table)
        and (claim.property in (*equiangular.PROPERTIES, *equiangular.ALONG) or negated)
        and (not claim.exists or negated)
        and (claim.target is not None or claim.property in equiangular.ALONG[2:])
        and all(_number(v) or (isinstance(v, sp.Symbol) and v.name in names) for v in data)
        and ((_number(options["beta"]) and options["beta"] > 0) or isinstance(options["beta"], sp.Symbol))
        and {s.name for s in (claim.target or sp.Integer(0)).free_symbols}
        <= names | ({TIME.name} if claim.property == "decays-like" else set())
        and (options["tokens"], options["heads"]) == ("equiangular", "scalar")
        and options["geometry"] in ("sphere", *equiangular.SCHEMES)  # the kernel says where a scheme is stated
        and (pair if claim.quantity == "first_pair_gap" else options.get("mask") is None)
        and options.get("values", "aligned") == "aligned"
        and "interaction" not in options
    )


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def statement(
    claim: DynamicsClaim, holds: bool, point: dict[str, str] | None = None, witness: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """The statement that the claim holds (or, `holds` false, that it fails; at `point`, the values of some of the
    claim's parameters, when it fails there; `witness`, the head, and the correlation, where a quantity of the table
    fails, or the head whose start violates a hypothesis), or None when the form does not state it (`covered`; a
    number past what a certificate records; a claimed sum over heads that is not a sum of one per-head summand)."""
    if not covered(claim):
        return None
    options = claim.options
    family = not isinstance(options["lambdas"], list)  # any H heads of one strength symbol, lam_h
    strengths = [options["lambdas"]] if family else options["lambdas"]
    count = options.get("H") if family and point is not None else None  # refuted at H heads, H != 1 in the point
    count = count if isinstance(count, sp.Symbol) and point.get(count.name, "1") != "1" else None  # type: ignore[union-attr]
    target = per_head_summand(claim.target) if family and claim.quantity in GAPS else claim.target
    if count is not None and claim.target is not None:  # equal heads: a sum over them is H times one head's term
        target = claim.target.replace(HeadSum, lambda term: count * term)
    target = sp.Integer(0) if claim.target is None else target  # non-negative: the bound 0
    used = {options["n"], options["beta"], options["rho"], *strengths, count}
    try:
        value = None if target is None else from_sympy(target)
        domain = claim.raw.get("domain", {})
        names = {symbol.name: symbol for symbol in claim.order}
        variables = [variable_data(claim, s, domain.get(s.name), names) for s in claim.order if s in used]
    except TreeError:
        return None
    if value is None or (point is not None and any(v["name"] not in point for v in variables)):
        return None  # no value, or a point that misses a variable
    if family and point is not None and count is None and not _one_head(claim):
        return None  # a family is refuted at one head (H = 1 must be one of the claim's) or at H in the point
    negated = claim.property == NEGATED  # "does not tend to L" fails exactly where "tends to L" holds
    return {
        "form": equiangular.FORM,
        "claim": claim.id,
        "attention": options["attention"],
        "n": datum(options["n"]),
        "beta": datum(options["beta"]),
        "strengths": [datum(v) for v in strengths],
        "rho0": datum(options["rho"]),
        "geometry": options["geometry"],
        "family": family,
        "variables": variables,
        "quantity": claim.quantity,
        "property": "tends-to" if negated else claim.property,
        "value": value,
        "holds": holds != negated,
        "point": None if point is None else {v["name"]: point[v["name"]] for v in variables},
        "head": options.get("head"),
        "fails_at": witness,
    } | ({"count": count.name} if count is not None else {})


def from_payload(claim: DynamicsClaim, payload: dict[str, Any]) -> dict[str, Any] | None:
    """The statement a certificate's payload gives: its `holds` is the statement's, the claim's verdict turned around
    for a `NEGATED` claim."""
    holds = (payload.get("holds") is True) != (claim.property == NEGATED)
    return statement(claim, holds, payload.get("point"), payload.get("fails_at"))


def witness_of(claim: DynamicsClaim, details: dict[str, Any]) -> dict[str, Any] | None:
    """The witness a refutation of a quantity of the table names in its details (`reduced_observables`): the head,
    as its place among the values the claim is about, and the visited correlation (None: the limit), or None."""
    if not isinstance(details.get("head"), int) or (claim.quantity in GAPS and claim.property not in equiangular.ALONG):
        return None
    return {"head": 0 if claim.options.get("head") is not None else int(details["head"]), "rho": details.get("rho")}


def point_data(point: dict[Any, Any]) -> dict[str, str] | None:
    """A parameter point of a quantified claim (symbol -> exact rational) as a statement's `point`, a family's equal
    per-head strengths as their one value (the kernel refutes a family at one head of it); None when the strengths
    differ or a value is no exact rational."""
    point = {k: v[0] if isinstance(v, list) and v and v.count(v[0]) == len(v) else v for k, v in point.items()}
    if not all(isinstance(value, Fraction | int) for value in point.values()):
        return None
    return {str(symbol): rational_text(Fraction(value)) for symbol, value in point.items()}


def _one_head(claim: DynamicsClaim) -> bool:
    """Whether the claim's number of heads may be 1 (a family refuted at a point is refuted at one head)."""
    heads = claim.options.get("H")
    domain = claim.domains.get(heads) if isinstance(heads, sp.Symbol) else None
    return heads == 1 or (domain is not None and domain.low is not None and domain.low <= 1 and not domain.low_open)


def datum(value: object) -> str:
    """A datum as the statement writes it: a variable's name, or the exact rational a number stands for."""
    return value.name if isinstance(value, sp.Symbol) else rational_text(stated(value))  # type: ignore[arg-type]


def per_head_summand(target: sp.Expr) -> sp.Expr | None:
    """g with target = sum_h g(lambda_h): each term of the expanded target one head-independent factor times one
    HeadSum (0 is the sum of 0); None for any other target."""
    found = sp.Integer(0)
    for term in sp.Add.make_args(sp.expand(target)):
        sums = [f for f in sp.Mul.make_args(term) if isinstance(f, HeadSum)]
        factor = sp.Mul(*[f for f in sp.Mul.make_args(term) if not isinstance(f, HeadSum)])
        if term != 0 and (len(sums) != 1 or any(head_sums.per_head(s.name) for s in factor.free_symbols)):
            return None
        found += factor * sums[0].args[0] if sums else 0
    return found
