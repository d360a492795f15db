"""The dynamics claims: each confirmed as stated, and a deliberately wrong variant not confirmed."""

from __future__ import annotations

import math

import numpy as np
import pytest
from headflow.checks.evidence import clustering_rates as rates
from headflow.checks.evidence import clustering_times as times
from headflow.checks.evidence import energy_bounds as robustness
from headflow.checks.evidence import energy_rates as trajectories
from headflow.checks.evidence import entropy_rates, entropy_witnesses
from headflow.checks.evidence.fits import power_law
from headflow.checks.model import field as model
from headflow.checks.registry import Context, load_all
from headflow.checks.runner import run_claim
from headflow.checks.verdicts import Verdict


def _ctx(claim: str = "test") -> Context:
    return Context("quick", 0, None, None, claim)


@pytest.mark.parametrize("geometry", ["sphere", "flat"])
def test_energy_along_trajectories(geometry: str) -> None:
    assert trajectories.check_energy_trajectories(_ctx(), geometry).verdict is Verdict.CONFIRMED
    assert trajectories.check_energy_trajectories(_ctx(), geometry, coefficient=2.0).verdict is not Verdict.CONFIRMED


def test_flat_orthogonal_per_head_rate() -> None:
    assert trajectories.check_flat_orthogonal(_ctx()).verdict is Verdict.CONFIRMED
    assert trajectories.check_flat_orthogonal(_ctx(), coefficient=1.5).verdict is not Verdict.CONFIRMED


def test_value_misalignment_bound() -> None:
    assert robustness.check_value_misalignment(_ctx()).verdict is Verdict.CONFIRMED
    # Without the misalignment correction the bound claims dE/dt >= (1/n) sum |xdot|^2: false.
    assert robustness.check_value_misalignment(_ctx(), delta_factor=0.0).verdict is not Verdict.CONFIRMED


def test_approximate_orthogonality_bound() -> None:
    assert robustness.check_approximate_orthogonality(_ctx()).verdict is Verdict.CONFIRMED
    wrong = robustness.check_approximate_orthogonality(_ctx(), delta_factor=0.0)
    assert wrong.verdict is not Verdict.CONFIRMED


def test_early_rate_against_phi() -> None:
    assert rates.check_early_rate(_ctx()).verdict is Verdict.CONFIRMED
    assert rates.check_early_rate(_ctx(), coefficient=2.0).verdict is not Verdict.CONFIRMED


def test_late_rate_against_two_lambda() -> None:
    outcome = rates.check_late_rate(_ctx())
    assert outcome.verdict is Verdict.CONFIRMED
    assert all(f["error"] < 1e-3 * f["fitted"] for f in outcome.details["fits"])
    assert rates.check_late_rate(_ctx(), multiple=2.001).verdict is not Verdict.CONFIRMED
    assert rates.check_late_rate(_ctx(), multiple=3.0).verdict is not Verdict.CONFIRMED


@pytest.mark.slow
def test_entropy_monotone_and_limit() -> None:
    assert entropy_rates.check_monotone_along_trajectories(_ctx()).verdict is Verdict.CONFIRMED
    assert entropy_rates.check_monotone_along_trajectories(_ctx(), sign=-1.0).verdict is not Verdict.CONFIRMED
    assert entropy_rates.check_limit(_ctx()).verdict is Verdict.CONFIRMED
    assert entropy_rates.check_limit(_ctx(), limit=lambda n: math.log(n - 1)).verdict is not Verdict.CONFIRMED


@pytest.mark.slow
def test_entropy_limit_for_symmetric_heads() -> None:
    assert entropy_rates.check_limit_general(_ctx()).verdict is Verdict.CONFIRMED
    assert entropy_rates.check_limit_general(_ctx(), limit=lambda n: 0.5 * math.log(n)).verdict is not Verdict.CONFIRMED


@pytest.mark.slow
def test_broader_entropy_reading_candidate_really_decreases() -> None:
    search = entropy_witnesses.search_monotone_general(_ctx(), "scalar")
    assert search.worst < 0 and search.candidates
    cfg = search.candidates[0][1]
    # Independent of the chain rule: a central difference of the entropies along the flow.
    h = 1e-5
    moved = [cfg.moved_to(_retract(cfg.tokens + s * h * model.token_velocity(cfg))) for s in (-1, 1)]
    difference = (model.attention_entropies(moved[1]) - model.attention_entropies(moved[0])) / (2 * h)
    assert difference.min() < -1e-3


def _retract(X: np.ndarray) -> np.ndarray:
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def test_exponent_verdict_on_synthetic_scaling_data() -> None:
    rng = np.random.default_rng(0)
    n = np.repeat([8.0, 16.0, 32.0, 64.0], 6)
    d = np.tile([4.0, 16.0, 64.0], 8)
    T = 3.0 * n * np.log(d) * np.exp(rng.normal(0, 0.02, n.size))
    fit = power_law(T, n, np.log(d))
    assert times.exponent_verdict(fit, (1.0, 1.0), "tight", "m").verdict is Verdict.CONFIRMED
    assert times.exponent_verdict(fit, (2.0, 1.0), "upper", "m").verdict is Verdict.CONFIRMED
    assert times.exponent_verdict(fit, (2.0, 1.0), "tight", "m").verdict is not Verdict.CONFIRMED
    assert times.exponent_verdict(fit, (0.5, 1.0), "upper", "m").verdict is not Verdict.CONFIRMED


def test_clustering_time_wrong_exponents_are_not_confirmed() -> None:
    for kind in ("softmax", "relu"):
        for reading in ("upper", "tight"):
            outcome = times.check_clustering_time(_ctx(), kind, (reading,), claimed=(-1.0, 0.0))
            assert outcome.verdict is not Verdict.CONFIRMED


@pytest.mark.slow
def test_every_dynamics_claim_is_decided_with_evidence() -> None:
    registry = load_all()
    for claim_id in (
        "T11.energy-rate.spherical",
        "T12.value-misalignment",
        "T16.flat-orthogonal",
        "T22.early-rate",
        "T25.softmax-time.reading-a",
        "T27.entropy-monotone.reading-c",
        "T39.approximate-orthogonality",
    ):
        result = run_claim(registry.get(claim_id), _ctx())
        assert not result.crashed, claim_id
        numerical = [outcome for name, outcome in result.outcomes if name != "symbolic"]
        assert numerical, claim_id
        for outcome in numerical:
            assert outcome.cases, claim_id
