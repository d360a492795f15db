"""The one exception type for bad input, so every front end can report it in one line."""

from __future__ import annotations

from typing import Any


class InputError(ValueError):
    """Invalid user-supplied input; the message names the offending field and value (none for a missing one)."""

    def __init__(self, field: str, value: Any, reason: str) -> None:
        self.field = field
        self.value = value
        self.reason = reason
        super().__init__(f"{field}: {reason}" if value is None else f"{field}={_short(value)}: {reason}")


class BudgetExceeded(RuntimeError):
    """A procedure ran out of its time or size budget; reported as INCONCLUSIVE."""


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
