"""Certificates of the registry's inner-product identities (kind `gram`): the kernel's table entry, checked, written;
and of the claims-file model claims that are one of them.

The statement is the kernel's own (`certificates.kernel.registry_statements.expected`, built by
`certificates.statements.inner_products`); the payload is empty, since the kernel re-derives every expansion itself
(`certificates.kernel.inner_products`). The writer runs that same check first and writes nothing it would reject.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.schema import DynamicsClaim, ModelClaim, UserClaim
from headflow.certificates.kernel import inner_products, registry_statements
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.statements import pointwise
from headflow.certificates.statements.gram import GRAM
from headflow.certificates.statements.model import elaborate
from headflow.certificates.store import write_certificate


def certify(claim_id: str, directory: Path) -> Path:
    """The path of the claim's `gram` certificate, after the kernel's check accepted it (Rejected otherwise)."""
    statement = registry_statements.expected(claim_id, {})
    inner_products.check(statement, claim_id, {}, 0)
    return write_certificate(directory, claim_id, "gram", {}, statement=statement)


def certify_model(claim: ModelClaim, directory: Path) -> Path | None:
    """The `gram` certificate of a claims-file model claim that is one of the paper's identities (the kernel's table
    lists a model statement that implies the claim's: `registry_statements.implying_identity`), or of an existence
    claim that one of them denies (the statement is then its universal negation: `statements.model.elaborate`),
    after the kernel's check accepted it; None for any other claim."""
    return _certified(claim, elaborate(claim, "gram", {}), directory)


def certify_pointwise(claim: DynamicsClaim, directory: Path) -> Path | None:
    """The `gram` certificate of a dynamics claim PROVED through its pointwise statement (`pointwise.proof`, the
    statement `check-cert --claims` elaborates too), when the kernel's table lists it under one of the paper's
    identities; None otherwise."""
    return _certified(claim, pointwise.proof(claim), directory)


def _certified(claim: UserClaim, statement: dict[str, Any] | None, directory: Path) -> Path | None:
    """The certificate of the claim with this model statement, once the kernel's check accepted it (else None)."""
    if statement is None:
        return None
    try:
        registry_statements.model_check(statement, claim.id, "gram", {}, 0)
    except Rejected:
        return None
    return write_certificate(directory, claim.id, "gram", {}, embedded(claim), statement)


def has_certificate(claim_id: str) -> bool:
    """Whether the claim's identities are stated for a `gram` certificate."""
    return claim_id in GRAM
