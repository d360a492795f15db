"""Mutants of the clustering theorems (T22, T25): covers and witnesses, T22 and T25 rates."""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
from headflow.certificates.statements import registry as obligations
from headflow.checks.constants.floats import lambda_c_scaled
from headflow.checks.evidence import clustering_rates, clustering_times
from headflow.checks.theorems import t22_clustering_rates as clustering
from headflow.identities import closed_forms as cf
from headflow.identities import convexity, equiangular
from headflow.identities.derivation import Derivation

from tests.soundness.mutation import Mutant, cover, point_witness, symbolic

u = clustering.u


def _u_c(tokens: int) -> Fraction:
    """u_c for `tokens` tokens as a fraction (denominator at most 1000)."""
    return Fraction(lambda_c_scaled(tokens)).limit_denominator(1000)


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
            clustering.COVER_CLAIM,
            "phi'' > 0 on [u_c - 1, 40] for n = 3 (domain widened into the concave region)",
            False,
            cover(obligations.convexity_parts(3)["convex"][0], {u: (uc3 - 1, Fraction(40))}, ">"),
        ),
        Mutant(
            "convex-above-uc",
            clustering.COVER_CLAIM,
            "phi'' > 0 on [u_c + 1/4, 40] for n = 3 (true)",
            True,
            cover(obligations.convexity_parts(3)["convex"][0], {u: (uc3 + Fraction(1, 4), Fraction(40))}, ">"),
            accept=True,
        ),
        Mutant(
            "gprime-from-0",
            clustering.COVER_CLAIM,
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


def _convex_regime() -> list[Mutant]:
    """T22 reading-b for all n, symbolically: the prover handed a wrong inflection function g or factor K."""
    v, n = convexity.u, convexity.n
    g, K = cf.lambda_c_equation(v, n), convexity.convexity_factor()
    return [
        Mutant(
            "convex-g-positive-at-0",
            "T22.superadditivity.reading-b",
            "phi'' = K (g + 4n): g(0) = 2n > 0 would put the whole of (0, oo) in the convex regime (false: phi is "
            "concave below lambda_c)",
            False,
            symbolic(lambda: convexity.prove_superadditivity(inflection=g + 4 * n)),
        ),
        Mutant(
            "convex-negated-pair",
            "T22.superadditivity.reading-b",
            "phi'' = K' g' with K' = -K and g' = -g, claimed with K' > 0 and g'(0) < 0: the factorization holds, "
            "but K' < 0 and g'(0) = 2n > 0 (false)",
            False,
            symbolic(lambda: convexity.prove_superadditivity(inflection=-g, factor=-K)),
        ),
        Mutant(
            "convex-wrong-factor",
            "T22.superadditivity.reading-b",
            "phi'' = K g with K = 2 e^u/(e^u + n - 1)^2 (exponent)",
            False,
            symbolic(lambda: convexity.prove_superadditivity(factor=2 * sp.exp(v) / (sp.exp(v) + n - 1) ** 2)),
        ),
        Mutant(
            "convex-shifted-root",
            "T22.superadditivity.reading-b",
            "lambda_c taken as the root of g(u + 1), i.e. u_c - 1 (> 1): false, phi is concave on (u_c - 1, u_c)",
            False,
            symbolic(lambda: convexity.prove_superadditivity(inflection=g.subs(v, v + 1))),
        ),
        Mutant(
            "convex-all-n-true",
            "T22.superadditivity.reading-b",
            "the claim: every lambda_h >= lambda_c, all n >= 2 (true)",
            True,
            symbolic(convexity.prove_superadditivity),
            accept=True,
        ),
    ]


def _skewed_invariance() -> Derivation:
    """check_invariance at G_01 = G_12 = rho, G_02 = sigma (not equiangular), n = 3."""
    skewed = equiangular.equiangular_gram(3)
    skewed[0, 2] = skewed[2, 0] = sp.Symbol("sigma", real=True)
    derivation = Derivation()
    equiangular.check_invariance(derivation, 3, gram=skewed)
    return derivation


def _equiangular() -> list[Mutant]:
    """T22's late rate and the equiangular invariance it rests on, symbolically, with a wrong statement."""
    return [
        Mutant(
            "t22-late-3-symbolic",
            "T22.late-rate",
            "eps(t) ~ C exp(-3 Lambda t), handed to the symbolic proof (rate constant 3 instead of 2)",
            False,
            symbolic(lambda: equiangular.prove_late_rate(coefficient=3)),
        ),
        Mutant(
            "t22-invariance-skewed",
            "T22.late-rate",
            "tokens with G_01 = G_12 = rho and G_02 = sigma keep equal pairwise rates (false: the pattern is not "
            "invariant)",
            False,
            symbolic(_skewed_invariance),
        ),
        Mutant(
            "t22-late-true",
            "T22.late-rate",
            "eps(t) ~ C exp(-2 Lambda t) (the claim)",
            True,
            symbolic(equiangular.prove_late_rate),
            accept=True,
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
            lambda ctx: clustering_rates.check_late_rate(ctx, multiple=3.0),
        ),
        Mutant(
            "t25-softmax-decreasing",
            "T25.softmax-time",
            "softmax clustering time ~ 1/n (exponent -1, tight)",
            False,
            lambda ctx: clustering_times.check_clustering_time(ctx, "softmax", ("tight",), claimed=(-1.0, 0.0)),
        ),
        Mutant(
            "t25-relu-decreasing",
            "T25.relu-time",
            "relu clustering time ~ 1/n (exponent -1, upper bound)",
            False,
            lambda ctx: clustering_times.check_clustering_time(ctx, "relu", ("upper",), claimed=(-1.0, 0.0)),
        ),
    ]


def _slow() -> list[Mutant]:
    """The convexity cover widened below u_c for larger n (slow)."""
    return [
        Mutant(
            f"convex-below-uc-n{tokens}",
            clustering.COVER_CLAIM,
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
    return _covers_and_witnesses() + _convex_regime() + _equiangular() + _dynamics() + _slow()
