"""Attention entropy, Theorem 27: the production identity, monotonicity and the limit log n.

Claimed: the entropy of p = softmax(beta s) obeys dH/dt = -beta^2 Cov_p(s, sdot) for any scores
(T27.entropy-identity); in the summary's regime (softmax, scalar heads lambda_h > 0, W_h = M_h,
equiangular tokens, the sphere) every attention entropy H^h_i is non-decreasing
(T27.entropy-monotone) and tends to log n (T27.entropy-limit). Broader readings, declared here:
monotonicity with arbitrary tokens (reading-b) and also arbitrary symmetric heads (reading-c), and
the limit with random symmetric heads and tokens (T27.entropy-limit.reading-b).

How each is decided:
- symbolic: the identity is proved in `identities.entropy` for a general number of scores; a numeric
  procedure cross-checks it against the model's entropy rates.
- trajectory: runs from the equiangular scalar regime (`families.equiangular_softmax_configuration`)
  are integrated until the cluster gap is below 1e-8; at every accepted step the model's dH^h_i/dt
  must be >= 0 and the recorded entropies must not decrease beyond the integration error, and at the
  end |log n - H^h_i| must be within tolerance (the deficit along each run is reported). Floats give
  at most CONFIRMED. The limit's reading-b checks the runs that collapse and counts those that settle
  into several clusters instead.
- witness (monotonicity readings b and c): an adversarial float search over the reading's
  configurations (`search_monotone_general`) looks for a negative dH^h_i/dt; the most negative
  candidates are rounded to exact data that keep the reading's hypotheses (rational unit tokens,
  scalar or symmetric heads rounded entry-wise, W_h = M_h), the hypotheses are checked exactly and
  the rate is settled with the ball model. Only a ball-verified negative rate, written as a witness
  certificate, makes a reading REFUTED; a float candidate alone leaves it INCONCLUSIVE, and no
  candidate leaves the float verdict (CONFIRMED).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from certificates.kernel.ball_model import ExactConfiguration
from certificates.kernel.family_names import HEAD_FAMILIES, SHORT_HEAD_NAMES
from certificates.kernel.obligations import CONFIGURATIONS
from certificates.provers.witness import round_configuration
from checks.evidence import adversarial
from checks.evidence.cases import Worst, cases
from checks.evidence.sampling import float_verdict, random_configuration, relative_discrepancy
from checks.evidence.witnesses import Candidate, certify_first
from checks.integrator import Trajectory, cluster_gap_below, integrate, speed_below, tableau_for
from checks.model import families
from checks.model import field as model
from checks.model.configuration import Configuration
from checks.registry import REGISTRY, Context
from checks.verdicts import Outcome, Verdict, derived
from identities.entropy import prove_entropy_identity

_STATEMENTS: tuple[tuple[str, str, str], ...] = (
    (
        "T27.entropy-identity",
        "Theorem 27: entropy production identity",
        "For every n >= 2, beta > 0 and every differentiable family of scores s_j(t), the entropy of "
        "p = softmax(beta s) obeys dH/dt = -beta^2 Cov_p(s, sdot).",
    ),
    (
        "T27.entropy-monotone",
        "Theorem 27: entropy is non-decreasing",
        "softmax, scalar heads M_h = lambda_h I (lambda_h > 0), W_h = M_h, equiangular tokens, "
        "spherical dynamics: every attention entropy H^h_i is non-decreasing in time.",
    ),
    (
        "T27.entropy-limit",
        "Theorem 27: entropy tends to log n",
        "In the regime of T27.entropy-monotone, every H^h_i(t) -> log n as t -> infinity.",
    ),
)

REGISTRY.declare_all(_STATEMENTS)


TOLERANCE = 1e-9


def covariance_rates(cfg: Configuration, coefficient: float = -1.0, beta_power: int = 2) -> np.ndarray:
    """coefficient * beta^beta_power * Cov_p(s, sdot) per head and token, shape (H, n); the identity
    has coefficient -1 and beta_power 2 (other values state wrong variants, for soundness tests)."""
    p, s, sdot = model.attention_distributions(cfg), model.scores(cfg), model.score_rates(cfg)
    mean_s, mean_rate = np.sum(p * s, axis=-1), np.sum(p * sdot, axis=-1)
    return coefficient * cfg.beta**beta_power * (np.sum(p * s * sdot, axis=-1) - mean_s * mean_rate)


@REGISTRY.procedure("T27.entropy-identity", "symbolic")
def _symbolic(ctx: Context) -> Outcome:
    return derived(prove_entropy_identity(), "symbolic (SymPy): moments of sums with symbolic n, chain rule")


@REGISTRY.procedure("T27.entropy-identity", "numeric")
def _numeric(ctx: Context) -> Outcome:
    return check_entropy_identity(ctx)


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
        traj = integrate(cfg, 1e3, rtol=RTOL, atol=ATOL, events=events, observables=("entropies",))
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
    result = adversarial.search(
        family, adversarial.rate_margin("entropy_rate"), budget, ctx.rng(f"general-{heads}"), ctx.check_budget
    )
    method = (
        f"numeric: adversarial search of the model's dH^h_i/dt over softmax spherical configurations with "
        f"{'scalar' if heads == 'scalar' else 'random symmetric'} heads and any tokens ({result.starts} random and "
        f"{result.structured_starts} structured starts, {result.local_runs} local minimizations, "
        f"{result.evaluations} evaluations)"
    )
    candidates = [Candidate(f.margin, f.cfg, f.index[0], f.index[1]) for f in result.candidates]
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
    search = search_monotone_general(ctx, heads, sample)
    if search.worst >= -RATE_TOLERANCE:
        return float_verdict(search.method, search.cases, search.worst, RATE_TOLERANCE, None)
    method = search.method + "; the most negative candidates rounded to exact data, dH^h_i/dt < 0 verified with balls"

    def rounding(candidate: Candidate) -> ExactConfiguration:
        cfg = candidate.cfg
        return round_configuration(
            cfg.tokens, cfg.score_matrices, cfg.score_matrices, cfg.beta, symmetric=True, attention="softmax"
        )

    attempts = certify_first(ctx, claim_id, search.candidates, rounding, HYPOTHESES[heads], "entropy_rate")
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


@REGISTRY.procedure("T27.entropy-monotone.reading-b", "witness")
def _reading_b(ctx: Context) -> Outcome:
    return refute_monotone(ctx, "scalar")


@REGISTRY.procedure("T27.entropy-monotone.reading-c", "witness")
def _reading_c(ctx: Context) -> Outcome:
    return refute_monotone(ctx, "symmetric")
