"""Entropy production identity (T27): proof, wrong variants, agreement with the model."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
import sympy as sp
from headflow.checks.evidence.entropy_rates import covariance_rates
from headflow.checks.evidence.sampling import random_configuration
from headflow.checks.model import field as model
from headflow.identities.entropy import beta, prove_entropy_identity, to_moments, weight


def test_entropy_identity_is_proved() -> None:
    derivation = prove_entropy_identity()
    assert derivation.proved, derivation.failures


@pytest.mark.parametrize(
    "wrong",
    [
        lambda cov: -beta * cov,
        lambda cov: beta**2 * cov,
        lambda cov: -2 * beta**2 * cov,
        lambda cov: -(beta**2) * cov**2,
    ],
)
def test_wrong_entropy_identities_are_not_proved(wrong: Callable[..., sp.Expr]) -> None:
    assert not prove_entropy_identity(wrong).proved


def test_moment_reduction_refuses_non_linear_summands() -> None:
    assert to_moments(weight**2) is None


def test_identity_agrees_with_the_model() -> None:
    rng = np.random.default_rng(2)
    for case in range(30):
        cfg = random_configuration(rng, attention=("usa", "softmax", "relu")[case % 3], heads="general")
        np.testing.assert_allclose(covariance_rates(cfg), model.entropy_rates(cfg), rtol=1e-7, atol=1e-10)


def test_a_wrong_power_of_beta_disagrees_with_the_model() -> None:
    rng = np.random.default_rng(4)
    cfg = random_configuration(rng, attention="softmax", heads="general", beta_range=(1.5, 2.0))
    assert not np.allclose(covariance_rates(cfg) / cfg.beta, model.entropy_rates(cfg), rtol=1e-6)
