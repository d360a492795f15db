"""The model's vocabulary, once: its attention kinds, geometries and size limits.

The numeric configuration (`checks.model.configuration`), the exact-data model (`ball_model`) and the
claims-file schema all read these names, so a kind or a limit is declared in one place.
"""

from __future__ import annotations

from typing import Literal, get_args

Attention = Literal["usa", "softmax", "relu"]
Geometry = Literal["sphere", "flat"]
ATTENTION_KINDS: tuple[str, ...] = get_args(Attention)
GEOMETRIES: tuple[str, ...] = get_args(Geometry)
#: The kinds whose weights are smooth in the tokens (the jets over boxes of `ball_model.velocity_field` need them).
SMOOTH_KINDS: tuple[str, ...] = ("usa", "softmax")
#: The kinds whose weights may come from a stated interaction function phi(s) (`certificates.kernel.interaction`):
#: usa unnormalized (phi(s_ij), v = (1/n) sum_h f^h), softmax normalized (phi(s_ij) / sum_k phi(s_ik)).
INTERACTION_KINDS: tuple[str, ...] = ("usa", "softmax")

#: Size limits that keep every evaluation within memory on a small machine.
MAX_TOKENS = 20_000
MAX_DIMENSION = 4_096
MAX_HEADS = 256
