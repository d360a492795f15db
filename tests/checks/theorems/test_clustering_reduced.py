"""T25 on the exact reduced ODE: the closed forms and bounds match quadrature of 1/R, and wrong ones are not proved.

The reference times are computed here by mpmath quadrature of int d rho / R(rho) with R typed from
the issue's statement of the reduced ODEs (not from identities), plus the figures quoted in that
issue (relu: 35.9, 49.0, 51.1, 51.3 for n = 1e2, 1e3, 1e4, 1e6 at d = 1e4; softmax: 1.35, 2.34, 3.46,
4.61 for n = 10 .. 1e4), all at lambda = beta = 1, rho1 = 1/2.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp
from headflow.checks.registry import Context, load_all
from headflow.checks.runner import run_claim
from headflow.checks.theorems.t25_clustering_time import _refuted_by_finite_limit
from headflow.checks.verdicts import Verdict
from headflow.identities import linearized_clustering as lc
from headflow.identities import reduced_clustering as rc
from headflow.identities.derivation import Derivation

UNIT = {lc.lam: 1, lc.beta: 1, lc.rho1: sp.Rational(1, 2)}


def relu_quadrature(n: int, d: int) -> mpmath.mpf:
    return mpmath.quad(lambda r: n / (2 * r * (1 - r) * (1 + (n - 1) * r)), [1 / mpmath.sqrt(d), 0.5])


def softmax_quadrature(n: int) -> mpmath.mpf:
    return mpmath.quad(lambda r: (mpmath.exp(1 - r) + n - 1) / (2 * (1 - r) * (1 + (n - 1) * r)), [0, 0.5])


@pytest.mark.parametrize(("n", "quoted"), [(100, 35.9), (1000, 49.0), (10_000, 51.1), (10**6, 51.3)])
def test_relu_closed_form_time_matches_quadrature_and_the_quoted_figures(n: int, quoted: float) -> None:
    time = rc.relu_time(Derivation()).subs(UNIT | {lc.n: n, lc.d: 10_000})
    assert float(time) == pytest.approx(float(relu_quadrature(n, 10_000)), rel=1e-10)
    assert float(time) == pytest.approx(quoted, abs=0.06)  # the issue rounds 51.049 up to 51.1


def test_relu_time_limit_in_n_is_the_closed_form_limit() -> None:
    limit = rc.relu_large_n_limit(Derivation()).subs(UNIT | {lc.d: 10_000})
    assert float(limit) == pytest.approx(float(relu_quadrature(10**9, 10_000)), rel=1e-6)


@pytest.mark.parametrize(("n", "quoted"), [(10, 1.35), (100, 2.34), (1000, 3.46), (10_000, 4.61)])
def test_softmax_bounds_bracket_the_quadrature(n: int, quoted: float) -> None:
    lower, upper = rc.softmax_time_bounds(Derivation())
    values = UNIT | {lc.n: n}
    time = float(softmax_quadrature(n))
    assert float(lower.subs(values)) <= time <= float(upper.subs(values))
    assert time == pytest.approx(quoted, abs=0.01)


@pytest.mark.parametrize(
    "prover", [rc.relu_upper_bound, rc.relu_large_n_limit, rc.softmax_upper_bound, rc.softmax_log_growth]
)
def test_each_reduced_derivation_closes(prover) -> None:
    derivation = Derivation()
    prover(derivation)
    assert derivation.proved, derivation.failures


@pytest.mark.parametrize(
    ("reduction", "prover"),
    [("relu_reduction", rc.relu_upper_bound), ("softmax_reduction", rc.softmax_upper_bound)],
)
def test_a_wrong_reduced_ode_is_not_proved(monkeypatch, reduction: str, prover) -> None:
    """A rate off by a factor 2 (derived and checked, then doubled) breaks the antiderivative step."""
    original = getattr(lc, reduction)
    monkeypatch.setattr(lc, reduction, lambda derivation: 2 * original(derivation))
    derivation = Derivation()
    prover(derivation)
    assert not derivation.proved


def test_relu_first_order_time_is_negative_on_the_old_domain() -> None:
    """n = d = 4, lambda = beta = 1, rho1 = 1/4 <= d^(-1/2): the first-order formula gives -2 ln 2 < 0."""
    time = lc.relu_first_order(Derivation()).subs({lc.n: 4, lc.d: 4, lc.lam: 1, lc.beta: 1, lc.rho1: sp.Rational(1, 4)})
    assert sp.simplify(time + 2 * sp.log(2)) == 0


def test_relu_first_order_is_not_proved_on_the_old_domain_and_is_on_the_new() -> None:
    old, new = Derivation(), Derivation()
    lc.relu_first_order(old, target=lc.rho1)
    lc.relu_first_order(new)
    assert not old.proved and new.proved
    assert any("positive" in failure for failure in old.failures)


def test_reduced_readings_are_decided_and_state_their_domain() -> None:
    registry = load_all()
    expected = {
        "T25.softmax-time.reading-e": Verdict.PROVED,
        "T25.softmax-time.reading-f": Verdict.REFUTED,
        "T25.relu-time.reading-d": Verdict.PROVED,
        "T25.relu-time.reading-e": Verdict.REFUTED,
    }
    results = {cid: run_claim(registry.get(cid), Context()) for cid in expected}
    assert {cid: result.verdict for cid, result in results.items()} == expected
    assert "d^(-1/2) < rho1 < 1" in registry.get("T25.relu-time.reading-c").statement
    findings = " ".join(outcome.finding for r in results.values() for _, outcome in r.outcomes)
    assert "ln n" in findings and "sqrt(d)" in findings


def test_a_theta_reading_is_not_refuted_by_an_infinite_or_unproved_limit() -> None:
    """The refutation needs a proved, finite limit of T over the slower growth; otherwise it is not a witness."""

    def closed() -> Derivation:
        derivation = Derivation()
        derivation.zero("a step that closes", sp.Integer(0), "0 = 0")
        return derivation

    assert closed().proved and not Derivation().proved
    assert _refuted_by_finite_limit(Derivation(), sp.Rational(1, 2), "", {}, "T/n", "").verdict is not Verdict.REFUTED
    assert _refuted_by_finite_limit(closed(), sp.oo, "", {}, "T/n", "").verdict is Verdict.INCONCLUSIVE
    finite = _refuted_by_finite_limit(closed(), sp.Rational(1, 2), "", {}, "T/n", "")
    assert finite.verdict is Verdict.REFUTED and finite.witness["T/n"] == "0"
