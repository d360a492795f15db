"""Broader readings of Theorem 27 decided by certified witnesses: T27.entropy-monotone.reading-b and -c.

Each reading says every dH^h_i/dt >= 0 (softmax, W_h = M_h, spherical dynamics, any tokens) with
scalar heads (reading-b) or any symmetric heads (reading-c). The float search of
checks.entropy_dynamics_claims proposes configurations where the model's rate is negative; the
most negative few are rounded to exact data that keep the reading's hypotheses (rational unit
tokens, the scalar or symmetric heads rounded entry-wise, W_h = M_h, softmax, the sphere), the
hypotheses are checked exactly, and the rate is settled with the ball model. Only a ball-verified
negative rate, written as a witness certificate, makes a reading REFUTED; a float candidate alone
leaves it INCONCLUSIVE, and no candidate at all leaves the float verdict (CONFIRMED).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from certificates.store import certificate_directory
from certificates.witness import certify_configuration, round_configuration
from checks.config import Configuration
from checks.entropy_dynamics_claims import RATE_TOLERANCE, sample_general, search_monotone_general
from checks.registry import REGISTRY, Context
from checks.sampling import float_verdict
from checks.verdicts import Outcome, Verdict

CANDIDATES_TRIED = 5
_COMMON = ("unit-tokens", "spherical-geometry", "softmax-attention", "aligned-values", "dimension-at-least-2")
#: The hypotheses each reading's witness must satisfy exactly.
HYPOTHESES = {"scalar": (*_COMMON, "scalar-heads"), "symmetric": (*_COMMON, "symmetric-scores")}
READINGS = {"scalar": "T27.entropy-monotone.reading-b", "symmetric": "T27.entropy-monotone.reading-c"}


def refute_monotone(
    ctx: Context,
    heads: str,
    sample: Callable[[np.random.Generator, str], Configuration] = sample_general,
) -> Outcome:
    """Search, round and certify: REFUTED with the witness file, else the float verdict or INCONCLUSIVE."""
    claim_id = READINGS[heads]
    search = search_monotone_general(ctx, heads, sample)
    if search.worst >= -RATE_TOLERANCE:
        return float_verdict(search.method, search.cases, search.worst, RATE_TOLERANCE, None)
    statement = REGISTRY.get(claim_id).statement
    method = search.method + "; the most negative candidates rounded to exact data, dH^h_i/dt < 0 verified with balls"
    reasons = []
    for margin, cfg, head, token in search.candidates[:CANDIDATES_TRIED]:
        ctx.check_budget()
        exact = round_configuration(cfg.tokens, cfg.scores, cfg.scores, cfg.beta, symmetric=True, attention="softmax")
        result = certify_configuration(
            claim_id,
            statement,
            exact,
            HYPOTHESES[heads],
            "entropy_rate",
            head,
            "<",
            certificate_directory(ctx.certificate_dir),
            token=token,
        )
        if result.verified:
            witness = {
                "verified_by": "ball",
                "n": exact.n,
                "d": len(exact.tokens[0]),
                "H": len(exact.scores),
                "beta": str(exact.beta),
                "quantity": f"dH^{head}_{token}/dt",
                "ball": result.values[0],
                "float_relative_rate": margin,
                "certificate": str(result.path),
            }
            return Outcome(
                Verdict.REFUTED,
                method,
                cases=search.cases,
                worst_margin=search.worst,
                tolerance=RATE_TOLERANCE,
                witness=witness,
                certificates=[str(result.path)],
                details={"float_candidates": search.negatives},
            )
        reasons.append(result.reason)
    return Outcome(
        Verdict.INCONCLUSIVE,
        method,
        cases=search.cases,
        worst_margin=search.worst,
        tolerance=RATE_TOLERANCE,
        notes=f"{search.negatives} float candidates; none verified ({'; '.join(reasons)})",
    )


@REGISTRY.procedure("T27.entropy-monotone.reading-b", "witness")
def _reading_b(ctx: Context) -> Outcome:
    return refute_monotone(ctx, "scalar")


@REGISTRY.procedure("T27.entropy-monotone.reading-c", "witness")
def _reading_c(ctx: Context) -> Outcome:
    return refute_monotone(ctx, "symmetric")
