"""Attention masks as data: which tokens j a token i attends to (m_ij = 1) or ignores (m_ij = 0).

A mask is an n x n table of 0/1 entries with m_ii = 1 on the diagonal: every token attends to itself, so every
softmax row sum_j m_ij exp(beta s_ij) is positive and the normalization is defined. The causal mask is the lower
triangle m_ij = 1 for j <= i (token i attends to tokens j <= i). In every representation a mask enters as a factor
m_ij of each weight w_ij (softmax: normalized over the unmasked j), of each term of the energies
E_h = (1/(2 beta n^2)) sum_ij m_ij exp(beta s_ij), and of the attention distributions; `None` is no mask (m = 1).
The numpy model, the ball model and the claims files read masks through this module only.
"""

from __future__ import annotations

from collections.abc import Sequence

from certificates.kernel.errors import InputError

Mask = tuple[tuple[bool, ...], ...]
#: The named masks a claims file or the API may give instead of rows.
NAMED = ("causal",)


def causal(n: int) -> Mask:
    """m_ij = 1 for j <= i: token i attends to itself and the tokens before it."""
    return tuple(tuple(j <= i for j in range(n)) for i in range(n))


def is_causal(mask: Mask | None) -> bool:
    """Whether the mask is exactly the causal one of its size."""
    return mask is not None and mask == causal(len(mask))


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


#: The most tokens of a mask given as rows in a model claim (which it then states for that n only).
MAX_GIVEN_TOKENS = 64


def claim_mask(word: str, rows: Mask | None, n: int) -> Mask | None:
    """The mask a model claim puts on a configuration of n tokens: none, the causal one, or its given rows."""
    if word == "given":
        return rows
    return causal(n) if word == "causal" else None


def mask_text(word: str, rows: Mask | None) -> str:
    """How statements name a model claim's mask ("" for none)."""
    if word == "given" and rows is not None:
        return f"the mask {mask_rows(rows)}"
    return "causal mask" if word == "causal" else ""


def mask_rows(mask: Mask) -> list[list[int]]:
    """The mask as rows of 0/1 integers (what a certificate or report writes)."""
    return [[int(m) for m in row] for row in mask]


def _short(value: object) -> object:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
