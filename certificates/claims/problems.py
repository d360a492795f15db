"""Errors of claims files, located at the claim id, line and column of the offending text."""

from __future__ import annotations

from typing import Any

from headflow.certificates.errors import InputError


class ExpressionError(InputError):
    """Formula text the restricted grammar rejects; `column` is 1-based within the text (0: unknown)."""

    def __init__(self, text: str, reason: str, column: int = 0) -> None:
        super().__init__("expression", text, reason)
        self.column = column


class ClaimsFileError(InputError):
    """A claims file that cannot be accepted, with where it went wrong (one line, for exit code 2)."""

    def __init__(
        self,
        path: str,
        reason: str,
        claim_id: str | None = None,
        key: str | None = None,
        value: Any = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        super().__init__(key or "file", value, reason)
        self.path, self.claim_id, self.key, self.line, self.column = path, claim_id, key, line, column
        where = path
        if line is not None:
            where += f":{line}" + (f":{column}" if column else "")
        parts = [where]
        if claim_id is not None:
            parts.append(f"claim {claim_id!r}")
        if key is not None:
            parts.append(key if value is None else f"{key}={self._short(value)}")
        self.args = (f"{': '.join(parts)}: {reason}",)

    @staticmethod
    def _short(value: Any, limit: int = 60) -> str:
        text = repr(value)
        return text if len(text) <= limit else text[: limit - 3] + "..."
