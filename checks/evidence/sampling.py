"""Shared pieces of numerical evidence: random configurations and float-only verdicts.

Floats can at most CONFIRM: when a float check fails, the result is INCONCLUSIVE with the
candidate counterexample attached, until a rigorous certifier turns it into a REFUTED witness.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from headflow.certificates.families import HEAD_FAMILIES, SHORT_HEAD_NAMES
from headflow.checks.model import families
from headflow.checks.model.configuration import Configuration
from headflow.checks.verdicts import Outcome, Verdict


def random_configuration(
    rng: np.random.Generator,
    *,
    attention: str = "usa",
    geometry: str = "sphere",
    heads: str = "symmetric",
    max_n: int = 10,
    max_d: int = 6,
    max_heads: int = 4,
    beta_range: tuple[float, float] = (0.1, 2.0),
    scale: float = 1.0,
) -> Configuration:
    """A random configuration of the given kind; `heads` is the short name of a head family that takes a
    scale (symmetric, general or orthogonal: `headflow.certificates.families.SHORT_HEAD_NAMES`)."""
    family = SHORT_HEAD_NAMES[heads]
    n = int(rng.integers(2, max_n + 1))
    H = int(rng.integers(1, max_heads + 1))
    d = int(rng.integers(HEAD_FAMILIES[family].least_d(n, H), max(max_d, H) + 1))
    X = families.draw_tokens("random-sphere", n, d, rng, {})
    if geometry == "flat":
        X = X * rng.uniform(0.5, 1.5, size=(n, 1))
    M = families.draw_heads(family, H, d, rng, {"scale": scale})
    beta = float(rng.uniform(*beta_range))
    return Configuration.create(X, M, beta=beta, attention=attention, geometry=geometry)


def relative_discrepancy(a: float, b: float, floor: float = 1e-300) -> float:
    """|a - b| / max(|a|, |b|), with 0 when both vanish."""
    scale = max(abs(a), abs(b))
    return 0.0 if scale <= floor else abs(a - b) / scale


def float_verdict(
    method: str,
    cases: int,
    worst_margin: float,
    tolerance: float,
    candidate: dict[str, Any] | None,
    details: dict[str, Any] | None = None,
) -> Outcome:
    """CONFIRMED when every case kept margin >= -tolerance, else INCONCLUSIVE with the candidate."""
    details = details or {}
    if worst_margin >= -tolerance:
        return Outcome(
            Verdict.CONFIRMED, method, cases=cases, worst_margin=worst_margin, tolerance=tolerance, details=details
        )
    return Outcome(
        Verdict.INCONCLUSIVE,
        method,
        cases=cases,
        worst_margin=worst_margin,
        tolerance=tolerance,
        details=details | ({"candidate": candidate} if candidate else {}),
        notes="a float counterexample candidate was found; it is not verified rigorously",
    )


def configuration_record(cfg: Configuration) -> dict[str, Any]:
    """A JSON-ready description of a configuration (for candidates and witnesses)."""
    return {
        "n": cfg.n,
        "d": cfg.d,
        "H": cfg.H,
        "beta": cfg.beta,
        "attention": cfg.attention,
        "geometry": cfg.geometry,
        "tokens": cfg.tokens.tolist(),
        "scores": cfg.score_matrices.tolist(),
        "values": cfg.values.tolist(),
    }


# ---------------------------------------------------------------- claims about every start of a family


def starts_for_confidence(confidence: float, fraction: float) -> int:
    """The least number of independent starts after which 0 failures shows, with `confidence`, that fewer
    than `fraction` of the family's starts fail: (1 - fraction)^N <= 1 - confidence, N = ceil(ln(1 - c) /
    ln(1 - p)) (0.95 and 0.05 give 59)."""
    if not (0.0 < confidence < 1.0 and 0.0 < fraction < 1.0):
        raise ValueError("confidence and fraction must lie in (0, 1)")
    return math.ceil(math.log1p(-confidence) / math.log1p(-fraction) - 1e-12)


def failing_fraction_bound(starts: int, confidence: float) -> float:
    """The fraction p with (1 - p)^starts = 1 - confidence: after 0 failures in `starts` independent starts,
    fewer than p of the family's starts fail, with `confidence` (the one-sided exact binomial bound)."""
    return -math.expm1(math.log1p(-confidence) / starts)


def confidence_sentence(failed: int, starts: int, confidence: float) -> str:
    """What `failed` of `starts` independent starts show about the family (the text of the verdict)."""
    if failed:
        return f"{failed} of {starts} starts failed (failing fraction {failed / starts:.3g})"
    bound = failing_fraction_bound(starts, confidence)
    return (
        f"0 of {starts} starts failed: with {100 * confidence:g} % confidence, fewer than "
        f"{100 * bound:.3g} % of the family's starts fail"
    )
