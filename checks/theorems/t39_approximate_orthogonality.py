"""Theorem 39: per-head monotonicity survives approximate orthogonality, max |M_h' M_h|_op = delta.

Decided in floats (`headflow.checks.evidence.energy_bounds`): the stated lower bound on dE_h/dt against the
model's exact chain-rule rates at random configurations, so at most CONFIRMED.
"""

from __future__ import annotations

from headflow.checks.evidence.energy_bounds import check_approximate_orthogonality
from headflow.checks.registry import REGISTRY, Context
from headflow.checks.verdicts import Outcome

_STATEMENTS: tuple[tuple[str, str, str], ...] = (
    (
        "T39.approximate-orthogonality",
        "Theorem 39: approximate orthogonality",
        "usa, symmetric heads, W_h = M_h, spherical dynamics, delta = max_{h != h'} |M_h' M_h|_op: "
        "dE_h/dt >= (1/n^3) sum_i (T^h_i - sum_{h' != h} a^h_i a^h'_i - delta sum_{h' != h} S^h_i S^h'_i) "
        "with S^h_i = sum_j exp(beta s^h_ij); so dE_h/dt >= 0 when the bracket's sum is >= 0.",
    ),
)

REGISTRY.declare_all(_STATEMENTS)


@REGISTRY.procedure("T39.approximate-orthogonality", "numeric")
def _approximate(ctx: Context) -> Outcome:
    return check_approximate_orthogonality(ctx)
