"""Theorem 16: with orthogonal, symmetric, aligned heads each head energy rises along the flat dynamics.

dE_h/dt = (1/n^3) sum_i |f^h_i|^2 is proved in `headflow.identities.energy` (PROVED); the numeric and trajectory
procedures (`headflow.checks.evidence.energy_rates`) cross-check the proved formula against the numpy model and
follow each E_h along integrated runs, to catch a proof of the wrong statement.
"""

from __future__ import annotations

from headflow.checks.evidence.energy_rates import check_flat_orthogonal, check_formula, t16_formula
from headflow.checks.registry import REGISTRY, Context
from headflow.checks.verdicts import Outcome
from headflow.identities import energy

_STATEMENTS: tuple[tuple[str, str, str], ...] = (
    (
        "T16.flat-orthogonal",
        "Theorem 16: per-head monotonicity in flat space",
        "usa attention, symmetric heads with M_h M_h' = 0 (h != h'), W_h = M_h, flat dynamics: "
        "dE_h/dt = (1/n^3) sum_i |f^h_i|^2 >= 0 for every head h.",
    ),
)

REGISTRY.declare_all(_STATEMENTS)


REGISTRY.derivations(
    __name__, (("T16.flat-orthogonal", lambda: energy.prove_flat_orthogonal().derivation, energy.METHOD),)
)


@REGISTRY.procedure("T16.flat-orthogonal", "numeric")
def _t16_numeric(ctx: Context) -> Outcome:
    return check_formula(ctx, "flat", t16_formula())


@REGISTRY.procedure("T16.flat-orthogonal", "trajectory")
def _flat_orthogonal(ctx: Context) -> Outcome:
    return check_flat_orthogonal(ctx)
