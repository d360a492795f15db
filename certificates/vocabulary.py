"""The model's vocabulary beyond what the kernel checks: typed names, the spherical schemes and size limits.

The kernel's part (`headflow.certificates.kernel.vocabulary`) names the attention kinds and normalization schemes a core
statement may use; the numeric configuration (`headflow.checks.model.configuration`), the claims-file schema and the
simulations add here what only they need: the kinds and schemes as typing Literals (held equal to the kernel's
tuples by a test), the schemes whose integrator keeps the tokens on the sphere, and the size limits of numeric
evaluations.
"""

from __future__ import annotations

from typing import Literal

Attention = Literal["usa", "softmax", "relu"]
#: The dynamics' normalization scheme (docs/models.md, "Normalization"): `sphere` is Post-LN (the tokens kept on the
#: sphere, the paper's model), `flat` the unnormalized flow in space, and the speed-regulation schemes `pre-ln`,
#: `peri-ln`, `mix-ln` (the residual stream in space, attention reading its directions) and `ngpt` (on the sphere).
Geometry = Literal["sphere", "flat", "pre-ln", "peri-ln", "mix-ln", "ngpt"]
#: The schemes whose tokens stay on the unit sphere (the integrator retracts to it; tokens must be unit).
SPHERICAL_GEOMETRIES: tuple[str, ...] = ("sphere", "ngpt")

#: Size limits that keep every evaluation within memory on a small machine.
MAX_TOKENS = 20_000
MAX_DIMENSION = 4_096
MAX_HEADS = 256
