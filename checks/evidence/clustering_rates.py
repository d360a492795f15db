"""Float evidence for Theorem 22's clustering rates: the early rate from the model's velocities, the late rate by fits.

The early rate: d(1 - <x_i, x_j>)/dt from the model's token velocities at rotated orthogonal starts
against -sum_h phi(lambda_h) (phi from `headflow.identities.closed_forms.rate`). The late rate: the full model is
integrated until eps < 1e-9 and log eps = c - r t is fitted on eps in [1e-9, 1e-5] (`late_exponent`, also
used by the claims-file dynamics decider), r against 2 Lambda, with the fit's standard error and the
drift between the window's halves as its uncertainty. `coefficient` and `multiple` scale the claimed
rates, so that tests can state a deliberately wrong one. Floats give at most CONFIRMED.
"""

from __future__ import annotations

import numpy as np
from headflow.checks.constants import floats as scalar_constants
from headflow.checks.evidence.cases import Worst, cases
from headflow.checks.evidence.fits import Estimate, decay_rate
from headflow.checks.integrator import cluster_gap_below, integrate, tableau_for
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome

EARLY_TOLERANCE = 1e-12


LATE_TOLERANCE = 1e-3


LATE_WINDOW = (1e-9, 1e-5)
#: How long a late-rate run may take to bring eps below LATE_WINDOW[0], in time and in integrator steps.
LATE_HORIZON = 1e4
LATE_MAX_STEPS = 200_000


#: Tolerances of the late-rate runs: eps down to LATE_WINDOW[0] = 1e-9 must be resolved.
LATE_RTOL, LATE_ATOL = 1e-11, 1e-14


#: Records of eps(t) per late-rate run, evenly spaced up to the end of the run (dense output): the
#: fit window holds tens of them whatever step sizes the integrator takes.
LATE_RECORDS = 401


def gap_rates(cfg: Configuration) -> np.ndarray:
    """d(1 - <x_i, x_j>)/dt for every pair i < j, from the model's token velocities."""
    xdot = model.token_velocity(cfg)
    rates = -(xdot @ cfg.tokens.T + cfg.tokens @ xdot.T)
    return rates[np.triu_indices(cfg.n, 1)]


def check_early_rate(ctx: Context, coefficient: float = 1.0) -> Outcome:
    """d eps/dt at an orthogonal start equals -coefficient * sum_h phi(lambda_h), for every pair."""
    rng = ctx.rng("early")
    worst = Worst.largest()
    for _ in cases(ctx, 100, 500):
        cfg, lambdas = families.equiangular_softmax_configuration(rng, 0.0, max_n=12, max_heads=4)
        claimed = -coefficient * float(np.sum(scalar_constants.rate(lambdas, cfg.n, cfg.beta)))
        worst.update(float(np.max(np.abs(gap_rates(cfg) - claimed))) / abs(claimed), cfg)
    method = (
        f"numeric: d(1 - <x_i, x_j>)/dt from the model's token velocities at {worst.cases} random rotated orthogonal "
        f"softmax configurations with scalar heads, every pair, vs -{coefficient:g} * sum_h phi(lambda_h), "
        "phi lambdified from identities.closed_forms.rate"
    )
    return worst.verdict(method, EARLY_TOLERANCE, {"max_relative_discrepancy": worst.value})


def late_exponent(cfg: Configuration) -> tuple[Estimate, int] | None:
    """The fitted rate r of eps(t) ~ C exp(-r t) with its error (`checks.evidence.fits.decay_rate`: fit residuals,
    drift between the window's halves, integrator tolerances), and the points fitted; None when eps does
    not fall through the window LATE_WINDOW by t = LATE_HORIZON within LATE_MAX_STEPS steps (at least 8
    records in it).

    One run finds the time at which eps falls to LATE_WINDOW[0]; a second run up to that time records
    eps on an even grid from the dense output (records do not shorten steps).
    """
    first = integrate(
        cfg,
        LATE_HORIZON,
        rtol=LATE_RTOL,
        atol=LATE_ATOL,
        events=(cluster_gap_below(LATE_WINDOW[0]),),
        observables=(),
        max_steps=LATE_MAX_STEPS,
        backend="numpy",
    )
    if first.status == "max_steps":
        return None
    end = first.t_end
    grid = np.linspace(0.0, end, LATE_RECORDS)
    traj = integrate(
        cfg, end, rtol=LATE_RTOL, atol=LATE_ATOL, record_times=grid, observables=("cluster_gap",), backend="numpy"
    )
    t, eps = traj.times, traj.observables["cluster_gap"]
    window = (eps >= LATE_WINDOW[0]) & (eps <= LATE_WINDOW[1])
    if np.count_nonzero(window) < 8:
        return None
    return decay_rate(t[window], eps[window], LATE_RTOL, LATE_ATOL), int(np.count_nonzero(window))


def check_late_rate(ctx: Context, multiple: float = 2.0) -> Outcome:
    """The fitted late exponent of eps(t) equals multiple * Lambda within the fit's own error (and within
    LATE_TOLERANCE relative, a bound on how loose that error may be)."""
    rng = ctx.rng("late")
    worst, fits = Worst.largest(), []
    for _ in cases(ctx, 3, 8):
        cfg, lambdas = families.equiangular_softmax_configuration(rng)
        claimed = multiple * float(np.sum(lambdas))
        fitted = late_exponent(cfg)
        if fitted is None:
            worst.update(float("inf"), cfg)
            fits.append({"n": cfg.n, "claimed": claimed, "fitted": None})
            continue
        estimate, points = fitted
        fits.append(
            {"n": cfg.n, "beta": cfg.beta, "lambdas": lambdas.tolist(), "points": points} | estimate.record(claimed)
        )
        outside = 0.0 if estimate.contains(claimed) else abs(estimate.value - claimed) / claimed
        worst.update(max(outside, estimate.error / claimed - LATE_TOLERANCE, 0.0), cfg)
    method = (
        f"numeric: {tableau_for(LATE_RTOL).name} (rtol={LATE_RTOL:g}) from {worst.cases} random equiangular "
        f"softmax configurations with scalar heads until eps < {LATE_WINDOW[0]:g}, recorded at {LATE_RECORDS} "
        f"evenly spaced times; least-squares fit of log eps on eps in {list(LATE_WINDOW)}; "
        f"the claimed {multiple:g} * Lambda within the fitted rate's error"
    )
    details = {"max_relative_rate_discrepancy": worst.value, "fits": fits}
    return worst.verdict(method, 0.0, details)
