"""The mutant table of the soundness suite: wrong (and a few right) variants of every decided claim.

Each mutant restates one paper claim with one change (a constant, a sign, an exponent, a
coefficient, a dropped hypothesis, a widened domain) and hands the mutated statement to the
*deciding code itself* (the provers take the claimed right-hand side, SMT statements are data,
covers take their box, the numeric checks take a coefficient or a head family, the certificate
verifier takes a file). `registry()` declares every mutant as a claim of a private Registry, so
it is run by `checks.claim_runner.run_claim` exactly like a paper claim.

A false mutant must come out REFUTED or INCONCLUSIVE ("killed"); a true variant must never come
out REFUTED, and those marked `accept` must come out true (so a kill is due to the mutation, not
to a harness that rejects everything). The truth of each mutant is worked out in its description.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import sympy as sp
from flint import ctx as flint_ctx

from certificates import obligations
from certificates.ball_model import ExactConfiguration
from certificates.exprtree import ball_of
from certificates.intervals import certify_cover, prove, prove_inequality
from certificates.obligations import SmtStatement
from certificates.store import build_certificate, certificate_directory
from certificates.witness import certify_configuration, certify_point, round_configuration
from checks import constants
from checks.claimsfile.deciders import DECIDERS
from checks.claimsfile.loader import parse_claims
from checks.commands.check_cert import verify_file
from checks.registry import Context, Registry
from checks.theorems import clustering as rates
from checks.theorems import clustering as sa
from checks.theorems import clustering as times
from checks.theorems import energy as robustness
from checks.theorems import energy as wc
from checks.theorems import entropy as entropy_dynamics
from checks.theorems import threshold as tc
from checks.theorems.energy import check_energy_rate, check_formula, t16_formula, t17_formula
from checks.theorems.entropy import check_entropy_identity
from checks.theorems.threshold import refute_transcendence
from checks.verdicts import Outcome, Step, Verdict, derived
from identities import closed_forms as cf
from identities import condition8_scalar as sr
from identities import energy, projection, scalar_regime
from identities.entropy import beta as ent_beta
from identities.entropy import prove_entropy_identity
from tests.soundness.forgeries import rehashed

Decide = Callable[[Context], Outcome]


@dataclass(frozen=True)
class Mutant:
    """One mutated statement, its truth, whether the suite requires it to be killed, and its decider."""

    id: str
    claim: str
    description: str
    true: bool
    decide: Decide
    required: bool = True
    slow: bool = False
    accept: bool = False


# ---------------------------------------------------------------- deciders built from the real procedures

METHOD = "soundness mutant"


def symbolic(build: Callable[[], object]) -> Decide:
    """A prover called with a mutated right-hand side; its Derivation (or Proof) decides."""

    def decide(ctx: Context) -> Outcome:
        result = build()
        derivation = getattr(result, "derivation", result)
        return derived(derivation, METHOD)

    return decide


def smt(statement: SmtStatement) -> Decide:
    """T19.threshold's own decision step (z3 on the negation, certificate on unsat) on a mutated statement."""
    return lambda ctx: tc.certify_statements(ctx, (statement,))


def cover(
    expression: sp.Expr | sp.Rel, domain: dict[sp.Symbol, tuple[Fraction, Fraction]], relation: str = ""
) -> Decide:
    """A ball cover of `expression relation 0` (or of an inequality) over a box: proved -> CERTIFIED with its
    certificate; an exact point where the ball fails -> REFUTED (ball); budget -> INCONCLUSIVE."""

    def decide(ctx: Context) -> Outcome:
        if relation:
            result = prove(expression, relation, domain, seconds=5.0)
        else:
            result = prove_inequality(expression, domain, seconds=5.0)  # type: ignore[arg-type]
        if result.status == "proved":
            path = certify_cover(result, ctx.claim_id, str(expression), certificate_directory(ctx.certificate_dir))
            return Outcome(Verdict.CERTIFIED, "ball cover", certificates=[str(path)], steps=[Step("cover")])
        if result.status == "counterexample":
            return Outcome(Verdict.REFUTED, "ball cover", witness={"verified_by": "ball", "point": result.point})
        return Outcome(Verdict.INCONCLUSIVE, "ball cover", notes=result.reason)

    return decide


def point_witness(conditions: list[tuple[str, sp.Expr, str]], point: dict[sp.Symbol, Fraction]) -> Decide:
    """certificates.witness.certify_point: CERTIFIED when the balls settle every condition at the point."""

    def decide(ctx: Context) -> Outcome:
        result = certify_point(ctx.claim_id, "mutant", conditions, point, certificate_directory(ctx.certificate_dir))
        if result.verified:
            return Outcome(Verdict.CERTIFIED, "point witness", certificates=[str(result.path)])
        return Outcome(Verdict.INCONCLUSIVE, "point witness", notes=result.reason)

    return decide


def certificate_file(forge: Callable[[Path], Path]) -> Decide:
    """`headflow check-cert` on a (possibly forged) certificate: re-checks -> CERTIFIED, else INCONCLUSIVE."""

    def decide(ctx: Context) -> Outcome:
        path = forge(certificate_directory(ctx.certificate_dir))
        ok, reason = verify_file(path)
        if ok:
            return Outcome(Verdict.CERTIFIED, "check-cert", certificates=[str(path)])
        return Outcome(Verdict.INCONCLUSIVE, "check-cert", notes=reason)

    return decide


# ---------------------------------------------------------------- projection identities

S, PU, PW, U, W, X = projection.SPACE, projection.PU, projection.PW, projection.U, projection.W, projection.X


def _projection() -> list[Mutant]:
    ux = S.inner(U, X)
    return [
        Mutant(
            "proj-self-2x",
            "projection.self-pairing",
            "<Pu, u> = 2|Pu|^2 (coefficient)",
            False,
            symbolic(lambda: projection.prove_self_pairing(2 * S.norm2(PU))),
        ),
        Mutant(
            "proj-self-noP",
            "projection.self-pairing",
            "<Pu, u> = |u|^2 (projection dropped)",
            False,
            symbolic(lambda: projection.prove_self_pairing(S.norm2(U))),
        ),
        Mutant(
            "proj-self-sign",
            "projection.self-pairing",
            "<Pu, u> = |u|^2 + <u,x>^2 (sign)",
            False,
            symbolic(lambda: projection.prove_self_pairing(S.norm2(U) + ux**2)),
        ),
        Mutant(
            "proj-self-expanded",
            "projection.self-pairing",
            "<Pu, u> = |u|^2 - <u,x>^2 (true, other form)",
            True,
            symbolic(lambda: projection.prove_self_pairing(S.norm2(U) - ux**2)),
            accept=True,
        ),
        Mutant(
            "proj-sym-noP",
            "projection.symmetry",
            "<Pu, w> = <u, w> (projection dropped)",
            False,
            symbolic(lambda: projection.prove_symmetry(S.inner(U, W))),
        ),
        Mutant(
            "proj-sym-PP",
            "projection.symmetry",
            "<Pu, w> = <Pu, Pw> (true: P is an orthogonal projection)",
            True,
            symbolic(lambda: projection.prove_symmetry(S.inner(PU, PW))),
            accept=True,
        ),
        Mutant(
            "proj-tan-pairing",
            "projection.tangency",
            "<Pu, x> = <u, x> (constant 0 changed)",
            False,
            symbolic(lambda: projection.prove_tangency(pairing_rhs=ux)),
        ),
        Mutant(
            "proj-tan-idem",
            "projection.tangency",
            "P(Pu) = u (idempotence changed to identity)",
            False,
            symbolic(lambda: projection.prove_tangency(projection_rhs=U)),
        ),
    ]


# ---------------------------------------------------------------- energy identities (T11, T16, T17)

n = energy.n


def _energy() -> list[Mutant]:
    return [
        Mutant(
            "t11-sph-2x",
            "T11.energy-rate.spherical",
            "dE/dt = (2/n) sum |xdot|^2 (coefficient)",
            False,
            symbolic(lambda: energy.prove_energy_rate("sphere", lambda q: 2 * q / n)),
        ),
        Mutant(
            "t11-sph-n2",
            "T11.energy-rate.spherical",
            "dE/dt = (1/n^2) sum |xdot|^2 (exponent)",
            False,
            symbolic(lambda: energy.prove_energy_rate("sphere", lambda q: q / n**2)),
        ),
        Mutant(
            "t11-sph-sign",
            "T11.energy-rate.spherical",
            "dE/dt = -(1/n) sum |xdot|^2 (sign)",
            False,
            symbolic(lambda: energy.prove_energy_rate("sphere", lambda q: -q / n)),
        ),
        Mutant(
            "t11-flat-n2",
            "T11.energy-rate.flat",
            "flat: dE/dt = (1/n^2) sum |xdot|^2 (exponent)",
            False,
            symbolic(lambda: energy.prove_energy_rate("flat", lambda q: q / n**2)),
        ),
        Mutant(
            "t11-flat-true",
            "T11.energy-rate.flat",
            "flat: dE/dt = (1/n) sum |xdot|^2 (the claim)",
            True,
            symbolic(lambda: energy.prove_energy_rate("flat")),
            accept=True,
        ),
        Mutant(
            "gradient-2x",
            "T11.energy-rate.spherical",
            "gradient lemma with coefficient 2",
            False,
            symbolic(lambda: energy.gradient_lemma(2)),
        ),
        Mutant(
            "t16-n2",
            "T16.flat-orthogonal",
            "dE_h/dt = (1/n^2) sum |f^h|^2 (exponent)",
            False,
            symbolic(lambda: energy.prove_flat_orthogonal(lambda q: q / n**2)),
        ),
        Mutant(
            "t16-2x",
            "T16.flat-orthogonal",
            "dE_h/dt = (2/n^3) sum |f^h|^2 (coefficient)",
            False,
            symbolic(lambda: energy.prove_flat_orthogonal(lambda q: 2 * q / n**3)),
        ),
        Mutant(
            "t17-sign",
            "T17.shadow-decomposition",
            "n^3 dE_h/dt = sum (T + a A) (sign)",
            False,
            symbolic(lambda: energy.prove_shadow_decomposition(lambda T, a, A: (T + a * A) / n**3)),
        ),
        Mutant(
            "t17-n2",
            "T17.shadow-decomposition",
            "dE_h/dt = (1/n^2) sum (T - a A) (exponent)",
            False,
            symbolic(lambda: energy.prove_shadow_decomposition(lambda T, a, A: (T - a * A) / n**2)),
        ),
        Mutant(
            "t17-2x",
            "T17.shadow-decomposition",
            "n^3 dE_h/dt = sum (T - 2 a A) (coefficient)",
            False,
            symbolic(lambda: energy.prove_shadow_decomposition(lambda T, a, A: (T - 2 * a * A) / n**3)),
        ),
        Mutant(
            "c8-sign",
            "C8.radial-dominance",
            "Condition 8 with margin T + a A (sign of the cross term)",
            False,
            symbolic(lambda: energy.prove_radial_dominance(lambda T, a, A: (T + a * A) / n**3)),
        ),
        Mutant(
            "c8-summed-n2",
            "C8.radial-dominance.reading-b",
            "summed Condition 8 with rate (1/n^2) sum (T - a A)",
            False,
            symbolic(lambda: energy.prove_summed_radial_dominance(lambda T, a, A: (T - a * A) / n**2)),
        ),
        Mutant(
            "t17-true",
            "T17.shadow-decomposition",
            "n^3 dE_h/dt = sum (T - a A) (the claim)",
            True,
            symbolic(lambda: energy.prove_shadow_decomposition()),
            accept=True,
        ),
        # numeric procedures: floats can only CONFIRM, so a wrong variant must not be confirmed
        Mutant(
            "t11-num-2x",
            "T11.energy-rate.spherical",
            "numeric: dE/dt = (2/n) sum |xdot|^2",
            False,
            lambda ctx: check_energy_rate(ctx, "sphere", coefficient=2.0),
        ),
        Mutant(
            "t11-num-sign",
            "T11.energy-rate.flat",
            "numeric: dE/dt = -(1/n) sum |xdot|^2 (sign)",
            False,
            lambda ctx: check_energy_rate(ctx, "flat", coefficient=-1.0),
        ),
        Mutant(
            "t11-num-nosym",
            "T11.energy-rate.spherical",
            "numeric: the identity without score symmetry (hypothesis dropped: general heads)",
            False,
            lambda ctx: check_energy_rate(ctx, "sphere", heads="general"),
        ),
        Mutant(
            "t11-num-tiny",
            "T11.energy-rate.spherical",
            "numeric: dE/dt = (1 + 1e-12)(1/n) sum |xdot|^2 (below the float tolerance: CONFIRMED is no proof)",
            False,
            lambda ctx: check_energy_rate(ctx, "sphere", coefficient=1 + 1e-12),
            required=False,
        ),
        Mutant(
            "t11-sph-tiny",
            "T11.energy-rate.spherical",
            "dE/dt = (1 + 10^-12)(1/n) sum |xdot|^2 (the same tiny change, symbolically)",
            False,
            symbolic(lambda: energy.prove_energy_rate("sphere", lambda q: (1 + sp.Rational(1, 10**12)) * q / n)),
        ),
        Mutant(
            "t11-num-true",
            "T11.energy-rate.spherical",
            "numeric: the claim",
            True,
            lambda ctx: check_energy_rate(ctx, "sphere"),
            accept=True,
        ),
        Mutant(
            "t16-num-sphere",
            "T16.flat-orthogonal",
            "numeric: the T16 formula on the sphere (domain widened from flat dynamics)",
            False,
            lambda ctx: check_formula(ctx, "sphere", t16_formula()),
        ),
        Mutant(
            "t16-num-nonorth",
            "T16.flat-orthogonal",
            "numeric: the T16 formula without orthogonal heads (hypothesis dropped)",
            False,
            lambda ctx: check_formula(ctx, "flat", t16_formula(), heads="symmetric"),
        ),
        Mutant(
            "t17-num-nonorth",
            "T17.shadow-decomposition",
            "numeric: the T17 formula without orthogonal heads (hypothesis dropped)",
            False,
            lambda ctx: check_formula(ctx, "sphere", t17_formula(), heads="symmetric"),
        ),
        Mutant(
            "t17-num-true",
            "T17.shadow-decomposition",
            "numeric: the claim",
            True,
            lambda ctx: check_formula(ctx, "sphere", t17_formula()),
            accept=True,
        ),
    ]


# ---------------------------------------------------------------- entropy (T27)


def _entropy() -> list[Mutant]:
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


# ---------------------------------------------------------------- Theorem 19 constants (symbolic)

Hs, ms, bs = scalar_regime.H, scalar_regime.m, scalar_regime.beta


def _t19_symbolic() -> list[Mutant]:
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


def _t19_smt() -> list[Mutant]:
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


# ---------------------------------------------------------------- Theorem 22 (covers and witnesses)

u = sa.u


def _t22() -> list[Mutant]:
    lam = sp.Symbol("lam", positive=True)
    uc3 = Fraction(sa.lambda_c_scaled(3)).limit_denominator(1000)
    phi3 = cf.rate(lam, 3, 1)
    best3 = cf.rate(cf.lambda_max(3, 1), 3, 1)
    l1, l2 = sp.symbols("lambda1 lambda2", positive=True)
    mean = (l1 + l2) / 2
    violation = 2 * cf.rate(mean, 3, 1) - cf.rate(l1, 3, 1) - cf.rate(l2, 3, 1)
    beta_sym = sp.Symbol("beta", positive=True)
    c8_margin = sr.condition8_margin().subs({H: 2, nn: 3, alpha: 1, t: sp.exp(beta_sym)})
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
            "superadd-convex-witness",
            "T22.superadditivity",
            "a violation of super-additivity with both strengths above lambda_c (n = 3): false by Jensen",
            False,
            point_witness(
                [("g(mean) > 0", cf.lambda_c_equation(mean, 3), ">"), ("violation > 0", violation, ">")],
                {l1: uc3 + 1, l2: uc3 + 3},
            ),
        ),
        Mutant(
            "threshold-witness-above",
            "T19.threshold.exact",
            "C8 still holding above its own threshold ln(2)/2 (H = 2, n = 3, alpha = 1, beta = 2/5)",
            False,
            point_witness([("C8 margin > 0", c8_margin, ">")], {beta_sym: Fraction(2, 5)}),
        ),
    ]


# ---------------------------------------------------------------- existential claims (witness searches)


def _flat_obstruction(ctx: Context) -> Outcome:
    """Sphere candidates of T17.shadow-obstruction re-certified in flat space, where T16 forbids dE_h/dt < 0."""
    search = wc.SEARCHES["T17.shadow-obstruction"]
    found = wc.candidates(search, ctx.rng("flat"), 80)
    reasons = []
    for _, cfg, head in found[:3]:
        exact = round_configuration(cfg.tokens, cfg.scores, cfg.scores, cfg.beta, geometry="flat")
        result = certify_configuration(
            ctx.claim_id,
            "mutant",
            exact,
            search.hypotheses,
            search.quantity,
            head,
            "<",
            certificate_directory(ctx.certificate_dir),
        )
        if result.verified:
            return Outcome(Verdict.CERTIFIED, "witness", certificates=[str(result.path)])
        reasons.append(result.reason)
    return Outcome(Verdict.INCONCLUSIVE, "witness", notes=f"{len(found)} candidates; {'; '.join(reasons) or 'none'}")


def _stationary(ctx: Context) -> Outcome:
    """Two equal tokens e1 and M = W = diag(1, 2): f_i = 2 e^beta e1 is radial, so xdot = 0 and dE/dt = 0
    exactly; floats (and a careless witness check) could see rounding noise of either sign."""
    one, two, zero = Fraction(1), Fraction(2), Fraction(0)
    M = [[one, zero], [zero, two]]
    exact = ExactConfiguration([[one, zero], [one, zero]], [M], [M], Fraction(3, 2))
    result = certify_configuration(ctx.claim_id, "mutant", exact, ("unit-tokens", "symmetric-scores",
                                   "aligned-values"), "energy_rate", None, "<",
                                   certificate_directory(ctx.certificate_dir))  # fmt: skip
    if result.verified:
        return Outcome(Verdict.CERTIFIED, "witness", certificates=[str(result.path)])
    return Outcome(Verdict.INCONCLUSIVE, "witness", notes=result.reason)


def _witnesses() -> list[Mutant]:
    aligned = wc.Search(
        lambda rng, H, d, n: (wc.families.random_symmetric_heads(H, d, rng, 2.0), None),
        ("unit-tokens", "symmetric-scores", "aligned-values"),
        "energy_rate",
    )
    mislabelled = wc.Search(
        wc.SEARCHES["T11.hypotheses.no-symmetry"].heads,
        ("unit-tokens", "symmetric-scores", "aligned-values"),
        "energy_rate",
    )
    return [
        Mutant(
            "t11-rounding-noise",
            "T11.hypotheses",
            "dE/dt < 0 at an exactly stationary configuration (the rate is exactly 0: rounding noise only)",
            False,
            _stationary,
        ),
        Mutant(
            "t11-witness-all-hyp",
            "T11.hypotheses",
            "a configuration with symmetric, aligned heads and dE/dt < 0 (false by T11)",
            False,
            lambda ctx: wc.find_witness(ctx, "T11.hypotheses.no-symmetry", aligned),
        ),
        Mutant(
            "t11-witness-mislabelled",
            "T11.hypotheses",
            "general heads offered as witnesses of 'symmetric heads with dE/dt < 0' (false by T11)",
            False,
            lambda ctx: wc.find_witness(ctx, "T11.hypotheses.no-symmetry", mislabelled),
        ),
        Mutant(
            "t17-obstruction-flat",
            "T17.shadow-obstruction",
            "the obstruction in flat space (domain changed; false by T16)",
            False,
            _flat_obstruction,
        ),
        Mutant(
            "t17-obstruction-true",
            "T17.shadow-obstruction",
            "the claim (sphere)",
            True,
            lambda ctx: wc.find_witness(ctx, "T17.shadow-obstruction", wc.SEARCHES["T17.shadow-obstruction"]),
            accept=True,
        ),
    ]


# ---------------------------------------------------------------- constants (certified digits, cross-check)


def digits_claim(quantity: str, params: dict[str, int], claimed: str) -> Decide:
    """`quantity(params)` = the decimal `claimed` to its printed digits: REFUTED when the certified ball
    excludes every number that rounds to `claimed`, CONFIRMED when the certified digits equal it."""

    def decide(ctx: Context) -> Outcome:
        significant = len(claimed.replace(".", "").replace("-", "").lstrip("0"))
        value = constants.compute(quantity, params, significant)
        if value.value == claimed:
            return Outcome(Verdict.CONFIRMED, "certified digits", cases=1, tolerance=0.0)
        exponent = len(claimed.split(".")[1]) if "." in claimed else 0
        half = Fraction(1, 2 * 10**exponent)
        centre = Fraction(claimed)
        ball = value.ball
        lo, hi = ball_of(centre - half), ball_of(centre + half)
        if ball is not None and (ball < lo or ball > hi):
            return Outcome(Verdict.REFUTED, "certified digits", witness={"verified_by": "ball", "ball": ball.str(30)})
        return Outcome(Verdict.INCONCLUSIVE, "certified digits", notes="the ball does not exclude the claimed value")

    return decide


def cross_checked(quantity: str, params: dict[str, int], shift_digits: int | None, relabel: str = "") -> Decide:
    """constants.cross_check on a certified value shifted by 10^-shift_digits (relative) or relabelled."""

    def decide(ctx: Context) -> Outcome:
        value = constants.compute(quantity, params, 20, check=False)
        ball = value.ball
        if shift_digits is not None:
            with flint_ctx.workprec(value.precision_bits + 64):  # keep the shift: 53 bits would round it away
                ball = ball * (1 + ball_of(Fraction(1, 10**shift_digits)))
        mutated = dataclasses.replace(value, ball=ball, quantity=relabel or quantity)
        if relabel:
            mutated = dataclasses.replace(mutated, parameters=constants.validate(relabel, params))
        try:
            constants.cross_check(mutated)
        except constants.CrossCheckError as exc:
            return Outcome(Verdict.INCONCLUSIVE, "mpmath cross-check", notes=str(exc)[:200])
        return Outcome(Verdict.CONFIRMED, "mpmath cross-check", cases=1, tolerance=0.0)

    return decide


def _constants() -> list[Mutant]:
    return [
        Mutant(
            "digits-cstar-last",
            "T19.c-star",
            "c*(2) = 0.6180339888 (last digit changed)",
            False,
            digits_claim("c_star", {"H": 2}, "0.6180339888"),
        ),
        Mutant(
            "digits-cstar-true",
            "T19.c-star",
            "c*(2) = 0.6180339887 (true)",
            True,
            digits_claim("c_star", {"H": 2}, "0.6180339887"),
            accept=True,
        ),
        Mutant(
            "digits-betastar-H3",
            "T19.threshold",
            "beta*(3, 10, 1) = 0.8580 (the value at H = 2)",
            False,
            digits_claim("beta_star", {"H": 3, "n": 10, "alpha": 1}, "0.8580"),
        ),
        Mutant(
            "digits-lambdac-is-lmax",
            "T22.superadditivity.reading-b",
            "lambda_c(10, 1) = lambda_max(10, 1) to 12 digits (phi'' = 0 confused with phi' = 0)",
            False,
            digits_claim("lambda_c", {"n": 10, "beta": 1}, constants.lambda_max(10, 1, digits=12).value),
        ),
        Mutant(
            "crosscheck-shift",
            "T19.c-star",
            "a c*(3) ball shifted by 1e-18 relative passes the cross-check",
            False,
            cross_checked("c_star", {"H": 3}, 18),
        ),
        Mutant(
            "crosscheck-relabel",
            "T22.early-rate",
            "the lambda_max(2, 1) ball presented as lambda_c(2, 1)",
            False,
            cross_checked("lambda_max", {"n": 2, "beta": 1}, None, relabel="lambda_c"),
        ),
        Mutant(
            "crosscheck-true",
            "T19.c-star",
            "the certified c*(3) ball (true)",
            True,
            cross_checked("c_star", {"H": 3}, None),
            accept=True,
        ),
    ]


# ---------------------------------------------------------------- forged certificates given to check-cert


def _forged_smt(directory: Path) -> Path:
    """The false exact reading written as an smt certificate of its claim, with a valid checksum."""
    payload = {"logic": "QF_NRA", "statements": [tc.exact_statement().tree()]}
    target = directory / "forged-smt.json"
    target.write_text(json.dumps(build_certificate("T19.threshold.exact", "forged", "forged", "smt", payload)))
    return target


def _true_smt(directory: Path) -> Path:
    ctx = Context("quick", 0, directory, claim_id="T19.threshold")
    return Path(tc.certify_statements(ctx).certificates[0])


def _true_convexity(directory: Path) -> Path:
    ctx = Context("quick", 0, directory, claim_id="T22.superadditivity.reading-b")
    return Path(sa.certify_convexity(ctx, 3, directory)[0])


def _alignment_witness(directory: Path) -> Path:
    """A genuine T11.hypotheses.no-alignment witness (symmetric M, W != M, dE/dt < 0)."""
    ctx = Context("quick", 0, directory, claim_id="T11.hypotheses.no-alignment")
    outcome = wc.find_witness(ctx, "T11.hypotheses.no-alignment", wc.SEARCHES["T11.hypotheses.no-alignment"])
    return Path(outcome.certificates[0])


def _forged(source: Callable[[Path], Path], edit: Callable[[dict], None], name: str) -> Callable[[Path], Path]:
    """A copy of a genuine certificate with `edit` applied and a valid recomputed checksum."""

    def forge(directory: Path) -> Path:
        data = rehashed(json.loads(source(directory).read_text()), edit)
        target = directory / f"forged-{name}.json"
        target.write_text(json.dumps(data))
        return target

    return forge


def _relabel_and_trim(d: dict) -> None:
    """A no-alignment witness filed as a no-symmetry witness (which needs W = M), hypotheses trimmed."""
    d["claim_id"] = "T11.hypotheses.no-symmetry"
    d["payload"]["hypotheses"] = ["unit-tokens", "aligned-values"]


def _weaker_goal(d: dict) -> None:
    d["payload"]["statements"][1]["goal"] = ["=", ["mul", ["sym", "q_star"], ["sym", "H"]], ["sym", "n"]]


def _certificates() -> list[Mutant]:
    return [
        Mutant(
            "cert-smt-forged",
            "T19.threshold.exact",
            "a forged smt certificate of the false exact reading (valid checksum)",
            False,
            certificate_file(_forged_smt),
        ),
        Mutant(
            "cert-smt-goal",
            "T19.threshold",
            "a true SMT certificate whose goal is changed (checksum recomputed)",
            False,
            certificate_file(_forged(_true_smt, _weaker_goal, "smt-goal")),
        ),
        Mutant(
            "cert-smt-true", "T19.threshold", "the true SMT certificate", True, certificate_file(_true_smt), accept=True
        ),
        Mutant(
            "cert-cover-widened",
            "T22.superadditivity.reading-b",
            "a convexity certificate whose phi'' cover starts at 1 (checksum recomputed)",
            False,
            certificate_file(
                _forged(
                    _true_convexity,
                    lambda d: d["payload"]["parts"]["convex"]["domain"]["u"].__setitem__(0, "1"),
                    "wide",
                )
            ),
        ),
        Mutant(
            "cert-cover-relation",
            "T22.superadditivity.reading-b",
            "a convexity certificate with phi'' > 0 relabelled phi'' < 0 (checksum recomputed)",
            False,
            certificate_file(
                _forged(_true_convexity, lambda d: d["payload"]["parts"]["convex"].update(relation="<"), "relation")
            ),
        ),
        Mutant(
            "cert-witness-relabelled",
            "T11.hypotheses",
            "a no-alignment witness (W != M) filed as a no-symmetry witness, hypotheses trimmed, checksum recomputed",
            False,
            certificate_file(_forged(_alignment_witness, _relabel_and_trim, "relabelled")),
        ),
        Mutant(
            "cert-witness-true",
            "T11.hypotheses",
            "the genuine no-alignment witness certificate",
            True,
            certificate_file(_alignment_witness),
            accept=True,
        ),
        Mutant(
            "cert-convexity-true",
            "T22.superadditivity.reading-b",
            "the true convexity certificate (n = 3)",
            True,
            certificate_file(_true_convexity),
            accept=True,
        ),
    ]


# ---------------------------------------------------------------- thorough variants (slow)


def _slow() -> list[Mutant]:
    thorough = [
        Mutant(
            f"{m.id}-thorough",
            m.claim,
            f"{m.description} [thorough profile]",
            m.true,
            (lambda decide: lambda ctx: decide(dataclasses.replace(ctx, profile="thorough")))(m.decide),
            m.required,
            True,
            m.accept,
        )
        for m in _energy() + _entropy()
        if m.id.startswith(("t11-num", "t16-num", "t17-num", "t27-num"))
    ]
    covers = [
        Mutant(
            f"convex-below-uc-n{tokens}",
            "T22.superadditivity.reading-b",
            f"phi'' > 0 on [u_c - 1/2, 40] for n = {tokens} (widened)",
            False,
            cover(
                obligations.convexity_parts(tokens)["convex"][0],
                {u: (Fraction(sa.lambda_c_scaled(tokens)).limit_denominator(1000) - Fraction(1, 2), Fraction(40))},
                ">",
            ),
            slow=True,
        )
        for tokens in (2, 10, 100, 1000)
    ]
    return thorough + covers


def _dynamics() -> list[Mutant]:
    """Claims decided along trajectories: each check with a wrong constant, law or sign."""
    return [
        Mutant(
            "t12-no-correction",
            "T12.value-misalignment",
            "dE/dt >= (1/n) sum |xdot|^2 without the misalignment correction (Delta dropped from the bound)",
            False,
            lambda ctx: robustness.check_value_misalignment(ctx, delta_factor=0.0),
        ),
        Mutant(
            "t39-no-delta",
            "T39.approximate-orthogonality",
            "the per-head bound without the delta term (orthogonality assumed exact)",
            False,
            lambda ctx: robustness.check_approximate_orthogonality(ctx, delta_factor=0.0),
        ),
        Mutant(
            "t22-late-3",
            "T22.late-rate",
            "eps(t) ~ C exp(-3 Lambda t) (rate constant 3 instead of 2)",
            False,
            lambda ctx: rates.check_late_rate(ctx, multiple=3.0),
        ),
        Mutant(
            "t27-decreasing",
            "T27.entropy-monotone",
            "attention entropy is non-increasing (sign flipped)",
            False,
            lambda ctx: entropy_dynamics.check_monotone_along_trajectories(ctx, sign=-1.0),
        ),
        Mutant(
            "t27-limit-log-n-1",
            "T27.entropy-limit",
            "entropy tends to log(n - 1)",
            False,
            lambda ctx: entropy_dynamics.check_limit(ctx, limit=lambda n: math.log(n - 1)),
        ),
        Mutant(
            "t27-limit-half-log-n",
            "T27.entropy-limit.reading-b",
            "entropy tends to (1/2) log n (symmetric heads)",
            False,
            lambda ctx: entropy_dynamics.check_limit_general(ctx, limit=lambda n: 0.5 * math.log(n)),
        ),
        Mutant(
            "t25-softmax-decreasing",
            "T25.softmax-time",
            "softmax clustering time ~ 1/n (exponent -1, tight)",
            False,
            lambda ctx: times.check_clustering_time(ctx, "softmax", ("tight",), claimed=(-1.0, 0.0)),
        ),
        Mutant(
            "t25-relu-decreasing",
            "T25.relu-time",
            "relu clustering time ~ 1/n (exponent -1, upper bound)",
            False,
            lambda ctx: times.check_clustering_time(ctx, "relu", ("upper",), claimed=(-1.0, 0.0)),
        ),
    ]


def claims_file(text: str) -> Decide:
    """The one claim of a claims-file text, decided by the decider of its kind (what `headflow check` runs)."""

    def decide(ctx: Context) -> Outcome:
        (claim,) = parse_claims(text, "mutant.toml")
        return DECIDERS[claim.kind][1](claim, ctx)

    return decide


_THRESHOLD_FILE = """
[[claim]]
id = "threshold"
kind = "inequality"
lhs = "exp(2 * alpha * beta_star(H, n, alpha))"
op = "{op}"
rhs = "(n - 1) / (H - 1)"
[claim.domain]
H = {{ min = 2, max = 3, integer = true }}
n = {{ min = 3, max = 5, integer = true }}
alpha = "[1/2, 2]"
"""
_ENTROPY_FILE = """
[[claim]]
id = "entropy"
kind = "dynamics"
quantity = "{quantity}"
property = "{property}"
{extra}
attention = "softmax"
heads = "{heads}"
{lambdas}
tokens = "{tokens}"
n = 4
d = 4
H = 1
beta = 2.0
time = 1.0
"""


def _claims_files() -> list[Mutant]:
    """The claims-file deciders (`headflow check`) on file forms of paper claims, mutated."""
    scalar = {"heads": "scalar", "lambdas": "lambdas = [1.0]", "tokens": "equiangular", "extra": "rho = 0.2"}
    symmetric = {"heads": "random-symmetric", "lambdas": "", "tokens": "random-sphere", "extra": ""}
    return [
        Mutant(
            "file-threshold-reversed",
            "T19.threshold",
            "file form: at beta*, e^(2 alpha beta) > (n-1)/(H-1), i.e. Condition 8 fails at beta* (relation reversed)",
            False,
            claims_file(_THRESHOLD_FILE.format(op=">")),
        ),
        Mutant(
            "file-threshold",
            "T19.threshold",
            "file form: at beta*, e^(2 alpha beta) < (n-1)/(H-1) (true: c* < 1); the cover must certify it",
            True,
            claims_file(_THRESHOLD_FILE.format(op="<")),
            accept=True,
        ),
        Mutant(
            "file-entropy-rate-any-heads",
            "T27.entropy-monotone",
            "file form: dH/dt >= 0 for any symmetric head and any tokens (false: reading-c is refuted)",
            False,
            claims_file(_ENTROPY_FILE.format(quantity="entropy_rate", property="non-negative", **symmetric)),
        ),
        Mutant(
            "file-entropy-limit-log-n-1",
            "T27.entropy-limit",
            "file form: the entropy of a scalar head on equiangular tokens tends to log(n - 1)",
            False,
            claims_file(
                _ENTROPY_FILE.format(quantity="attention_entropy", property="tends-to", **scalar)
                .replace("rho = 0.2", 'rho = 0.2\nlimit = "log(n - 1)"')
                .replace("time = 1.0", "time = 30.0")
            ),
        ),
        Mutant(
            "file-golden-digits",
            "T19.golden",
            "file form: 1/golden = 0.6180339888 to 10 digits (last digit off by one)",
            False,
            claims_file(
                '[[claim]]\nid = "g"\nkind = "constant"\nexpr = "1/golden"\nvalue = "0.6180339888"\ndigits = 10\n'
            ),
        ),
    ]


def all_mutants() -> list[Mutant]:
    """Every mutant, fast ones first."""
    table = (
        _projection()
        + _energy()
        + _entropy()
        + _t19_symbolic()
        + _t19_smt()
        + _t22()
        + _witnesses()
        + _dynamics()
        + _claims_files()
        + _constants()
        + _certificates()
        + _slow()
    )
    ids = [m.id for m in table]
    assert len(ids) == len(set(ids)), "duplicate mutant id"
    return table


def registry(mutants: list[Mutant]) -> Registry:
    """A private registry with one claim `mutant.<id>` per mutant, its decider as procedure `mutated`."""
    reg = Registry()
    for m in mutants:
        reg.declare(f"mutant.{m.id}", m.description, f"{m.claim}, mutated: {m.description}")
        reg.procedure(f"mutant.{m.id}", "mutated")(m.decide)
    return reg


def killed(verdict: Verdict) -> bool:
    """A false mutant is killed when it is not accepted as true (REFUTED or INCONCLUSIVE)."""
    return verdict in (Verdict.REFUTED, Verdict.INCONCLUSIVE)


def accepted(verdict: Verdict) -> bool:
    return verdict in (Verdict.PROVED, Verdict.CERTIFIED, Verdict.CONFIRMED)
