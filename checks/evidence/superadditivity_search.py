"""The float search for a violation of T22's super-additivity as stated (only the mean in the convex regime).

Strengths for H = 2 heads at beta = 1, with mean above u_c, are sampled and the one with the largest
H phi(mean) - sum_h phi(lambda_h) is returned, rounded to small rationals; the violation itself is then
verified with balls by the caller (a float search only proposes).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from headflow.checks.constants import floats as scalar_constants
from headflow.checks.constants.floats import lambda_c_scaled


def _violation(tokens: int, lambdas: np.ndarray) -> float:
    """H phi(mean) - sum_h phi(lambda_h) at beta = 1 (> 0: super-additivity fails)."""
    rate = scalar_constants.rate
    return float(len(lambdas) * rate(lambdas.mean(), tokens, 1) - rate(lambdas, tokens, 1).sum())


def search_counterexample(rng: np.random.Generator, samples: int) -> tuple[int, list[Fraction]]:
    """Float search for H = 2 strengths (beta = 1) with mean above u_c and sum phi < H phi(mean)."""
    best = (-math.inf, 2, [Fraction(1)])
    for tokens in (2, 3, 5, 10):
        uc = lambda_c_scaled(tokens)
        for _ in range(samples):
            mean = uc + rng.uniform(0.05, 3.0)
            spread = rng.uniform(0.0, mean)
            lambdas = np.array([mean - spread, mean + spread])
            gap = _violation(tokens, lambdas)
            if gap > best[0]:
                best = (gap, tokens, [Fraction(float(v)).limit_denominator(100) for v in lambdas])
    return best[1], best[2]
