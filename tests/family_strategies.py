"""A hypothesis strategy per named family of `headflow.certificates.families`, derived from its record: sizes
within the family's bounds on d and options within their declared domains (where every member has the family's
hypotheses, `Option.generic`), generic enough that the family has exactly the hypotheses it declares (H >= 2
and d >= 2, so that no structure holds by accident).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from headflow.certificates.claims.given_angles import given_angles
from headflow.certificates.claims.given_matrices import given_matrices
from headflow.certificates.claims.given_tokens import given_tokens
from headflow.certificates.families import HEAD_FAMILIES, TOKEN_FAMILIES, Family, Interval, Option
from headflow.checks.model import families
from hypothesis import strategies as st

SEEDS = st.integers(0, 2**32 - 1)
MAX_N, MAX_HEADS, MAX_D = 5, 4, 6
#: How far inside a finite end a drawn number stays, and the size of the numbers drawn where a domain is unbounded.
MARGIN, SIZE = 0.05, 4.0


def numbers_in(interval: Interval, n: int) -> st.SearchStrategy[float]:
    """Floats well inside `interval` for n tokens (MARGIN from a finite end, at most SIZE where it is unbounded)."""
    low = None if interval.low is None else float(interval.low.at(n)) + MARGIN
    high = None if interval.high is None else float(interval.high.at(n)) - MARGIN
    low = min(high or 0.0, 0.0) - SIZE if low is None else low
    return st.floats(low, max(low, 0.0) + SIZE if high is None else high)


def option_value(option: Option, n: int, H: int, d: int) -> st.SearchStrategy[Any]:
    """A value of a family's option (one per head when the option has one per head; a count from 1 to n; the user's
    tokens as n exact unit rows in R^d)."""
    if option.kind == "count":  # at most 3 groups: k centres 4 spread apart need not fit on S^1 for larger k
        return st.integers(1, min(n, 3))
    if option.kind == "tokens":
        return SEEDS.map(lambda seed: given_tokens("points", _rows(n, d, seed), None))
    if option.kind == "angles":  # rational multiples of pi and rational radians, as a claims file writes them
        angle = st.one_of(
            st.builds(lambda p, q: f"{p}*pi/{q}", st.integers(-12, 12), st.integers(1, 12)),
            st.builds(lambda p, q: f"{p}/{q}", st.integers(-20, 20), st.integers(1, 7)),
        )
        return st.lists(angle, min_size=n, max_size=n).map(lambda texts: given_angles("angles", texts, n))
    if option.kind == "matrices":
        return SEEDS.map(lambda seed: given_matrices(option.name, _matrices(H, d, seed), None))
    numbers = numbers_in(option.generic or option.domain, n)
    return st.lists(numbers, min_size=H, max_size=H) if option.per_head else numbers


@st.composite
def sizes_and_options(draw: st.DrawFn, family: Family) -> dict[str, Any]:
    """n, H >= 2, d from max(2, the family's least d) and a value of each option the family takes."""
    n, H = draw(st.integers(2, MAX_N)), draw(st.integers(2, MAX_HEADS))
    options: dict[str, Any] = {"n": n, "H": H, "d": draw(st.integers(max(2, family.least_d(n, H)), MAX_D))}
    return options | {o.name: draw(option_value(o, n, H, options["d"])) for o in family.options}


def _rows(n: int, d: int, seed: int) -> list[list[str]]:
    """n exact rational unit tokens in R^d, as the texts a claims file writes."""
    points = families.rational_sphere_tokens(n, d, np.random.default_rng(seed))
    return [[str(v) for v in row] for row in points]


def _matrices(H: int, d: int, seed: int) -> list[list[list[str]]]:
    """H general rational d x d matrices, as the texts a claims file writes: entry (0, 1) exceeds entry (1, 0) by
    h + 1 quarters in head h, so that no head is symmetric and no two heads are equal by accident of the draw."""
    entries = np.random.default_rng(seed).integers(-8, 9, (H, d, d))
    entries[:, 0, 1] = entries[:, 1, 0] + np.arange(1, H + 1)
    return [[[f"{int(v)}/4" for v in row] for row in M] for M in entries]


@st.composite
def tokens_of(draw: st.DrawFn, name: str) -> np.ndarray:
    """Tokens drawn by the named token family."""
    options = draw(sizes_and_options(TOKEN_FAMILIES[name]))
    rng = np.random.default_rng(draw(SEEDS))
    return families.draw_tokens(name, options["n"], options["d"], rng, options)


@st.composite
def heads_of(draw: st.DrawFn, name: str) -> np.ndarray:
    """Heads drawn by the named head family."""
    options = draw(sizes_and_options(HEAD_FAMILIES[name]))
    rng = np.random.default_rng(draw(SEEDS))
    return families.draw_heads(name, options["H"], options["d"], rng, options)


TOKEN_STRATEGIES = {name: tokens_of(name) for name in TOKEN_FAMILIES}
HEAD_STRATEGIES = {name: heads_of(name) for name in HEAD_FAMILIES}
