"""Counterexample certificates of claims-file inequalities and identities: form `real`, kind `witness`.

A search (`checks.claimsfile`) finds an exact point of the domain where both sides are defined and `lhs op rhs`
fails, verified with balls. This writes it as a point witness whose conditions are the kernel's
(`certificates.kernel.real_statements.counterexample_conditions`: every definedness condition, then `rhs - lhs` with
the sign where the relation fails), after the kernel's own check of the statement and the point accepted it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import sympy as sp
from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.schema import UserClaim
from headflow.certificates.kernel import real_statements
from headflow.certificates.kernel.exprtree import TreeError, parse_rational
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.provers.witness import settle_point
from headflow.certificates.statements.real import refutable, relation_statement
from headflow.certificates.store import write_certificate


def certify_counterexample(
    claim: UserClaim, point: Mapping[str, str], directory: Path, statement: dict[str, Any] | None = None
) -> str | None:
    """The path of the certificate that the claim fails at the exact point (decimal or p/q texts by variable), or
    None when the claim has no statement of form `real`, the balls or the kernel do not settle the point, or its
    enclosures are too large to record (`witness.enclosure_text`: a TreeError, e.g. an end near 2^(-10^400)).
    `statement`: the claim's at one family of heads (`statements.head_families`), else the claim's own."""
    if statement is None and not refutable(claim):
        return None
    try:
        statement = statement or relation_statement(claim)
        failing = real_statements.counterexample_conditions(statement)
        conditions = [(c["name"], c["expression"], c["relation"]) for c in failing]
        result = settle_point(conditions, {sp.Symbol(k): parse_rational(v) for k, v in point.items()})
        if not result.verified:
            return None
        real_statements.check(statement, claim.id, "witness", result.record, 0)
    except (TreeError, Rejected):
        return None
    return str(write_certificate(directory, claim.id, "witness", result.record, embedded(claim), statement))


def witness_certificates(claim: UserClaim, witness: dict[str, Any], directory: Path) -> list[str]:
    """The certificate of a verified witness (of the point search or the SMT route), as a list: empty for a point
    where a side is undefined (no statement of that shape yet) or one the kernel does not accept."""
    path = None if "undefined" in witness else certify_counterexample(claim, witness["point"], directory)
    return [path] if path else []
