"""Elaboration of claims-file `model` claims into the kernel's `model` statements
(`headflow.certificates.kernel.model_statements`).

The embedded claim is parsed by the claims-file reader (the text of its terms by
`headflow.certificates.kernel.model_terms`, with SymPy where its options need it); what the kernel gets is the parsed
claim as data: for a model claim the kind, geometry, sizes, hypotheses, mask and interaction tree (with, when the
claim names the energy, the antiderivative Phi that SymPy proposes, which the kernel accepts only by exact algebra),
the quantifier, and the sides and `given` conditions as term trees (`term_data`); for an equilibrium claim its regime
(rho as a tree in n, given tokens as rational rows), property, heads, kinds and ranges. The kernel never reads text.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from headflow.certificates.claims.model_negation import disjoint, universal_negation, universal_with
from headflow.certificates.claims.model_sizes import LEAST, Sizes
from headflow.certificates.claims.model_text import names_energy
from headflow.certificates.claims.schema import ModelClaim, UserClaim
from headflow.certificates.kernel import registry_statements
from headflow.certificates.kernel.exprtree import parse_rational, rational_text
from headflow.certificates.kernel.model_statements import ModelStatement, statement_of
from headflow.certificates.kernel.model_terms import Relation, Term
from headflow.certificates.kernel.recheck import Rejected


def elaborate(claim: UserClaim, kind: str, payload: dict[str, Any]) -> dict[str, Any] | None:
    """The statement of a certificate of a parsed model claim (None for another claim): the claim's own, but for a
    `gram` or `sums` certificate of an existence claim, which proves the claim false by a universal statement that
    denies it (`denial`, `zero_denial`: both prove universal statements only)."""
    if not isinstance(claim, ModelClaim):
        return None
    if claim.exists and kind in ("gram", "sums"):
        return denial(claim) if kind == "gram" else zero_denial(claim)
    return statement_data(claim)


def denial(claim: ModelClaim) -> dict[str, Any] | None:
    """The universal statement that a `gram` certificate of a false existence claim proves: its universal negation
    where the kernel's table lists it (`registry_statements.implying_identity`), else the first statement the table
    lists of the same configurations and left side whose bound no value of the claim's relation meets (`lhs >= 0`
    denies `lhs = -1` and `lhs < -1`: `numbers.disjoint`); None when there is none. Read from the table's data, the
    same on every run, so that `check-cert --claims` elaborates the same statement again."""
    negation = universal_negation(claim)
    base = statement_data(negation or universal_with(claim, ">="))  # the configurations, whatever the relation
    relation, listed = base["relation"], [base] if negation is not None else []
    for entry in registry_statements.table().values():
        for model in entry.get("models", ()):
            bound = model["relation"]
            if bound["lhs"] == relation["lhs"] and _denies(bound, claim.relation.op, relation["rhs"]):
                listed.append(base | {"relation": bound})
    return next((data for data in listed if _listed(data)), None)


def zero_denial(claim: ModelClaim) -> dict[str, Any] | None:
    """The universal statement that a `sums` certificate of a false existence claim proves: its universal negation,
    else `lhs >= 0` or `lhs <= 0` at every configuration of its kind, the first that no value of the claim's relation
    meets (`T_h_i >= 0` denies `T_h_i = -1`); None when neither does."""
    negation = universal_negation(claim)
    if negation is not None:
        return statement_data(negation)
    base = statement_data(universal_with(claim, ">="))
    for op in (">=", "<="):
        bound = {"lhs": base["relation"]["lhs"], "op": op, "rhs": ["num", "0"]}
        if _denies(bound, claim.relation.op, base["relation"]["rhs"]):
            return base | {"relation": bound}
    return None


def _denies(bound: dict[str, Any], op: str, rhs: list[Any]) -> bool:
    """Whether no value of `lhs op rhs` satisfies the listed bound (both right sides numbers)."""
    claimed, listed = _number(rhs), _number(bound["rhs"])
    return claimed is not None and listed is not None and disjoint(op, claimed, bound["op"], listed)


def _number(tree: list[Any]) -> Fraction | None:
    """The number a term tree writes (`["num", q]`, or its negation), else None."""
    if tree[0] == "neg":
        inner = _number(tree[1])
        return None if inner is None else -inner
    return parse_rational(tree[1]) if tree[0] == "num" else None


def _listed(data: dict[str, Any]) -> bool:
    """Whether the kernel's table lists a model statement that implies `data`."""
    try:
        registry_statements.implying_identity(data)
    except Rejected:
        return False
    return True


def statement_data(claim: ModelClaim) -> dict[str, Any]:
    """The statement data of a parsed model claim, as the kernel reads it back (`model_statements.statement_of`)."""
    rows = None if claim.mask_rows is None else [[int(m) for m in row] for row in claim.mask_rows]
    return {
        "form": "model",
        "claim": claim.id,
        "exists": claim.exists,
        "attention": claim.attention,
        "geometry": claim.geometry,
        "beta": claim.beta_sign,
        "mask": claim.mask if rows is None else rows,
        "fixed": {"i": 0} if claim.token == "first" else {},
        "hypotheses": list(claim.hypotheses),
        "interaction": None if claim.interaction is None else claim.interaction.tree,
        "energy": claim.interaction.proposal() if claim.interaction is not None and names_energy(claim) else None,
        "given": [*size_conditions(claim.sizes), *(relation_data(g) for g in claim.given)],
        "relation": relation_data(claim.relation),
        "data": {"tokens": None, "scores": None, "values": None, "beta": None},
    }


def model_body(fields: dict[str, Any]) -> dict[str, Any]:
    """The statement data, without `form` and `claim`, of the model claim with these claims-file fields (lhs, op,
    rhs, assume, ...; strings and lists of strings): how the kernel's table lists the model statements of a paper
    identity (`registry_statements.implying_identity`)."""
    from headflow.certificates.claims.loader import parse_claims

    lines = [f"{key} = {json.dumps(value)}" for key, value in {"id": "model", "kind": "model", **fields}.items()]
    (claim,) = parse_claims("\n".join(["[[claim]]", *lines, ""]))
    assert isinstance(claim, ModelClaim)
    return {key: value for key, value in statement_data(claim).items() if key not in ("form", "claim")}


def kernel_statement(claim: ModelClaim) -> ModelStatement:
    """The kernel's reading of the claim's statement: what its witnesses are settled against
    (`headflow.certificates.kernel.model_values.settle`), by the deciders as by `check-cert`."""
    return statement_of(statement_data(claim), claim.id)


def relation_data(relation: Relation) -> dict[str, Any]:
    """`lhs op rhs` as term trees."""
    return {"lhs": term_data(relation.lhs), "op": relation.op, "rhs": term_data(relation.rhs)}


def term_data(term: Term) -> list[Any]:
    """The JSON tree of a parsed term (`model_statements.term_of` reads it back and types it again)."""
    op, args = term.op, term.args
    if op == "num":
        return ["num", rational_text(args[0])]
    if op in ("symbol", "vector", "scalar", "pair"):
        return ["name", args[0] if op == "symbol" else args[1]]
    if op == "pow":
        return ["pow", term_data(args[0]), args[1]]
    return [op, *(term_data(a) for a in args)]


def size_conditions(sizes: Sizes) -> list[dict[str, Any]]:
    """The claim's ranges of n, d, H and beta as given conditions on the symbols (`n >= 3`, `beta < 2`): the ends
    other than the model's own (n >= 2, d >= 1, H >= 1 and the sign of beta hold at every configuration)."""
    low, high, low_open, high_open = sizes.beta
    ends = []
    for name, least in LEAST.items():
        ends += [(name, ">=", sizes.low[name])] if sizes.low[name] > least else []
        ends += [(name, "<=", sizes.high[name])] if sizes.high[name] is not None else []
    ends += [("beta", ">" if low_open else ">=", low)] if low is not None else []
    ends += [("beta", "<" if high_open else "<=", high)] if high is not None else []
    return [{"lhs": ["name", name], "op": op, "rhs": ["num", rational_text(end)]} for name, op, end in ends]
