"""Symbolic procedures for the energy identities (T11, T16, T17, Condition 8), and numeric
cross-checks of the proved per-head formulas against the numpy model (checks.model)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import sympy as sp

from checks import model
from checks.config import Configuration
from checks.registry import REGISTRY, Context
from checks.sampling import configuration_record, float_verdict, random_configuration, relative_discrepancy
from checks.verdicts import Outcome
from identities import energy

METHOD = "symbolic (SymPy): general n (symbolic sums), d (Gram algebra), H (per-pair, linear)"
FORMULA_TOLERANCE = 1e-9

REGISTRY.declare(
    "C8.radial-dominance.reading-b",
    "Condition 8 summed over tokens",
    "Under the hypotheses of T17.shadow-decomposition, for every head h: sum_i sum_{h' != h} a^h_i a^h'_i <= "
    "sum_i T^h_i holds if and only if dE_h/dt >= 0 (the summed form is equivalent to per-head monotonicity; "
    "the per-token form of C8.radial-dominance implies it).",
)


@REGISTRY.procedure("T11.energy-rate.spherical", "symbolic")
def _spherical(ctx: Context) -> Outcome:
    return energy.prove_energy_rate("sphere").derivation.outcome(METHOD)


@REGISTRY.procedure("T11.energy-rate.flat", "symbolic")
def _flat(ctx: Context) -> Outcome:
    return energy.prove_energy_rate("flat").derivation.outcome(METHOD)


@REGISTRY.procedure("T16.flat-orthogonal", "symbolic")
def _t16(ctx: Context) -> Outcome:
    return energy.prove_flat_orthogonal().derivation.outcome(METHOD)


@REGISTRY.procedure("T17.shadow-decomposition", "symbolic")
def _t17(ctx: Context) -> Outcome:
    return energy.prove_shadow_decomposition().derivation.outcome(METHOD)


@REGISTRY.procedure("C8.radial-dominance", "symbolic")
def _c8(ctx: Context) -> Outcome:
    return energy.prove_radial_dominance().outcome(METHOD + "; per-token Condition 8")


@REGISTRY.procedure("C8.radial-dominance.reading-b", "symbolic")
def _c8_summed(ctx: Context) -> Outcome:
    return energy.prove_summed_radial_dominance().outcome(METHOD + "; summed Condition 8")


def t16_formula() -> Callable[[Configuration], np.ndarray]:
    """dE_h/dt from the proved T16 formula, evaluated on the model's head outputs, shape (H,)."""
    term = sp.lambdify((energy.q_sym, energy.n), energy.prove_flat_orthogonal().formula)

    def rates(cfg: Configuration) -> np.ndarray:
        outputs = model.head_outputs(cfg)
        return np.sum(term(np.sum(outputs * outputs, axis=-1), cfg.n), axis=-1)

    return rates


def t17_formula() -> Callable[[Configuration], np.ndarray]:
    """dE_h/dt from the proved T17 formula, evaluated on the model's T^h_i and a^h_i, shape (H,)."""
    proof = energy.prove_shadow_decomposition()
    term = sp.lambdify((energy.T_sym, energy.a_sym, energy.others_sym, energy.n), proof.formula)

    def rates(cfg: Configuration) -> np.ndarray:
        a = model.radial_shadows(cfg)
        return np.sum(term(model.tangential_powers(cfg), a, a.sum(axis=0, keepdims=True) - a, cfg.n), axis=-1)

    return rates


def check_formula(
    ctx: Context, geometry: str, formula: Callable[[Configuration], np.ndarray], heads: str = "orthogonal"
) -> Outcome:
    """The proved per-head formula against model.head_energy_rates at random configurations whose heads
    are `heads` (orthogonal by default, the theorems' hypothesis; others serve soundness tests)."""
    rng = ctx.rng(geometry)
    cases = 200 if ctx.thorough else 30
    worst, candidate = 0.0, None
    for _ in range(cases):
        ctx.check_budget()
        cfg = random_configuration(rng, geometry=geometry, heads=heads)
        exact, claimed = model.head_energy_rates(cfg), formula(cfg)
        floor = 1e-12 * (1.0 + model.energy(cfg))
        gap = max(relative_discrepancy(float(e), float(c), floor) for e, c in zip(exact, claimed, strict=True))
        if gap > worst:
            worst, candidate = gap, configuration_record(cfg)
    method = (
        f"numeric: proved formula vs the model's chain-rule dE_h/dt at random {geometry} {heads}-head configurations"
    )
    return float_verdict(method, cases, -worst, FORMULA_TOLERANCE, candidate, {"max_relative_discrepancy": worst})


@REGISTRY.procedure("T16.flat-orthogonal", "numeric")
def _t16_numeric(ctx: Context) -> Outcome:
    return check_formula(ctx, "flat", t16_formula())


@REGISTRY.procedure("T17.shadow-decomposition", "numeric")
def _t17_numeric(ctx: Context) -> Outcome:
    return check_formula(ctx, "sphere", t17_formula())
