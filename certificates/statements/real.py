"""Elaboration of claims-file inequalities, identities and constants into statements of form `real`
(`headflow.certificates.kernel.real_statements`).

The formulas are the claim's text parsed faithfully (`parse_tree`: `a - b` stays `sub`, named functions stay named),
never a SymPy expression after SymPy evaluated it; a bound is an exact rational or the tree of its text. The
definedness conditions are the claims-file parser's (they are proved, never assumed: a wrong one is refused, not
used). The domain's point is searched here (`headflow.certificates.nonempty`) and only verified by the kernel.
A claim over per-head families is stated at one number of heads (`certificates.statements.head_families`); one over
a punctured domain only for a counterexample, the points left out as conditions `x - c != 0` (`refutable`); a
constant proved outside its interval as the side it fails (`outside`).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

import sympy as sp
from headflow.certificates.claims.conditions import Condition
from headflow.certificates.claims.evaluation import EvaluationError, ball
from headflow.certificates.claims.expressions import parse_tree
from headflow.certificates.claims.schema import ConstantClaim, IdentityClaim, InequalityClaim, UserClaim
from headflow.certificates.kernel.exprtree import TreeError, rational_text
from headflow.certificates.kernel.real_statements import FORM, read_region
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.nonempty import settle
from headflow.certificates.sympy_trees import from_sympy

#: Working precisions (bits) at which a constant's value is settled against its interval, in order.
BALL_PRECISIONS = (64, 128, 256, 512, 1024, 2048, 4096)
#: Certificate kinds with a statement of form `real`, by the kind of claim.
KINDS = {"constant": ("witness",), "inequality": ("interval-cover", "smt", "witness"), "identity": ("smt", "witness")}


def elaborate(parsed: UserClaim, kind: str, payload: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The statement of a certificate of kind `kind` of the parsed claims-file claim, or None when this form does not
    cover it (the payload plays no part; a claim over families of heads: `head_families.elaborate`)."""
    if kind not in KINDS.get(parsed.kind, ()):
        return None
    if isinstance(parsed, ConstantClaim):
        return constant_statement(parsed, outside(parsed))
    return relation_statement(parsed) if covered(parsed) or (kind == "witness" and refutable(parsed)) else None


def covered(claim: UserClaim) -> bool:
    """Whether the claim is an inequality or identity that a statement of form `real` states (not one over per-head
    families or a punctured domain)."""
    if isinstance(claim, IdentityClaim):
        return True
    return isinstance(claim, InequalityClaim) and claim.heads is None and not claim.punctures


def refutable(claim: UserClaim) -> bool:
    """Whether a counterexample of the claim has a statement of form `real`: `covered`, or an inequality over a
    punctured domain, whose points left out are conditions `x - c != 0` that the counterexample's point meets (a
    universal proof would have to show them on the whole domain, and cannot: none is written)."""
    return covered(claim) or (isinstance(claim, InequalityClaim) and claim.heads is None)


def constant_statement(claim: ConstantClaim, failing: str | None = None) -> dict[str, Any]:
    """`low <= expr <= high`, low and high the rounding interval of the claim's value and digits; with `failing`
    (`outside`'s "low" or "high"), the one side the value is outside of, as the relation it fails (`expr >= low`,
    `expr <= high`): a counterexample of it, at the empty point, refutes the claim."""
    expression, conditions = parse_tree(claim.raw["expr"], {}), conditions_data(claim.id, claim.conditions)
    ends = {"low": rational_text(_fraction(claim.low)), "high": rational_text(_fraction(claim.high))}
    body = {"expression": expression, **ends}
    if failing is not None:
        body = {"lhs": expression, "op": ">=" if failing == "low" else "<=", "rhs": ["rat", ends[failing]]}
    return {"form": FORM, "claim": claim.id, "variables": [], **body, "conditions": conditions, "point": {}}


def outside(claim: ConstantClaim) -> str | None:
    """The end of the claim's interval that a ball of its value lies beyond ("low": below it, "high": above it) at
    the first of BALL_PRECISIONS where a ball settles the value against both ends; None when none shows it outside
    (inside, undefined, or unsettled)."""
    for prec in BALL_PRECISIONS:
        try:
            value, low, high = (ball(e, {}, prec) for e in (claim.expr, claim.low, claim.high))
        except EvaluationError:
            continue
        if value < low or value > high:  # arb comparisons are True only when certain
            return "low" if value < low else "high"
        if value >= low and value <= high:
            return None
    return None


def relation_statement(claim: InequalityClaim | IdentityClaim) -> dict[str, Any]:
    """`for all variables in the domain: lhs op rhs` (`=` for an identity), with a verified point of the domain;
    Rejected when no point of the domain is found (the claim would be vacuous)."""
    names = {s.name: s for s in claim.order}
    key = "symbols" if isinstance(claim, IdentityClaim) else "domain"
    statement = {
        "form": FORM,
        "claim": claim.id,
        "variables": [variable_data(claim, s, claim.raw.get(key, {}).get(s.name), names) for s in claim.order],
        "lhs": parse_tree(claim.raw["lhs"], names),
        "op": claim.op if isinstance(claim, InequalityClaim) else "=",
        "rhs": parse_tree(claim.raw["rhs"], names),
        "conditions": conditions_data(claim.id, claim.conditions) + puncture_conditions(claim, names),
        "point": {},
    }
    return with_domain_point(statement)


def puncture_conditions(claim: InequalityClaim | IdentityClaim, names: dict[str, sp.Symbol]) -> list[dict[str, Any]]:
    """`x - c != 0` for each point c a punctured domain leaves out (`except`), its tree parsed from the claim's text."""
    if isinstance(claim, IdentityClaim) or not claim.punctures:
        return []
    written = {str(symbol): claim.raw["domain"][str(symbol)]["except"] for symbol in claim.punctures}
    return [
        {"expression": ["sub", parse_tree(name, names), parse_tree(text, names)], "relation": "!="}
        for name, text in written.items()
    ]


def with_domain_point(statement: dict[str, Any]) -> dict[str, Any]:
    """The statement with a verified point of its domain; Rejected when none is found (it would be vacuous)."""
    settled = settle(read_region(statement))
    if settled.point is None:
        raise Rejected(f"claim {statement['claim']!r}: {settled.reason}")
    return statement | {"point": {k: rational_text(v) for k, v in settled.point.items() if not hasattr(v, "mid")}}


def variable_data(claim: UserClaim, symbol: sp.Symbol, spec: Any, names: dict[str, sp.Symbol]) -> dict[str, Any]:
    """A variable of the statement: the symbol's domain, each bound an exact rational or the tree of its text."""
    domain = claim.domains[symbol]  # type: ignore[attr-defined]
    ends = {"low": ("min", domain.low), "high": ("max", domain.high)}
    variable: dict[str, Any] = {"name": symbol.name, "integer": domain.integer}
    for end, (field, bound) in ends.items():
        written = spec.get(field) if isinstance(spec, dict) else None
        if bound is None:
            variable[end] = None
        elif bound.is_Rational:
            variable[end] = ["rat", rational_text(_fraction(bound))]
        else:
            variable[end] = parse_tree(written, names)
    variable["low_open"], variable["high_open"] = domain.low_open, domain.high_open
    return {k: variable[k] for k in ("name", "integer", "low", "low_open", "high", "high_open")}


def conditions_data(claim_id: str, conditions: Iterable[Condition]) -> list[dict[str, Any]]:
    """The definedness conditions as trees (the parser's, proved by the certificate, never assumed)."""
    try:
        return [{"expression": from_sympy(c.expr), "relation": c.relation} for c in conditions]
    except TreeError as exc:
        raise Rejected(f"claim {claim_id!r}: a definedness condition has no tree ({exc})") from None


def _fraction(value: sp.Rational) -> Fraction:
    return Fraction(int(value.p), int(value.q))
