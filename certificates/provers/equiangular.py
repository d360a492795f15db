"""Certificates of claims on the cluster gap of equiangular tokens (kind and form `equiangular`).

The statement is `certificates.statements.equiangular.statement` (the one `check-cert --claims` elaborates); the
payload says only whether the claim holds, the point a refutation is at and its witness (None otherwise), which the
statement says too (`check-cert --claims` elaborates the statement from them). The writer runs the kernel's check first
and writes nothing it would reject.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.kernel import equiangular
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.statements.equiangular import registry_statement, statement
from headflow.certificates.store import write_certificate


def certify(
    claim: DynamicsClaim,
    holds: bool,
    directory: Path,
    point: dict[str, str] | None = None,
    witness: dict[str, Any] | None = None,
) -> Path | None:
    """The certificate that the claim holds (or fails, at `point` of its parameters when given; `witness`, where a
    quantity of the table fails: `statement`), once the kernel's check accepted it; None when the form does not state
    the claim or the kernel refuses it."""
    return _certified(claim.id, statement(claim, holds, point, witness), embedded(claim), directory)


def accepted(claim: DynamicsClaim, holds: bool) -> bool:
    """Whether the kernel accepts the statement that the claim holds (or fails), without writing a certificate."""
    return _checked(claim.id, statement(claim, holds))


def certify_registry(claim_id: str, directory: Path) -> Path | None:
    """The certificate of a registry claim that is an `equiangular` statement (`registry_statement`), as `certify`."""
    return _certified(claim_id, registry_statement(claim_id), None, directory)


def _certified(
    claim_id: str, stated: dict[str, Any] | None, claim: dict[str, Any] | None, directory: Path
) -> Path | None:
    if stated is None or not _checked(claim_id, stated):
        return None
    return write_certificate(directory, claim_id, equiangular.FORM, _payload(stated), claim, stated)


def _checked(claim_id: str, stated: dict[str, Any] | None) -> bool:
    try:
        return stated is not None and bool(equiangular.check(stated, claim_id, equiangular.FORM, _payload(stated), 0))
    except Rejected:
        return False


def _payload(stated: dict[str, Any]) -> dict[str, Any]:
    """What the payload says: whether the claim holds, the point it fails at and its witness (the statement's own)."""
    return {"holds": stated["holds"], "point": stated["point"], "fails_at": stated["fails_at"]}
