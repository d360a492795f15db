"""What a certificate of a claims-file claim must establish, re-derived from the claim's embedded fields.

`headflow check-cert` hands every certificate whose `claim` field is set to `check`: the embedded
TOML is parsed by the claims-file loader (the same safe parser as `headflow check`), and the
obligation is rebuilt from the parsed claim alone, never from the certificate's own description:
- inequality or identity: an smt certificate of the whole claim, `domain => defined and lhs op rhs`,
  whose one statement must be exactly the one `smt_statement.encode_claim` builds from the claim with
  the certificate's cuts (each validated with balls); z3 and cvc5 must find its negation unsat;
- dynamics: none here: its certificates carry a core statement (`certificates.kernel.dynamics_statements`);
- model and equilibrium: none here: their certificates carry a core statement (`certificates.kernel.model_statements`).
Constants and inequalities certified by covers carry their statement (form real,
`certificates.kernel.real_statements`); identities have no other certificates (they are PROVED symbolically or
REFUTED at a point).
What it prints is generated from what it checked: formulas rendered from the trees it evaluated or encoded
(`certificates.kernel.tree_text`), the domain from the parsed bounds, never the file's own text.
This module uses the checker's re-computations (`certificates.kernel.recheck`) and the claims-file reader,
never a decider.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from certificates.kernel import nonempty, recheck, smtlib
from certificates.kernel.claims.domains import Domain, domain_region
from certificates.kernel.claims.embedding import read_embedded
from certificates.kernel.claims.schema import (
    ConstantClaim,
    DynamicsClaim,
    IdentityClaim,
    InequalityClaim,
    UserClaim,
)
from certificates.kernel.claims.smt_statement import encode_claim
from certificates.kernel.errors import InputError
from certificates.kernel.exprtree import TreeError, from_sympy
from certificates.kernel.real_encoding import MAX_CUTS, Cut, CutError, NotEncodable
from certificates.kernel.recheck import Rejected
from certificates.kernel.regions import Region
from certificates.kernel.solvers import DEFAULT_SECONDS, recheck_unsat
from certificates.kernel.tree_text import term_text


def check(
    fields: dict[str, Any],
    claim_id: str,
    kind: str,
    payload: dict[str, Any],
    solver_seconds: float = DEFAULT_SECONDS,
) -> tuple[str, str]:
    """(what the certificate proves, how it was re-checked); Rejected when it is not the claim's obligation.

    An smt certificate gives each solver `solver_seconds` (`certificates.kernel.solvers.recheck_unsat`)."""
    claim = embedded_claim(fields, claim_id)
    if isinstance(claim, InequalityClaim | IdentityClaim):
        point = domain_point(claim)
        proved, how = _obligation(claim, kind, payload, solver_seconds)
        return proved, f"{how}; domain non-empty: {point} verified exactly"
    return _obligation(claim, kind, payload, solver_seconds)


def embedded_claim(fields: dict[str, Any], claim_id: str) -> UserClaim:
    """The claim a claims-file certificate embeds, parsed by the claims-file reader; Rejected when it does not
    parse or is not the claim the certificate is filed under."""
    try:
        claim = read_embedded(fields)
    except InputError as exc:
        raise Rejected(f"the embedded claim does not parse: {exc}") from None
    if claim.id != claim_id:
        raise Rejected(f"the certificate is filed under {claim_id[:80]!r} but embeds claim {claim.id!r}")
    return claim


def domain_point(claim: InequalityClaim | IdentityClaim) -> str:
    """The checker's own proof that the claim's domain is not empty (`certificates.kernel.nonempty`): a verified exact
    point, as text; Rejected when the domain is empty or no point is found (a vacuous claim proves nothing)."""
    try:
        settled = nonempty.settle(claim_region(claim))
    except TreeError as exc:
        raise Rejected(f"the domain of {claim.id!r} cannot be shown non-empty: {exc}") from None
    if settled.point is None:
        raise Rejected(f"claim {claim.id!r}: {settled.reason}")
    return settled.describe()


def _obligation(claim: UserClaim, kind: str, payload: dict[str, Any], solver_seconds: float) -> tuple[str, str]:
    if isinstance(claim, DynamicsClaim):
        raise Rejected("a dynamics claim's certificate carries its core statement (form dynamics); this one has none")
    if isinstance(claim, InequalityClaim | IdentityClaim) and kind == "smt":
        return _smt(claim, payload, solver_seconds)
    if isinstance(claim, ConstantClaim | InequalityClaim):
        raise Rejected(f"a {kind} certificate of a {claim.kind} claim carries its statement (form real)")
    raise Rejected(f"{claim.kind} claims have no certificates of kind {kind!r}")


def _require_kind(claim: UserClaim, kind: str, expected: str) -> None:
    if kind != expected:
        raise Rejected(f"a {claim.kind} claim is certified by a {expected} certificate, not {kind}")


def expr_text(expr: sp.Expr) -> str:
    """The checked expression as text: rendered from its tree, the one the checker evaluates."""
    return term_text(from_sympy(expr))


def relation_text(claim: InequalityClaim | IdentityClaim) -> str:
    """`lhs op rhs` of the claim, rendered from the checked trees of its sides."""
    op = claim.op if isinstance(claim, InequalityClaim) else "="
    return f"{expr_text(claim.lhs)} {op} {expr_text(claim.rhs)}"


def domain_text(claim: InequalityClaim | IdentityClaim) -> str:
    """`for all x in [a, b], n integer >= 2: ` from the parsed domains (empty without parameters)."""
    if not claim.order:
        return ""
    return "for all " + ", ".join(_side_text(s.name, claim.domains[s]) for s in claim.order) + ": "


def _side_text(name: str, domain: Domain) -> str:
    kind = " integer" if domain.integer else ""
    low = None if domain.low is None else expr_text(domain.low)
    high = None if domain.high is None else expr_text(domain.high)
    if low is not None and high is not None:
        return f"{name}{kind} in {'(' if domain.low_open else '['}{low}, {high}{')' if domain.high_open else ']'}"
    if low is not None:
        return f"{name}{kind} {'>' if domain.low_open else '>='} {low}"
    if high is not None:
        return f"{name}{kind} {'<' if domain.high_open else '<='} {high}"
    return f"{name}{kind or ' real'}"


def claim_region(claim: InequalityClaim) -> Region:
    """The claim's domain as covers see it (`domains.domain_region`: open ends are marked, and covers treat them as
    closed: a cover of more proves the claim)."""
    return domain_region(claim.domains, claim.order)


def _smt(claim: InequalityClaim | IdentityClaim, payload: dict[str, Any], seconds: float) -> tuple[str, str]:
    """The whole claim: z3 and cvc5 on the checker's own text of the statement re-derived from the claim."""
    text = smt_problem(claim, payload)
    how = recheck_unsat([text], seconds)
    statement = domain_text(claim) + relation_text(claim)
    proved = f"claims-file claim {claim.id!r}: {statement} (both sides defined on the whole domain)"
    cuts = len(payload["cuts"])
    return proved, f"{how}; statement re-derived from the claim, {cuts} Taylor cut(s) of exp checked with balls"


def smt_problem(claim: InequalityClaim | IdentityClaim, payload: dict[str, Any]) -> str:
    """The SMT-LIB2 text of the claim's statement with the payload's cuts (each validated with balls), after
    checking that the payload holds exactly that statement; Rejected otherwise."""
    recheck.require_keys(payload, {"logic", "cuts", "statements"}, "smt payload")
    if not isinstance(payload["cuts"], list) or len(payload["cuts"]) > MAX_CUTS:
        raise Rejected(f"cuts must be a list of at most {MAX_CUTS}")
    try:
        cuts = [Cut.from_data(data) for data in payload["cuts"]]
        mine = encode_claim(claim).statement(cuts).tree()
    except CutError as exc:
        raise Rejected(f"a cut is not valid: {exc}") from None
    except NotEncodable as exc:
        raise Rejected(f"claim {claim.id!r} has no SMT encoding ({exc})") from None
    integers = mine.get("integers", [])
    if payload["logic"] != smtlib.logic(integers):
        raise Rejected(f"logic {str(payload['logic'])[:40]!r}: the claim is stated in {smtlib.logic(integers)}")
    stated = payload["statements"]
    if not isinstance(stated, list) or len(stated) != 1 or not isinstance(stated[0], dict):
        raise Rejected("a claims-file smt certificate holds exactly one statement")
    for part in ("name", "constants", "integers", "hypotheses", "goal"):
        if stated[0].get(part) != mine.get(part):
            raise Rejected(f"the statement's {part} field differs from the encoding of claim {claim.id!r} and its cuts")
    if set(stated[0]) != set(mine):
        raise Rejected(f"unexpected statement fields {sorted(set(stated[0]) - set(mine))}")
    return smtlib.problem_text(mine["constants"], mine["hypotheses"], mine["goal"], integers)
