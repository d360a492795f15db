"""Theorem 12: robustness of the energy rate to value misalignment, W_h = M_h + Delta_h.

Decided in floats (`headflow.checks.evidence.energy_bounds`): the stated lower bound on dE/dt against the model's
exact chain-rule rate at random configurations, so at most CONFIRMED.
"""

from __future__ import annotations

from headflow.checks.evidence.energy_bounds import check_value_misalignment
from headflow.checks.registry import REGISTRY, Context
from headflow.checks.verdicts import Outcome

_STATEMENTS: tuple[tuple[str, str, str], ...] = (
    (
        "T12.value-misalignment",
        "Theorem 12: robustness to value misalignment",
        "usa attention, M_h symmetric, W_h = M_h + Delta_h, spherical dynamics: "
        "dE/dt >= (1/n) sum_i |xdot_i| (|xdot_i| - |delta_i|) with "
        "|delta_i| <= (1/n) sum_h |Delta_h|_op sum_j exp(beta s^h_ij); in particular dE/dt >= 0 "
        "whenever |xdot_i| >= that bound for every token.",
    ),
)

REGISTRY.declare_all(_STATEMENTS)


@REGISTRY.procedure("T12.value-misalignment", "numeric")
def _misalignment(ctx: Context) -> Outcome:
    return check_value_misalignment(ctx)
