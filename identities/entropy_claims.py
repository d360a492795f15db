"""The entropy production identity (T27): symbolic proof and a numeric cross-check against the model."""

from __future__ import annotations

import numpy as np

from checks import model
from checks.config import Configuration
from checks.registry import REGISTRY, Context
from checks.sampling import configuration_record, float_verdict, random_configuration, relative_discrepancy
from checks.verdicts import Outcome
from identities.entropy import prove_entropy_identity

TOLERANCE = 1e-9


def covariance_rates(cfg: Configuration) -> np.ndarray:
    """-beta^2 Cov_p(s, sdot) per head and token from the model's p, s and sdot, shape (H, n)."""
    p, s, sdot = model.attention_distributions(cfg), model.scores(cfg), model.score_rates(cfg)
    mean_s, mean_rate = np.sum(p * s, axis=-1), np.sum(p * sdot, axis=-1)
    return -(cfg.beta**2) * (np.sum(p * s * sdot, axis=-1) - mean_s * mean_rate)


@REGISTRY.procedure("T27.entropy-identity", "symbolic")
def _symbolic(ctx: Context) -> Outcome:
    return prove_entropy_identity().outcome("symbolic (SymPy): moments of sums with symbolic n, chain rule")


@REGISTRY.procedure("T27.entropy-identity", "numeric")
def _numeric(ctx: Context) -> Outcome:
    rng = ctx.rng("entropy")
    cases = 200 if ctx.thorough else 30
    worst, candidate = 0.0, None
    for case in range(cases):
        ctx.check_budget()
        attention = ("usa", "softmax", "relu")[case % 3]
        cfg = random_configuration(rng, attention=attention, heads="general")
        exact, claimed = model.entropy_rates(cfg), covariance_rates(cfg)
        scale = 1e-12 * (1.0 + float(np.max(np.abs(exact))))
        gap = max(
            relative_discrepancy(float(e), float(c), scale) for e, c in zip(exact.ravel(), claimed.ravel(), strict=True)
        )
        if gap > worst:
            worst, candidate = gap, configuration_record(cfg)
    method = (
        "numeric: model.entropy_rates vs -beta^2 Cov_p(s, sdot) at random configurations (all kinds, general heads)"
    )
    return float_verdict(method, cases, -worst, TOLERANCE, candidate, {"max_relative_discrepancy": worst})
