"""C8.invariance and its exit gap: the counted margin and the reduced rate against the numpy model, the derivation,
the certified brackets, the witness certificate, and the mutants (wrong statements must not come out true)."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from headflow.certificates.provers import exit_gap
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import REGISTRY, Context, load_all
from headflow.checks.verdicts import Verdict
from headflow.identities import condition8_invariance as ci
from headflow.identities.derivation import Derivation
from scipy.optimize import brentq

from tests.checking import verify_file
from tests.checks.theorems import invariance_mutants

CASES = [(2, 3, 1.0, 0.05, 0.0), (2, 3, 1.0, 0.05, 0.3), (3, 5, 0.7, 0.4, -0.2), (4, 6, 1.3, 0.2, 0.8)]


def _equiangular(heads: int, tokens: int, scale: float, beta: float, rho: float) -> Configuration:
    return Configuration.create(
        families.equiangular_tokens(tokens, tokens, rho), families.scalar_heads([scale] * heads, tokens), beta=beta
    )


@pytest.mark.parametrize(("heads", "tokens", "scale", "beta", "rho"), CASES)
def test_the_counted_margin_is_the_models(heads: int, tokens: int, scale: float, beta: float, rho: float) -> None:
    env = {ci.H: heads, ci.n: tokens, ci.alpha: scale, ci.beta: beta, ci.rho: rho}
    counted = float(ci.trajectory_margin().subs(env))
    margins = model.condition8_margins(_equiangular(heads, tokens, scale, beta, rho))
    assert np.allclose(margins, counted, rtol=1e-10, atol=1e-12)
    h = float(ci.exit_function().subs({ci.H: heads, ci.n: tokens, ci.kappa: scale * beta, ci.rho: rho}))
    assert math.isclose(counted, scale**2 * math.exp(2 * scale * beta * rho) * h, rel_tol=1e-10, abs_tol=1e-12)


@pytest.mark.parametrize(("heads", "tokens", "scale", "beta", "rho"), CASES)
def test_the_reduced_rate_is_the_models(heads: int, tokens: int, scale: float, beta: float, rho: float) -> None:
    cfg = _equiangular(heads, tokens, scale, beta, rho)
    velocity = model.token_velocity(cfg)
    measured = 2 * float(velocity[0] @ cfg.tokens[1])
    rate = ci.trajectory_rate(Derivation()).subs({ci.H: heads, ci.n: tokens, ci.alpha: scale, ci.beta: beta})
    assert math.isclose(measured, float(rate.subs(ci.rho, rho)), rel_tol=1e-10, abs_tol=1e-12)


def test_the_exit_derivation_closes_for_symbolic_parameters() -> None:
    derivation = Derivation()
    gap = ci.prove_exit_gap(derivation)
    assert derivation.proved, derivation.failures
    assert gap.free_symbols == {ci.H, ci.n, ci.kappa, ci.eps}


@pytest.mark.parametrize(("heads", "tokens", "strength"), [(2, 3, Fraction(53, 1000)), (3, 10, Fraction(1, 5))])
def test_the_bracket_holds_the_float_root(heads: int, tokens: int, strength: Fraction) -> None:
    h = sp.lambdify(ci.rho, ci.exit_function().subs({ci.H: heads, ci.n: tokens, ci.kappa: strength}))
    root = brentq(h, 0.0, 1.0, xtol=1e-15)
    bracket = exit_gap.bracket(heads, tokens, strength, 60)
    assert bracket.lo < Fraction(root) + Fraction(1, 10**12) and Fraction(root) - Fraction(1, 10**12) < bracket.hi
    assert float(bracket.hi - bracket.lo) < 1e-15
    assert 1 - root > float(ci.exit_lower_bound(heads, tokens))


def test_no_exit_when_condition8_fails_at_the_start_or_with_one_head() -> None:
    with pytest.raises(exit_gap.NoExit):
        exit_gap.bracket(2, 3, Fraction(1), 60)  # exp(2) > (n - 1)/(H - 1) = 2
    with pytest.raises(exit_gap.NoExit):
        exit_gap.bracket(1, 3, Fraction(1, 10), 60)


def _run(claim_id: str, procedure: str, tmp_path: Path) -> object:
    load_all()
    function = dict(REGISTRY.get(claim_id).procedures)[procedure]
    return function(Context(certificate_dir=tmp_path, claim_id=claim_id))


def test_invariance_is_refuted_by_a_certificate_that_rechecks(tmp_path: Path) -> None:
    outcome = _run("C8.invariance", "witness", tmp_path)
    assert outcome.verdict is Verdict.REFUTED
    assert outcome.witness["verified_by"] == "ball"
    ok, reason = verify_file(Path(outcome.certificates[0]))
    assert ok, reason
    rho = Fraction(outcome.witness["rho"])
    beta = Fraction(outcome.witness["beta"])
    margin = model.condition8_margins(_equiangular(2, 3, 1.0, float(beta), float(rho)))
    assert np.all(margin < 0)  # the model agrees with the certificate at the witness


def test_exit_brackets_are_certified_and_the_model_exits_there(tmp_path: Path) -> None:
    outcome = _run("C8.invariance.exit-gap", "witness", tmp_path)
    assert outcome.verdict is Verdict.CERTIFIED
    for path in outcome.certificates:
        ok, reason = verify_file(Path(path))
        assert ok, reason
    beta = Fraction(outcome.details["exit gaps"][0]["beta"])
    found = _run_model(float(beta))
    certified = float(exit_gap.bracket(2, 3, beta, 56).gap().mid())
    assert math.isclose(found, certified, abs_tol=1e-6)


def _run_model(beta: float) -> float:
    from headflow.checks.evidence.condition8_exits import regime_exit

    return regime_exit(2, 3, 1.0, beta).cluster_gap


@pytest.mark.parametrize("mutant", invariance_mutants.mutants(), ids=lambda m: m.id)
def test_mutants(mutant: object, tmp_path: Path) -> None:
    outcome = mutant.decide(Context(certificate_dir=tmp_path, claim_id=mutant.claim))
    if mutant.true:
        assert outcome.verdict is not Verdict.REFUTED
        if mutant.accept:
            assert outcome.verdict in (Verdict.PROVED, Verdict.CERTIFIED), outcome.notes
    else:
        assert outcome.verdict in (Verdict.REFUTED, Verdict.INCONCLUSIVE), mutant.id
