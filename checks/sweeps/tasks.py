"""Per-point computations of the sweeps; each is a pure function of its parameters.

The Condition 8 threshold is located from the numpy model itself (bisection on beta of the
smallest Condition 8 margin), never from the summary's formula, so the comparison with beta*
is a genuine check of that formula.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from headflow.certificates.errors import InputError
from headflow.checks.constants import certified as constants
from headflow.checks.constants import floats as scalar_constants
from headflow.checks.evidence.clustering_times import measure
from headflow.checks.evidence.condition8_exits import regime_exit
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration

#: Relative width at which the bisection for the threshold stops (below float64 resolution).
BISECTION_TOLERANCE = 1e-13


def condition8_margin_scalar(H: int, n: int, alpha: float, beta: float) -> float:
    """Smallest Condition 8 margin over heads and tokens: scalar heads alpha I, orthogonal tokens."""
    cfg = Configuration.create(families.orthogonal_tokens(n, n), families.scalar_heads([alpha] * H, n), beta=beta)
    return float(np.min(model.condition8_margins(cfg)))


def condition8_threshold(H: int, n: int, alpha: float, tolerance: float = BISECTION_TOLERANCE) -> float:
    """The beta at which Condition 8 stops holding in the model (0 when it fails for every beta > 0).

    Located by bisection to relative width `tolerance`.
    """
    if condition8_margin_scalar(H, n, alpha, 1e-12) < 0:
        return 0.0
    low, high = 0.0, 1.0 / alpha
    while condition8_margin_scalar(H, n, alpha, high) >= 0:
        low, high = high, 2 * high
    while high - low > tolerance * high:
        mid = 0.5 * (low + high)
        if condition8_margin_scalar(H, n, alpha, mid) >= 0:
            low = mid
        else:
            high = mid
    return 0.5 * (low + high)


def threshold_point(H: int, n: int, alpha: float, tolerance: float = BISECTION_TOLERANCE) -> dict[str, float]:
    """The model's Condition 8 threshold next to the summary's beta* at one (H, n, alpha), H >= 2."""
    if H < 2:
        raise InputError("H", H, "beta* needs at least two heads")
    beta_star = float(scalar_constants.beta_star(H, n, alpha))
    beta_model = condition8_threshold(H, n, alpha, tolerance)
    return {
        "H": H,
        "n": n,
        "alpha": alpha,
        "beta_condition8_model": beta_model,
        "beta_star": beta_star,
        "difference": beta_model - beta_star,
        "beta_star_positive": float(beta_star > 0),
    }


def superadditivity_point(n: int, beta: float, mean: float, spread: float) -> dict[str, float]:
    """phi(mean - spread) + phi(mean + spread) - 2 phi(mean) for two heads (> 0: super-additive)."""
    rate = scalar_constants.rate
    margin = rate(mean - spread, n, beta) + rate(mean + spread, n, beta) - 2 * rate(mean, n, beta)
    return {"n": n, "beta": beta, "mean": mean, "spread": spread, "margin": float(margin)}


def clustering_point(attention: str, n: int, d: int, seed: int) -> dict[str, float | str]:
    """Clustering time of one random initialization (T25's setting: one head M = I, beta = 1)."""
    run = measure(attention, n, d, np.random.default_rng([seed, n, d]))
    return {
        "attention": attention,
        "n": n,
        "d": d,
        "seed": seed,
        "time": run.time,
        "ending": run.ending,
        "clusters": run.clusters,
        "max_cosine_between": run.max_cosine_between,
    }


#: Largest n at which the c8-exit sweep also integrates the model (d = n tokens: the cost grows like n^3).
MODEL_EXIT_TOKENS = 32


def c8_exit_point(H: int, n: int, ratio: float, alpha: float) -> dict[str, float]:
    """The certified exit cluster gap eps_exit at beta = ratio * beta*(H, n, alpha) (beta rounded to its double),
    the lower bound n (H - 1)/(H (n - 1)), and for n <= MODEL_EXIT_TOKENS the model's own exit gap from orthonormal
    tokens; NaN where beta* <= 0 (the regime beta <= beta* is empty)."""
    if H < 2:
        raise InputError("H", H, "Condition 8 has no cross shadows with one head: there is no exit")
    star = float(scalar_constants.beta_star(H, n, alpha))
    row = {
        "H": H,
        "n": n,
        "ratio": ratio,
        "alpha": alpha,
        "beta_star": star,
        "lower_bound": n * (H - 1) / (H * (n - 1)),
    }
    if star <= 0:
        return row | {"beta": math.nan, "exit_gap": math.nan, "exit_gap_model": math.nan, "exit_time_model": math.nan}
    beta = ratio * star
    certified = constants.compute(
        "c8_exit_gap", {"H": H, "n": n, "alpha": Fraction(alpha), "beta": Fraction(beta)}, digits=17, check=False
    )
    found = regime_exit(H, n, alpha, beta) if n <= MODEL_EXIT_TOKENS else None
    return row | {
        "beta": beta,
        "exit_gap": float(certified.value),
        "exit_gap_model": found.cluster_gap if found else math.nan,
        "exit_time_model": found.time if found else math.nan,
    }
