"""A certificate's `claim` field: the claims-file claim it was written for, as provenance the kernel holds to a form.

The kernel proves a certificate's core statement and never reads a claim's meaning from this field (elaborating a
claim is not the kernel's job: `check-cert --claims FILE` elaborates the user's claim again and compares). Still,
nothing in a certificate goes unchecked: the field is null, or `{"toml": text}` where `text` is exactly
`claim_text` of one `[[claim]]` table (no comment, no other spacing or order), parsed here by the standard library,
without the claim's free text (`title`, `statement`): words the user wrote that no checker checks.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from typing import Any

from certificates.kernel.recheck import Rejected, require_keys

MAX_EMBEDDED_CHARS = 100_000
#: The fields of a claim that are the user's own words: never embedded, never printed by the checker.
FREE_TEXT = ("title", "statement")


@dataclass(frozen=True)
class TomlFloat:
    """The literal text of a TOML float, unrounded (`parse_float` hands it over as a string)."""

    text: str

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__


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
    raise Rejected(f"claim.toml: a TOML value cannot be {type(value).__name__}")  # dates: the schema refuses them


def check_claim_field(claim: object) -> None:
    """Rejected, naming what is wrong, unless `claim` is null or one canonical claim table without free text."""
    if claim is None:
        return
    require_keys(claim, {"toml"}, "the claim field (null or {'toml': <one [[claim]] table>})")
    text = claim["toml"]  # type: ignore[index]
    if not isinstance(text, str) or len(text) > MAX_EMBEDDED_CHARS:
        raise Rejected(f"claim.toml must be a text of at most {MAX_EMBEDDED_CHARS} characters")
    try:
        tables = tomllib.loads(text, parse_float=TomlFloat)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:
        raise Rejected(f"claim.toml is not TOML: {str(exc)[:120]}") from None
    if set(tables) != {"claim"} or not isinstance(tables["claim"], list) or len(tables["claim"]) != 1:
        raise Rejected("claim.toml holds exactly one [[claim]] table")
    if free := [key for key in FREE_TEXT if key in tables["claim"][0]]:
        raise Rejected(f"claim.toml: {free[0]} is free text: it is not checked, so a certificate does not embed it")
    if claim_text(tables["claim"][0]) != text:
        raise Rejected("claim.toml is not the canonical text of its fields (comments, spacing or order differ)")
