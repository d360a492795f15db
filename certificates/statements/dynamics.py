"""Elaboration of dynamics claims (a property of a model quantity along the trajectories that start in a family) into
the kernel's `model` statements (`certificates.kernel.model_statements`), where a witness at one exact state settles
them.

Two readings of a dynamics claim are statements about single states of its family:
- `Q non-negative` (resp. `non-decreasing`) along every trajectory is refuted by a member of the family where Q < 0
  (resp. dQ/dt < 0, so that Q decreases on the trajectory from it): the universal statement `term >= 0` over the
  members, `term` the model term of Q (resp. of its rate, per head when the claim names a head: `refutation`);
- a member that is stationary (every velocity exactly 0, the hypothesis `stationary`: the trajectory from it is
  constant, an autonomous ODE with a locally Lipschitz field) and where Q is not the limit L refutes `Q tends to L`
  (or decays to L = 0) for every start of a family of exact members, and proves `Q does not tend to L` for some
  start: the universal statement `Q = L` over the stationary members (refuted by Q > L or Q < L), resp. the existence
  statement `Q > L` or `Q < L` at a stationary member, the side the witness shows (`stationary`).
The family becomes the statement's kind, sizes (n, d and H exactly: given conditions), hypotheses (`family_hypotheses`:
unit tokens, its values' and heads', but for scalar heads, whose matrices are data), exact `data` (given tokens, score
matrices, scalar strengths as the matrices lambda_h I, value matrices, and beta, each exactly as the file's literals
name them: `numbers.stated`), mask rows, interaction tree and head; a hemisphere start is the given condition <x_i,
sum_j x_j> > 0 at every token (then every token lies in the open hemisphere around sum_j x_j). Families without exact
members (no exact data can be one of them) have no statement.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from headflow.certificates.claims.model_sizes import Sizes
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.family_names import HEAD_FAMILIES, TOKEN_FAMILIES
from headflow.certificates.kernel import format as fmt
from headflow.certificates.kernel.ball_model import ExactConfiguration
from headflow.certificates.kernel.exact_data import dot
from headflow.certificates.kernel.exprtree import TreeError, rational_text
from headflow.certificates.kernel.model_statements import statement_of
from headflow.certificates.kernel.model_values import configuration_failures
from headflow.certificates.masks import mask_of
from headflow.certificates.model_quantities import CERTIFIED, MODEL_QUANTITIES
from headflow.certificates.statements.model import size_conditions
from headflow.certificates.sympy_trees import from_sympy

#: The witness kind both readings are settled by (`headflow.certificates.kernel.model_statements`).
WITNESS = "model-configuration"
STATIONARY = "stationary"
#: The exact hypotheses of the family's values (given matrices: its `data`).
VALUE_HYPOTHESES = {kind: (f"{kind}-values",) for kind in ("aligned", "identity", "spd")} | {"given": ()}
#: The quantities a stationary start settles: their model terms (the least inner product is 1 - cluster_gap).
STATIONARY_TERMS = {
    "cluster_gap": ["name", "cluster_gap"],
    "least_inner_product": ["-", ["num", "1"], ["name", "cluster_gap"]],
}
#: <x_i, sum_j x_j> > 0 at every token i: the tokens lie in one open hemisphere.
HEMISPHERE = {"lhs": ["inner", ["name", "x_i"], ["sum_j", ["name", "x_j"]]], "op": ">", "rhs": ["num", "0"]}


def _texts(rows: Any) -> Any:
    return [_texts(r) for r in rows] if isinstance(rows, list | tuple) else rational_text(rows)


def family_hypotheses(options: dict[str, Any]) -> list[str] | None:
    """The exact hypotheses of the family's members, or None when it has no exact members a witness can name (its
    starts are not free nor tested exactly, a rounded head leaves it, its given data are floats or a file)."""
    tokens, heads = TOKEN_FAMILIES[options["tokens"]], HEAD_FAMILIES[options["heads"]]
    if not ((tokens.free or tokens.exact_members) and heads.rounds) or stated(options["beta"]) == 0:
        return None
    if not (
        2 <= options["n"] <= fmt.MAX_TOKENS and options["d"] <= fmt.MAX_DIMENSION and options["H"] <= fmt.MAX_HEADS
    ):
        return None  # no certificate holds a member
    values = options.get("values", "aligned")
    points, given = options.get("points"), {"given": options.get("scores"), "values": options.get("value_matrices")}
    if options["tokens"] == "given" and not (points is not None and points.exact and not points.source):
        return None
    if (options["heads"] == "given" and not given["given"].embeddable) or values not in VALUE_HYPOTHESES:
        return None
    if values == "given" and not given["values"].embeddable:
        return None
    stated_heads = options["heads"] == "scalar"  # the strengths are data: lambda_h I, of either sign
    return ["unit-tokens", *VALUE_HYPOTHESES[values], *(() if stated_heads else heads.hypotheses)]


def family(claim_id: str, options: dict[str, Any], extra: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """The fields of a model statement about the members of the family (None: no exact members), its hypotheses with
    `extra`; the caller adds `exists`, `token` and `relation`."""
    hypotheses = family_hypotheses(options)
    if hypotheses is None:
        return None
    beta, d, mask = stated(options["beta"]), options["d"], mask_of(options.get("mask"), options["n"])
    data: dict[str, Any] = {"tokens": None, "scores": None, "values": None, "beta": rational_text(beta)}
    if options["tokens"] == "given":
        data["tokens"] = _texts(options["points"].rows)
    if options["heads"] == "given":
        data["scores"] = _texts(options["scores"].exact())
    if options["heads"] == "scalar":
        data["scores"] = _texts(
            [[[stated(lam) * (i == j) for j in range(d)] for i in range(d)] for lam in options["lambdas"]]
        )
    if options.get("values") == "given":
        data["values"] = _texts(options["value_matrices"].exact())
    sizes = {key: options[key] for key in ("n", "d", "H")}
    interaction = options.get("interaction")
    return {
        "form": "model",
        "claim": claim_id,
        "attention": options["attention"],
        "geometry": options["geometry"],
        "beta": "negative" if beta < 0 else "positive",
        "mask": "none" if mask is None else [[int(m) for m in row] for row in mask],
        "hypotheses": [*hypotheses, *extra],
        "interaction": None if interaction is None else interaction.tree,
        "energy": None,
        "given": [
            *size_conditions(Sizes(sizes, dict(sizes))),
            *([HEMISPHERE] if options["tokens"] == "hemisphere" else []),
        ],
        "data": data,
        "fixed": {} if options.get("head") is None else {"h": options["head"]},
    }


def searched_quantity(claim: DynamicsClaim) -> str | None:
    """The quantity whose negative value at a member of the family refutes the claim about every start (its rate for
    non-decreasing, per head when the claim names one), or None when no single state does."""
    if claim.property == "non-negative":
        return claim.quantity
    model = MODEL_QUANTITIES[claim.quantity]
    if claim.property != "non-decreasing" or model.rate is None:
        return None
    if claim.options.get("head") is not None and model.per_head is not None:
        model = MODEL_QUANTITIES[model.per_head]
    return model.rate


def refutation(claim: DynamicsClaim) -> dict[str, Any] | None:
    """The universal model statement `term >= 0` over the family that a configuration witness refutes (None: none)."""
    searched, fields = searched_quantity(claim), family(claim.id, claim.options)
    if claim.exists or searched not in CERTIFIED or fields is None:
        return None
    model = MODEL_QUANTITIES[searched]
    if fields["fixed"] and "head" not in model.axes:
        return None  # a claim about one head, of a quantity of no head
    relation = {"lhs": ["name", model.term], "op": ">=", "rhs": ["num", "0"]}
    return fields | {"exists": False, "relation": relation}


def avoided_limit(claim: DynamicsClaim) -> list[Any] | None:
    """The limit (a tree) a stationary start must avoid to settle the claim (None: no stationary start settles it, or
    the limit holds a rational too large for a certificate to record)."""
    if claim.quantity not in STATIONARY_TERMS or claim.options.get("head") is not None:
        return None
    try:
        limit = None if claim.target is None else from_sympy(claim.target)
    except TreeError:  # a rational past what a certificate records (`exprtree.rational_text`)
        return None
    if claim.exists:
        return limit if claim.property == "does-not-tend-to" else None
    if not TOKEN_FAMILIES[claim.options["tokens"]].exact_members:
        return None  # a random family's universal claim is about almost every start (an equilibrium is one point)
    if claim.property in ("decays-at-rate", "decays-exponentially", "decays-like"):
        return ["rat", "0"]
    return limit if claim.property == "tends-to" else None


def stationary(claim: DynamicsClaim, sign: str | None = None) -> dict[str, Any] | None:
    """The model statement a stationary start settles (None: none does, or the limit is not a rational number): for
    every stationary member Q = L (universal claims), or at a stationary member Q < L when the witness's `sign` of
    L - Q is ">", else Q > L (existence claims)."""
    limit, fields = avoided_limit(claim), family(claim.id, claim.options, (STATIONARY,))
    if limit is None or limit[0] != "rat" or fields is None:
        return None
    op = ("<" if sign == ">" else ">") if claim.exists else "="
    relation = {"lhs": STATIONARY_TERMS[claim.quantity], "op": op, "rhs": ["num", limit[1]]}
    return fields | {"exists": claim.exists, "relation": relation}


def elaborate(claim: object, kind: str, payload: dict[str, Any]) -> dict[str, Any] | None:
    """The statement of a dynamics witness certificate of `claim` (`stationary` when the witness assumes a
    stationary configuration, else `refutation`), or None when it is not one."""
    if not isinstance(claim, DynamicsClaim) or kind != "witness" or payload.get("witness") != WITNESS:
        return None
    if STATIONARY in (payload.get("hypotheses") or ()):
        return stationary(claim, payload.get("relation"))
    return refutation(claim)


# ---------------------------------------------------------------- the deciders' side of the same meaning


def repulsive(options: dict[str, Any]) -> bool:
    """Whether the claim is about beta < 0 (its witnesses then have a negative beta, which the reader requires)."""
    beta = options["beta"]
    return isinstance(beta, int | float) and beta < 0


def family_failures(options: dict[str, Any], exact: ExactConfiguration) -> list[str]:
    """What keeps exact data out of the family (the kernel's exact checks of the family's statement: its kind, sizes,
    mask, hypotheses and data; empty when they belong; the given conditions, its sizes among them, are the
    witness's balls': here the sizes are compared directly)."""
    fields = family("family", options)
    if fields is None:
        return ["the family has no exact members"]
    relation = {"lhs": ["num", "0"], "op": ">=", "rhs": ["num", "0"]}
    statement = statement_of(fields | {"exists": False, "relation": relation, "fixed": {}}, "family")
    sizes = {"n": exact.n, "d": len(exact.tokens[0]), "H": len(exact.score_matrices)}
    wrong = [
        f"{key} = {value} is not the family's {options[key]}" for key, value in sizes.items() if value != options[key]
    ]
    return wrong + configuration_failures(statement, exact, {})


def with_given_matrices(options: dict[str, Any], exact: ExactConfiguration) -> ExactConfiguration:
    """Exact data with the claim's own score matrices (heads = "given"; values W_h = M_h too when aligned) and its
    own value matrices (values given as matrices), exactly as the file states them."""
    if options["heads"] == "given":
        scores = options["scores"].exact()
        aligned = options.get("values", "aligned") == "aligned"
        exact = dataclasses.replace(exact, score_matrices=scores, values=scores if aligned else exact.values)
    if options.get("values") == "given":
        exact = dataclasses.replace(exact, values=options["value_matrices"].exact())
    return exact


def on_a_kink(exact: ExactConfiguration) -> bool:
    """Whether relu data have a score exactly 0 (the kink of max(beta s, 0)); the sign of every score is a
    comparison of exact rationals, so off the kink each weight is one polynomial branch at the witness."""
    tokens = exact.tokens
    scores = (dot(x, [dot(row, y) for row in M]) for M in exact.score_matrices for x in tokens for y in tokens)
    return exact.attention == "relu" and any(s == 0 for s in scores)
