"""T22.superadditivity with balls: the stated reading refuted by a witness, reading-b certified by a cover.

phi(lambda) = 2 lambda/(exp(beta lambda) + n - 1) is identities.closed_forms.rate; since
phi_beta(lambda) = phi_1(beta lambda)/beta, convexity questions are scale-free in u = beta lambda
(beta = 1 below). lambda_c is the root u_c > 0 of g(u) = (u - 2) e^u - (n - 1)(u + 2)
(closed_forms.lambda_c_equation); g(0) < 0 and g'' = u e^u > 0 for u > 0, so for u > 0,
g(u) > 0 exactly when u > u_c.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import sympy as sp
from scipy.optimize import brentq

from certificates import obligations
from certificates.intervals import prove
from certificates.store import certificate_directory, write_certificate
from certificates.witness import certify_obligation_point, settle_point
from checks.errors import BudgetExceeded
from checks.registry import REGISTRY, Context
from checks.verdicts import Outcome, Step, Verdict
from identities import closed_forms

u = obligations.u
#: Grid of the dyadic points a < u_c < b that bracket lambda_c.
GAP = Fraction(1, 2**10)
QUICK_TOKENS = (2, 3, 10, 100)
THOROUGH_TOKENS = (*range(2, 21), 50, 100, 1000, 10_000)

REGISTRY.declare(
    "T22.superadditivity.reading-b",
    "Theorem 22: super-additivity when every head is in the convex regime (reading)",
    "For H >= 2, beta > 0, n in the stated list and strengths lambda_h, not all equal, with every "
    "lambda_h >= lambda_c(n, beta) and beta lambda_h <= 40: sum_h phi(lambda_h) > H phi(lambda_bar).",
)


def lambda_c_scaled(tokens: int) -> float:
    """u_c(n) = beta lambda_c by a float root finder (only used to place the certified ranges)."""
    g = sp.lambdify(u, closed_forms.lambda_c_equation(u, tokens), "math")
    return float(brentq(g, 2.0, 60.0, xtol=1e-14))


def certify_convexity(ctx: Context, tokens: int, directory: Path) -> tuple[str, dict[str, object]]:
    """One certificate that phi is strictly convex on [u_c(n), 40] (u_c the root of g), and its ranges.

    Three facts (certificates.obligations.convexity_parts): g(a) < 0 at a dyadic a < u_c (ball
    witness); g' > 0 on [a, b] (cover), so g has one root u_c in (a, b) and g > 0 on (u_c, b], hence
    phi'' = K g > 0 there; phi'' > 0 on [b, 40] (cover).
    """
    root = lambda_c_scaled(tokens)
    a, b = Fraction(math.floor(root / GAP) - 1) * GAP, Fraction(math.ceil(root / GAP) + 1) * GAP
    facts = obligations.convexity_parts(tokens)
    g, below_relation = facts["g-below"]
    below = settle_point([("g(a) < 0", g, below_relation)], {u: a})
    if not below.verified:
        raise BudgetExceeded(f"n={tokens}: g({a}) < 0 not settled by balls")
    parts: dict[str, object] = {"g-below": below.record}
    ranges: dict[str, object] = {"a": str(a), "b": str(b), "phi''/g": str(obligations.convexity_factor())}
    for name, lo, hi in (("g-rising", a, b), ("convex", b, obligations.CONVEX_U_MAX)):
        ctx.check_budget()
        expr, relation = facts[name]
        result = prove(expr, relation, {u: (lo, hi)}, seconds=max(0.1, min(10.0, ctx.seconds_left())))
        if result.status != "proved":
            raise BudgetExceeded(f"n={tokens}: {name} on [{lo}, {hi}]: {result.status}: {result.reason}")
        parts[name] = result.payload
        ranges[f"{name} boxes"] = result.payload["leaves"]
    payload = {"parameters": {"n": str(tokens)}, "a": str(a), "b": str(b), "parts": parts}
    statement = f"n = {tokens}: phi is strictly convex on [u_c, 40] (u = beta lambda), so reading-b holds"
    method = "python-flint balls: a point witness and two interval covers; phi''/g re-derived by SymPy"
    return str(write_certificate(directory, ctx.claim_id, statement, method, "convexity", payload)), ranges


@REGISTRY.procedure("T22.superadditivity.reading-b", "interval")
def _reading_b(ctx: Context) -> Outcome:
    directory = certificate_directory(ctx.certificate_dir)
    paths, ranges = [], {}
    for tokens in THOROUGH_TOKENS if ctx.thorough else QUICK_TOKENS:
        ctx.check_budget()
        path, ranges[str(tokens)] = certify_convexity(ctx, tokens, directory)
        paths.append(path)
    return Outcome(
        Verdict.CERTIFIED,
        "balls: g(a) < 0, covers of g' > 0 near lambda_c and of phi'' > 0 above it, then Jensen",
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


def _violation(tokens: int, lambdas: np.ndarray) -> float:
    phi = 2 * lambdas / (np.exp(lambdas) + tokens - 1)
    mean = lambdas.mean()
    return float(len(lambdas) * 2 * mean / (math.exp(mean) + tokens - 1) - phi.sum())


def search_counterexample(rng: np.random.Generator, samples: int) -> tuple[int, list[Fraction]]:
    """Float search for H = 2 strengths (beta = 1) with mean above u_c and sum phi < H phi(mean)."""
    best = (-math.inf, 2, [Fraction(1)])
    for tokens in (2, 3, 5, 10):
        uc = lambda_c_scaled(tokens)
        for _ in range(samples):
            mean = uc + rng.uniform(0.05, 3.0)
            spread = rng.uniform(0.0, mean)
            lambdas = np.array([mean - spread, mean + spread])
            gap = _violation(tokens, lambdas)
            if gap > best[0]:
                best = (gap, tokens, [Fraction(float(v)).limit_denominator(100) for v in lambdas])
    return best[1], best[2]


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
    g2 = sp.simplify(sp.diff(closed_forms.lambda_c_equation(u, sp.Symbol("n")), u, 2))
    return Outcome(
        Verdict.REFUTED,
        "float search, exact rational strengths, ball-verified violation",
        witness={"verified_by": "ball", **witness},
        certificates=[str(result.path)],
        notes="only the mean is in the convex regime; a head in the concave regime breaks super-additivity",
        details={"g''(u) (positive for u > 0, so g > 0 iff u > u_c)": str(g2)},
    )
