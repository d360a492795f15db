"""Theorem 22: the early and late clustering rates, and the super-additivity of heterogeneous heads.

Claimed: for softmax with scalar heads M_h = lambda_h I and equiangular tokens, the cluster gap
eps = 1 - rho falls at rate -sum_h phi(lambda_h) at an orthogonal start (T22.early-rate) and as
eps ~ C exp(-2 Lambda t), Lambda = sum_h lambda_h, late (T22.late-rate); heterogeneous heads with
mean strength above lambda_c are super-additive, sum_h phi(lambda_h) > H phi(mean)
(T22.superadditivity).

How each is decided:
- rates, symbolic: with M_h = lambda_h I the tokens stay equiangular and eps obeys
  d eps/dt = -sum_h 2 lambda_h eps (n - (n-1) eps) / (exp(beta lambda_h eps) + n - 1), derived in
  `headflow.identities.equiangular` from the Gram ODE (explicitly for small n, by counting for general n);
  at eps = 1 this is -sum_h phi(lambda_h), and as eps -> 0 it is -2 Lambda eps. The numeric
  procedures (`headflow.checks.evidence.clustering_rates`) check the reduction against the model instead of
  assuming it.
- super-additivity: phi(lambda) = 2 lambda/(exp(beta lambda) + n - 1) and phi_beta(lambda) =
  phi_1(beta lambda)/beta, so convexity is scale-free in u = beta lambda. lambda_c is the root u_c > 0
  of g(u) = (u - 2) e^u - (n - 1)(u + 2) (`closed_forms.lambda_c_equation`); g(0) < 0 and g'' = u e^u > 0
  for u > 0, so g(u) > 0 exactly when u > u_c. The statement as written is REFUTED by a float search
  (`headflow.checks.evidence.superadditivity_search`) whose rational strengths are verified with balls;
  reading-b (every head in the convex regime) is PROVED for all n >= 2 and all strengths by
  `headflow.identities.convexity` (phi'' = K g, K > 0, g convex with g(0) < 0, then strict Jensen), and checked
  independently by ball covers (`headflow.certificates.provers.convexity_cover`) for listed n and
  beta lambda_h <= 40 (its own claim, COVER_CLAIM, whose certificates `headflow certify` writes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sympy as sp
from headflow.certificates.provers.convexity_cover import certify_convexity, u
from headflow.certificates.provers.witness import certify_obligation_point
from headflow.certificates.statements import registry as obligations
from headflow.certificates.store import certificate_directory
from headflow.checks.constants.floats import lambda_c_scaled
from headflow.checks.evidence.clustering_rates import check_early_rate, check_late_rate
from headflow.checks.evidence.smt_certificates import with_certificate
from headflow.checks.evidence.superadditivity_search import search_counterexample
from headflow.checks.registry import REGISTRY, Context
from headflow.checks.verdicts import Outcome, Step, Verdict, derived
from headflow.identities import closed_forms, convexity, equiangular

if TYPE_CHECKING:
    from matplotlib.figure import Figure

_STATEMENTS: tuple[tuple[str, str, str], ...] = (
    (
        "T22.late-rate",
        "Theorem 22: late clustering rate",
        "softmax, scalar heads M_h = lambda_h I (lambda_h > 0), W_h = M_h, equiangular tokens: "
        "the cluster gap obeys eps(t) ~ C exp(-2 Lambda t) as t -> infinity, Lambda = sum_h lambda_h.",
    ),
    (
        "T22.early-rate",
        "Theorem 22: early clustering rate",
        "softmax, scalar heads M_h = lambda_h I, W_h = M_h, orthogonal tokens (rho = 0, d >= n): "
        "d eps/dt at t = 0 equals -sum_h phi(lambda_h), phi(lambda) = 2 lambda/(exp(lambda beta) + n - 1).",
    ),
    (
        "T22.superadditivity",
        "Theorem 22: super-additivity of heterogeneous heads",
        "For n >= 2, beta > 0, H >= 2 and head strengths lambda_h > 0, not all equal, with mean "
        "lambda_bar > lambda_c(n, beta): sum_h phi(lambda_h) > H phi(lambda_bar).",
    ),
)

REGISTRY.declare_all(_STATEMENTS)


METHOD_T22 = (
    "symbolic (SymPy): the Gram ODE derived from the model, its equiangular reduction (explicit for n = 2..5 with "
    "two heads, by counting for general n), limits of the reduced rate; cited lemmas are marked in the steps"
)


REGISTRY.derivations(
    __name__,
    (
        ("T22.early-rate", equiangular.prove_early_rate, METHOD_T22),
        ("T22.late-rate", equiangular.prove_late_rate, METHOD_T22),
    ),
)


@REGISTRY.procedure("T22.early-rate", "numeric")
def _early(ctx: Context) -> Outcome:
    return check_early_rate(ctx)


@REGISTRY.procedure("T22.late-rate", "numeric")
def _late(ctx: Context) -> Outcome:
    return check_late_rate(ctx)


QUICK_TOKENS = (2, 3, 10, 100)


THOROUGH_TOKENS = (*range(2, 21), 50, 100, 1000, 10_000)


#: The claim of the ball covers: reading-b restricted to the listed n and beta lambda_h <= 40.
COVER_CLAIM = obligations.CONVEXITY_CLAIM


REGISTRY.declare(
    "T22.superadditivity.reading-b",
    "Theorem 22: super-additivity when every head is in the convex regime (reading)",
    "For every integer n >= 2, beta > 0, H >= 2 and strengths lambda_h, not all equal, with every "
    "lambda_h >= lambda_c(n, beta): sum_h phi(lambda_h) > H phi(lambda_bar).",
)


REGISTRY.declare(
    COVER_CLAIM,
    "Theorem 22: super-additivity in the convex regime, ball covers for listed n (reading-b on a sub-domain)",
    "For H >= 2, beta > 0, n in the profile's list (quick: 2, 3, 10, 100; thorough: 2..20, 50, 100, 1000, "
    "10000) and strengths lambda_h, not all equal, with every lambda_h >= lambda_c(n, beta) and "
    "beta lambda_h <= 40: sum_h phi(lambda_h) > H phi(lambda_bar). An independent check of "
    "T22.superadditivity.reading-b on this sub-domain, by ball arithmetic instead of SymPy.",
)


@REGISTRY.procedure("T22.superadditivity.reading-b", "symbolic", certifies=True)
def _convex_regime(ctx: Context) -> Outcome:
    """SymPy's proof for all n and strengths, with the SMT certificate of its lemma (phi'' > 0 above lambda_c,
    `certificates.statements.registry.convex_regime_statements`; Jensen's step is named as not re-checked)."""
    method = (
        "symbolic (SymPy), all n >= 2 and all lambda_h >= lambda_c: phi'' = K g with K > 0, g strictly convex "
        "with g(0) < 0 (one root u_c = beta lambda_c), then strict Jensen; cited lemmas are marked in the steps"
    )
    return with_certificate(ctx, derived(convexity.prove_superadditivity(), method))


@REGISTRY.figure("T22.superadditivity", "T22: the early-rate function phi (n = 10, beta = 1.0)")
def _rate_function() -> Figure:
    from headflow.checks.reports import figures

    return figures.rate_function_plot(10, 1.0)


@REGISTRY.procedure(COVER_CLAIM, "interval")
def _reading_b(ctx: Context) -> Outcome:
    directory = certificate_directory(ctx.certificate_dir)
    paths, ranges = [], {}
    tokens_list = THOROUGH_TOKENS if ctx.thorough else QUICK_TOKENS
    for tokens in tokens_list:
        ctx.check_budget()
        path, ranges[str(tokens)] = certify_convexity(
            ctx.claim_id, tokens, lambda_c_scaled(tokens), directory, ctx.seconds_left
        )
        paths.append(path)
    return Outcome(
        Verdict.CERTIFIED,
        f"balls, for n in {list(tokens_list)} and beta lambda_h <= 40 only: g(a) < 0, covers of g' > 0 near "
        "lambda_c and of phi'' > 0 above it, then Jensen",
        certificates=paths,
        steps=[
            Step("phi_beta(lambda) = phi_1(beta lambda)/beta, so convexity in lambda is convexity in u = beta lambda"),
            Step("SymPy: phi''(u) = K(u) g(u) with K(u) = 2 e^u/(e^u + n - 1)^3 > 0, g = lambda_c_equation"),
            Step("g(a) < 0 and g' > 0 on [a, b]: g vanishes once, at u_c in (a, b), and g > 0 on (u_c, b]"),
            Step("cover: phi'' > 0 on [b, 40]; so phi'' > 0 on (u_c, 40] and phi is strictly convex on [u_c, 40]"),
            Step("strict Jensen: sum_h phi(u_h) > H phi(mean) for u_h in [u_c, 40] not all equal"),
        ],
        details={"per_n": ranges},
    )


@REGISTRY.procedure("T22.superadditivity", "witness")
def _as_stated(ctx: Context) -> Outcome:
    tokens, lambdas = search_counterexample(ctx.rng("superadditivity"), 400 if ctx.thorough else 60)
    if len(set(lambdas)) < 2 or min(lambdas) <= 0:
        return Outcome(Verdict.INCONCLUSIVE, "search", notes="the search found no admissible candidate")
    directory = certificate_directory(ctx.certificate_dir)
    result = certify_obligation_point(ctx.claim_id, {"n": tokens, "H": len(lambdas)}, lambdas, directory)
    witness = {"n": tokens, "beta": 1, "lambdas": [str(v) for v in lambdas], "balls": result.values}
    if not result.verified:
        return Outcome(Verdict.INCONCLUSIVE, "balls", notes=result.reason, details={"candidate": witness})
    g2 = sp.expand(sp.diff(closed_forms.lambda_c_equation(u, sp.Symbol("n")), u, 2))  # shown, not used
    return Outcome(
        Verdict.REFUTED,
        "float search, exact rational strengths, ball-verified violation",
        witness={"verified_by": "ball", **witness},
        certificates=[str(result.path)],
        notes="only the mean is in the convex regime; a head in the concave regime breaks super-additivity",
        details={"g''(u) (positive for u > 0, so g > 0 iff u > u_c)": str(g2)},
    )
