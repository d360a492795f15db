"""Theorem 19's constants: exact nature of c*(H), the golden ratio, and the Lambert W question."""

from __future__ import annotations

import sympy as sp

from checks.registry import REGISTRY, Context
from checks.verdicts import Outcome, Verdict
from identities import closed_forms as cf
from identities.derivation import Derivation
from identities.scalar_regime import (
    H,
    c,
    prove_c_star,
    prove_golden,
    prove_lambda_c_equation,
    prove_lambda_max,
)

METHOD = "symbolic (SymPy): exact algebra on the closed forms of identities.closed_forms"

REGISTRY.declare(
    "T19.lambert-w.reading-a",
    "c*(H) needs Lambert W",
    "c*(H) is not an algebraic function of H: writing it for general H needs the Lambert W function "
    "(or another transcendental function).",
)
REGISTRY.declare(
    "T19.lambert-w.reading-b",
    "lambda_max is the Lambert W constant",
    "For every n >= 2 and beta > 0, lambda_max = (1 + W((n-1)/e))/beta (principal branch) is the unique "
    "maximiser of phi(lambda) = 2 lambda/(exp(beta lambda) + n - 1) on lambda > 0.",
)


@REGISTRY.procedure("T19.c-star", "symbolic")
def _c_star(ctx: Context) -> Outcome:
    return prove_c_star().outcome(METHOD)


@REGISTRY.procedure("T19.golden", "symbolic")
def _golden(ctx: Context) -> Outcome:
    return prove_golden().outcome(METHOD)


@REGISTRY.procedure("T19.lambert-w", "symbolic")
def _lambert_w(ctx: Context) -> Outcome:
    d = Derivation()
    d.include(prove_c_star(), "c*(H) is algebraic")
    d.note(
        "Lambert W for c*: W_0 inverts w e^w on w >= -1, so c = W_0(c e^c) for every c >= -1; for c*(H) this "
        "is no closed form, it holds for any number. c* itself is a quadratic surd in H",
        r"c^*(H) = W_0\!\left(c^*(H)\,e^{c^*(H)}\right)\ \text{(trivially)},\quad "
        r"c^*(H) = \frac{\sqrt{(H-1)^2+4}-(H-1)}{2}",
    )
    d.include(prove_lambda_max(), "lambda_max")
    d.include(prove_lambda_c_equation(), "lambda_c")
    outcome = d.outcome(METHOD)
    if outcome.verdict is Verdict.PROVED:
        outcome.finding = (
            "c*(H) is algebraic (a quadratic surd in H), not a Lambert W expression; the Lambert W constant of "
            "the scalar regimes is lambda_max = (1 + W((n-1)/e))/beta"
        )
    return outcome


@REGISTRY.procedure("T19.lambert-w.reading-a", "exact")
def _reading_a(ctx: Context) -> Outcome:
    return refute_transcendence()


def refute_transcendence(formula: sp.Expr | None = None) -> Outcome:
    """'formula (default c*(H)) is not algebraic in H' refuted by the exact identity p(formula) = 0 for the
    integer polynomial p = c^2 + (H-1)c - 1; any other formula (a soundness test) is INCONCLUSIVE."""
    formula = cf.c_star(H) if formula is None else formula
    residual = sp.expand(cf.c_star_polynomial(c, H).subs(c, formula))
    if residual != 0:
        return Outcome(Verdict.INCONCLUSIVE, "exact", notes=f"c*(H) does not satisfy its polynomial: {residual}")
    value = formula.subs(H, 2)
    witness = {
        "verified_by": "exact",
        "statement": "c*(H) is a root of c^2 + (H-1) c - 1 in Z[H][c], identically in H",
        "residual_of_p(c*(H))": str(residual),
        "example": {"H": 2, "c_star": str(value), "minimal_polynomial": str(sp.minimal_polynomial(value, c))},
    }
    return Outcome(
        Verdict.REFUTED,
        "exact: SymPy expands p(c*(H)) to 0 for symbolic H, so c*(H) is algebraic (degree <= 2 over Q(H))",
        witness=witness,
    )


@REGISTRY.procedure("T19.lambert-w.reading-b", "symbolic")
def _reading_b(ctx: Context) -> Outcome:
    return prove_lambda_max().outcome(METHOD)
