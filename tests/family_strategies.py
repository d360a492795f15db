"""A hypothesis strategy per named family of `certificates.kernel.family_names`: sizes and parameters inside the
family's domain, generic enough that the family has exactly the hypotheses it declares (H >= 2 and d >= 2, so
that no structure holds by accident; positive strengths, so that scalar heads are lambda I, lambda > 0).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

from certificates.kernel.family_names import HEAD_FAMILIES, TOKEN_FAMILIES
from checks.model import families

SEEDS = st.integers(0, 2**32 - 1)


@st.composite
def token_options(draw: st.DrawFn, name: str) -> dict[str, Any]:
    """n, d (d >= n for the families that need it) and rho for equiangular tokens."""
    n = draw(st.integers(2, 5))
    d = draw(st.integers(n if name in ("orthogonal", "equiangular") else 2, 6))
    options: dict[str, Any] = {"n": n, "d": d}
    if name == "equiangular":
        options["rho"] = draw(st.floats(-1 / (n - 1) + 0.05, 0.95))
    return options


@st.composite
def head_options(draw: st.DrawFn, name: str) -> dict[str, Any]:
    """H >= 2, d >= max(2, H), a scale, and the strengths or delta the family takes."""
    H = draw(st.integers(2, 4))
    options: dict[str, Any] = {"H": H, "d": draw(st.integers(max(2, H), 6)), "scale": draw(st.floats(0.25, 4.0))}
    if name == "scalar":
        options["lambdas"] = draw(st.lists(st.floats(0.1, 5.0), min_size=H, max_size=H))
    if name == "approximately-orthogonal":
        options["delta"] = draw(st.floats(0.05, 1.0))
    return options


@st.composite
def tokens_of(draw: st.DrawFn, name: str) -> np.ndarray:
    """Tokens drawn by the named token family."""
    options = draw(token_options(name))
    rng = np.random.default_rng(draw(SEEDS))
    return families.draw_tokens(name, options["n"], options["d"], rng, options)


@st.composite
def heads_of(draw: st.DrawFn, name: str) -> np.ndarray:
    """Heads drawn by the named head family."""
    options = draw(head_options(name))
    rng = np.random.default_rng(draw(SEEDS))
    return families.draw_heads(name, options["H"], options["d"], rng, options)


TOKEN_STRATEGIES = {name: tokens_of(name) for name in TOKEN_FAMILIES}
HEAD_STRATEGIES = {name: heads_of(name) for name in HEAD_FAMILIES}
