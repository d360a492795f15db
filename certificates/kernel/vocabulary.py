"""The model's vocabulary, once: its attention kinds, geometries and size limits.

The numeric configuration (`checks.model.configuration`), the exact-data model (`ball_model`) and the
claims-file schema all read these names, so a kind or a limit is declared in one place.
"""

from __future__ import annotations

from typing import Literal, get_args

Attention = Literal["usa", "softmax", "relu"]
#: The dynamics' normalization scheme (docs/models.md, "Normalization"): `sphere` is Post-LN (the tokens kept on the
#: sphere, the paper's model), `flat` the unnormalized flow in space, and the speed-regulation schemes `pre-ln`,
#: `peri-ln`, `mix-ln` (the residual stream in space, attention reading its directions) and `ngpt` (on the sphere).
Geometry = Literal["sphere", "flat", "pre-ln", "peri-ln", "mix-ln", "ngpt"]
ATTENTION_KINDS: tuple[str, ...] = get_args(Attention)
GEOMETRIES: tuple[str, ...] = get_args(Geometry)
#: The schemes whose tokens stay on the unit sphere (the integrator retracts to it; tokens must be unit).
SPHERICAL_GEOMETRIES: tuple[str, ...] = ("sphere", "ngpt")
#: The schemes whose attention reads the directions y_i = x_i / |x_i| of a residual stream x_i in space.
DIRECTION_GEOMETRIES: tuple[str, ...] = ("pre-ln", "peri-ln", "mix-ln")
#: The Pre-LN share a of `mix-ln`: xdot_i = (1 - a) P⊥_{y_i} v_i + a v_i (Mix-LN's default: a quarter of the layers
#: Post-LN, the rest Pre-LN).
MIX_LN_PRE_SHARE = (3, 4)
#: The kinds whose weights are smooth in the tokens (the jets over boxes of `ball_model.velocity_field` need them).
SMOOTH_KINDS: tuple[str, ...] = ("usa", "softmax")
#: The kinds whose weights may come from a stated interaction function phi(s) (`certificates.kernel.interaction`):
#: usa unnormalized (phi(s_ij), v = (1/n) sum_h f^h), softmax normalized (phi(s_ij) / sum_k phi(s_ik)).
INTERACTION_KINDS: tuple[str, ...] = ("usa", "softmax")

#: Size limits that keep every evaluation within memory on a small machine.
MAX_TOKENS = 20_000
MAX_DIMENSION = 4_096
MAX_HEADS = 256
