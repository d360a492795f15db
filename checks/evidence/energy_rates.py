"""Float evidence for the energy identities (Theorems 11, 16, 17): rates against the model, and trajectories.

Each check compares a claimed rate with the numpy model's exact chain-rule rate (`headflow.checks.model.field`)
at random configurations, or follows integrated trajectories: E (or each E_h) must not decrease by more
than the integration error, and E(T) - E(0) must match the Simpson quadrature of (1/n) sum |xdot_i|^2. A
fourth-order finite difference of E along the flow checks the chain rule itself. `coefficient` scales
the claimed rate, so that tests can state a deliberately wrong identity. Floats give at most CONFIRMED.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import sympy as sp
from headflow.checks.evidence.cases import Worst, cases
from headflow.checks.evidence.sampling import float_verdict, random_configuration, relative_discrepancy
from headflow.checks.integrator import Event, Trajectory, integrate, tableau_for
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome
from headflow.identities import energy
from scipy.integrate import simpson

FORMULA_TOLERANCE = 1e-9


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
    worst = Worst.largest()
    for _ in cases(ctx, 30, 200):
        cfg = random_configuration(rng, geometry=geometry, heads=heads)
        exact, claimed = model.head_energy_rates(cfg), formula(cfg)
        floor = 1e-12 * (1.0 + model.energy(cfg))
        worst.update(
            max(relative_discrepancy(float(e), float(c), floor) for e, c in zip(exact, claimed, strict=True)), cfg
        )
    method = (
        f"numeric: proved formula vs the model's chain-rule dE_h/dt at random {geometry} {heads}-head configurations"
    )
    return worst.verdict(method, FORMULA_TOLERANCE, {"max_relative_discrepancy": worst.value})


IDENTITY_TOLERANCE = 1e-9


FINITE_DIFFERENCE_TOLERANCE = 1e-5


FINITE_DIFFERENCE_STEP = 1e-3


def flow_step(cfg: Configuration, h: float) -> Configuration:
    """Move along the token velocity by h (then back onto the sphere when the geometry asks)."""
    X = cfg.tokens + h * model.token_velocity(cfg)
    if cfg.geometry == "sphere":
        X = X / np.linalg.norm(X, axis=1, keepdims=True)
    return cfg.moved_to(X)


def central_difference_energy_rate(cfg: Configuration, step: float = FINITE_DIFFERENCE_STEP) -> float:
    """Fourth-order central difference of E along the flow, the step scaled by the top speed.

    Independent of the chain rule: it only evaluates E at displaced (and, on the sphere,
    retracted) states, so it catches a wrong formula for dE/dt.
    """
    h = step / (1.0 + float(np.max(np.linalg.norm(model.token_velocity(cfg), axis=1))))
    e = {k: model.energy(flow_step(cfg, k * h)) for k in (-2, -1, 1, 2)}
    return (e[-2] - 8 * e[-1] + 8 * e[1] - e[2]) / (12 * h)


def check_energy_rate(ctx: Context, geometry: str, coefficient: float = 1.0, heads: str = "symmetric") -> Outcome:
    """dE/dt = coefficient * (1/n) sum |xdot_i|^2 >= 0 at random usa, aligned configurations whose heads
    are `heads` (symmetric by default, as T11 assumes; "general" drops score symmetry, for soundness tests)."""
    rng = ctx.rng(geometry)
    identity = Worst.largest()
    worst_fd = worst_sign = 0.0
    for _ in cases(ctx, 60, 400):
        cfg = random_configuration(rng, geometry=geometry, heads=heads)
        xdot = model.token_velocity(cfg)
        exact = model.energy_rate(cfg, xdot)
        claimed = coefficient * float(np.sum(xdot * xdot)) / cfg.n
        floor = 1e-12 * (1.0 + model.energy(cfg))
        identity.update(relative_discrepancy(exact, claimed, floor), cfg)
        worst_fd = max(worst_fd, relative_discrepancy(exact, central_difference_energy_rate(cfg), floor))
        worst_sign = min(worst_sign, claimed)
    method = (
        f"numeric: exact chain-rule dE/dt vs {coefficient:g}*(1/n) sum |xdot|^2 and vs a central "
        f"finite difference (h={FINITE_DIFFERENCE_STEP:g}) at random {geometry} configurations ({heads} heads)"
    )
    details = {
        "max_relative_identity_discrepancy": identity.value,
        "max_relative_finite_difference_discrepancy": worst_fd,
        "finite_difference_tolerance": FINITE_DIFFERENCE_TOLERANCE,
        "min_claimed_rate": worst_sign,
    }
    worst_margin = identity.margin
    if worst_fd > FINITE_DIFFERENCE_TOLERANCE:
        worst_margin = min(worst_margin, -worst_fd)
    return identity.verdict(method, IDENTITY_TOLERANCE, details, worst_margin)


RTOL, ATOL = 1e-10, 1e-12


#: Relative size of a decrease of E between records that integration error can explain.
MONOTONE_TOLERANCE = 1e-9


#: Relative tolerance of the energy balance E(T) - E(0) against the quadrature of the rate.
BALANCE_TOLERANCE = 1e-6


RECORDS = 201


HORIZON = {"sphere": 2.0, "flat": 0.5}


#: Flat usa dynamics can blow up in finite time (|x| grows along a positive eigenvector of some M_h):
#: trajectories stop when a token norm reaches this bound.
FLAT_NORM_BOUND = 2.0


def _bounded_norm() -> Event:
    def margin(cfg: Configuration) -> float:
        return FLAT_NORM_BOUND - float(np.max(np.linalg.norm(cfg.tokens, axis=1)))

    return Event(f"max|x_i|>={FLAT_NORM_BOUND:g}", margin)


def _run(cfg: Configuration, T: float, observables: tuple[str, ...]) -> Trajectory:
    """A recorded trajectory on [0, T], stopped early if a flat token norm reaches the bound."""
    events = (_bounded_norm(),) if cfg.geometry == "flat" else ()
    grid = np.linspace(0, T, RECORDS)
    return integrate(
        cfg, T, rtol=RTOL, atol=ATOL, record_times=grid, observables=observables, events=events, backend="numpy"
    )


def _trajectory_configuration(rng: np.random.Generator, geometry: str, heads: str = "symmetric") -> Configuration:
    return random_configuration(rng, geometry=geometry, heads=heads, max_n=8, max_d=5, max_heads=3, scale=0.5)


def check_energy_trajectories(ctx: Context, geometry: str, coefficient: float = 1.0) -> Outcome:
    """E non-decreasing and dE/dt = coefficient * (1/n) sum |xdot|^2 along integrated usa trajectories."""
    rng = ctx.rng(f"trajectory-{geometry}")
    T = HORIZON[geometry]
    identity, balance = Worst.largest(), Worst.largest()
    worst_drop = 0.0
    runs = cases(ctx, 3, 12)
    for _ in runs:
        cfg = _trajectory_configuration(rng, geometry)
        traj = _run(cfg, T, ("energy",))
        energy = traj.observables["energy"]
        claimed = []
        for X in traj.states:
            state = cfg.moved_to(X)
            xdot = model.token_velocity(state)
            claimed.append(coefficient * float(np.sum(xdot * xdot)) / cfg.n)
            floor = 1e-12 * (1.0 + model.energy(state))
            identity.update(relative_discrepancy(model.energy_rate(state, xdot), claimed[-1], floor), state)
        worst_drop = max(worst_drop, float(np.max(-np.diff(energy) / energy[:-1], initial=0.0)))
        balance.update(_balance_excess(traj.times, np.array(claimed), energy[-1] - energy[0]), cfg)
    method = (
        f"numeric: {len(runs)} {tableau_for(RTOL).name} trajectories (rtol={RTOL:g}, {geometry}, T={T:g}"
        f"{_stop(geometry)}); at {RECORDS} "
        "records each, "
        f"chain-rule dE/dt vs {coefficient:g}*(1/n) sum |xdot|^2; E non-decreasing between records; "
        "E(T)-E(0) vs the Simpson quadrature of the claimed rate"
    )
    details = {
        "states": identity.cases,
        "max_relative_identity_residual": identity.value,
        "max_relative_energy_drop": worst_drop,
        "monotone_tolerance": MONOTONE_TOLERANCE,
        "max_balance_excess": balance.value,
        "balance_tolerance": f"{BALANCE_TOLERANCE:g} + 10 x the estimated Simpson error",
    }
    margin, candidate = identity.margin, identity.candidate
    if worst_drop > MONOTONE_TOLERANCE:
        margin = min(margin, -worst_drop)
    if balance.value > 0.0:
        margin, candidate = min(margin, balance.margin), balance.candidate
    return float_verdict(method, identity.cases, margin, IDENTITY_TOLERANCE, candidate, details)


def _balance_excess(times: np.ndarray, rate: np.ndarray, change: float) -> float:
    """How far |E(T) - E(0) - Simpson(rate)| / |E(T) - E(0)| exceeds what quadrature error explains.

    The quadrature error is estimated as the gap between Simpson's rule on all records and on
    every other record; the allowance is BALANCE_TOLERANCE plus ten times that estimate.
    """
    full = float(simpson(rate, x=times))
    coarse = float(simpson(rate[::2], x=times[::2])) if len(times) >= 5 else full
    scale = max(abs(change), 1e-300)
    allowance = BALANCE_TOLERANCE + 10.0 * abs(full - coarse) / scale
    return max(0.0, abs(change - full) / scale - allowance)


def _stop(geometry: str) -> str:
    return f", stopped if a token norm reaches {FLAT_NORM_BOUND:g}" if geometry == "flat" else ""


def check_flat_orthogonal(ctx: Context, coefficient: float = 1.0) -> Outcome:
    """dE_h/dt = coefficient * (1/n^3) sum_i |f^h_i|^2 >= 0 (flat, orthogonal heads): pointwise and in time."""
    rng = ctx.rng("flat-orthogonal")
    identity = Worst.largest()
    min_rate = worst_drop = 0.0
    for _ in cases(ctx, 60, 300):
        cfg = random_configuration(rng, geometry="flat", heads="orthogonal")
        f = model.head_outputs(cfg)
        claimed = coefficient * np.sum(f * f, axis=(1, 2)) / cfg.n**3
        exact = model.head_energy_rates(cfg)
        floor = 1e-12 * (1.0 + model.energy(cfg))
        identity.update(max(relative_discrepancy(a, b, floor) for a, b in zip(exact, claimed, strict=True)), cfg)
        min_rate = min(min_rate, float(exact.min()) / (1.0 + model.energy(cfg)))
    states, runs = 0, cases(ctx, 2, 8)
    for _ in runs:
        cfg = _trajectory_configuration(rng, "flat", heads="orthogonal")
        traj = _run(cfg, HORIZON["flat"], ("head_energies",))
        E_h = traj.observables["head_energies"]
        states += len(E_h)
        worst_drop = max(worst_drop, float(np.max(-np.diff(E_h, axis=0) / E_h[:-1], initial=0.0)))
    method = (
        f"numeric: chain-rule dE_h/dt vs {coefficient:g}*(1/n^3) sum_i |f^h_i|^2 at {identity.cases} random flat "
        f"configurations with exactly orthogonal symmetric heads, and each E_h along {len(runs)} "
        f"{tableau_for(RTOL).name} trajectories"
    )
    details = {
        "max_relative_identity_residual": identity.value,
        "min_scaled_head_rate": min_rate,
        "trajectory_states": states,
        "max_relative_head_energy_drop": worst_drop,
        "monotone_tolerance": MONOTONE_TOLERANCE,
    }
    margin = min(identity.margin, min_rate)
    if worst_drop > MONOTONE_TOLERANCE:
        margin = min(margin, -worst_drop)
    return float_verdict(method, identity.cases + states, margin, IDENTITY_TOLERANCE, identity.candidate, details)
