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


def covariance_rates(cfg: Configuration, coefficient: float = -1.0, beta_power: int = 2) -> np.ndarray:
    """coefficient * beta^beta_power * Cov_p(s, sdot) per head and token, shape (H, n); the identity
    has coefficient -1 and beta_power 2 (other values state wrong variants, for soundness tests)."""
    p, s, sdot = model.attention_distributions(cfg), model.scores(cfg), model.score_rates(cfg)
    mean_s, mean_rate = np.sum(p * s, axis=-1), np.sum(p * sdot, axis=-1)
    return coefficient * cfg.beta**beta_power * (np.sum(p * s * sdot, axis=-1) - mean_s * mean_rate)


@REGISTRY.procedure("T27.entropy-identity", "symbolic")
def _symbolic(ctx: Context) -> Outcome:
    return prove_entropy_identity().outcome("symbolic (SymPy): moments of sums with symbolic n, chain rule")


@REGISTRY.procedure("T27.entropy-identity", "numeric")
def _numeric(ctx: Context) -> Outcome:
    return check_entropy_identity(ctx)


def check_entropy_identity(ctx: Context, coefficient: float = -1.0, beta_power: int = 2) -> Outcome:
    """model.entropy_rates against coefficient * beta^beta_power * Cov_p(s, sdot) at random configurations."""
    rng = ctx.rng("entropy")
    cases = 200 if ctx.thorough else 30
    worst, candidate = 0.0, None
    for case in range(cases):
        ctx.check_budget()
        attention = ("usa", "softmax", "relu")[case % 3]
        cfg = random_configuration(rng, attention=attention, heads="general")
        exact, claimed = model.entropy_rates(cfg), covariance_rates(cfg, coefficient, beta_power)
        scale = 1e-12 * (1.0 + float(np.max(np.abs(exact))))
        gap = max(
            relative_discrepancy(float(e), float(c), scale) for e, c in zip(exact.ravel(), claimed.ravel(), strict=True)
        )
        if gap > worst:
            worst, candidate = gap, configuration_record(cfg)
    method = (
        f"numeric: model.entropy_rates vs {coefficient:g} beta^{beta_power} Cov_p(s, sdot) at random configurations "
        "(all kinds, general heads)"
    )
    return float_verdict(method, cases, -worst, TOLERANCE, candidate, {"max_relative_discrepancy": worst})
