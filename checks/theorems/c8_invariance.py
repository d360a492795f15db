"""The paper's open problem: is Condition 8 invariant along trajectories? (C8.invariance and its exit gap)

Claimed (as a question): a trajectory that starts where Condition 8 holds at every token and head stays
there. headflow decides it in Theorem 19's regime (usa, M_h = W_h = alpha I, orthonormal start,
0 < beta <= beta*), where the tokens stay equiangular and rho alone moves, and measures the exit gap.

How each is decided:
- witness (C8.invariance): `headflow.identities.condition8_invariance.prove_exit` derives, for symbolic
  H >= 2, n, alpha > 0 and beta (Condition 8 strict at the start, which every beta in (0, beta*] gives),
  that rho increases through (0, 1) in finite time, that the margin is alpha^2 w^2 h(rho) with h strictly
  concave and h(1) = -(H - 1) n^2 < 0: every such trajectory leaves the region. The REFUTED verdict rests
  on a point certificate (H = 2, n = 3, alpha = 1, a rational beta near beta*/2, a rational rho past the
  exit) whose signs are settled by balls, its lemma re-derived by the checker.
- symbolic (C8.invariance.exit-gap): `prove_exit_gap` adds that eps_exit increases with alpha beta and
  n (H - 1)/(H (n - 1)) < eps_exit < 1; witness: certified brackets of eps_exit at a few instances
  (`headflow.certificates.provers.exit_gap`); trajectory: the numpy model integrated from orthonormal tokens, its first
  negative Condition 8 margin located by an event, agrees with the certified gap (floats: evidence).
- search (C8.invariance.reading-b): orthogonal-subspace heads and random unit tokens, each started at the
  edge of the region (the largest beta at which Condition 8 still holds at every token and head, by
  bisection on the model), integrated until some margin turns negative: the exits found are float
  candidates (INCONCLUSIVE), none found is CONFIRMED.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import Any

from headflow.certificates.provers import exit_gap
from headflow.certificates.provers.witness import certify_obligation_point
from headflow.certificates.store import certificate_directory
from headflow.checks.constants import floats as scalar_constants
from headflow.checks.evidence.cases import Worst, cases
from headflow.checks.evidence.condition8_exits import edge_beta, model_exit, regime_exit
from headflow.checks.evidence.sampling import configuration_record
from headflow.checks.integrator import IntegrationFailure
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import REGISTRY, Context
from headflow.checks.verdicts import Outcome, Verdict, derived
from headflow.identities import condition8_invariance as ci
from headflow.identities.derivation import Derivation

_STATEMENTS: tuple[tuple[str, str, str], ...] = (
    (
        "C8.invariance",
        "Open problem: Condition 8 is invariant along trajectories (Theorem 19's regime)",
        "usa, H >= 2 heads M_h = W_h = alpha I (alpha > 0), spherical dynamics, n >= 2 tokens starting orthonormal "
        "(d >= n), 0 < beta <= beta*(H, n, alpha) (for (H, n) with beta* > 0): Condition 8 "
        "(sum_{h' != h} a^h_i a^h'_i <= T^h_i at every token i and head h), which holds at t = 0, holds at every "
        "time t >= 0 along the trajectory.",
    ),
    (
        "C8.invariance.exit-gap",
        "Open problem: the cluster gap at which the trajectory leaves the Condition 8 region",
        "In the regime of C8.invariance (more generally, whenever (H - 1) exp(2 alpha beta) < n - 1), the trajectory "
        "leaves the Condition 8 region at a finite time, at one cluster gap eps_exit(H, n, alpha beta) in (0, 1): the "
        "unique zero in (0, 1) of g(eps) = (n-1) eps (n - (n-1) eps) - (H-1)(exp(alpha beta eps) + (n-1)(1 - eps))^2; "
        "eps_exit increases with alpha beta and n (H-1)/(H (n-1)) < eps_exit < 1, the lower end being its limit as "
        "alpha beta -> 0; its value is certified with balls (headflow constants c8_exit_gap).",
    ),
    (
        "C8.invariance.reading-b",
        "Open problem: invariance of Condition 8 with orthogonal-subspace heads and general tokens",
        "usa, symmetric heads M_h = W_h on mutually orthogonal coordinate blocks (M_h M_h' = 0), spherical dynamics, "
        "any unit tokens: a trajectory that starts where Condition 8 holds at every token and head stays there "
        "(searched in floats: evidence only, never a proof or a refutation).",
    ),
)

REGISTRY.declare_all(_STATEMENTS)

METHOD = "symbolic (SymPy): the equiangular reduction and the counted Condition 8 margin, general H, n, alpha, beta"

#: The witness instance of the issue: H = 2, n = 3, alpha = 1, beta near beta*/2.
WITNESS = (2, 3, 1)
#: Instances whose exit gap is certified by a bracket (H, n, beta / beta*), alpha = 1.
BRACKETED = ((2, 3, Fraction(1, 2)), (2, 3, Fraction(1)), (3, 10, Fraction(1, 2)), (4, 100, Fraction(1, 2)))
#: Bits of the certified brackets (about 15 significant digits).
BRACKET_BITS = 56


def rational_beta(heads: int, tokens: int, scale: int, ratio: Fraction) -> Fraction:
    """A rational beta just below ratio * beta*(H, n, alpha) (4 significant digits, rounded down)."""
    target = float(ratio) * float(scalar_constants.beta_star(heads, tokens, scale))
    exponent = math.floor(math.log10(target)) - 3
    return Fraction(math.floor(target / 10.0**exponent)) * Fraction(10) ** exponent


@REGISTRY.procedure("C8.invariance", "witness")
def _invariance(ctx: Context) -> Outcome:
    derivation = Derivation()
    ci.prove_exit(derivation)
    if not derivation.proved:
        return derived(derivation, METHOD)
    heads, tokens, scale = WITNESS
    beta = rational_beta(heads, tokens, scale, Fraction(1, 2))
    bracket = exit_gap.bracket(heads, tokens, scale * beta, BRACKET_BITS)
    past = Fraction(math.ceil(bracket.hi * 100) + 1, 100)  # a round correlation a little past the exit
    params = {"H": heads, "n": tokens, "alpha": scale}
    result = certify_obligation_point("C8.invariance", params, [beta, past], certificate_directory(ctx.certificate_dir))
    if not result.verified:
        return Outcome(Verdict.INCONCLUSIVE, "balls", notes=result.reason, steps=list(derivation.steps))
    witness = {
        "verified_by": "ball",
        **params,
        "beta": str(beta),
        "rho": str(past),
        "cluster_gap_at_rho": str(1 - past),
        "time_bound": float(ci.time_bound(past, heads, tokens, scale)),
        "exit_gap": bracket.gap_interval(12),
        "balls": result.values,
    }
    outcome = Outcome(
        Verdict.REFUTED,
        METHOD + "; ball-verified point certificate at one instance",
        witness=witness,
        certificates=[str(result.path)],
        steps=list(derivation.steps),
    )
    outcome.finding = (
        "Condition 8 is not invariant: in Theorem 19's regime every trajectory (every H >= 2, n, alpha > 0, "
        "0 < beta <= beta*) leaves the region in finite time, since the margin tends to -(H-1) alpha^2 n^2 "
        f"exp(2 alpha beta) < 0 as the tokens collapse; at H = {heads}, n = {tokens}, alpha = {scale}, beta = {beta} "
        f"(about beta*/2) it is lost at cluster gap eps_exit in {bracket.gap_interval(6)}, and fails at "
        f"rho = {past} (reached by t <= "
        f"{witness['time_bound']:.3g})"
    )
    return outcome


@REGISTRY.procedure("C8.invariance.exit-gap", "symbolic")
def _exit_gap_symbolic(ctx: Context) -> Outcome:
    outcome = derived(_exit_gap_derivation(), METHOD)
    if outcome.verdict is Verdict.PROVED:
        outcome.finding = (
            "the trajectory leaves the Condition 8 region while the cluster gap is still above n(H-1)/(H(n-1)) > "
            "(H-1)/H >= 1/2 (alpha beta -> 0 attains it; larger alpha beta exits earlier): monotonicity through "
            "Condition 8 is lost before clustering has halved the gap, although every E_h keeps rising in this "
            "regime (T19.monotonicity-regime)"
        )
    return outcome


def _exit_gap_derivation() -> Derivation:
    derivation = Derivation()
    ci.prove_exit_gap(derivation)
    return derivation


@REGISTRY.procedure("C8.invariance.exit-gap", "witness")
def _exit_gap_balls(ctx: Context) -> Outcome:
    """Certified brackets of eps_exit at BRACKETED, each a point certificate (beta rational, just below ratio beta*)."""
    directory = certificate_directory(ctx.certificate_dir)
    paths, table = [], []
    for heads, tokens, ratio in BRACKETED:
        ctx.check_budget()
        beta = rational_beta(heads, tokens, 1, ratio)
        bracket = exit_gap.bracket(heads, tokens, beta, BRACKET_BITS)
        params = {"H": heads, "n": tokens, "alpha": 1}
        result = certify_obligation_point("C8.invariance.exit-gap", params, [beta, bracket.lo, bracket.hi], directory)
        if not result.verified:
            return Outcome(Verdict.INCONCLUSIVE, "balls", notes=f"H={heads}, n={tokens}: {result.reason}")
        paths.append(str(result.path))
        table.append(
            {
                "H": heads,
                "n": tokens,
                "alpha": 1,
                "beta": str(beta),
                "beta/beta*": str(ratio),
                "exit_gap": bracket.gap_interval(15),
                "lower_bound n(H-1)/(H(n-1))": float(ci.exit_lower_bound(heads, tokens)),
            }
        )
    return Outcome(
        Verdict.CERTIFIED,
        "balls: eps_exit bracketed by the signs of the concave exit function at two exact correlations",
        certificates=paths,
        details={"exit gaps": table},
    )


#: How long a search trajectory is followed, in time and in integrator steps (a stiff run stops early).
SEARCH_TIME = 10.0
SEARCH_STEPS = 4000
#: Largest beta of a search start (larger ones make stiff runs).
SEARCH_BETA = 8.0
#: Agreement required between the model's exit gap and the certified one (the event is located to ~1e-10).
EXIT_TOLERANCE = 1e-6


@REGISTRY.procedure("C8.invariance.exit-gap", "trajectory")
def _exit_gap_trajectory(ctx: Context) -> Outcome:
    """The numpy model's exit gap from orthonormal tokens against the certified eps_exit, at each BRACKETED instance
    (float evidence that the reduction and the counted margin describe the model)."""
    worst = Worst.largest()
    rows: list[dict[str, Any]] = []
    for heads, tokens, ratio in BRACKETED:
        ctx.check_budget()
        beta = rational_beta(heads, tokens, 1, ratio)
        certified = float(exit_gap.bracket(heads, tokens, beta, BRACKET_BITS).gap().mid())
        found = regime_exit(heads, tokens, 1.0, float(beta))
        cfg = Configuration.create(
            families.orthogonal_tokens(tokens, tokens), families.scalar_heads([1.0] * heads, tokens), beta=float(beta)
        )
        worst.update(abs(found.cluster_gap - certified), cfg)
        rows.append({"H": heads, "n": tokens, "beta": float(beta), "model": found.cluster_gap, "certified": certified})
    return worst.verdict(
        "trajectory: DP5(4) runs of the numpy model from orthonormal tokens, the first zero of the least Condition 8 "
        "margin located by an event; |model exit gap - certified eps_exit|",
        EXIT_TOLERANCE,
        {"exits": rows},
    )


#: Where a search start sits: beta at these fractions of the edge of the Condition 8 region (near the boundary,
#: and well inside it).
EDGE_FRACTIONS = (0.99, 0.5)


@REGISTRY.procedure("C8.invariance.reading-b", "search")
def _reading_b(ctx: Context) -> Outcome:
    """Orthogonal-subspace heads, random unit tokens, started near the edge of the region and well inside it; every
    exit found is a float candidate."""
    rng = ctx.rng("orthogonal-subspace")
    worst = Worst.least(math.inf)
    exits: list[dict[str, Any]] = []
    starts, failures = 0, 0
    for _ in cases(ctx, 12, 120):
        heads = int(rng.integers(2, 4))
        tokens = int(rng.integers(3, 7))
        dimension = int(rng.integers(max(heads, 3), 7))
        drawn = Configuration.create(
            families.random_sphere_tokens(tokens, dimension, rng),
            families.orthogonal_subspace_heads(heads, dimension, rng, scale=float(rng.uniform(0.5, 2.0))),
            beta=1.0,
        )
        edge = edge_beta(drawn, 1.0, SEARCH_BETA)
        for fraction in EDGE_FRACTIONS if edge is not None else ():
            cfg = dataclasses.replace(drawn, beta=fraction * edge)
            try:
                found = model_exit(cfg, SEARCH_TIME, rtol=1e-8, max_steps=SEARCH_STEPS)
            except IntegrationFailure:
                failures += 1
                continue
            starts += 1
            worst.update(-1.0 if math.isfinite(found.time) else 0.0, cfg)
            if math.isfinite(found.time):
                exits.append(
                    {
                        "H": heads,
                        "n": tokens,
                        "d": dimension,
                        "beta / edge": fraction,
                        "start_margin": found.start_margin,
                        "start_cluster_gap": model.cluster_gap(cfg),
                        "exit_time": found.time,
                        "exit_cluster_gap": found.cluster_gap,
                        "configuration": configuration_record(cfg),
                    }
                )
    if not starts:
        return Outcome(Verdict.INCONCLUSIVE, "search", notes="no start inside the Condition 8 region was integrated")
    details = {
        "starts inside the region": starts,
        "runs the integrator could not finish": failures,
        "trajectories that left it": len(exits),
        "exits (beta / edge, start gap, exit time, exit gap)": [
            (
                e["beta / edge"],
                round(e["start_cluster_gap"], 4),
                round(e["exit_time"], 5),
                round(e["exit_cluster_gap"], 4),
            )
            for e in exits
        ],
        "first exits": exits[:2],
    }
    outcome = worst.verdict(
        "search: orthogonal-subspace heads (H in 2..3), random unit tokens (n in 3..6, d in max(H, 3)..6), beta at "
        f"{' and '.join(map(str, EDGE_FRACTIONS))} of the edge of the Condition 8 region (bisection on the model), "
        f"DP5(4) to t = {SEARCH_TIME:g} with an event on the least margin; margin -1 for a trajectory that left the "
        "region, 0 for one that stayed",
        0.0,
        details,
    )
    if exits:
        gaps = sorted(e["exit_cluster_gap"] for e in exits)
        outcome.notes = (
            f"float candidates: {len(exits)} of {starts} trajectories started inside the region left it (exit "
            f"cluster gaps {gaps[0]:.3g} to {gaps[-1]:.3g}); not verified rigorously"
        )
    return outcome
