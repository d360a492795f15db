"""A claims-file claim embedded in its certificate exactly as written, and read back with the same parser.

A certificate of a claims-file claim carries `{"toml": "<one [[claim]] table>"}`: the claim's
own fields, rendered back to TOML (strings, integers, booleans, float literals with their
original text, arrays and inline tables), except its free text (`title`, `statement`): the checker
checks every field it accepts and prints only what it generates from them, so an embedded claim with
free text is rejected, and so is one whose text is not exactly `claim_text` of its parsed fields (no
comment, no other spacing or order). `headflow check-cert` parses that text with the claims-file loader itself, so
the obligation it re-derives is the claim as the user wrote it, read by the same safe parser;
`--claims FILE` compares the embedded fields with the claim of the same id in the user's file.
"""

from __future__ import annotations

import json
from typing import Any

from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.claims.numbers import TomlFloat
from headflow.certificates.claims.schema import UserClaim
from headflow.certificates.errors import InputError

MAX_EMBEDDED_CHARS = 100_000
#: The fields of a claim that are the user's own words: never embedded, never printed by the checker.
FREE_TEXT = ("title", "statement")


def claim_text(raw: dict[str, Any]) -> str:
    """The TOML text of one `[[claim]]` table holding exactly these fields."""
    return "[[claim]]\n" + "".join(f"{_value(key)} = {_value(value)}\n" for key, value in raw.items())


def _value(value: object) -> str:
    """A TOML value (a string as a basic string: JSON's escapes are TOML basic-string escapes)."""
    if isinstance(value, bool | str):
        return json.dumps(value, ensure_ascii=True)
    if isinstance(value, TomlFloat | int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_value(k)} = {_value(v)}" for k, v in value.items()) + " }"
    raise InputError("claim", type(value).__name__, "a claim's TOML value is a string, number, array or table")


def checked_fields(raw: dict[str, Any]) -> dict[str, Any]:
    """The claim's fields without its free text: what a certificate embeds and the checker checks."""
    return {key: value for key, value in raw.items() if key not in FREE_TEXT}


def embedded(claim: UserClaim) -> dict[str, str]:
    """The `claim` field of a certificate of this claims-file claim."""
    return {"toml": claim_text(checked_fields(claim.raw))}


def read_embedded(fields: object) -> UserClaim:
    """The claim a certificate embeds, parsed by the claims-file loader (InputError when it is not one claim)."""
    if isinstance(fields, dict) and set(fields) - {"toml"}:
        field = sorted(set(fields) - {"toml"})[0]
        raise InputError(f"claim.{field[:60]}", "...", "unknown field: the claim field holds only 'toml'")
    if not isinstance(fields, dict) or set(fields) != {"toml"} or not isinstance(fields["toml"], str):
        raise InputError("claim", fields, "a claims-file certificate embeds {'toml': <one [[claim]] table>}")
    if len(fields["toml"]) > MAX_EMBEDDED_CHARS:
        raise InputError("claim", "...", f"an embedded claim has at most {MAX_EMBEDDED_CHARS} characters")
    claims = parse_claims(fields["toml"], "<embedded claim>")
    if len(claims) != 1:
        raise InputError("claim", len(claims), "a certificate embeds exactly one claim")
    free = [key for key in FREE_TEXT if key in claims[0].raw]
    if free:
        raise InputError(free[0], "...", "free text is not checked, so a certificate does not embed it")
    if claim_text(claims[0].raw) != fields["toml"]:
        raise InputError("claim", "...", "not the canonical text of its fields (comments, spacing or order differ)")
    return claims[0]


def embedded_claim_mismatch(certificate: dict[str, Any], claims: dict[str, UserClaim]) -> str | None:
    """Why a loaded certificate (the object the kernel checked: the file is read once) does not embed the claim of its
    id in the user's file (None: it does). A registry certificate (no embedded claim) is not compared here: it is a
    lemma a claims-file claim may rest on, and the kernel holds its statement to its own table (`checks.rechecks`)."""
    if certificate.get("claim") is None:
        return "not a claims-file certificate: --claims compares only certificates of claims-file claims"
    mine = read_embedded(certificate["claim"])
    theirs = claims.get(mine.id)
    if theirs is None:
        return f"the certificate's claim {mine.id!r} is not in the claims file"
    if claim_text(checked_fields(theirs.raw)) != claim_text(mine.raw):
        return f"the certificate embeds claim {mine.id!r} with other fields than the claims file's"
    return None
