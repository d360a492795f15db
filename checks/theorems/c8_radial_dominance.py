"""Condition 8: radial dominance implies per-head monotonicity (per-token form), and the summed form.

Both are proved in `headflow.identities.energy` on top of Theorem 17's decomposition (PROVED).
"""

from __future__ import annotations

from headflow.checks.registry import REGISTRY
from headflow.identities import energy

_STATEMENTS: tuple[tuple[str, str, str], ...] = (
    (
        "C8.radial-dominance",
        "Condition 8: radial dominance implies per-head monotonicity",
        "Under the hypotheses of T17.shadow-decomposition, if sum_{h' != h} a^h_i a^h'_i <= T^h_i "
        "for every token i (Condition 8, per-token form) then dE_h/dt >= 0.",
    ),
)

REGISTRY.declare_all(_STATEMENTS)


REGISTRY.declare(
    "C8.radial-dominance.reading-b",
    "Condition 8 summed over tokens",
    "Under the hypotheses of T17.shadow-decomposition, for every head h: sum_i sum_{h' != h} a^h_i a^h'_i <= "
    "sum_i T^h_i holds if and only if dE_h/dt >= 0 (the summed form is equivalent to per-head monotonicity; "
    "the per-token form of C8.radial-dominance implies it).",
)


REGISTRY.derivations(
    __name__,
    (
        ("C8.radial-dominance", energy.prove_radial_dominance, energy.METHOD + "; per-token Condition 8"),
        ("C8.radial-dominance.reading-b", energy.prove_summed_radial_dominance, energy.METHOD + "; summed Condition 8"),
    ),
)
