"""The universal statements that deny an existence `model` claim: what proves it false when proved everywhere.

An existence claim (some configuration with the hypotheses and the `given` conditions satisfies `lhs op rhs`) is
false exactly when its universal negation holds: every such configuration, token and head satisfies the opposite
relation. The deciders prove that negation (`checks.claimsfile.model_existence`; an equality's two strict sides,
`checks.claimsfile.equality_existence`), and the certificate of a refutation states it
(`headflow.certificates.statements.model.elaborate`), so both read it here.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from headflow.certificates.claims.model_claim import model_statement
from headflow.certificates.claims.schema import ModelClaim
from headflow.certificates.kernel.exact import holds
from headflow.certificates.kernel.model_terms import Relation

#: The op of the relation that fails exactly where `lhs op rhs` holds (an equality has two strict sides instead).
OPPOSITE = {"<=": ">", "<": ">=", ">=": "<", ">": "<="}


def universal_with(claim: ModelClaim, op: str) -> ModelClaim:
    """The universal claim `lhs op rhs` at every configuration of the existence claim's kind (its id kept)."""
    relation = claim.relation
    lhs_text, rhs_text = (str(claim.raw[key]) for key in ("lhs", "rhs"))
    negated = Relation(relation.lhs, op, relation.rhs, f"{lhs_text} {op} {rhs_text}")
    fields = {
        "attention": claim.attention,
        "geometry": claim.geometry,
        "hypotheses": claim.hypotheses,
        "relation": negated,
        "given": claim.given,
        "exists": False,
        "interaction": claim.interaction,
        "sizes": claim.sizes,
        "beta_sign": claim.beta_sign,
        "mask": claim.mask,
        "mask_rows": claim.mask_rows,
        "token": claim.token,
    }
    return dataclasses.replace(claim, statement=model_statement(fields), relation=negated, exists=False)


def universal_negation(claim: ModelClaim) -> ModelClaim | None:
    """The universal claim that every configuration of the existence claim's kind violates its relation (None for an
    equality, which two strict relations deny, each alone)."""
    op = OPPOSITE.get(claim.relation.op)
    return None if op is None else universal_with(claim, op)


def disjoint(op: str, bound: Fraction, other_op: str, other_bound: Fraction) -> bool:
    """Whether no real x has both `x op bound` and `x other_op other_bound` (ops = < <= > >=)."""
    if op == "=" or other_op == "=":  # a point: whether it misses the other relation
        x, relation, b = (bound, other_op, other_bound) if op == "=" else (other_bound, op, bound)
        return not (x == b if relation == "=" else holds(x - b, relation))
    if (op[0] == "<") == (other_op[0] == "<"):  # two lower or two upper bounds always meet
        return False
    (low, low_op), (high, high_op) = sorted([(bound, op), (other_bound, other_op)], key=lambda side: side[1][0] == "<")
    return low > high or (low == high and (low_op, high_op) != (">=", "<="))
