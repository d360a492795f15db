"""Writing certificate files: the content (see certificates.kernel.format), the tool versions, atomically.

Files are written complete or not at all; `headflow check-cert` (headflow.certificates.kernel.verify) re-checks
one from the file alone.
"""

from __future__ import annotations

import json
import platform
import re
from importlib import metadata
from pathlib import Path
from typing import Any

from headflow.certificates.atomic import write_text_atomic
from headflow.certificates.kernel.format import KINDS, SCHEMA, TOOLS, VERSION, content_hash
from headflow.certificates.statements import elaborate

#: The distribution of each tool a certificate records (`certificates.kernel.format.TOOLS`; "": the interpreter).
DISTRIBUTIONS = {"python": "", "z3": "z3-solver", "cvc5": "cvc5", "flint": "python-flint", "sympy": "sympy"}
DISTRIBUTIONS |= {"headflow": "headflow"}


def tool_versions() -> dict[str, str]:
    """Versions of the tools whose arithmetic a certificate relies on (for the record; a version not of the
    checked form, or not installed, is recorded as "unknown")."""
    versions = {}
    for name in TOOLS:
        dist = DISTRIBUTIONS[name]
        try:
            version = metadata.version(dist) if dist else platform.python_version()
        except metadata.PackageNotFoundError:
            version = "unknown"
        versions[name] = version if VERSION.match(version) else "unknown"
    return versions


def build_certificate(
    claim_id: str,
    kind: str,
    payload: dict[str, Any],
    claim: dict[str, Any] | None = None,
    statement: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The certificate object (with its checksum); `claim` holds a claims-file claim's own checked fields, and
    `statement` the core statement it proves (elaborated from the claim when not given)."""
    if kind not in KINDS:
        raise ValueError(f"unknown certificate kind {kind!r}")
    if statement is None:
        statement = elaborate(claim_id, kind, payload, claim)
    certificate: dict[str, Any] = {
        "schema": SCHEMA,
        "claim_id": claim_id,
        "claim": claim,
        "statement": statement,
        "kind": kind,
        "payload": payload,
        "tools": tool_versions(),
    }
    certificate["sha256"] = content_hash(certificate)
    return certificate


def write_certificate(
    directory: Path,
    claim_id: str,
    kind: str,
    payload: dict[str, Any],
    claim: dict[str, Any] | None = None,
    statement: dict[str, Any] | None = None,
) -> Path:
    """Write a certificate atomically into `directory`; the name carries the claim, kind and checksum (`statement`:
    the core statement, elaborated from the claim and payload when not given)."""
    certificate = build_certificate(claim_id, kind, payload, claim, statement)
    safe_id = re.sub(r"[^A-Za-z0-9._-]", "_", claim_id)
    path = Path(directory) / f"{safe_id}.{kind}.{certificate['sha256'][:12]}.json"
    write_text_atomic(path, json.dumps(certificate, indent=1, sort_keys=True) + "\n")
    return path


DEFAULT_DIRECTORY = Path("certs")


def certificate_directory(directory: Path | None) -> Path:
    """Where a procedure writes its certificates: the context's folder, else ./certs."""
    return Path(directory) if directory is not None else DEFAULT_DIRECTORY


def write_found(directory: Path, claim: Any, found: tuple[dict[str, Any], dict[str, Any]] | None) -> Path | None:
    """Write a claims-file claim's smt certificate from what a prover's search found and the kernel accepted
    ((statement, payload)); None when it found none."""
    from headflow.certificates.claims.embedding import embedded

    if found is None:
        return None
    statement, payload = found
    return write_certificate(directory, claim.id, "smt", payload, embedded(claim), statement)


def write_accepted(directory: Path, claim: Any, kind: str, payload: dict[str, Any], statement: Any) -> str | None:
    """Write a claims-file claim's certificate once the kernel's checker of its statement's form accepts it (the
    prover's check before it writes: a file the kernel rejects is never written); None without a statement or when
    the kernel rejects it."""
    from headflow.certificates.claims.embedding import embedded
    from headflow.certificates.kernel.recheck import Rejected
    from headflow.certificates.kernel.verify import FORMS

    if not isinstance(statement, dict) or statement.get("form") not in FORMS:
        return None
    try:
        FORMS[statement["form"]](statement, claim.id, kind, payload, 0.0)
    except Rejected:
        return None
    directory.mkdir(parents=True, exist_ok=True)
    return str(write_certificate(directory, claim.id, kind, payload, embedded(claim), statement))
