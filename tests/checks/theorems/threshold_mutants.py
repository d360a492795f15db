"""Mutants of the threshold theorem (checks.theorems.t19_threshold): T19's constants, SMT statements and Condition 8."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import sympy as sp
from headflow.certificates.statements import registry as obligations
from headflow.certificates.statements.registry import SmtStatement
from headflow.checks.theorems import t19_threshold as tc
from headflow.checks.theorems.t19_threshold import refute_transcendence
from headflow.identities import closed_forms as cf
from headflow.identities import condition8_scalar as sr
from headflow.identities import scalar_regime

from tests.soundness.mutation import Decide, Mutant, cover, point_witness, symbolic


def smt(statement: SmtStatement) -> Decide:
    """T19.threshold's own decision step (z3 on the negation, certificate on unsat) on a mutated statement."""
    return lambda ctx: tc.certify_statements(ctx, (statement,))


# ---------------------------------------------------------------- Theorem 19 constants (symbolic)

Hs, ms, bs = scalar_regime.H, scalar_regime.m, scalar_regime.beta


def _monotonicity_regime() -> list[Mutant]:
    """T19.monotonicity-regime with a wrong share of the total energy per head."""
    from headflow.identities.energy import HEADS, prove_equal_heads_monotonicity

    return [
        Mutant(
            "equal-heads-share",
            "T19.monotonicity-regime",
            "E = (H - 1) E_h with equal heads (share)",
            False,
            symbolic(lambda: prove_equal_heads_monotonicity(HEADS - 1)),
        ),
        Mutant(
            "equal-heads-true",
            "T19.monotonicity-regime",
            "E = H E_h with equal heads (true)",
            True,
            symbolic(lambda: prove_equal_heads_monotonicity()),
        ),
    ]


def _constants() -> list[Mutant]:
    """c*, the golden ratio and lambda_max given to the symbolic provers with a changed constant."""
    root = sp.sqrt((Hs - 1) ** 2 + 4)
    W = sp.LambertW
    return [
        Mutant(
            "cstar-sign",
            "T19.c-star",
            "c* = (sqrt((H-1)^2+4) + (H-1))/2 (sign)",
            False,
            symbolic(lambda: scalar_regime.prove_c_star((root + (Hs - 1)) / 2)),
        ),
        Mutant(
            "cstar-negroot",
            "T19.c-star",
            "c* = -(sqrt((H-1)^2+4) + (H-1))/2 (the negative root)",
            False,
            symbolic(lambda: scalar_regime.prove_c_star(-(root + (Hs - 1)) / 2)),
        ),
        Mutant(
            "cstar-3",
            "T19.c-star",
            "c* = (sqrt((H-1)^2+4) - (H-1))/3 (constant)",
            False,
            symbolic(lambda: scalar_regime.prove_c_star((root - (Hs - 1)) / 3)),
        ),
        Mutant(
            "cstar-plus4",
            "T19.c-star",
            "c* = (sqrt((H-1)^2+5) - (H-1))/2 (constant under the root)",
            False,
            symbolic(lambda: scalar_regime.prove_c_star((sp.sqrt((Hs - 1) ** 2 + 5) - (Hs - 1)) / 2)),
        ),
        Mutant(
            "golden-phi",
            "T19.golden",
            "c*(2) = phi (instead of 1/phi)",
            False,
            symbolic(lambda: scalar_regime.prove_golden(cf.golden)),
        ),
        Mutant(
            "golden-2",
            "T19.golden",
            "c*(2) = 2/phi (coefficient)",
            False,
            symbolic(lambda: scalar_regime.prove_golden(2 / cf.golden)),
        ),
        Mutant(
            "golden-minus1",
            "T19.golden",
            "c*(2) = phi - 1 (true: 1/phi = phi - 1)",
            True,
            symbolic(lambda: scalar_regime.prove_golden(cf.golden - 1)),
            accept=True,
        ),
        Mutant(
            "reading-a-negroot",
            "T19.lambert-w.reading-a",
            "the negative root of c^2 + (H-1)c - 1 needs Lambert W (false: it is algebraic)",
            False,
            lambda ctx: refute_transcendence(-(root + (Hs - 1)) / 2),
        ),
        Mutant(
            "reading-a-exp",
            "T19.lambert-w.reading-a",
            "exp(H) in place of c*(H) is not algebraic (true)",
            True,
            lambda ctx: refute_transcendence(sp.exp(Hs)),
        ),
        Mutant(
            "lmax-noe",
            "T19.lambert-w.reading-b",
            "lambda_max = (1 + W(n-1))/beta (1/e dropped)",
            False,
            symbolic(lambda: scalar_regime.prove_lambda_max((1 + W(ms)) / bs)),
        ),
        Mutant(
            "lmax-2",
            "T19.lambert-w.reading-b",
            "lambda_max = (2 + W((n-1)/e))/beta (constant)",
            False,
            symbolic(lambda: scalar_regime.prove_lambda_max((2 + W(ms / sp.E)) / bs)),
        ),
        Mutant(
            "lmax-half",
            "T19.lambert-w.reading-b",
            "lambda_max = (1 + W((n-1)/e))/(2 beta) (coefficient)",
            False,
            symbolic(lambda: scalar_regime.prove_lambda_max((1 + W(ms / sp.E)) / (2 * bs))),
        ),
    ]


# ---------------------------------------------------------------- Theorem 19 threshold (SMT)

H, nn, alpha, t, c, qs = sr.H, sr.n, sr.alpha, sr.t, sr.c, sr.q_star


def _smt() -> list[Mutant]:
    """The SMT statements of T19.threshold with a changed goal or hypothesis."""
    base = {s.name: s for s in obligations.threshold_statements()}
    c8, summary, below, sufficient, positive = (
        base[k] for k in ("c8-threshold", "summary-form", "strictly-below", "sufficient", "positive-region")
    )
    margin = sr.condition8_margin()
    no_polynomial = tuple(h for h in summary.hypotheses if h != sp.Eq(cf.c_star_polynomial(c, H), 0))
    no_positive_c = tuple(h for h in summary.hypotheses if h != (c > 0))
    crude = sp.expand((H - 1) * sr.radial_shadow() ** 2 * sr.output_norm_squared()) <= sp.expand(
        sr.tangential_power() ** 2
    )
    (cs,) = obligations.cauchy_schwarz_statements()
    r = dataclasses.replace
    return [
        Mutant(
            "c8-2x",
            "T19.threshold",
            "C8 iff (H-1) e^{2 alpha beta} <= 2(n-1) (coefficient)",
            False,
            smt(r(c8, name="m-c8-2x", goal=sp.Equivalent(margin >= 0, (H - 1) * t**2 <= 2 * (nn - 1)))),
        ),
        Mutant(
            "c8-exp",
            "T19.threshold",
            "C8 iff (H-1) e^{alpha beta} <= n-1 (exponent)",
            False,
            smt(r(c8, name="m-c8-exp", goal=sp.Equivalent(margin >= 0, (H - 1) * t <= nn - 1))),
        ),
        Mutant(
            "c8-no-alpha",
            "T19.threshold",
            "C8 threshold without alpha > 0 (alpha = 0 breaks it)",
            False,
            smt(r(c8, name="m-c8-noalpha", hypotheses=(H >= 2, nn >= 2, t > 0))),
        ),
        Mutant(
            "c8-H1",
            "T19.threshold",
            "C8 threshold on H >= 1 (widened; true: H = 1 has no cross term)",
            True,
            smt(r(c8, name="m-c8-h1", hypotheses=(H >= 1, nn >= 2, alpha > 0, t > 0))),
            accept=True,
        ),
        Mutant(
            "summary-c2",
            "T19.threshold",
            "q* (H-1) = c*^2 (n-1) (exponent)",
            False,
            smt(r(summary, name="m-summary-c2", goal=sp.Eq(qs * (H - 1), c**2 * (nn - 1)))),
        ),
        Mutant(
            "summary-nopoly",
            "T19.threshold",
            "q* (H-1) = c* (n-1) without c* pinned by its polynomial",
            False,
            smt(r(summary, name="m-summary-nopoly", hypotheses=no_polynomial)),
        ),
        Mutant(
            "summary-noc",
            "T19.threshold",
            "q* (H-1) = c* (n-1) without c > 0 (true: holds for both roots)",
            True,
            smt(r(summary, name="m-summary-noc", hypotheses=no_positive_c)),
            accept=True,
        ),
        Mutant(
            "below-equal",
            "T19.threshold",
            "q* (H-1) < c* (n-1) (strict where equality holds)",
            False,
            smt(r(below, name="m-below", goal=qs * (H - 1) < c * (nn - 1))),
        ),
        Mutant(
            "sufficient-2x",
            "T19.threshold",
            "t^2 <= 2 q* implies C8 (domain widened)",
            False,
            smt(r(sufficient, name="m-sufficient-2x", hypotheses=(*sufficient.hypotheses[:-1], t**2 <= 2 * qs))),
        ),
        Mutant(
            "positive-noc",
            "T19.threshold",
            "beta* > 0 iff n-1 > H-1 (factor c* dropped)",
            False,
            smt(r(positive, name="m-positive", goal=sp.Equivalent(qs > 1, nn - 1 > H - 1))),
        ),
        Mutant(
            "exact-reading",
            "T19.threshold.exact",
            "q* = (n-1)/(H-1): beta* exact (the false reading)",
            False,
            smt(tc.exact_statement()),
        ),
        Mutant(
            "cs-H1",
            "T19.threshold.cauchy-schwarz",
            "Cauchy-Schwarz threshold with (H-1) for (H-1)^2",
            False,
            smt(r(cs, name="m-cs", goal=sp.Equivalent(crude, t**2 <= qs))),
        ),
    ]


def _covers_and_witnesses() -> list[Mutant]:
    """c* bounded by a ball cover, and Condition 8 offered a witness above its own threshold."""
    beta_sym = sp.Symbol("beta", positive=True)
    c8_margin = sr.condition8_margin().subs({H: 2, nn: 3, alpha: 1, t: sp.exp(beta_sym)})
    return [
        Mutant(
            "cstar-below-half",
            "T19.c-star",
            "c*(H) <= 1/2 for H in [2, 3] (constant)",
            False,
            cover(cf.c_star(cf.H) <= sp.Rational(1, 2), {cf.H: (Fraction(2), Fraction(3))}),
        ),
        Mutant(
            "cstar-below-1",
            "T19.c-star",
            "c*(H) < 1 for H in [2, 100] (true)",
            True,
            cover(cf.c_star(cf.H) < 1, {cf.H: (Fraction(2), Fraction(100))}),
            accept=True,
        ),
        Mutant(
            "threshold-witness-above",
            "T19.threshold.exact",
            "C8 still holding above its own threshold ln(2)/2 (H = 2, n = 3, alpha = 1, beta = 2/5)",
            False,
            point_witness([("C8 margin > 0", c8_margin, ">")], {beta_sym: Fraction(2, 5)}),
        ),
    ]


def mutants() -> list[Mutant]:
    """Every threshold mutant."""
    return _constants() + _monotonicity_regime() + _smt() + _covers_and_witnesses()
