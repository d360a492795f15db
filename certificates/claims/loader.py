"""Read a claims file (TOML, `[[claim]]` tables) into validated claims, or fail with one located error.

tomllib reports no positions for values, so positions are recovered from the raw text: the
n-th `[[claim]]` header starts the n-th claim, and inside it the line holding a key (and the
column of an expression's text on that line) is searched for. Where that fails (inline arrays,
multi-line strings) the error still names the claim id and the field. Floats are read with
`parse_float=TomlFloat`, so they reach the schema as their literal text (`headflow.certificates.claims.numbers`).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from headflow.certificates.claims.numbers import TomlFloat
from headflow.certificates.claims.problems import ClaimsFileError, ExpressionError
from headflow.certificates.claims.schema import UserClaim, validate_claim, with_parts
from headflow.certificates.errors import InputError
from headflow.certificates.kernel.loading import RefusedFile, read_bounded

MAX_FILE_BYTES = 1_000_000
MAX_CLAIMS = 1000

_HEADER = re.compile(r"^\s*\[\[\s*claim\s*\]\]\s*(#.*)?$")


def load_claims(path: str | Path) -> list[UserClaim]:
    """The claims of the file at `path`, in file order; ClaimsFileError (an InputError) otherwise."""
    name = str(path)
    try:
        data = read_bounded(path, MAX_FILE_BYTES)
    except RefusedFile as exc:
        raise ClaimsFileError(name, str(exc.strerror)) from None
    except OSError as exc:
        raise ClaimsFileError(name, f"cannot read the file ({exc.strerror or exc})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ClaimsFileError(name, "not UTF-8 text") from None
    return parse_claims(text, name, Path(path).parent)


def parse_claims(text: str, name: str = "<claims>", base: Path | None = None) -> list[UserClaim]:
    """The claims of TOML `text` (`name` is used in error messages; the data files a claim names are read from
    inside the folder `base`, `headflow.certificates.claims.data_files`; None: a claim may name no data file)."""
    try:
        document = tomllib.loads(text, parse_float=TomlFloat)  # floats keep their literal text: nothing is rounded
    except tomllib.TOMLDecodeError as exc:
        raise ClaimsFileError(name, f"not valid TOML: {exc}") from None
    except RecursionError:
        raise ClaimsFileError(name, "not valid TOML: nested too deeply") from None
    unknown = sorted(set(document) - {"claim"})
    if unknown:
        raise ClaimsFileError(name, "unknown top-level key (a claims file holds [[claim]] tables only)", key=unknown[0])
    raw_claims = document.get("claim")
    if not isinstance(raw_claims, list) or not raw_claims:
        raise ClaimsFileError(name, "no claims: add at least one [[claim]] table")
    if len(raw_claims) > MAX_CLAIMS:
        raise ClaimsFileError(name, f"more than {MAX_CLAIMS} claims")
    blocks = _claim_blocks(text, len(raw_claims))
    claims: list[UserClaim] = []
    seen: set[str] = set()
    for index, raw in enumerate(raw_claims):
        block = blocks[index] if blocks else None
        line = None if block is None else block[0] + 1
        claim_id = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), str) else None
        try:
            claim = validate_claim(raw, line, base)
        except InputError as exc:
            raise _located(name, text, block, claim_id, exc) from None
        for named in with_parts([claim]):
            if named.id in seen:
                raise ClaimsFileError(name, "duplicate claim id (a part's id counts)", named.id, "id", line=line)
            seen.add(named.id)
        claims.append(claim)
    return claims


def _claim_blocks(text: str, count: int) -> list[tuple[int, int]] | None:
    """(first, end) line indices of each `[[claim]]` table, or None when they cannot be matched up."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if _HEADER.match(line)]
    if len(starts) != count:
        return None
    return list(zip(starts, [*starts[1:], len(lines)], strict=True))


def _located(
    name: str, text: str, block: tuple[int, int] | None, claim_id: str | None, exc: InputError
) -> ClaimsFileError:
    """The error of one claim with the line (and column, for expressions) where it occurs."""
    line = column = None
    if block is not None:
        lines = text.splitlines()
        key = exc.field.split(".")[-1].split(" ")[0]
        key_pattern = re.compile(rf"(^|[\s{{,]){re.escape(key)}\s*=")
        candidates = [i for i in range(*block) if key_pattern.search(lines[i])]
        line = candidates[0] + 1 if candidates else block[0] + 1
        if isinstance(exc, ExpressionError) and isinstance(exc.value, str):
            for i in candidates or range(*block):
                at = lines[i].find(exc.value)
                if at >= 0:
                    line, column = i + 1, at + max(exc.column, 1)
                    break
    return ClaimsFileError(name, exc.reason, claim_id, exc.field, exc.value, line, column)
