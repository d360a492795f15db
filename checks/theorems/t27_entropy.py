"""Attention entropy, Theorem 27: the production identity, monotonicity and the limit log n.

Claimed: the entropy of p = softmax(beta s) obeys dH/dt = -beta^2 Cov_p(s, sdot) for any scores
(T27.entropy-identity); in the summary's regime (softmax, scalar heads lambda_h > 0, W_h = M_h,
equiangular tokens, the sphere) every attention entropy H^h_i is non-decreasing
(T27.entropy-monotone) and tends to log n (T27.entropy-limit). Broader readings, declared here:
monotonicity with arbitrary tokens (reading-b) and also arbitrary symmetric heads (reading-c), and
the limit with random symmetric heads and tokens (T27.entropy-limit.reading-b).

How each is decided:
- symbolic: the identity is proved in `headflow.identities.entropy` for a general number of scores; a numeric
  procedure (`headflow.checks.evidence.entropy_rates`) cross-checks it against the model's entropy rates.
- trajectory (`headflow.checks.evidence.entropy_rates`): runs from the equiangular scalar regime, the model's
  rates and recorded entropies along them, and the deficit log n - H^h_i at the end. Floats give at
  most CONFIRMED.
- witness (monotonicity readings b and c, `headflow.checks.evidence.entropy_witnesses`): an adversarial float
  search, exact rounding that keeps the reading's hypotheses, and a ball-verified negative rate.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from headflow.checks.evidence.entropy_rates import (
    check_entropy_identity,
    check_limit,
    check_limit_general,
    check_monotone_along_trajectories,
)
from headflow.checks.evidence.entropy_witnesses import refute_monotone
from headflow.checks.registry import REGISTRY, Context
from headflow.checks.verdicts import Outcome
from headflow.identities.entropy import prove_entropy_identity

if TYPE_CHECKING:
    from matplotlib.figure import Figure

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


REGISTRY.derivations(
    __name__,
    (
        (
            "T27.entropy-identity",
            prove_entropy_identity,
            "symbolic (SymPy): moments of sums with symbolic n, chain rule",
        ),
    ),
)


@REGISTRY.procedure("T27.entropy-identity", "numeric")
def _numeric(ctx: Context) -> Outcome:
    return check_entropy_identity(ctx)


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


@REGISTRY.figure("T27.entropy-monotone", "T27: attention entropy against time")
def _entropies() -> Figure:
    from headflow.checks.reports import figures

    return figures.entropy_curves()


@REGISTRY.procedure("T27.entropy-monotone", "trajectory")
def _monotone(ctx: Context) -> Outcome:
    return check_monotone_along_trajectories(ctx)


@REGISTRY.procedure("T27.entropy-limit", "trajectory")
def _limit(ctx: Context) -> Outcome:
    return check_limit(ctx)


@REGISTRY.procedure("T27.entropy-limit.reading-b", "trajectory")
def _limit_reading_b(ctx: Context) -> Outcome:
    return check_limit_general(ctx)


@REGISTRY.procedure("T27.entropy-monotone.reading-b", "witness")
def _reading_b(ctx: Context) -> Outcome:
    return refute_monotone(ctx, "scalar")


@REGISTRY.procedure("T27.entropy-monotone.reading-c", "witness")
def _reading_c(ctx: Context) -> Outcome:
    return refute_monotone(ctx, "symmetric")
