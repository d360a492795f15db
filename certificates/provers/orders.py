"""Certificates of asymptotic claims on the reduced clustering time whose order a table entry lists (form `order`,
`headflow.certificates.kernel.registry_statements.order_check`): the statement is the elaborator's
(`certificates.statements.orders`), the payload the verdict; the writer runs the kernel's check first and writes
nothing it rejects (an order no entry lists, or the opposite verdict)."""

from __future__ import annotations

from pathlib import Path

from headflow.certificates.claims.schema import AsymptoticClaim
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.registry_statements import order_check
from headflow.certificates.kernel.solvers import DEFAULT_SECONDS
from headflow.certificates.statements.orders import elaborate
from headflow.certificates.store import write_found


def certify(claim: AsymptoticClaim, holds: bool, directory: Path) -> Path | None:
    """The certificate that the claim holds (or fails), once the kernel accepts it; None when no entry lists it."""
    payload = {"holds": holds}
    statement = elaborate(claim, "smt", payload)
    if statement is None:
        return None
    try:
        order_check(statement, claim.id, "smt", payload, DEFAULT_SECONDS)
    except Rejected:
        return None
    return write_found(directory, claim, (statement, payload))
