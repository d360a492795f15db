"""Float evidence for Theorem 27: the entropy identity against the model, monotonicity and the limit along runs.

The identity: the model's entropy rates against coefficient * beta^beta_power * Cov_p(s, sdot) at
random configurations (the identity has -1 and 2; other values state wrong variants for soundness
tests). Trajectories from the equiangular scalar regime (`families.equiangular_softmax_configuration`)
are integrated until the cluster gap is below FINAL_GAP; at every recorded state the model's
dH^h_i/dt must be >= 0 and the recorded entropies must not decrease beyond the integration error, and
at the end |log n - H^h_i| must be within tolerance. With random symmetric heads only the runs that
collapse count for the limit. Floats give at most CONFIRMED.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from headflow.checks.evidence.cases import Worst, cases
from headflow.checks.evidence.sampling import random_configuration, relative_discrepancy
from headflow.checks.integrator import Trajectory, cluster_gap_below, integrate, speed_below, tableau_for
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict

TOLERANCE = 1e-9


def covariance_rates(cfg: Configuration, coefficient: float = -1.0, beta_power: int = 2) -> np.ndarray:
    """coefficient * beta^beta_power * Cov_p(s, sdot) per head and token, shape (H, n); the identity
    has coefficient -1 and beta_power 2 (other values state wrong variants, for soundness tests)."""
    p, s, sdot = model.attention_distributions(cfg), model.scores(cfg), model.score_rates(cfg)
    mean_s, mean_rate = np.sum(p * s, axis=-1), np.sum(p * sdot, axis=-1)
    return coefficient * cfg.beta**beta_power * (np.sum(p * s * sdot, axis=-1) - mean_s * mean_rate)


def check_entropy_identity(ctx: Context, coefficient: float = -1.0, beta_power: int = 2) -> Outcome:
    """model.entropy_rates against coefficient * beta^beta_power * Cov_p(s, sdot) at random configurations."""
    rng = ctx.rng("entropy")
    worst = Worst.largest()
    for case in cases(ctx, 30, 200):
        attention = ("usa", "softmax", "relu")[case % 3]
        cfg = random_configuration(rng, attention=attention, heads="general")
        exact, claimed = model.entropy_rates(cfg), covariance_rates(cfg, coefficient, beta_power)
        scale = 1e-12 * (1.0 + float(np.max(np.abs(exact))))
        pairs = zip(exact.ravel(), claimed.ravel(), strict=True)
        worst.update(max(relative_discrepancy(float(e), float(c), scale) for e, c in pairs), cfg)
    method = (
        f"numeric: model.entropy_rates vs {coefficient:g} beta^{beta_power} Cov_p(s, sdot) at random configurations "
        "(all kinds, general heads)"
    )
    return worst.verdict(method, TOLERANCE, {"max_relative_discrepancy": worst.value})


RTOL, ATOL = 1e-11, 1e-14


FINAL_GAP = 1e-8


#: Tolerance on rates relative to (1 + max |dH/dt|) and on decreases of recorded entropies.
RATE_TOLERANCE = 1e-10


#: Tolerance on log n - H^h_i at the end state (the deficit there is O((beta lambda eps)^2)).
LIMIT_TOLERANCE = 1e-8


#: The same for general heads, where the deficit at cluster gap eps is O(beta^2 |M|^2 eps).
GENERAL_LIMIT_TOLERANCE = 1e-6


#: General runs that stop moving (speed below this) before collapsing are not collapsing runs.
SETTLED_SPEED = 1e-9


#: Times at which states and entropies are recorded (on the dense output, up to the stopping event): log-spaced,
#: so that the fast early phase is sampled densely whatever step sizes the integrator takes.
RECORD_TIMES = np.concatenate([[0.0], np.geomspace(1e-3, 1e4, 1200)])


def _run(cfg: Configuration) -> Trajectory:
    events = (cluster_gap_below(FINAL_GAP),)
    return integrate(
        cfg,
        1e4,
        rtol=RTOL,
        atol=ATOL,
        events=events,
        observables=("entropies", "cluster_gap"),
        record_times=RECORD_TIMES,
        backend="numpy",
    )


def _trajectories(ctx: Context) -> list[tuple[Configuration, Trajectory]]:
    rng = ctx.rng("equiangular-trajectories")
    out = []
    for _ in cases(ctx, 3, 8):
        cfg, _ = families.equiangular_softmax_configuration(rng)
        out.append((cfg, _run(cfg)))
    return out


def check_monotone_along_trajectories(ctx: Context, sign: float = 1.0) -> Outcome:
    """sign * dH^h_i/dt >= 0 at every recorded state, and recorded sign * H^h_i never decreasing."""
    worst = Worst.least()
    for cfg, traj in _trajectories(ctx):
        for X in traj.states:
            state = cfg.moved_to(X)
            rates = sign * model.entropy_rates(state)
            worst.update(float(rates.min()) / (1.0 + float(np.abs(rates).max())), state)
        drops = -np.diff(sign * traj.observables["entropies"], axis=0)
        worst.bound(-float(np.max(drops, initial=0.0)))
    direction = "non-decreasing" if sign > 0 else "non-increasing"
    method = (
        f"numeric: {tableau_for(RTOL).name} (rtol={RTOL:g}) from random equiangular softmax configurations with "
        "scalar heads until "
        f"the cluster gap is < {FINAL_GAP:g}; model dH^h_i/dt and H^h_i {direction} at {len(RECORD_TIMES)} log-spaced "
        "record times (dense output)"
    )
    return worst.verdict(method, RATE_TOLERANCE, {"states": worst.cases})


def check_limit(ctx: Context, limit: Callable[[int], float] = math.log) -> Outcome:
    """Every H^h_i at the end state (cluster gap < FINAL_GAP) within LIMIT_TOLERANCE of limit(n)."""
    worst, deficits = Worst.largest(), []
    for cfg, traj in _trajectories(ctx):
        entropies = traj.observables["entropies"]
        deficit = math.log(cfg.n) - entropies.min(axis=(1, 2))
        deficits.append(
            {
                "n": cfg.n,
                "initial_deficit": float(deficit[0]),
                "final_deficit": float(deficit[-1]),
                "deficit_non_increasing": bool(np.all(np.diff(deficit) <= RATE_TOLERANCE)),
            }
        )
        worst.update(float(np.max(np.abs(limit(cfg.n) - entropies[-1]))), traj.final)
    method = (
        f"numeric: {tableau_for(RTOL).name} from {worst.cases} random equiangular softmax configurations with "
        "scalar heads until the "
        f"cluster gap is < {FINAL_GAP:g}; max |limit(n) - H^h_i| at the end state"
    )
    details = {"max_gap_to_limit": worst.value, "runs": deficits}
    return worst.verdict(method, LIMIT_TOLERANCE, details)


def check_limit_general(ctx: Context, limit: Callable[[int], float] = math.log) -> Outcome:
    """Random symmetric heads: on runs that collapse (gap < FINAL_GAP), every H^h_i ends near limit(n)."""
    rng = ctx.rng("limit-general")
    runs, worst = cases(ctx, 10, 40), Worst.largest()
    for _ in runs:
        n, d, H = int(rng.integers(3, 8)), int(rng.integers(2, 5)), int(rng.integers(1, 4))
        X = families.draw_tokens("random-sphere", n, d, rng, {})
        M = families.draw_heads("random-symmetric", H, d, rng, {"scale": 1.0})
        cfg = Configuration.create(X, M, beta=1.0, attention="softmax")
        events = (cluster_gap_below(FINAL_GAP), speed_below(SETTLED_SPEED))
        traj = integrate(cfg, 1e3, rtol=RTOL, atol=ATOL, events=events, observables=("entropies",), backend="numpy")
        if traj.status == f"event:{events[0].name}":
            worst.update(float(np.max(np.abs(limit(n) - traj.observables["entropies"][-1]))), traj.final)
    collapsed = worst.cases
    method = (
        f"numeric: {tableau_for(RTOL).name} from {len(runs)} random softmax configurations with random symmetric "
        "heads (beta = 1); on "
        f"the {collapsed} runs that collapse (cluster gap < {FINAL_GAP:g}), max |limit(n) - H^h_i| at the end"
    )
    details = {"runs": len(runs), "collapsed": collapsed, "settled_or_unfinished": len(runs) - collapsed}
    if not collapsed:
        return Outcome(Verdict.INCONCLUSIVE, method, cases=len(runs), details=details, notes="no run collapsed")
    return worst.verdict(method, GENERAL_LIMIT_TOLERANCE, details)
