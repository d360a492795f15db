"""Mutants of the clustering theorems (checks.theorems.clustering): T22's covers and witnesses, T22 and T25 rates."""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from certificates import obligations
from checks.theorems import clustering
from identities import closed_forms as cf
from tests.soundness.mutation import Mutant, cover, point_witness

u = clustering.u


def _u_c(tokens: int) -> Fraction:
    """u_c for `tokens` tokens as a fraction (denominator at most 1000)."""
    return Fraction(clustering.lambda_c_scaled(tokens)).limit_denominator(1000)


def _covers_and_witnesses() -> list[Mutant]:
    """T22: phi's convexity, g' and phi's maximum covered by balls, and a super-additivity violation witness."""
    lam = sp.Symbol("lam", positive=True)
    uc3 = _u_c(3)
    phi3 = cf.rate(lam, 3, 1)
    best3 = cf.rate(cf.lambda_max(3, 1), 3, 1)
    l1, l2 = sp.symbols("lambda1 lambda2", positive=True)
    mean = (l1 + l2) / 2
    violation = 2 * cf.rate(mean, 3, 1) - cf.rate(l1, 3, 1) - cf.rate(l2, 3, 1)
    return [
        Mutant(
            "convex-below-uc",
            "T22.superadditivity.reading-b",
            "phi'' > 0 on [u_c - 1, 40] for n = 3 (domain widened into the concave region)",
            False,
            cover(obligations.convexity_parts(3)["convex"][0], {u: (uc3 - 1, Fraction(40))}, ">"),
        ),
        Mutant(
            "convex-above-uc",
            "T22.superadditivity.reading-b",
            "phi'' > 0 on [u_c + 1/4, 40] for n = 3 (true)",
            True,
            cover(obligations.convexity_parts(3)["convex"][0], {u: (uc3 + Fraction(1, 4), Fraction(40))}, ">"),
            accept=True,
        ),
        Mutant(
            "gprime-from-0",
            "T22.superadditivity.reading-b",
            "g'(u) > 0 on [0, 3] for n = 3 (widened)",
            False,
            cover(sp.diff(cf.lambda_c_equation(u, 3), u), {u: (Fraction(0), Fraction(3))}, ">"),
        ),
        Mutant(
            "phi-below-0.9max",
            "T22.early-rate",
            "phi(lambda) <= 0.9 phi(lambda_max) on [0, 10], n = 3 (coefficient)",
            False,
            cover(phi3 <= sp.Rational(9, 10) * best3, {lam: (Fraction(0), Fraction(10))}),
        ),
        Mutant(
            "phi-below-1.01max",
            "T22.early-rate",
            "phi(lambda) < 1.01 phi(lambda_max) on [0, 10], n = 3 (true)",
            True,
            cover(phi3 < sp.Rational(101, 100) * best3, {lam: (Fraction(0), Fraction(10))}),
            accept=True,
        ),
        Mutant(
            "superadd-convex-witness",
            "T22.superadditivity",
            "a violation of super-additivity with both strengths above lambda_c (n = 3): false by Jensen",
            False,
            point_witness(
                [("g(mean) > 0", cf.lambda_c_equation(mean, 3), ">"), ("violation > 0", violation, ">")],
                {l1: uc3 + 1, l2: uc3 + 3},
            ),
        ),
    ]


def _dynamics() -> list[Mutant]:
    """T22's late rate and T25's clustering times along trajectories, with a wrong law."""
    return [
        Mutant(
            "t22-late-3",
            "T22.late-rate",
            "eps(t) ~ C exp(-3 Lambda t) (rate constant 3 instead of 2)",
            False,
            lambda ctx: clustering.check_late_rate(ctx, multiple=3.0),
        ),
        Mutant(
            "t25-softmax-decreasing",
            "T25.softmax-time",
            "softmax clustering time ~ 1/n (exponent -1, tight)",
            False,
            lambda ctx: clustering.check_clustering_time(ctx, "softmax", ("tight",), claimed=(-1.0, 0.0)),
        ),
        Mutant(
            "t25-relu-decreasing",
            "T25.relu-time",
            "relu clustering time ~ 1/n (exponent -1, upper bound)",
            False,
            lambda ctx: clustering.check_clustering_time(ctx, "relu", ("upper",), claimed=(-1.0, 0.0)),
        ),
    ]


def _slow() -> list[Mutant]:
    """The convexity cover widened below u_c for larger n (slow)."""
    return [
        Mutant(
            f"convex-below-uc-n{tokens}",
            "T22.superadditivity.reading-b",
            f"phi'' > 0 on [u_c - 1/2, 40] for n = {tokens} (widened)",
            False,
            cover(
                obligations.convexity_parts(tokens)["convex"][0],
                {u: (_u_c(tokens) - Fraction(1, 2), Fraction(40))},
                ">",
            ),
            slow=True,
        )
        for tokens in (2, 10, 100, 1000)
    ]


def mutants() -> list[Mutant]:
    """Every clustering mutant, the slow covers last."""
    return _covers_and_witnesses() + _dynamics() + _slow()
