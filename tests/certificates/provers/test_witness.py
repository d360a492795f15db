"""Certified witnesses: the ball model against checks.model.field, exact rounding, and no rounding-noise witness."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from headflow.certificates import model_balls
from headflow.certificates.kernel import ball_model
from headflow.certificates.provers.model_witness import certify_model_witness
from headflow.certificates.provers.witness import rational_unit_vector, round_configuration
from headflow.certificates.statements.registry import ConfigurationObligation
from headflow.checks.evidence import energy_witnesses as witness_claims
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context, load_all
from headflow.checks.runner import run_claim
from headflow.checks.verdicts import Verdict


def _rational_matrix(rng: np.random.Generator, d: int, symmetric: bool) -> list[list[Fraction]]:
    A = [[Fraction(int(rng.integers(-8, 9)), 4) for _ in range(d)] for _ in range(d)]
    return [[A[min(i, j)][max(i, j)] for j in range(d)] for i in range(d)] if symmetric else A


@pytest.mark.parametrize(
    ("geometry", "symmetric", "aligned"),
    [("sphere", True, True), ("sphere", False, True), ("sphere", True, False), ("flat", True, True)],
)
def test_ball_model_agrees_with_the_numpy_model(geometry: str, symmetric: bool, aligned: bool) -> None:
    rng = np.random.default_rng(7)
    n, d, H = 4, 3, 2
    tokens = families.rational_sphere_tokens(n, d, rng)
    scores = [_rational_matrix(rng, d, symmetric) for _ in range(H)]
    values = scores if aligned else [_rational_matrix(rng, d, True) for _ in range(H)]
    exact = ball_model.ExactConfiguration(tokens, scores, values, Fraction(3, 4), geometry)
    balls = model_balls.head_energy_rates(exact)
    cfg = Configuration.create(
        families.rational_to_float(tokens),
        np.array([families.rational_to_float(M) for M in scores]),
        np.array([families.rational_to_float(W) for W in values]),
        beta=0.75,
        geometry=geometry,
    )
    floats = model.head_energy_rates(cfg)
    for ball, value in zip(balls, floats, strict=True):
        assert abs(float(ball.mid()) - value) <= 1e-10 * (1 + abs(value))
        assert float(ball.rad()) < 1e-8


def test_rational_unit_vectors_are_exact_and_close() -> None:
    rng = np.random.default_rng(3)
    for x in [*families.random_sphere_tokens(20, 4, rng), np.array([0.0, 0.0, 1.0]), np.array([0.0, 0.0, -1.0])]:
        r = rational_unit_vector(x, 2**12)
        assert sum(v * v for v in r) == 1
        assert np.max(np.abs(np.array([float(v) for v in r]) - x)) < 1e-3


def test_rounding_keeps_orthogonal_symmetric_aligned_heads_exact() -> None:
    rng = np.random.default_rng(5)
    M = families.orthogonal_subspace_heads(3, 6, rng)
    X = families.random_sphere_tokens(4, 6, rng)
    exact = round_configuration(X, M, M, 0.8)
    hypotheses = ("unit-tokens", "symmetric-scores", "aligned-values", "orthogonal-heads")
    assert ball_model.hypothesis_failures(exact, hypotheses) == []


def test_rounding_noise_is_not_a_witness(tmp_path: Path) -> None:
    """Equal tokens and scalar heads: f^h_i is parallel to x_i, so xdot = 0 and dE_h/dt = 0 exactly."""
    x = [Fraction(3, 5), Fraction(4, 5)]
    heads = [
        [[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]],
        [[Fraction(2), Fraction(0)], [Fraction(0), Fraction(2)]],
    ]
    exact = ball_model.ExactConfiguration([x, x, x], heads, heads, Fraction(1, 2))
    for head in (0, 1):
        statement = ConfigurationObligation("usa", "sphere", ("unit-tokens",), "head_energy_rate", "").model("t.noise")
        result = certify_model_witness(statement, exact, {"h": head}, tmp_path, None)
        assert not result.verified and result.path is None
    assert not list(tmp_path.iterdir())


def test_float_noise_candidates_are_not_certified(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under Theorem 11's hypotheses dE/dt >= 0; float noise that makes candidates look negative must not win."""
    real = model.head_energy_rates

    def noisy(cfg: Configuration) -> np.ndarray:
        rates = real(cfg)
        return rates - 1.01 * np.abs(rates).sum() / len(rates)

    monkeypatch.setattr(witness_claims.model, "head_energy_rates", noisy)
    search = witness_claims.Search(
        "random-symmetric", ("unit-tokens", "symmetric-scores", "aligned-values"), "energy_rate", scale=1.0
    )
    outcome = witness_claims.find_witness(Context("quick", 0, tmp_path, claim_id="x"), "T11.hypotheses", search)
    assert outcome.verdict is Verdict.INCONCLUSIVE and "none verified" in outcome.notes
    assert not outcome.notes.startswith("0 "), outcome.notes  # there were float candidates, and all were rejected


@pytest.mark.parametrize(
    "claim_id",
    ["T17.shadow-obstruction", "T11.hypotheses.no-symmetry", "T11.hypotheses.no-alignment", "T11.hypotheses"],
)
def test_existential_claims_are_certified_by_witnesses(tmp_path: Path, claim_id: str) -> None:
    result = run_claim(load_all().get(claim_id), Context("quick", 0, tmp_path))
    assert result.verdict is Verdict.CERTIFIED, result.outcomes
    assert result.certificates and all(Path(p).exists() for p in result.certificates)
