"""Float evidence for per-head monotonicity with equal scalar heads (Theorem 19's regime), across beta.

Every head M_h = W_h = alpha I gives E_h = E/H, so every head's energy rises with E for every beta; the
model's per-head rates are checked at random configurations while the Condition 8 margin is recorded,
which shows how far below zero it goes meanwhile (Condition 8 is not needed here).
"""

from __future__ import annotations

import math

import numpy as np
from headflow.checks.evidence.cases import Worst, cases
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict

#: Tolerance on dE_h/dt (relative to the largest |dE_h/dt| of the case) and on the equality of the heads' rates.
RATE_TOLERANCE = 1e-9


def head_monotonicity_margin(cfg: Configuration) -> float:
    """(min_h dE_h/dt - spread of the heads' rates) / max_h |dE_h/dt|: >= 0 when every head's energy rises
    and all heads rise alike (as E_h = E/H requires)."""
    rates = model.head_energy_rates(cfg)
    scale = max(float(np.max(np.abs(rates))), 1e-300)
    return (float(np.min(rates)) - float(np.ptp(rates))) / scale


def check_equal_heads_monotonicity(ctx: Context) -> Outcome:
    """dE_h/dt >= 0 for every head in the model across beta in [1/20, 20], orthogonal or random tokens; and how
    far below zero the Condition 8 margin went meanwhile (the finding: Condition 8 is not needed here)."""
    rng = ctx.rng("monotonicity-regime")
    worst, least_c8, c8_failures = Worst.least(math.inf), math.inf, 0
    for case in cases(ctx, 60, 400):
        heads, tokens = int(rng.integers(2, 5)), int(rng.integers(2, 7))
        dimension = tokens + int(rng.integers(0, 3))
        draw = families.orthogonal_tokens if case % 2 == 0 else families.random_sphere_tokens
        cfg = Configuration.create(
            draw(tokens, dimension, rng),
            families.scalar_heads([float(rng.uniform(0.2, 2.0))] * heads, dimension),
            beta=float(np.exp(rng.uniform(np.log(0.05), np.log(20.0)))),
        )
        worst.update(head_monotonicity_margin(cfg), cfg)
        margin = float(np.min(model.condition8_margins(cfg)))
        least_c8, c8_failures = min(least_c8, margin), c8_failures + (margin < 0)
    outcome = worst.verdict(
        f"numeric: dE_h/dt of every head from the model at {worst.cases} usa configurations with equal scalar heads "
        "alpha I (H in 2..4, n in 2..6), orthogonal or random unit tokens, beta log-uniform in [1/20, 20]; margin "
        "(min_h dE_h/dt - spread of the heads' rates) / max_h |dE_h/dt|",
        RATE_TOLERANCE,
        {"cases with a negative Condition 8 margin": c8_failures, "least Condition 8 margin": least_c8},
    )
    if outcome.verdict is Verdict.CONFIRMED and c8_failures:
        outcome.finding = (
            f"every head's energy rose in all {worst.cases} cases, although Condition 8 failed in {c8_failures} "
            f"of them (margin down to {least_c8:.3g}): in T19's regime beta* is a threshold for the Condition 8 "
            "inequality only, and Condition 8 is far from necessary for per-head monotonicity"
        )
    return outcome
