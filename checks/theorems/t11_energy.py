"""Theorem 11: the total energy rate, on the sphere and in flat space, and what happens without its hypotheses.

Claimed, for usa attention: with symmetric, aligned heads (W_h = M_h) the energy E is non-decreasing,
dE/dt = (1/n) sum_i |xdot_i|^2, on the sphere and in flat space, and dropping either hypothesis allows
dE/dt < 0 (T11.hypotheses, with one reading per dropped hypothesis).

How each is decided:
- symbolic: the identities are proved in `headflow.identities.energy`, which is what makes them PROVED.
- numeric and trajectory (`headflow.checks.evidence.energy_rates`): the model's chain-rule dE/dt against
  (1/n) sum |xdot_i|^2 and a fourth-order finite difference of E along the flow; along integrated
  runs E never decreases by more than the integration error and E(T) - E(0) matches the quadrature.
- witness (`headflow.checks.evidence.energy_witnesses`): a float search, exact rounding, a ball-verified dE/dt < 0.
"""

from __future__ import annotations

from headflow.checks.evidence.energy_rates import check_energy_rate, check_energy_trajectories
from headflow.checks.evidence.energy_witnesses import SEARCHES, find_witness
from headflow.checks.registry import REGISTRY, Context
from headflow.checks.verdicts import Outcome, Verdict
from headflow.identities import energy

_STATEMENTS: tuple[tuple[str, str, str], ...] = (
    (
        "T11.energy-rate.spherical",
        "Theorem 11: total energy rate on the sphere",
        "usa attention, M_h = M_h^T and W_h = M_h for every head, spherical dynamics: for all "
        "n >= 2, d, H >= 1, beta > 0 and all tokens on S^{d-1}, dE/dt = (1/n) sum_i |xdot_i|^2 >= 0.",
    ),
    (
        "T11.energy-rate.flat",
        "Theorem 11: total energy rate in flat space",
        "usa attention, M_h = M_h^T and W_h = M_h for every head, flat dynamics xdot_i = v_i: for all "
        "n >= 2, d, H >= 1, beta > 0 and all tokens in R^d, dE/dt = (1/n) sum_i |xdot_i|^2 >= 0.",
    ),
    (
        "T11.hypotheses",
        "Theorem 11 without its hypotheses",
        "Dropping score symmetry (M_h != M_h^T) or value alignment (W_h != M_h) breaks the identity "
        "dE/dt = (1/n) sum_i |xdot_i|^2, and there are configurations with dE/dt < 0.",
    ),
)

REGISTRY.declare_all(_STATEMENTS)


REGISTRY.declare(
    "T11.hypotheses.no-symmetry",
    "Theorem 11 without score symmetry (reading)",
    "There are n, d, H, beta, tokens on S^{d-1} and heads with W_h = M_h but M_h not symmetric (usa, "
    "spherical dynamics) such that dE/dt < 0.",
)


REGISTRY.declare(
    "T11.hypotheses.no-alignment",
    "Theorem 11 without value alignment (reading)",
    "There are n, d, H, beta, tokens on S^{d-1}, symmetric M_h and symmetric W_h with W_h != M_h for every h "
    "(usa, spherical dynamics) such that dE/dt < 0.",
)


REGISTRY.derivations(
    __name__,
    (
        ("T11.energy-rate.spherical", lambda: energy.prove_energy_rate("sphere").derivation, energy.METHOD),
        ("T11.energy-rate.flat", lambda: energy.prove_energy_rate("flat").derivation, energy.METHOD),
    ),
)


@REGISTRY.procedure("T11.energy-rate.spherical", "numeric")
def _numeric_spherical(ctx: Context) -> Outcome:
    return check_energy_rate(ctx, "sphere")


@REGISTRY.procedure("T11.energy-rate.flat", "numeric")
def _numeric_flat(ctx: Context) -> Outcome:
    return check_energy_rate(ctx, "flat")


@REGISTRY.procedure("T11.energy-rate.spherical", "trajectory")
def _trajectory_spherical(ctx: Context) -> Outcome:
    return check_energy_trajectories(ctx, "sphere")


@REGISTRY.procedure("T11.energy-rate.flat", "trajectory")
def _trajectory_flat(ctx: Context) -> Outcome:
    return check_energy_trajectories(ctx, "flat")


@REGISTRY.procedure("T11.hypotheses.no-symmetry", "witness")
def _no_symmetry(ctx: Context) -> Outcome:
    return find_witness(ctx, "T11.hypotheses.no-symmetry", SEARCHES["T11.hypotheses.no-symmetry"])


@REGISTRY.procedure("T11.hypotheses.no-alignment", "witness")
def _no_alignment(ctx: Context) -> Outcome:
    return find_witness(ctx, "T11.hypotheses.no-alignment", SEARCHES["T11.hypotheses.no-alignment"])


@REGISTRY.procedure("T11.hypotheses", "witness")
def _hypotheses(ctx: Context) -> Outcome:
    """Certified when both readings have a witness (dE/dt < 0 also breaks dE/dt = (1/n) sum |xdot|^2 >= 0)."""
    outcomes = {
        name: find_witness(ctx, name, SEARCHES[name])
        for name in ("T11.hypotheses.no-symmetry", "T11.hypotheses.no-alignment")
    }
    missing = [name for name, o in outcomes.items() if o.verdict is not Verdict.CERTIFIED]
    if missing:
        return Outcome(Verdict.INCONCLUSIVE, "witnesses", notes=f"no certified witness for {', '.join(missing)}")
    return Outcome(
        Verdict.CERTIFIED,
        "certified witnesses with dE/dt < 0 for each dropped hypothesis",
        certificates=[p for o in outcomes.values() for p in o.certificates],
        witness={name: o.witness for name, o in outcomes.items()},
        notes="dE/dt < 0 also breaks the identity dE/dt = (1/n) sum |xdot_i|^2, whose right side is >= 0",
    )
