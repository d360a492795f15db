"""Theorems 11 and 16 along integrated trajectories: energies non-decreasing, identities all the way.

T11 "trajectory": integrate usa, symmetric, aligned configurations; at every recorded state the
chain-rule dE/dt must equal (1/n) sum |xdot_i|^2, the recorded E must never decrease by more than
the integration error, and E(T) - E(0) must equal the Simpson quadrature of (1/n) sum |xdot|^2.
T16: orthogonal heads on the flat dynamics; dE_h/dt = (1/n^3) sum_i |f^h_i|^2 at random states
and each recorded E_h non-decreasing along integrated trajectories.
"""

from __future__ import annotations

import numpy as np
from scipy.integrate import simpson

from checks import model
from checks.config import Configuration
from checks.integrator import Event, Trajectory, integrate
from checks.registry import REGISTRY, Context
from checks.sampling import configuration_record, float_verdict, random_configuration, relative_discrepancy
from checks.verdicts import Outcome

RTOL, ATOL = 1e-10, 1e-12
IDENTITY_TOLERANCE = 1e-9
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
    """A recorded DP5(4) trajectory on [0, T], stopped early if a flat token norm reaches the bound."""
    events = (_bounded_norm(),) if cfg.geometry == "flat" else ()
    grid = np.linspace(0, T, RECORDS)
    return integrate(cfg, T, rtol=RTOL, atol=ATOL, record_times=grid, observables=observables, events=events)


def _trajectory_configuration(rng: np.random.Generator, geometry: str, heads: str = "symmetric") -> Configuration:
    return random_configuration(rng, geometry=geometry, heads=heads, max_n=8, max_d=5, max_heads=3, scale=0.5)


def check_energy_trajectories(ctx: Context, geometry: str, coefficient: float = 1.0) -> Outcome:
    """E non-decreasing and dE/dt = coefficient * (1/n) sum |xdot|^2 along integrated usa trajectories."""
    rng = ctx.rng(f"trajectory-{geometry}")
    runs = 12 if ctx.thorough else 3
    T = HORIZON[geometry]
    worst_identity = worst_drop = worst_balance = 0.0
    candidate, balance_candidate, states = None, None, 0
    for _ in range(runs):
        ctx.check_budget()
        cfg = _trajectory_configuration(rng, geometry)
        traj = _run(cfg, T, ("energy",))
        energy = traj.observables["energy"]
        claimed = []
        for X in traj.states:
            state = cfg.moved_to(X)
            xdot = model.token_velocity(state)
            claimed.append(coefficient * float(np.sum(xdot * xdot)) / cfg.n)
            floor = 1e-12 * (1.0 + model.energy(state))
            gap = relative_discrepancy(model.energy_rate(state, xdot), claimed[-1], floor)
            if gap > worst_identity:
                worst_identity, candidate = gap, configuration_record(state)
        states += len(traj.states)
        worst_drop = max(worst_drop, float(np.max(-np.diff(energy) / energy[:-1], initial=0.0)))
        balance = _balance_excess(traj.times, np.array(claimed), energy[-1] - energy[0])
        if balance > worst_balance:
            worst_balance, balance_candidate = balance, configuration_record(cfg)
    method = (
        f"numeric: {runs} DP5(4) trajectories (rtol={RTOL:g}, {geometry}, T={T:g}{_stop(geometry)}); at {RECORDS} "
        "records each, "
        f"chain-rule dE/dt vs {coefficient:g}*(1/n) sum |xdot|^2; E non-decreasing between records; "
        "E(T)-E(0) vs the Simpson quadrature of the claimed rate"
    )
    details = {
        "states": states,
        "max_relative_identity_residual": worst_identity,
        "max_relative_energy_drop": worst_drop,
        "monotone_tolerance": MONOTONE_TOLERANCE,
        "max_balance_excess": worst_balance,
        "balance_tolerance": f"{BALANCE_TOLERANCE:g} + 10 x the estimated Simpson error",
    }
    margin = -worst_identity
    if worst_drop > MONOTONE_TOLERANCE:
        margin = min(margin, -worst_drop)
    if worst_balance > 0.0:
        margin, candidate = min(margin, -worst_balance), balance_candidate
    return float_verdict(method, states, margin, IDENTITY_TOLERANCE, candidate, details)


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
    cases = 300 if ctx.thorough else 60
    runs = 8 if ctx.thorough else 2
    worst_identity = min_rate = worst_drop = 0.0
    candidate = None
    for _ in range(cases):
        ctx.check_budget()
        cfg = random_configuration(rng, geometry="flat", heads="orthogonal")
        f = model.head_outputs(cfg)
        claimed = coefficient * np.sum(f * f, axis=(1, 2)) / cfg.n**3
        exact = model.head_energy_rates(cfg)
        floor = 1e-12 * (1.0 + model.energy(cfg))
        gap = max(relative_discrepancy(a, b, floor) for a, b in zip(exact, claimed, strict=True))
        if gap > worst_identity:
            worst_identity, candidate = gap, configuration_record(cfg)
        min_rate = min(min_rate, float(exact.min()) / (1.0 + model.energy(cfg)))
    states = 0
    for _ in range(runs):
        ctx.check_budget()
        cfg = _trajectory_configuration(rng, "flat", heads="orthogonal")
        traj = _run(cfg, HORIZON["flat"], ("head_energies",))
        E_h = traj.observables["head_energies"]
        states += len(E_h)
        worst_drop = max(worst_drop, float(np.max(-np.diff(E_h, axis=0) / E_h[:-1], initial=0.0)))
    method = (
        f"numeric: chain-rule dE_h/dt vs {coefficient:g}*(1/n^3) sum_i |f^h_i|^2 at {cases} random flat "
        f"configurations with exactly orthogonal symmetric heads, and each E_h along {runs} DP5(4) trajectories"
    )
    details = {
        "max_relative_identity_residual": worst_identity,
        "min_scaled_head_rate": min_rate,
        "trajectory_states": states,
        "max_relative_head_energy_drop": worst_drop,
        "monotone_tolerance": MONOTONE_TOLERANCE,
    }
    margin = min(-worst_identity, min_rate)
    if worst_drop > MONOTONE_TOLERANCE:
        margin = min(margin, -worst_drop)
    return float_verdict(method, cases + states, margin, IDENTITY_TOLERANCE, candidate, details)


@REGISTRY.procedure("T11.energy-rate.spherical", "trajectory")
def _spherical(ctx: Context) -> Outcome:
    return check_energy_trajectories(ctx, "sphere")


@REGISTRY.procedure("T11.energy-rate.flat", "trajectory")
def _flat(ctx: Context) -> Outcome:
    return check_energy_trajectories(ctx, "flat")


@REGISTRY.procedure("T16.flat-orthogonal", "trajectory")
def _flat_orthogonal(ctx: Context) -> Outcome:
    return check_flat_orthogonal(ctx)
