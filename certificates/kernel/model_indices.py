"""The indices of model terms: which token and head a written name is at, and which indices a statement may leave free.

A model quantity is declared once under its name at the free token i and head h (`x_i`, `f_h_i`, `a_h_i`, `E_h`,
`s_h_ij` for a pair of tokens: `certificates.kernel.model_terms`). The same quantity at other indices is
written with them in place: tokens i, j and heads h, g (`x_j`, `f_g_i`, `a_g_j`, `E_g`, `s_h_ji`, `p_g_jj`). `resolve`
maps a written name to its declared name and the letters that fill its slots; nothing else is a name.

Only i and h may stay free (the statement is for every token i and every head h); j and g are a second token and a
second head, meaningful only under the sum that binds them (`sum_j`, `sum_g`): `unbound` names the first that is not.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Token and head indices, in the order their sums are written.
TOKENS = ("i", "j")
HEADS = ("h", "g")
#: The indices a statement may leave free (every token i, every head h).
FREE = frozenset({"i", "h"})
#: How each second index is bound.
BINDER = {"j": "sum_j", "g": "sum_g"}


@dataclass(frozen=True)
class Slots:
    """The letters at a declared name's slots: its head (h or g), its token (i or j), its token pair (two letters)."""

    head: str | None = None
    token: str | None = None
    pair: tuple[str, str] | None = None

    @property
    def letters(self) -> frozenset[str]:
        return frozenset(k for k in (self.head, self.token, *(self.pair or ())) if k is not None)


def resolve(written: str, declared: set[str] | dict[str, object]) -> tuple[str, Slots] | None:
    """(declared name, slots) of a written name, or None when no declared name has its shape.

    The segments after the first (separated by `_`) that are an index are read as slots: h or g a head, i or j a
    token, a two-letter word of i and j a token pair; the declared name has h, i, ij there."""
    parts = written.split("_")
    head = token = None
    pair: tuple[str, str] | None = None
    canonical = [parts[0]]
    for part in parts[1:]:
        if part in HEADS and head is None:
            head, part = part, "h"
        elif part in TOKENS and token is None:
            token, part = part, "i"
        elif len(part) == 2 and set(part) <= set(TOKENS) and pair is None:
            pair, part = (part[0], part[1]), "ij"
        canonical.append(part)
    name = "_".join(canonical)
    if name not in declared:
        return None
    return name, Slots(head, token, pair)


def unbound(free: frozenset[str]) -> str | None:
    """The reason a side's free indices are not allowed (a second index not bound by its sum), or None."""
    for index in sorted(free - FREE):
        what = "token" if index in TOKENS else "head"
        return f"index {index} is not bound: a second {what} is written inside {BINDER[index]}(...)"
    return None
