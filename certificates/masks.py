"""Attention masks given by a user (a claims file, the API, a model configuration): validated into the kernel's
masks (`headflow.certificates.kernel.masks`) with errors that name the offending field, and written back as rows.

A mask is "causal" or n rows of n entries 0/1 (or booleans) with 1 on the diagonal: every token attends to itself,
so every softmax row is normalized. The kernel reads a certificate's masks itself and rejects what is not one.
"""

from __future__ import annotations

from collections.abc import Sequence

from headflow.certificates.errors import InputError
from headflow.certificates.kernel.masks import Mask, causal

#: The named masks a claims file or the API may give instead of rows.
NAMED = ("causal",)
#: The most tokens of a mask given as rows in a model claim (which it then states for that n only).
MAX_GIVEN_TOKENS = 64


def mask_of(value: object, n: int, field: str = "mask") -> Mask | None:
    """The mask `value` denotes for n tokens: None (no mask), "causal", or n rows of n entries 0/1 (or booleans)
    with 1 on the diagonal; InputError naming `field` otherwise."""
    if value is None:
        return None
    if isinstance(value, str):
        if value.strip() == "causal":
            return causal(n)
        raise InputError(field, value, f"a mask is {' or '.join(NAMED)}, or n rows of 0/1 entries")
    if not isinstance(value, Sequence) and not hasattr(value, "tolist"):
        raise InputError(field, value, "a mask is n rows of n entries 0/1")
    rows = value.tolist() if hasattr(value, "tolist") else value  # type: ignore[union-attr]
    if not isinstance(rows, Sequence) or len(rows) != n:
        raise InputError(field, _short(rows), f"expected {n} rows (one per token)")
    mask = []
    for i, row in enumerate(rows):
        if not isinstance(row, Sequence) or isinstance(row, str) or len(row) != n:
            raise InputError(f"{field}[{i}]", _short(row), f"expected {n} entries 0/1")
        if any(isinstance(m, str) or m not in (0, 1) for m in row):
            raise InputError(f"{field}[{i}]", _short(row), "every entry is 0 or 1")
        mask.append(tuple(bool(m) for m in row))
    missing = [i for i in range(n) if not mask[i][i]]
    if missing:
        raise InputError(
            f"{field}[{missing[0]}][{missing[0]}]",
            0,
            "every token attends to itself (m_ii = 1), so that every softmax row is normalized",
        )
    return tuple(mask)


def mask_rows(mask: Mask) -> list[list[int]]:
    """The mask as rows of 0/1 integers (what a certificate or report writes)."""
    return [[int(m) for m in row] for row in mask]


def _short(value: object) -> object:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
