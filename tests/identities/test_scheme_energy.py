"""The energy of the directions under the normalization schemes: the derivation closes for each scheme where the
statement holds, and fails for a wrong speed or several softmax heads (a deliberately wrong statement does not
prove). The float model agrees: dE/dt equals sum_k c_k sigma_k |P⊥ v_k|^2 at random states."""

from __future__ import annotations

import numpy as np
import pytest
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.model.observables import EVALUATORS
from headflow.identities import scheme_energy
from headflow.identities.derivation import Derivation


@pytest.mark.parametrize("geometry", list(scheme_energy.SPEEDS))
def test_the_energy_rate_is_a_sum_of_non_negative_terms(geometry: str) -> None:
    derivation = Derivation()
    scheme_energy.energy_rate(derivation, geometry, "usa", 3, "positive")
    assert derivation.proved, derivation.failures


def test_a_wrong_speed_or_several_softmax_heads_does_not_prove() -> None:
    wrong = Derivation()
    scheme_energy.direction_motion(wrong, "ngpt", factor=2)
    assert wrong.failures
    heads = Derivation()
    scheme_energy.energy_rate(heads, "peri-ln", "softmax", 2, "positive")
    assert heads.failures and "softmax" in heads.failures[0]


@pytest.mark.parametrize("geometry", list(scheme_energy.SPEEDS))
def test_the_float_energy_rate_is_the_derived_sum(geometry: str) -> None:
    """usa, symmetric heads: dE/dt = (1/n) sum_k sigma_k |P⊥_{y_k} v_k(Y)|^2 with the scheme's sigma_k, off the
    sphere (|x_k| != 1) where the scheme lets the norms move."""
    rng = np.random.default_rng(len(geometry))
    n, d = 5, 3
    X = rng.normal(size=(n, d))
    if geometry == "ngpt":
        X /= np.linalg.norm(X, axis=1, keepdims=True)
    A = rng.normal(size=(2, d, d))
    M = (A + A.transpose(0, 2, 1)) / 2
    cfg = Configuration.create(X, M, beta=1.0, geometry=geometry)
    Y = X / np.linalg.norm(X, axis=1, keepdims=True)
    post = Configuration.create(Y, M, beta=1.0)
    v = model.token_velocity(Configuration.create(Y, M, beta=1.0, geometry="flat"))  # v_k(Y), unprojected
    tangent = model.token_velocity(post)  # P⊥_{y_k} v_k(Y)
    r, speed = np.linalg.norm(X, axis=1), np.linalg.norm(v, axis=1)
    sigma = {"pre-ln": 1 / r, "mix-ln": 1 / r, "peri-ln": 1 / (r * speed), "ngpt": 1 / speed}[geometry]
    expected = float(np.sum(sigma * np.sum(tangent**2, axis=1)) / n)
    assert EVALUATORS["energy_rate"](cfg) == pytest.approx(expected, rel=1e-9)
    assert np.allclose(model.direction_velocity(cfg), sigma[:, None] * tangent, rtol=1e-9, atol=1e-12)
