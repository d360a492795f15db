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
from certificates.kernel.recheck import Rejected


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
    if not isinstance(certificate, dict):
        raise Rejected("not a JSON object")
    missing = [key for key in (*fmt.FIELDS, "sha256") if key not in certificate]
    if missing:
        raise Rejected(f"missing fields: {', '.join(missing)}")
    extra = sorted(set(certificate) - {*fmt.FIELDS, "sha256"})
    if extra:
        raise Rejected(f"unknown field {extra[0][:60]!r}: the checker checks every field and accepts no other")
    if certificate["schema"] != fmt.SCHEMA:
        raise Rejected(f"unknown schema {str(certificate['schema'])[:60]!r} (expected {fmt.SCHEMA})")
    if certificate["kind"] not in fmt.KINDS:
        raise Rejected(f"unknown kind {str(certificate['kind'])[:60]!r}")
    if not isinstance(certificate["claim_id"], str) or not isinstance(certificate["payload"], dict):
        raise Rejected("claim_id must be a string and payload an object")
    if certificate["statement"] is not None and not isinstance(certificate["statement"], dict):
        raise Rejected("statement must be null or a core statement object")
    _check_tools(certificate["tools"])
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


def _check_tools(tools: object) -> None:
    """`tools` records exactly the format's tools, each with a version string of the checked form."""
    if not isinstance(tools, dict):
        raise Rejected("tools must be an object of tool versions")
    extra = sorted(set(tools) - set(fmt.TOOLS))
    if extra:
        raise Rejected(f"tools: unknown field {extra[0][:60]!r}")
    missing = sorted(set(fmt.TOOLS) - set(tools))
    if missing:
        raise Rejected(f"tools: missing {', '.join(missing)}")
    for name, version in tools.items():
        if not isinstance(version, str) or not fmt.VERSION.match(version):
            raise Rejected(f"tools.{name}: not a version string")
