"""Certificates of the registry's inner-product identities (kind `gram`): the kernel's table entry, checked, written.

The statement is the kernel's own (`certificates.kernel.registry_statements.expected`, built by
`certificates.statements.inner_products`); the payload is empty, since the kernel re-derives every expansion itself
(`certificates.kernel.inner_products`). The writer runs that same check first and writes nothing it would reject.
"""

from __future__ import annotations

from pathlib import Path

from headflow.certificates.kernel import inner_products, registry_statements
from headflow.certificates.statements.gram import GRAM
from headflow.certificates.store import write_certificate


def certify(claim_id: str, directory: Path) -> Path:
    """The path of the claim's `gram` certificate, after the kernel's check accepted it (Rejected otherwise)."""
    statement = registry_statements.expected(claim_id, {})
    inner_products.check(statement, claim_id, {}, 0)
    return write_certificate(directory, claim_id, "gram", {}, statement=statement)


def has_certificate(claim_id: str) -> bool:
    """Whether the claim's identities are stated for a `gram` certificate."""
    return claim_id in GRAM
