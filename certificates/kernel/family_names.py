"""The named families of configurations: their names, hypotheses and search freedoms, as a pure table.

TOKEN_FAMILIES and HEAD_FAMILIES are the one vocabulary of families: the claims-file schema, the
witness membership test, the dynamics decider and its adversarial search read names, hypotheses
and freedoms from here. The table holds no numbers to draw, so the claims-file checker reads it
without numpy; the seeded draws of each name are in `checks.model.families`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

Options = Mapping[str, Any]
"""A family's parameters as a claims file states them: scale (heads), lambdas, delta, rho."""


@dataclass(frozen=True)
class TokenFamily:
    """Named initial tokens; `free` when every unit-token configuration near a member is a member too (so
    the adversarial search may move the tokens and a rounded state stays in it); `needs_d_at_least_n` when
    the family has no member with fewer dimensions than tokens, `min_d` its least dimension."""

    name: str
    free: bool
    needs_d_at_least_n: bool = False
    min_d: int = 1


@dataclass(frozen=True)
class HeadFamily:
    """Named heads: the hypotheses (`certificates.kernel.ball_model.HYPOTHESES`) every member satisfies and no
    generic member exceeds, `moves` ("symmetric" or "general") when the adversarial search may move the
    heads within the family, `rounds` when exact data rounded from a member (scalar heads reset to the
    stated strengths) is a member, and `needs_d_at_least_H` when each head needs a coordinate of its own."""

    name: str
    hypotheses: tuple[str, ...]
    moves: str | None = None
    rounds: bool = False
    needs_d_at_least_H: bool = False


TOKEN_FAMILIES: dict[str, TokenFamily] = {
    f.name: f
    for f in (
        TokenFamily("random-sphere", free=True),
        TokenFamily("orthogonal", free=False, needs_d_at_least_n=True),
        TokenFamily("equiangular", free=False, needs_d_at_least_n=True),
        TokenFamily("rational-sphere", free=True, min_d=2),
    )
}
"""The token families a claims file names, in the order it lists them."""

HEAD_FAMILIES: dict[str, HeadFamily] = {
    f.name: f
    for f in (
        HeadFamily("scalar", ("symmetric-scores", "scalar-heads"), rounds=True),
        HeadFamily("random-symmetric", ("symmetric-scores",), moves="symmetric", rounds=True),
        HeadFamily("random-general", (), moves="general", rounds=True),
        HeadFamily("orthogonal-subspace", ("symmetric-scores", "orthogonal-heads"), needs_d_at_least_H=True),
        HeadFamily("approximately-orthogonal", ("symmetric-scores",), needs_d_at_least_H=True),
    )
}
"""The head families a claims file names, in the order it lists them."""

#: The short names of the families that `headflow simulate` offers and the numeric checks sample.
SHORT_TOKEN_NAMES = {"random": "random-sphere", "orthogonal": "orthogonal", "equiangular": "equiangular"}
SHORT_HEAD_NAMES = {
    "scalar": "scalar",
    "symmetric": "random-symmetric",
    "orthogonal": "orthogonal-subspace",
    "general": "random-general",
}
