"""Exactly-unit rational points: the sphere's rational parametrisation, for exact witness data."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction


def stereographic_lift(t: Sequence[Fraction]) -> list[Fraction]:
    """Inverse stereographic projection R^{d-1} -> S^{d-1}: a rational t gives a rational unit x."""
    s = sum((ti * ti for ti in t), Fraction(0))
    return [2 * ti / (s + 1) for ti in t] + [(s - 1) / (s + 1)]
