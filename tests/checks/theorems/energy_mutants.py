"""Mutants of the energy theorems (T11, T12, T16, T17, Condition 8, T39) and their witnesses."""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
from headflow.certificates.kernel.ball_model import ExactConfiguration
from headflow.certificates.provers.model_witness import certify_model_witness
from headflow.certificates.provers.witness import round_configuration
from headflow.certificates.statements.registry import ConfigurationObligation
from headflow.certificates.store import certificate_directory
from headflow.checks.evidence import energy_bounds
from headflow.checks.evidence import energy_witnesses as theorem
from headflow.checks.evidence.energy_rates import check_energy_rate, check_formula, t16_formula, t17_formula
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict
from headflow.identities import energy

from tests.soundness.mutation import Mutant, symbolic, thorough

# ---------------------------------------------------------------- energy identities (T11, T16, T17)

n = energy.n


def _identities() -> list[Mutant]:
    """T11, T16, T17 and Condition 8, symbolically (the provers) and numerically (floats can only CONFIRM)."""
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


# ---------------------------------------------------------------- existential claims (witness searches)


def _flat_obstruction(ctx: Context) -> Outcome:
    """Sphere candidates of T17.shadow-obstruction re-certified in flat space, where T16 forbids dE_h/dt < 0."""
    search = theorem.SEARCHES["T17.shadow-obstruction"]
    found = theorem.search_negative_rates(search, ctx.rng("flat"), 80).candidates
    reasons = []
    for cfg, (head,) in ((f.cfg, f.index) for f in found[:3]):
        exact = round_configuration(cfg.tokens, cfg.score_matrices, cfg.score_matrices, cfg.beta, geometry="flat")
        statement = ConfigurationObligation("usa", "flat", search.hypotheses, search.quantity, "").model(ctx.claim_id)
        result = certify_model_witness(statement, exact, {"h": head}, certificate_directory(ctx.certificate_dir), None)
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
    hypotheses = ("unit-tokens", "symmetric-scores", "aligned-values")
    statement = ConfigurationObligation("usa", "sphere", hypotheses, "energy_rate", "").model(ctx.claim_id)
    result = certify_model_witness(statement, exact, {}, certificate_directory(ctx.certificate_dir), None)
    if result.verified:
        return Outcome(Verdict.CERTIFIED, "witness", certificates=[str(result.path)])
    return Outcome(Verdict.INCONCLUSIVE, "witness", notes=result.reason)


def _witnesses() -> list[Mutant]:
    """T11.hypotheses and T17.shadow-obstruction: witness searches given false targets."""
    aligned = theorem.Search(
        "random-symmetric",
        ("unit-tokens", "symmetric-scores", "aligned-values"),
        "energy_rate",
    )
    mislabelled = theorem.Search(
        theorem.SEARCHES["T11.hypotheses.no-symmetry"].heads,
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
            lambda ctx: theorem.find_witness(ctx, "T11.hypotheses.no-symmetry", aligned),
        ),
        Mutant(
            "t11-witness-mislabelled",
            "T11.hypotheses",
            "general heads offered as witnesses of 'symmetric heads with dE/dt < 0' (false by T11)",
            False,
            lambda ctx: theorem.find_witness(ctx, "T11.hypotheses.no-symmetry", mislabelled),
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
            lambda ctx: theorem.find_witness(ctx, "T17.shadow-obstruction", theorem.SEARCHES["T17.shadow-obstruction"]),
            accept=True,
        ),
    ]


def _dynamics() -> list[Mutant]:
    """T12 and T39 along trajectories without their correction terms."""
    return [
        Mutant(
            "t12-no-correction",
            "T12.value-misalignment",
            "dE/dt >= (1/n) sum |xdot|^2 without the misalignment correction (Delta dropped from the bound)",
            False,
            lambda ctx: energy_bounds.check_value_misalignment(ctx, delta_factor=0.0),
        ),
        Mutant(
            "t39-no-delta",
            "T39.approximate-orthogonality",
            "the per-head bound without the delta term (orthogonality assumed exact)",
            False,
            lambda ctx: energy_bounds.check_approximate_orthogonality(ctx, delta_factor=0.0),
        ),
    ]


def mutants() -> list[Mutant]:
    """Every energy mutant; the numeric ones again with the thorough profile (slow)."""
    fast = _identities() + _witnesses() + _dynamics()
    return fast + thorough([m for m in fast if m.id.startswith(("t11-num", "t16-num", "t17-num"))])
