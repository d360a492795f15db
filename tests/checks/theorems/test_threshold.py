"""Theorem 19 constants: proofs, wrong variants, closed forms against direct root-finding."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import mpmath
import pytest
import sympy as sp
from headflow.checks.verdicts import Verdict
from headflow.identities import closed_forms as cf
from headflow.identities.scalar_regime import (
    H,
    m,
    prove_c_star,
    prove_golden,
    prove_lambda_c_equation,
    prove_lambda_max,
)
from scipy.optimize import brentq, minimize_scalar

if TYPE_CHECKING:
    from headflow.checks.reports.report import Report


def test_proofs_go_through() -> None:
    for prover in (prove_c_star, prove_golden, prove_lambda_max, prove_lambda_c_equation):
        derivation = prover()
        assert derivation.proved, derivation.failures


@pytest.mark.parametrize(
    "wrong",
    [
        (sp.sqrt((H - 1) ** 2 + 4) + (H - 1)) / 2,  # sign
        (sp.sqrt((H - 1) ** 2 + 2) - (H - 1)) / 2,  # coefficient
        (sp.sqrt((H - 1) ** 2 + 4) - (H - 1)) / 3,
    ],
)
def test_wrong_c_star_formulas_are_not_proved(wrong: sp.Expr) -> None:
    assert not prove_c_star(wrong).proved


@pytest.mark.parametrize("wrong", [cf.golden, 1 / cf.golden**2, 2 / cf.golden, sp.Rational(618, 1000)])
def test_wrong_golden_values_are_not_proved(wrong: sp.Expr) -> None:
    assert not prove_golden(wrong).proved


@pytest.mark.parametrize(
    "wrong",
    [(2 + sp.LambertW(m / sp.E)) / cf.beta, (1 + sp.LambertW(m)) / cf.beta, (1 + sp.LambertW(m / sp.E)) / cf.beta**2],
)
def test_wrong_lambda_max_formulas_are_not_proved(wrong: sp.Expr) -> None:
    assert not prove_lambda_max(wrong).proved


@pytest.mark.parametrize("heads", [1, 2, 3, 5, 8, 2.5, 17.25])
def test_c_star_matches_root_finding(heads: float) -> None:
    root = brentq(lambda c: c * c + (heads - 1) * c - 1, 0.0, 1.0 + 1e-12, xtol=1e-15)
    assert float(cf.c_star(sp.nsimplify(heads))) == pytest.approx(root, abs=1e-12)


def test_golden_value() -> None:
    assert float(cf.c_star(2)) == pytest.approx(2 / (1 + math.sqrt(5)), abs=1e-15)


@pytest.mark.parametrize(("tokens", "inverse_temperature"), [(2, 1.0), (5, 0.5), (50, 2.0), (1000, 0.1)])
def test_lambda_max_matches_root_finding_and_maximisation(tokens: int, inverse_temperature: float) -> None:
    closed = float(cf.lambda_max(sp.Integer(tokens), sp.nsimplify(inverse_temperature)))
    u_root = brentq(lambda u: (u - 1) * math.exp(u) - (tokens - 1), 0.0, 50.0, xtol=1e-14)
    assert closed == pytest.approx(u_root / inverse_temperature, rel=1e-10)
    phi = sp.lambdify(cf.lam, cf.rate(cf.lam, tokens, inverse_temperature))
    best = minimize_scalar(
        lambda lam: -phi(lam), bounds=(1e-9, 60 / inverse_temperature), method="bounded", options={"xatol": 1e-10}
    )
    assert best.x == pytest.approx(closed, rel=1e-5)


@pytest.mark.parametrize(("tokens", "inverse_temperature"), [(2, 1.0), (7, 0.5), (100, 3.0)])
def test_lambda_c_equation_matches_the_zero_of_phi_second_derivative(tokens: int, inverse_temperature: float) -> None:
    equation = sp.lambdify(cf.u, cf.lambda_c_equation(cf.u, tokens))
    u_c = brentq(equation, 2.0, 60.0, xtol=1e-14)
    assert u_c > 2.0

    def phi(lam: mpmath.mpf) -> mpmath.mpf:
        return 2 * lam / (mpmath.exp(lam * inverse_temperature) + tokens - 1)

    mpmath.mp.dps = 30
    inflection = mpmath.findroot(lambda lam: mpmath.diff(phi, lam, 2), u_c / inverse_temperature)
    assert float(inflection) == pytest.approx(u_c / inverse_temperature, rel=1e-9)


def test_lambert_w_readings(whole_paper: Report) -> None:
    """The first procedure of each claim, as the session's `headflow verify` (quick profile, seed 0) ran it."""
    verdicts = {}
    for claim_id in ("T19.lambert-w", "T19.lambert-w.reading-a", "T19.lambert-w.reading-b", "T19.c-star", "T19.golden"):
        first = whole_paper.claim(claim_id).procedures[0]
        verdicts[claim_id] = Verdict(first["verdict"])
        if verdicts[claim_id] is Verdict.REFUTED:
            assert first["witness"]["verified_by"] == "exact"
    assert verdicts["T19.lambert-w.reading-a"] is Verdict.REFUTED
    assert {verdicts[c] for c in ("T19.lambert-w", "T19.lambert-w.reading-b", "T19.c-star", "T19.golden")} == {
        Verdict.PROVED
    }


def test_monotonicity_regime_is_proved_and_the_numeric_check_sees_condition8_fail() -> None:
    """Per-head monotonicity with equal scalar heads holds for every beta, while Condition 8 fails at large beta."""
    from headflow.checks.registry import Context, load_all
    from headflow.checks.runner import run_claim

    result = run_claim(load_all().get("T19.monotonicity-regime"), Context())
    outcomes = dict(result.outcomes)
    assert result.verdict is Verdict.PROVED
    assert outcomes["numeric"].verdict is Verdict.CONFIRMED
    assert outcomes["numeric"].details["cases with a negative Condition 8 margin"] > 0
    assert "Condition 8" in outcomes["numeric"].finding


def test_the_numeric_margin_fails_outside_the_regime() -> None:
    """The margin of the numeric check can fail: general symmetric heads break per-head monotonicity (T17)."""
    import numpy as np
    from headflow.checks.evidence.equal_heads import head_monotonicity_margin
    from headflow.checks.model import families
    from headflow.checks.model.configuration import Configuration

    rng = np.random.default_rng(3)
    margins = [
        head_monotonicity_margin(
            Configuration.create(
                families.random_sphere_tokens(4, 3, rng), families.random_symmetric_heads(2, 3, rng, 3.0), beta=2.0
            )
        )
        for _ in range(100)
    ]
    assert min(margins) < 0
