"""Witnesses against T27's broader monotonicity readings: the adversarial search for dH^h_i/dt < 0, then balls.

An adversarial float search over the reading's configurations (`search_monotone_general`) looks for a
negative dH^h_i/dt; the most negative candidates are rounded to exact data that keep the reading's
hypotheses (rational unit tokens, scalar or symmetric heads rounded entry-wise, W_h = M_h), the
hypotheses are checked exactly and the rate is settled with the ball model. Only a ball-verified
negative rate, written as a witness certificate, makes a reading REFUTED; a float candidate alone leaves
it INCONCLUSIVE, and no candidate leaves the float verdict (CONFIRMED).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from headflow.certificates.families import HEAD_FAMILIES, SHORT_HEAD_NAMES
from headflow.certificates.kernel.ball_model import ExactConfiguration
from headflow.certificates.provers.witness import round_configuration
from headflow.certificates.statements.registry import CONFIGURATIONS
from headflow.checks.evidence import adversarial
from headflow.checks.evidence.entropy_rates import RATE_TOLERANCE
from headflow.checks.evidence.sampling import float_verdict
from headflow.checks.evidence.witnesses import Candidate, certify_first
from headflow.checks.model import families
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict


@dataclass
class RateSearch:
    """Random configurations of a broader reading and where dH^h_i/dt came out negative."""

    method: str
    cases: int
    worst: float
    #: The most negative cases kept (relative margin, configuration, head, token), most negative first.
    candidates: list[Candidate]
    #: How many starts had a negative rate.
    negatives: int = 0
    #: Whether a clear violation ended the search before its least number of minimizations.
    cut_short: bool = False


def sample_general(rng: np.random.Generator, heads: str) -> Configuration:
    """A random softmax spherical configuration with scalar (`heads='scalar'`) or symmetric heads, W_h = M_h."""
    n, d, H = int(rng.integers(2, 8)), int(rng.integers(2, 5)), int(rng.integers(1, 4))
    options = {"lambdas": rng.uniform(0.2, 2.0, size=H)} if heads == "scalar" else {"scale": 1.0}
    M = families.draw_heads(SHORT_HEAD_NAMES[heads], H, d, rng, options)
    X = families.draw_tokens("random-sphere", n, d, rng, {})
    return Configuration.create(X, M, beta=float(rng.uniform(0.3, 2.0)), attention="softmax")


def search_monotone_general(
    ctx: Context,
    heads: str,
    sample: Callable[[np.random.Generator, str], Configuration] = sample_general,
    free: bool | None = None,
    stop_at_clear: bool = True,
) -> RateSearch:
    """The adversarial search (`checks.evidence.adversarial`) for a negative dH^h_i/dt among `sample`'s configurations.

    Random draws, structured token sets, then local minimization over the tokens (and the symmetric
    heads of reading-c); the kept negative minima are the candidates. The readings allow any tokens,
    so the default sampler's tokens (and symmetric heads) are free; a custom sampler defines its own
    family, searched only at its draws unless `free` is True."""
    free = sample is sample_general if free is None else free
    budget = adversarial.BUDGETS[ctx.profile]
    budget = dataclasses.replace(budget, starts=400 if ctx.thorough else 100)
    moves = HEAD_FAMILIES[SHORT_HEAD_NAMES[heads]].moves
    family = adversarial.Family(lambda rng: sample(rng, heads), free_tokens=free, free_heads=moves if free else None)
    rng, objective = ctx.rng(f"general-{heads}"), adversarial.rate_margin("entropy_rate")
    result = adversarial.search(family, objective, budget, rng, ctx.check_budget, stop_at_clear=stop_at_clear)
    method = (
        f"numeric: adversarial search of the model's dH^h_i/dt over softmax spherical configurations with "
        f"{'scalar' if heads == 'scalar' else 'random symmetric'} heads and any tokens ({result.starts} random and "
        f"{result.structured_starts} structured starts, {result.local_runs} local minimizations, "
        f"{result.evaluations} evaluations)"
    )
    candidates = [Candidate(f.margin, f.cfg, f.index[0], f.index[1]) for f in result.candidates]
    negatives = max(result.negative_starts, len(candidates))
    return RateSearch(method, result.evaluations, min(0.0, result.worst), candidates, negatives, result.cut_short)


READINGS = {"scalar": "T27.entropy-monotone.reading-b", "symmetric": "T27.entropy-monotone.reading-c"}

#: The hypotheses each reading's witness must satisfy exactly: those of the checker's obligation.
HYPOTHESES = {heads: CONFIGURATIONS[claim].hypotheses for heads, claim in READINGS.items()}


def refute_monotone(
    ctx: Context,
    heads: str,
    sample: Callable[[np.random.Generator, str], Configuration] = sample_general,
) -> Outcome:
    """Search, round and certify: REFUTED with the witness file, else the float verdict or INCONCLUSIVE."""
    claim_id = READINGS[heads]

    def rounding(candidate: Candidate) -> ExactConfiguration:
        cfg = candidate.cfg
        return round_configuration(
            cfg.tokens, cfg.score_matrices, cfg.score_matrices, cfg.beta, symmetric=True, attention="softmax"
        )

    for search in adversarial.until_certified(lambda stop: search_monotone_general(ctx, heads, sample, None, stop)):
        if search.worst >= -RATE_TOLERANCE:
            return float_verdict(search.method, search.cases, search.worst, RATE_TOLERANCE, None)
        attempts = certify_first(ctx, CONFIGURATIONS[claim_id].model(claim_id), search.candidates, rounding)
        if attempts.certified is not None:
            break
    method = search.method + "; the most negative candidates rounded to exact data, dH^h_i/dt < 0 verified with balls"
    floats = {"cases": search.cases, "worst_margin": search.worst, "tolerance": RATE_TOLERANCE}
    if attempts.certified is None:
        notes = f"{search.negatives} float candidates; none verified ({'; '.join(attempts.reasons)})"
        return Outcome(Verdict.INCONCLUSIVE, method, notes=notes, **floats)
    found, path = attempts.certified.candidate, str(attempts.certified.result.path)
    witness = attempts.certified.record(f"dH^{found.head}_{found.token}/dt") | {"certificate": path}
    return Outcome(
        Verdict.REFUTED,
        method,
        witness=witness,
        certificates=[path],
        details={"float_candidates": search.negatives},
        **floats,
    )
