"""The certificate file format: JSON with schema version, claim, method, payload, tools and hash.

A certificate is one JSON object:
`{"schema", "claim_id", "statement", "method", "kind", "payload", "tools", "sha256"}`, where
`kind` is "smt", "interval-cover" or "witness" and `payload` holds the exact inputs and what
closes the proof (SMT-LIB2 text and answer, boxes with enclosures, or an exact witness).
`sha256` is the hash of the canonical JSON of every other field, so that any edit shows. Files
are written atomically; `verify_certificate` re-checks one from the file alone.
"""

from __future__ import annotations

import hashlib
import json
import platform
import re
from importlib import metadata
from pathlib import Path
from typing import Any

from checks.atomic import write_text_atomic

SCHEMA = "headflow-certificate/1"
KINDS = ("smt", "interval-cover", "witness")
FIELDS = ("schema", "claim_id", "statement", "method", "kind", "payload", "tools")


def canonical_json(content: dict[str, Any]) -> str:
    """The one serialization that is hashed: sorted keys, no spaces, ASCII only."""
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def content_hash(certificate: dict[str, Any]) -> str:
    """sha256 (hex) of the canonical JSON of the certificate's fields other than the hash."""
    content = {key: certificate[key] for key in FIELDS if key in certificate}
    return hashlib.sha256(canonical_json(content).encode("ascii")).hexdigest()


def tool_versions() -> dict[str, str]:
    """Versions of the tools whose arithmetic a certificate relies on (for the record)."""
    versions = {"python": platform.python_version()}
    for name, dist in (("z3", "z3-solver"), ("flint", "python-flint"), ("sympy", "sympy"), ("headflow", "headflow")):
        try:
            versions[name] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[name] = "unknown"
    return versions


def build_certificate(claim_id: str, statement: str, method: str, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    """The certificate object (with its hash) for the given content."""
    if kind not in KINDS:
        raise ValueError(f"unknown certificate kind {kind!r}")
    certificate: dict[str, Any] = {
        "schema": SCHEMA,
        "claim_id": claim_id,
        "statement": statement,
        "method": method,
        "kind": kind,
        "payload": payload,
        "tools": tool_versions(),
    }
    certificate["sha256"] = content_hash(certificate)
    return certificate


def write_certificate(
    directory: Path, claim_id: str, statement: str, method: str, kind: str, payload: dict[str, Any]
) -> Path:
    """Write a certificate atomically into `directory`; the name carries the claim, kind and hash."""
    certificate = build_certificate(claim_id, statement, method, kind, payload)
    safe_id = re.sub(r"[^A-Za-z0-9._-]", "_", claim_id)
    path = Path(directory) / f"{safe_id}.{kind}.{certificate['sha256'][:12]}.json"
    write_text_atomic(path, json.dumps(certificate, indent=1, sort_keys=True) + "\n")
    return path


def verify_certificate(path: Path) -> tuple[bool, str]:
    """(ok, one-line reason): re-check a certificate from the file alone (see certificates.verify)."""
    from certificates.verify import verify_file

    return verify_file(Path(path))


DEFAULT_DIRECTORY = Path("certs")


def certificate_directory(directory: Path | None) -> Path:
    """Where a procedure writes its certificates: the context's folder, else ./certs."""
    return Path(directory) if directory is not None else DEFAULT_DIRECTORY
