"""Theorem 27 along trajectories: attention entropy non-decreasing, and its limit log n.

The summary's regime (catalog statements): softmax, scalar heads lambda_h > 0, equiangular
tokens, spherical dynamics. Each run integrates until the cluster gap is below 1e-8 and, at every
accepted step, checks the model's dH^h_i/dt >= 0 and that recorded entropies never decrease by
more than integration error; the limit is checked at the end state (log n - H^h_i <= tolerance)
with the deficit decreasing over the run.

Broader readings, declared here as their own claims: for monotonicity, reading-b drops
equiangularity (scalar heads, arbitrary tokens) and reading-c also drops scalar heads (arbitrary
symmetric heads); they are searched at random configurations through the model's entropy rates
(`search_monotone_general`), and a negative rate is only a float candidate: the procedures in
certificates/entropy_witness_claims.py round it to exact data and verify it with balls. For the
limit, reading-b takes random symmetric heads and random tokens and checks the runs that collapse
(a run may instead settle into several clusters; those are counted).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from checks import adversarial, families, model
from checks.clustering_rate_claims import equiangular_softmax
from checks.config import Configuration
from checks.integrator import Trajectory, cluster_gap_below, integrate, speed_below
from checks.registry import REGISTRY, Context
from checks.sampling import configuration_record, float_verdict
from checks.verdicts import Outcome, Verdict

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

REGISTRY.declare(
    "T27.entropy-monotone.reading-b",
    "Theorem 27, broader reading: scalar heads, arbitrary tokens",
    "softmax, scalar heads M_h = lambda_h I (lambda_h > 0), W_h = M_h, spherical dynamics, any n >= 2, "
    "d >= 2 and any tokens on S^{d-1} (not necessarily equiangular): every dH^h_i/dt >= 0.",
)
REGISTRY.declare(
    "T27.entropy-limit.reading-b",
    "Theorem 27, broader reading: the entropy limit for symmetric heads",
    "softmax, any symmetric M_h, W_h = M_h, spherical dynamics, any n >= 2, d >= 2: along every trajectory "
    "whose cluster gap tends to 0, every H^h_i(t) -> log n.",
)
REGISTRY.declare(
    "T27.entropy-monotone.reading-c",
    "Theorem 27, broader reading: symmetric heads, arbitrary tokens",
    "softmax, any symmetric M_h, W_h = M_h, spherical dynamics, any n >= 2, d >= 2 and any tokens on "
    "S^{d-1}: every dH^h_i/dt >= 0.",
)


def _run(cfg: Configuration) -> Trajectory:
    events = (cluster_gap_below(FINAL_GAP),)
    return integrate(cfg, 1e4, rtol=RTOL, atol=ATOL, events=events, observables=("entropies", "cluster_gap"))


def _trajectories(ctx: Context) -> list[tuple[Configuration, Trajectory]]:
    rng = ctx.rng("equiangular-trajectories")
    runs = 8 if ctx.thorough else 3
    out = []
    for _ in range(runs):
        ctx.check_budget()
        cfg, _ = equiangular_softmax(rng)
        out.append((cfg, _run(cfg)))
    return out


def check_monotone_along_trajectories(ctx: Context, sign: float = 1.0) -> Outcome:
    """sign * dH^h_i/dt >= 0 at every accepted step, and recorded sign * H^h_i never decreasing."""
    worst, candidate, states = 0.0, None, 0
    for cfg, traj in _trajectories(ctx):
        for X in traj.states:
            state = cfg.moved_to(X)
            rates = sign * model.entropy_rates(state)
            margin = float(rates.min()) / (1.0 + float(np.abs(rates).max()))
            if margin < worst:
                worst, candidate = margin, configuration_record(state)
        drops = -np.diff(sign * traj.observables["entropies"], axis=0)
        worst = min(worst, -float(np.max(drops, initial=0.0)))
        states += len(traj.states)
    direction = "non-decreasing" if sign > 0 else "non-increasing"
    method = (
        f"numeric: DP5(4) (rtol={RTOL:g}) from random equiangular softmax configurations with scalar heads until "
        f"the cluster gap is < {FINAL_GAP:g}; model dH^h_i/dt and recorded H^h_i {direction} at every accepted step"
    )
    return float_verdict(method, states, worst, RATE_TOLERANCE, candidate, {"states": states})


def check_limit(ctx: Context, limit: Callable[[int], float] = math.log) -> Outcome:
    """Every H^h_i at the end state (cluster gap < FINAL_GAP) within LIMIT_TOLERANCE of limit(n)."""
    worst, candidate, runs, deficits = 0.0, None, 0, []
    for cfg, traj in _trajectories(ctx):
        entropies = traj.observables["entropies"]
        gap = float(np.max(np.abs(limit(cfg.n) - entropies[-1])))
        deficit = math.log(cfg.n) - entropies.min(axis=(1, 2))
        deficits.append(
            {
                "n": cfg.n,
                "initial_deficit": float(deficit[0]),
                "final_deficit": float(deficit[-1]),
                "deficit_non_increasing": bool(np.all(np.diff(deficit) <= RATE_TOLERANCE)),
            }
        )
        if gap > worst:
            worst, candidate = gap, configuration_record(traj.final)
        runs += 1
    method = (
        f"numeric: DP5(4) from {runs} random equiangular softmax configurations with scalar heads until the "
        f"cluster gap is < {FINAL_GAP:g}; max |limit(n) - H^h_i| at the end state"
    )
    details = {"max_gap_to_limit": worst, "runs": deficits}
    return float_verdict(method, runs, -worst, LIMIT_TOLERANCE, candidate, details)


def check_limit_general(ctx: Context, limit: Callable[[int], float] = math.log) -> Outcome:
    """Random symmetric heads: on runs that collapse (gap < FINAL_GAP), every H^h_i ends near limit(n)."""
    rng = ctx.rng("limit-general")
    runs = 40 if ctx.thorough else 10
    worst, candidate, collapsed = 0.0, None, 0
    for _ in range(runs):
        ctx.check_budget()
        n, d, H = int(rng.integers(3, 8)), int(rng.integers(2, 5)), int(rng.integers(1, 4))
        X = families.random_sphere_tokens(n, d, rng)
        cfg = Configuration.create(X, families.random_symmetric_heads(H, d, rng), beta=1.0, attention="softmax")
        events = (cluster_gap_below(FINAL_GAP), speed_below(SETTLED_SPEED))
        traj = integrate(cfg, 1e3, rtol=RTOL, atol=ATOL, events=events, observables=("entropies",))
        if traj.status != f"event:{events[0].name}":
            continue
        collapsed += 1
        gap = float(np.max(np.abs(limit(n) - traj.observables["entropies"][-1])))
        if gap > worst:
            worst, candidate = gap, configuration_record(traj.final)
    method = (
        f"numeric: DP5(4) from {runs} random softmax configurations with random symmetric heads (beta = 1); on "
        f"the {collapsed} runs that collapse (cluster gap < {FINAL_GAP:g}), max |limit(n) - H^h_i| at the end"
    )
    details = {"runs": runs, "collapsed": collapsed, "settled_or_unfinished": runs - collapsed}
    if not collapsed:
        return Outcome(Verdict.INCONCLUSIVE, method, cases=runs, details=details, notes="no run collapsed")
    return float_verdict(method, collapsed, -worst, GENERAL_LIMIT_TOLERANCE, candidate, details)


@dataclass
class RateSearch:
    """Random configurations of a broader reading and where dH^h_i/dt came out negative."""

    method: str
    cases: int
    worst: float
    #: (relative margin, configuration, head, token) of the most negative cases kept, most negative first.
    candidates: list[tuple[float, Configuration, int, int]]
    #: How many starts had a negative rate.
    negatives: int = 0


def sample_general(rng: np.random.Generator, heads: str) -> Configuration:
    """A random softmax spherical configuration with scalar (`heads='scalar'`) or symmetric heads, W_h = M_h."""
    n, d, H = int(rng.integers(2, 8)), int(rng.integers(2, 5)), int(rng.integers(1, 4))
    if heads == "scalar":
        M = families.scalar_heads(rng.uniform(0.2, 2.0, size=H), d)
    else:
        M = families.random_symmetric_heads(H, d, rng)
    X = families.random_sphere_tokens(n, d, rng)
    return Configuration.create(X, M, beta=float(rng.uniform(0.3, 2.0)), attention="softmax")


def search_monotone_general(
    ctx: Context,
    heads: str,
    sample: Callable[[np.random.Generator, str], Configuration] = sample_general,
    free: bool | None = None,
) -> RateSearch:
    """The adversarial search (`checks.adversarial`) for a negative dH^h_i/dt among `sample`'s configurations.

    Random draws, structured token sets, then local minimization over the tokens (and the symmetric
    heads of reading-c); the kept negative minima are the candidates. The readings allow any tokens,
    so the default sampler's tokens (and symmetric heads) are free; a custom sampler defines its own
    family, searched only at its draws unless `free` is True."""
    free = sample is sample_general if free is None else free
    budget = adversarial.BUDGETS[ctx.profile]
    budget = dataclasses.replace(budget, starts=400 if ctx.thorough else 100)
    family = adversarial.Family(
        lambda rng: sample(rng, heads),
        free_tokens=free,
        free_heads="symmetric" if free and heads != "scalar" else None,
    )
    result = adversarial.search(
        family, adversarial.rate_margin("entropy_rate"), budget, ctx.rng(f"general-{heads}"), ctx.check_budget
    )
    method = (
        f"numeric: adversarial search of the model's dH^h_i/dt over softmax spherical configurations with "
        f"{'scalar' if heads == 'scalar' else 'random symmetric'} heads and any tokens ({result.starts} random and "
        f"{result.structured_starts} structured starts, {result.local_runs} local minimizations, "
        f"{result.evaluations} evaluations)"
    )
    candidates = [(f.margin, f.cfg, f.index[0], f.index[1]) for f in result.candidates]
    return RateSearch(
        method, result.evaluations, min(0.0, result.worst), candidates, max(result.negative_starts, len(candidates))
    )


@REGISTRY.procedure("T27.entropy-monotone", "trajectory")
def _monotone(ctx: Context) -> Outcome:
    return check_monotone_along_trajectories(ctx)


@REGISTRY.procedure("T27.entropy-limit", "trajectory")
def _limit(ctx: Context) -> Outcome:
    return check_limit(ctx)


@REGISTRY.procedure("T27.entropy-limit.reading-b", "trajectory")
def _limit_reading_b(ctx: Context) -> Outcome:
    return check_limit_general(ctx)
