"""The model's vocabulary that core statements use, once: its attention kinds and normalization schemes.

The exact-data model (`ball_model`), the statement checkers and, outside the kernel, the claims-file schema and the
numeric configuration read these names, so a kind or a scheme is declared in one place (what only the numeric side
needs, typed names and size limits, is `headflow.certificates.vocabulary`).
"""

ATTENTION_KINDS: tuple[str, ...] = ("usa", "softmax", "relu")
#: The dynamics' normalization schemes (docs/models.md, "Normalization"; `headflow.certificates.vocabulary.Geometry`).
GEOMETRIES: tuple[str, ...] = ("sphere", "flat", "pre-ln", "peri-ln", "mix-ln", "ngpt")
#: The schemes whose attention reads the directions y_i = x_i / |x_i| of a residual stream x_i in space.
DIRECTION_GEOMETRIES: tuple[str, ...] = ("pre-ln", "peri-ln", "mix-ln")
#: The Pre-LN share a of `mix-ln`: xdot_i = (1 - a) P⊥_{y_i} v_i + a v_i (Mix-LN's default: a quarter of the layers
#: Post-LN, the rest Pre-LN).
MIX_LN_PRE_SHARE = (3, 4)
#: The kinds whose weights are smooth in the tokens (the first-order series over boxes of
#: `ball_model.velocity_field` need them).
SMOOTH_KINDS: tuple[str, ...] = ("usa", "softmax")
#: The kinds whose weights may come from a stated interaction function phi(s) (`certificates.kernel.interaction`):
#: usa unnormalized (phi(s_ij), v = (1/n) sum_h f^h), softmax normalized (phi(s_ij) / sum_k phi(s_ik)).
INTERACTION_KINDS: tuple[str, ...] = ("usa", "softmax")
