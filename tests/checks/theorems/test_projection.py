"""Projection identities: proved in general; wrong variants are not proved; numerically consistent."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from headflow.checks.model import field as model
from headflow.checks.registry import Context, load_all
from headflow.checks.verdicts import Verdict, derived
from headflow.identities.projection import PU, PW, SPACE, U, W, X, prove_self_pairing, prove_symmetry, prove_tangency


def test_the_three_identities_are_proved() -> None:
    for prover in (prove_self_pairing, prove_symmetry, prove_tangency):
        derivation = prover()
        assert derivation.proved, derivation.failures
        assert derived(derivation, "m").verdict is Verdict.PROVED


@pytest.mark.parametrize(
    "wrong",
    [
        2 * SPACE.norm2(PU),  # coefficient
        SPACE.norm2(U),  # the unprojected norm
        SPACE.norm2(PU) ** 2,  # power
    ],
)
def test_wrong_self_pairing_is_not_proved(wrong: sp.Expr) -> None:
    derivation = prove_self_pairing(wrong)
    assert not derivation.proved
    assert derived(derivation, "m").verdict is Verdict.INCONCLUSIVE


@pytest.mark.parametrize("wrong", [SPACE.inner(PU, PW) * 2, -SPACE.inner(U, PW), SPACE.inner(U, W)])
def test_wrong_symmetry_is_not_proved(wrong: sp.Expr) -> None:
    assert not prove_symmetry(wrong).proved


def test_wrong_tangency_and_idempotence_are_not_proved() -> None:
    assert not prove_tangency(pairing_rhs=SPACE.inner(U, X)).proved
    assert not prove_tangency(projection_rhs=U).proved
    assert not prove_tangency(projection_rhs=PU.scaled(2)).proved


def test_the_registry_reports_proved_with_steps() -> None:
    registry = load_all()
    for claim_id in ("projection.self-pairing", "projection.symmetry", "projection.tangency"):
        claim = registry.get(claim_id)
        outcomes = [procedure(Context(claim_id=claim_id)) for name, procedure in claim.procedures if name == "symbolic"]
        assert outcomes and outcomes[0].verdict is Verdict.PROVED and outcomes[0].steps


def test_identities_hold_numerically_in_the_model() -> None:
    rng = np.random.default_rng(3)
    for d in (1, 3, 8, 40):
        x = rng.standard_normal((5, d))
        x /= np.linalg.norm(x, axis=1, keepdims=True)
        u, w = rng.standard_normal((5, d)), rng.standard_normal((5, d))
        pu, pw = model.project(x, u), model.project(x, w)
        np.testing.assert_allclose(np.sum(pu * u, axis=1), np.sum(pu * pu, axis=1), atol=1e-12)
        np.testing.assert_allclose(np.sum(pu * w, axis=1), np.sum(u * pw, axis=1), atol=1e-12)
        np.testing.assert_allclose(np.sum(pu * x, axis=1), 0.0, atol=1e-12)
        np.testing.assert_allclose(model.project(x, pu), pu, atol=1e-12)
