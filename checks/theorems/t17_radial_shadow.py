"""Theorem 17: the radial-shadow decomposition of dE_h/dt on the sphere, and the obstruction it allows.

Under orthogonality, dE_h/dt = (1/n^3) sum_i (T^h_i - sum_{h' != h} a^h_i a^h'_i) is proved in
`headflow.identities.energy` and cross-checked against the model (`headflow.checks.evidence.energy_rates`); that some
dE_h/dt can be negative (T17.shadow-obstruction) is CERTIFIED by a ball-verified witness
(`headflow.checks.evidence.energy_witnesses`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from headflow.checks.registry import REGISTRY, Context
from headflow.checks.verdicts import Outcome
from headflow.identities import energy

if TYPE_CHECKING:
    from matplotlib.figure import Figure
from headflow.checks.evidence.energy_rates import check_formula, t17_formula
from headflow.checks.evidence.energy_witnesses import SEARCHES, find_witness

_STATEMENTS: tuple[tuple[str, str, str], ...] = (
    (
        "T17.shadow-decomposition",
        "Theorem 17: the radial-shadow decomposition",
        "usa attention, symmetric heads with M_h M_h' = 0 (h != h'), W_h = M_h, spherical dynamics: "
        "dE_h/dt = (1/n^3) sum_i (T^h_i - sum_{h' != h} a^h_i a^h'_i) for every head h.",
    ),
    (
        "T17.shadow-obstruction",
        "Theorem 17: the radial-shadow obstruction",
        "There exist n, d, H, beta, tokens on S^{d-1} and symmetric heads with M_h M_h' = 0 exactly "
        "and W_h = M_h (usa, spherical dynamics) such that dE_h/dt < 0 for some head h.",
    ),
)

REGISTRY.declare_all(_STATEMENTS)


REGISTRY.derivations(
    __name__, (("T17.shadow-decomposition", lambda: energy.prove_shadow_decomposition().derivation, energy.METHOD),)
)


@REGISTRY.figure("T17.shadow-obstruction", "T17: total and per-head energies along a trajectory")
def _energies() -> Figure:
    from headflow.checks.reports import figures

    return figures.head_energy_curves()


@REGISTRY.procedure("T17.shadow-decomposition", "numeric")
def _t17_numeric(ctx: Context) -> Outcome:
    return check_formula(ctx, "sphere", t17_formula())


@REGISTRY.procedure("T17.shadow-obstruction", "witness")
def _obstruction(ctx: Context) -> Outcome:
    return find_witness(ctx, "T17.shadow-obstruction", SEARCHES["T17.shadow-obstruction"])
