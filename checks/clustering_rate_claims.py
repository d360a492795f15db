"""Theorem 22: the clustering rates of equiangular tokens under softmax with scalar heads.

Reduction (verified by the checks, not assumed): with M_h = lambda_h I and <x_i, x_j> = rho for
i != j, the tokens stay equiangular and eps = 1 - rho obeys
d eps/dt = -sum_h 2 lambda_h eps (n - (n-1) eps) / (exp(beta lambda_h eps) + n - 1):
at eps = 1 this is -sum_h phi(lambda_h), and as eps -> 0 it is -2 Lambda eps.

- early rate: d eps/dt at an orthogonal start, from the model's token velocities, against
  -sum_h phi(lambda_h) with phi taken from `identities.closed_forms.rate`;
- late rate: integrate the full model until eps < 1e-9 and fit log eps = c - r t on the window
  eps in [1e-9, 1e-5]; compare r with 2 Lambda (relative tolerance), with the fit's standard
  error and the drift between the two halves of the window as its uncertainty.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import sympy as sp

from checks import families, model
from checks.config import Configuration
from checks.fits import exponential_rate
from checks.integrator import cluster_gap_below, integrate
from checks.registry import REGISTRY, Context
from checks.sampling import configuration_record, float_verdict
from checks.verdicts import Outcome
from identities import closed_forms

EARLY_TOLERANCE = 1e-12
LATE_TOLERANCE = 1e-3
LATE_WINDOW = (1e-9, 1e-5)
RTOL, ATOL = 1e-11, 1e-14


@cache
def phi() -> object:
    """phi(lambda, n, beta) = 2 lambda / (exp(lambda beta) + n - 1) as a numpy function of the closed form."""
    return sp.lambdify((closed_forms.lam, closed_forms.n, closed_forms.beta), closed_forms.rate(), "numpy")


def equiangular_softmax(
    rng: np.random.Generator, rho: float | None = None, max_n: int = 7, max_heads: int = 3
) -> tuple[Configuration, np.ndarray]:
    """Softmax, scalar heads lambda_h in [0.2, 2], equiangular tokens (randomly rotated), and the lambdas.

    `rho=None` draws the common inner product uniformly from (-0.9/(n-1), 0.9).
    """
    n = int(rng.integers(3, max_n + 1))
    rho = float(rng.uniform(-0.9 / (n - 1), 0.9)) if rho is None else rho
    d = n + int(rng.integers(0, 3))
    lambdas = rng.uniform(0.2, 2.0, size=int(rng.integers(1, max_heads + 1)))
    X = families.equiangular_tokens(n, d, rho, rng)
    cfg = Configuration.create(
        X, families.scalar_heads(lambdas, d), beta=float(rng.uniform(0.3, 2.0)), attention="softmax"
    )
    return cfg, lambdas


def gap_rates(cfg: Configuration) -> np.ndarray:
    """d(1 - <x_i, x_j>)/dt for every pair i < j, from the model's token velocities."""
    xdot = model.token_velocity(cfg)
    rates = -(xdot @ cfg.tokens.T + cfg.tokens @ xdot.T)
    return rates[np.triu_indices(cfg.n, 1)]


def check_early_rate(ctx: Context, coefficient: float = 1.0) -> Outcome:
    """d eps/dt at an orthogonal start equals -coefficient * sum_h phi(lambda_h), for every pair."""
    rng = ctx.rng("early")
    cases = 500 if ctx.thorough else 100
    worst, candidate = 0.0, None
    rate = phi()
    for _ in range(cases):
        ctx.check_budget()
        cfg, lambdas = equiangular_softmax(rng, 0.0, max_n=12, max_heads=4)
        claimed = -coefficient * float(np.sum(rate(lambdas, cfg.n, cfg.beta)))
        gap = float(np.max(np.abs(gap_rates(cfg) - claimed))) / abs(claimed)
        if gap > worst:
            worst, candidate = gap, configuration_record(cfg)
    method = (
        f"numeric: d(1 - <x_i, x_j>)/dt from the model's token velocities at {cases} random rotated orthogonal "
        f"softmax configurations with scalar heads, every pair, vs -{coefficient:g} * sum_h phi(lambda_h), "
        "phi lambdified from identities.closed_forms.rate"
    )
    return float_verdict(method, cases, -worst, EARLY_TOLERANCE, candidate, {"max_relative_discrepancy": worst})


def late_exponent(cfg: Configuration) -> tuple[float, float, float, int]:
    """(fitted rate r, its standard error, |r_first_half - r_second_half|, points) of eps(t) ~ C exp(-r t)."""
    traj = integrate(
        cfg, 1e4, rtol=RTOL, atol=ATOL, events=(cluster_gap_below(LATE_WINDOW[0]),), observables=("cluster_gap",)
    )
    t, eps = traj.times, traj.observables["cluster_gap"]
    window = (eps >= LATE_WINDOW[0]) & (eps <= LATE_WINDOW[1])
    t, eps = t[window], eps[window]
    fit = exponential_rate(t, eps)
    half = len(t) // 2
    first, second = exponential_rate(t[:half], eps[:half]), exponential_rate(t[half:], eps[half:])
    drift = abs(first.coefficients[1] - second.coefficients[1])
    return -float(fit.coefficients[1]), float(fit.standard_errors[1]), float(drift), len(t)


def check_late_rate(ctx: Context, multiple: float = 2.0) -> Outcome:
    """The fitted late exponent of eps(t) equals multiple * Lambda within LATE_TOLERANCE (relative)."""
    rng = ctx.rng("late")
    cases = 8 if ctx.thorough else 3
    worst, candidate, fits = 0.0, None, []
    for _ in range(cases):
        ctx.check_budget()
        cfg, lambdas = equiangular_softmax(rng)
        claimed = multiple * float(np.sum(lambdas))
        fitted, error, drift, points = late_exponent(cfg)
        relative = abs(fitted - claimed) / claimed
        fits.append(
            {
                "n": cfg.n,
                "beta": cfg.beta,
                "lambdas": lambdas.tolist(),
                "fitted_rate": fitted,
                "standard_error": error,
                "half_window_drift": drift,
                "points": points,
                "claimed_rate": claimed,
            }
        )
        if relative > worst:
            worst, candidate = relative, configuration_record(cfg)
    method = (
        f"numeric: DP5(4) (rtol={RTOL:g}) from {cases} random equiangular softmax configurations with scalar "
        f"heads until eps < {LATE_WINDOW[0]:g}; least-squares fit of log eps on eps in {list(LATE_WINDOW)}; "
        f"fitted rate vs {multiple:g} * Lambda"
    )
    details = {"max_relative_rate_discrepancy": worst, "fits": fits}
    return float_verdict(method, cases, -worst, LATE_TOLERANCE, candidate, details)


@REGISTRY.procedure("T22.early-rate", "numeric")
def _early(ctx: Context) -> Outcome:
    return check_early_rate(ctx)


@REGISTRY.procedure("T22.late-rate", "numeric")
def _late(ctx: Context) -> Outcome:
    return check_late_rate(ctx)
