"""The integrator: measured order of every method, invariants, dense records, events, input checks."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from headflow.certificates.errors import InputError
from headflow.checks.integrator import cluster_gap_below, integrate, speed_below
from headflow.checks.integrator.controller import FixedStep, PIController
from headflow.checks.integrator.methods import HIGH_ORDER_RTOL, METHODS
from headflow.checks.integrator.stepper import Stepper
from headflow.checks.integrator.tableau import Tableau
from headflow.checks.integrator.trajectory import END_STRETCH, trial_step
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from scipy.integrate import solve_ivp

N, D, LAMBDAS, BETA = 5, 6, (0.5, 0.8), 1.0


def _equiangular(rho: float, attention: str = "softmax") -> Configuration:
    X = families.equiangular_tokens(N, D, rho, np.random.default_rng(3))
    return Configuration.create(X, families.scalar_heads(LAMBDAS, D), beta=BETA, attention=attention)


def _rho_rate(t: float, rho: np.ndarray) -> list[float]:
    """The equiangular reduction of the softmax dynamics, derived by hand (see the maths notes)."""
    r = rho[0]
    speed = sum(2 * lam / (np.exp(BETA * lam * (1 - r)) + N - 1) for lam in LAMBDAS)
    return [speed * (1 - r) * (1 + (N - 1) * r)]


def _reference_rho(rho0: float, T: float) -> float:
    return float(solve_ivp(_rho_rate, (0, T), [rho0], method="DOP853", rtol=1e-13, atol=1e-16).y[0, -1])


def _max_rho_error(cfg: Configuration, reference: float) -> float:
    G = cfg.tokens @ cfg.tokens.T
    return float(np.max(np.abs(G[~np.eye(cfg.n, dtype=bool)] - reference)))


#: Fixed step counts on [0, 2] whose errors lie between rounding and the asymptotic range, and the accepted
#: measured orders: each method's order p (pre-asymptotically a little above it), never p - 1. DOP853's error
#: e(N) N^8 is steady (within 15%) from N = 5 to 12 steps, at 1e-11 to 1e-14 (rounding: ~1e-15, reached by
#: N = 14); at N = 2 to 4 terms past h^8 still count, by a factor 40 to 0.6 (once 2, 4, 8: 14.1 and 7.3). The
#: errors depend on the field off the sphere (the RK stages leave it), which the self-term-free velocity changed
#: (`Heads.velocity_parts`: P⊥_x of v less c x, smaller by c (1 - |x|^2) x there), not on the sphere.
CONVERGENCE = {"dp54": ((8, 16, 32), 4.5, 7.0), "dop853": ((5, 7, 10), 7.5, 10.0)}


@pytest.mark.parametrize("method", list(METHODS))
def test_convergence_order_on_the_equiangular_reduction(method: str) -> None:
    T, rho0 = 2.0, 0.0
    reference = _reference_rho(rho0, T)
    counts, low, high = CONVERGENCE[method]
    errors = []
    for steps in counts:
        h = T / steps
        traj = integrate(
            _equiangular(rho0),
            T,
            method=method,
            controller=FixedStep(h),
            first_step=h,
            observables=(),
            keep_states=False,
        )
        assert traj.accepted == steps and traj.method == METHODS[method].name
        errors.append(_max_rho_error(traj.final, reference))
    e, N = np.array(errors), np.array(counts)
    orders = np.log(e[:-1] / e[1:]) / np.log(N[1:] / N[:-1])
    assert np.all(orders > low), orders  # a method one order lower fails this
    assert np.all(orders < high), orders


def test_auto_takes_the_high_order_pair_at_tight_tolerances_for_smooth_kinds() -> None:
    loose = integrate(_equiangular(0.0), 1.0, rtol=10 * HIGH_ORDER_RTOL, observables=())
    tight = integrate(_equiangular(0.0), 1.0, rtol=HIGH_ORDER_RTOL, observables=())
    relu = integrate(_equiangular(0.0, "relu"), 1.0, rtol=1e-10, observables=())
    assert (loose.method, tight.method, relu.method) == ("DP5(4)", "DOP853", "DP5(4)")


def test_adaptive_error_follows_the_tolerance() -> None:
    T, rho0 = 3.0, -0.1
    reference = _reference_rho(rho0, T)
    for rtol in (1e-6, 1e-9):
        traj = integrate(_equiangular(rho0), T, rtol=rtol, atol=rtol * 1e-2, observables=(), keep_states=False)
        assert _max_rho_error(traj.final, reference) < 100 * rtol


@pytest.mark.parametrize("method", list(METHODS))
def test_tokens_stay_on_the_sphere_over_long_runs(method: str) -> None:
    rng = np.random.default_rng(11)
    X = families.random_sphere_tokens(16, 3, rng)
    cfg = Configuration.create(X, families.random_symmetric_heads(2, 3, rng), beta=2.0, attention="softmax")
    traj = integrate(cfg, 500.0, rtol=1e-6, atol=1e-8, method=method, observables=())
    deviation = np.abs(np.linalg.norm(traj.states, axis=-1) - 1.0)
    assert traj.accepted > 100
    assert deviation.max() <= 1e-14  # stated tolerance: a few ulps, no drift


def test_flat_dynamics_is_not_retracted() -> None:
    rng = np.random.default_rng(2)
    X = families.random_sphere_tokens(4, 3, rng)
    cfg = Configuration.create(X, families.random_symmetric_heads(1, 3, rng, 0.5), geometry="flat")
    traj = integrate(cfg, 0.2, observables=())
    assert np.abs(np.linalg.norm(traj.final.tokens, axis=1) - 1.0).max() > 1e-4


def test_energy_is_non_decreasing_on_usa_trajectories() -> None:
    rng = np.random.default_rng(5)
    for _ in range(3):
        X = families.random_sphere_tokens(8, 4, rng)
        cfg = Configuration.create(X, families.random_symmetric_heads(3, 4, rng), beta=1.0)
        traj = integrate(cfg, 5.0, rtol=1e-10, atol=1e-12, observables=("energy",))
        E = traj.observables["energy"]
        assert E[-1] > E[0]
        assert np.all(np.diff(E) >= -1e-12 * E[:-1])


@pytest.mark.parametrize("method", list(METHODS))
def test_cluster_gap_event_matches_the_reduced_ode(method: str) -> None:
    tolerance, rho0 = 1e-4, 0.2
    gap = (cluster_gap_below(tolerance),)
    traj = integrate(_equiangular(rho0), 100.0, rtol=1e-11, atol=1e-13, method=method, events=gap)

    def reached(t: float, rho: np.ndarray) -> float:
        return (1 - rho[0]) - tolerance

    reached.terminal = True  # type: ignore[attr-defined]
    ode = solve_ivp(_rho_rate, (0, 100), [rho0], method="DOP853", rtol=1e-13, atol=1e-15, events=reached)
    assert traj.status.startswith("event:")
    assert traj.t_end == pytest.approx(float(ode.t_events[0][0]), rel=1e-7)
    assert model.cluster_gap(traj.final) == pytest.approx(tolerance, rel=1e-6)
    assert traj.times[-1] == traj.t_end


@pytest.mark.parametrize("method", list(METHODS))
def test_dense_records_follow_the_solution_without_shortening_steps(method: str) -> None:
    T, rho0 = 3.0, -0.1
    grid = np.linspace(0.0, T, 301)
    end_only = integrate(_equiangular(rho0), T, rtol=1e-9, method=method, record_times=[T], observables=())
    dense = integrate(_equiangular(rho0), T, rtol=1e-9, method=method, record_times=grid, observables=())
    assert (dense.accepted, dense.rejected) == (end_only.accepted, end_only.rejected) and dense.accepted < 100
    assert np.array_equal(dense.final.tokens, end_only.final.tokens)
    ode = solve_ivp(_rho_rate, (0, T), [rho0], method="DOP853", rtol=1e-13, atol=1e-16, t_eval=grid)
    off_diagonal = ~np.eye(N, dtype=bool)
    errors = [np.max(np.abs((X @ X.T)[off_diagonal] - rho)) for X, rho in zip(dense.states, ode.y[0], strict=True)]
    assert max(errors) < 1e-7
    assert np.abs(np.linalg.norm(dense.states, axis=-1) - 1.0).max() <= 1e-15


@pytest.mark.parametrize(
    ("remaining", "steps"),
    [(0.5, 1), (1.0, 1), (1.05, 1), (1.2, 2), (1.9, 2), (2.15, 2), (2.3, 3), (2.5, 3), (10.5, 10), (11.5, 11)],
)
def test_the_end_is_reached_in_equal_steps_no_longer_than_the_stretch(remaining: float, steps: int) -> None:
    """Proposal h = 1: ceil(remaining) equal steps, one fewer when they stay within END_STRETCH (counted by hand)."""
    h = float(trial_step(1.0, remaining))
    assert h == (remaining if steps == 1 else remaining / steps)
    assert h <= END_STRETCH


def test_the_fixed_step_controller_keeps_its_step_before_the_end() -> None:
    """An order measurement takes steps of one size: 11 steps of 1 in 11.0 (equal steps of 1.1 would be 10)."""
    assert FixedStep(1.0).trial(1.0, 11.0) == 1.0
    assert FixedStep(1.0).trial(1.0, 1.0 + 1e-12) == 1.0 + 1e-12  # no sliver step at the end
    assert PIController(7).trial(1.0, 11.0) == 11.0 / 10


def test_an_adaptive_run_ends_without_a_short_last_step() -> None:
    """The accepted steps of a run (its records) end in equal steps, not in a sliver after full-size ones."""
    traj = integrate(_equiangular(-0.1), 3.0, rtol=1e-9, method="dop853", observables=())
    last = np.diff(traj.times)[-2:]
    assert traj.times[-1] == 3.0 and last[1] == pytest.approx(last[0], rel=1e-12)


def test_records_land_on_the_requested_times() -> None:
    grid = np.linspace(0.0, 2.0, 9)
    traj = integrate(_equiangular(0.0), 2.0, record_times=grid)
    assert np.array_equal(traj.times, grid)
    assert traj.observables["entropies"].shape == (9, len(LAMBDAS), N)
    assert traj.observables["condition8_margin"].shape == (9, len(LAMBDAS))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"t_final": 0.0},
        {"t_final": -1.0},
        {"rtol": 0.0},
        {"record_times": [3.0]},
        {"observables": ("nope",)},
        {"method": "rk4"},
    ],
)
def test_bad_arguments_raise_input_errors(kwargs: dict) -> None:
    arguments = {"t_final": 1.0} | kwargs
    with pytest.raises(InputError):
        integrate(_equiangular(0.0), **arguments)


def test_without_a_continuous_extension_dense_output_retakes_the_step() -> None:
    cfg = _equiangular(0.0)

    def flow(X: np.ndarray) -> np.ndarray:
        return model.token_velocity(cfg.moved_to(X))

    def retract(X: np.ndarray) -> np.ndarray:
        return X / np.linalg.norm(X, axis=1, keepdims=True)

    def stepped(tableau: Tableau, h: float) -> Stepper:
        stepper = Stepper(tableau, flow, retract, np.array(cfg.tokens))
        stepper.attempt(h)
        stepper.accept()
        return stepper

    half = stepped(METHODS["dp54"], 0.1).y_new
    assert np.array_equal(stepped(replace(METHODS["dp54"], dense=None), 0.2).dense(0.5), half)
    interpolated = stepped(METHODS["dp54"], 0.2).dense(0.5)
    assert 0 < np.max(np.abs(interpolated - half)) < 1e-6


def _linear_stepper(tableau: Tableau, rate: float) -> Stepper:
    """A stepper on y' = rate * y (one 1 x 1 token), no retraction."""
    return Stepper(tableau, lambda y: rate * y, lambda y: y, np.ones((1, 1)))


@pytest.mark.parametrize("method", list(METHODS))
def test_the_stability_boundary_is_where_a_step_stops_damping(method: str) -> None:
    """The boundary from the tableau's stability polynomial, against the factor of an actual step on y' = -y."""
    tableau = METHODS[method]
    r = tableau.stability_boundary

    def factor(h: float) -> float:
        stepper = _linear_stepper(tableau, -1.0)
        stepper.attempt(h)
        return abs(float(stepper.y_new[0, 0]))

    assert factor(0.5 * r) < 1 and factor(r * (1 - 1e-6)) <= 1 < factor(r * (1 + 1e-6))


@pytest.mark.parametrize("method", list(METHODS))
def test_the_stable_step_is_exact_on_a_linear_problem(method: str) -> None:
    stepper = _linear_stepper(METHODS[method], -4.0)
    stepper.attempt(0.1)
    stepper.accept()
    assert stepper.stable_step() == pytest.approx(METHODS[method].stability_boundary / 4.0, rel=1e-12)


@pytest.mark.parametrize("method", list(METHODS))
def test_a_run_into_an_equilibrium_converges_instead_of_hovering_at_the_tolerance(method: str) -> None:
    """Without the stability bound on the step the state chatters at about rtol and the speed never reaches 1e-12."""
    rng = np.random.default_rng(0)
    X = families.random_sphere_tokens(16, 3, rng)
    cfg = Configuration.create(X, families.random_symmetric_heads(2, 3, rng), beta=1.0, attention="softmax")
    traj = integrate(cfg, 1000.0, rtol=1e-8, method=method, events=(speed_below(1e-12),), observables=())
    assert traj.status == "event:speed<=1e-12" and traj.t_end < 200
