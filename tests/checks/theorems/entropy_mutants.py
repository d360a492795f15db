"""Mutants of the entropy theorem (headflow.checks.theorems.t27_entropy): T27's identity, monotonicity and limit."""

from __future__ import annotations

import math

from headflow.checks.evidence import entropy_rates as entropy
from headflow.checks.evidence.entropy_rates import check_entropy_identity
from headflow.identities.entropy import beta as ent_beta
from headflow.identities.entropy import prove_entropy_identity

from tests.soundness.mutation import Mutant, symbolic, thorough


def _identity() -> list[Mutant]:
    """The entropy production identity, symbolically and numerically."""
    b = ent_beta
    return [
        Mutant(
            "t27-sign",
            "T27.entropy-identity",
            "dH/dt = +beta^2 Cov (sign)",
            False,
            symbolic(lambda: prove_entropy_identity(lambda cov: b**2 * cov)),
        ),
        Mutant(
            "t27-beta1",
            "T27.entropy-identity",
            "dH/dt = -beta Cov (exponent)",
            False,
            symbolic(lambda: prove_entropy_identity(lambda cov: -b * cov)),
        ),
        Mutant(
            "t27-true",
            "T27.entropy-identity",
            "dH/dt = -beta^2 Cov (the claim)",
            True,
            symbolic(lambda: prove_entropy_identity()),
            accept=True,
        ),
        Mutant(
            "t27-num-sign",
            "T27.entropy-identity",
            "numeric: dH/dt = +beta^2 Cov (sign)",
            False,
            lambda ctx: check_entropy_identity(ctx, coefficient=1.0),
        ),
        Mutant(
            "t27-num-beta3",
            "T27.entropy-identity",
            "numeric: dH/dt = -beta^3 Cov (exponent)",
            False,
            lambda ctx: check_entropy_identity(ctx, beta_power=3),
        ),
    ]


def _dynamics() -> list[Mutant]:
    """T27 monotonicity and limits along trajectories, with a wrong sign or limit."""
    return [
        Mutant(
            "t27-decreasing",
            "T27.entropy-monotone",
            "attention entropy is non-increasing (sign flipped)",
            False,
            lambda ctx: entropy.check_monotone_along_trajectories(ctx, sign=-1.0),
        ),
        Mutant(
            "t27-limit-log-n-1",
            "T27.entropy-limit",
            "entropy tends to log(n - 1)",
            False,
            lambda ctx: entropy.check_limit(ctx, limit=lambda n: math.log(n - 1)),
        ),
        Mutant(
            "t27-limit-half-log-n",
            "T27.entropy-limit.reading-b",
            "entropy tends to (1/2) log n (symmetric heads)",
            False,
            lambda ctx: entropy.check_limit_general(ctx, limit=lambda n: 0.5 * math.log(n)),
        ),
    ]


def mutants() -> list[Mutant]:
    """Every entropy mutant; the numeric ones again with the thorough profile (slow)."""
    fast = _identity() + _dynamics()
    return fast + thorough([m for m in fast if m.id.startswith("t27-num")])
