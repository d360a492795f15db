"""Reading a certificate file: its size, JSON (no duplicate key, no NaN), fields, schema, tools and checksum.

What every check of a certificate starts from (`verify.check_file`, the claims-file embedding, the Coq files):
the object is returned only when the file is a well-formed certificate of the current format, unmodified.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from certificates.kernel import format as fmt
from certificates.kernel.reading import RefusedFile, read_bounded
from certificates.kernel.recheck import Rejected, require_keys


def load(path: Path) -> dict[str, Any]:
    """The certificate object, after the size, JSON (no duplicate key, no NaN), field, schema, tools and
    checksum checks."""
    try:
        certificate = json.loads(
            read_bounded(path, fmt.MAX_FILE_BYTES).decode("utf-8"), object_pairs_hook=_unique, parse_constant=_constant
        )
    except RefusedFile as exc:
        raise Rejected(f"file {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise Rejected(f"not JSON: {str(exc)[:120]}") from None
    require_keys(certificate, (*fmt.FIELDS, "sha256"), "the certificate")  # the checker checks every field it has
    if certificate["schema"] != fmt.SCHEMA:
        raise Rejected(f"unknown schema {str(certificate['schema'])[:60]!r} (expected {fmt.SCHEMA})")
    if certificate["kind"] not in fmt.KINDS:
        raise Rejected(f"unknown kind {str(certificate['kind'])[:60]!r}")
    if not isinstance(certificate["claim_id"], str) or not isinstance(certificate["payload"], dict):
        raise Rejected("claim_id must be a string and payload an object")
    if certificate["statement"] is not None and not isinstance(certificate["statement"], dict):
        raise Rejected("statement must be null or a core statement object")
    if certificate["claim"] is not None:  # provenance: `headflow check-cert` reads the text outside the kernel
        require_keys(certificate["claim"], {"toml"}, "the claim field (null or {'toml': <one [[claim]] table>})")
        if not isinstance(certificate["claim"]["toml"], str):
            raise Rejected("claim.toml must be the text of one [[claim]] table")
    require_keys(certificate["tools"], fmt.TOOLS, "tools")
    for name, version in certificate["tools"].items():
        if not isinstance(version, str) or not fmt.VERSION.match(version):
            raise Rejected(f"tools.{name}: not a version string")
    if fmt.content_hash(certificate) != certificate["sha256"]:
        raise Rejected("sha256 mismatch: the content was damaged or modified after it was written")
    return certificate


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all distinct (json.loads would keep the last value of a repeated key)."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise Rejected(f"duplicate key {key[:60]!r}: a certificate states each field once")
        data[key] = value
    return data


def _constant(name: str) -> Any:
    raise Rejected(f"{name} is not a JSON number")
