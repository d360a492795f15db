"""T25 in the linearized regime: the derived reductions match the model; wrong counting is not proved."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context, load_all
from headflow.checks.runner import run_claim
from headflow.checks.verdicts import Verdict
from headflow.identities import closed_forms as cf
from headflow.identities import linearized_clustering as lc
from headflow.identities.derivation import Derivation


@pytest.mark.parametrize("attention", ["softmax", "relu"])
@pytest.mark.parametrize("seed", range(4))
def test_derived_reduction_matches_the_model(attention: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, rho_value = int(rng.integers(2, 9)), float(rng.uniform(0.01, 0.9))
    lam_value, beta_value = float(rng.uniform(0.2, 2.0)), float(rng.uniform(0.2, 2.0))
    X = families.equiangular_tokens(n, n, rho_value, rng)
    cfg = Configuration.create(X, families.scalar_heads([lam_value], n), beta=beta_value, attention=attention)
    xdot = model.token_velocity(cfg)
    measured = 2 * float(xdot[0] @ cfg.tokens[1])
    reduction = (lc.softmax_reduction if attention == "softmax" else lc.relu_reduction)(Derivation())
    values = {lc.rho: rho_value, lc.n: n, lc.lam: lam_value, lc.beta: beta_value}
    assert measured == pytest.approx(float(reduction.subs(values)), rel=1e-10, abs=1e-13)


def test_wrong_counting_of_the_other_tokens_is_not_proved(monkeypatch) -> None:
    def miscounted(weight_self: sp.Expr, weight_other: sp.Expr) -> sp.Expr:
        return weight_other * (1 - lc.rho**2) + (lc.n - 1) * weight_other * (lc.rho - lc.rho**2)

    monkeypatch.setattr(lc, "pairing_with_other_token", miscounted)
    derivation = Derivation()
    lc.softmax_reduction(derivation)
    assert not derivation.proved


def test_linearized_readings_are_decided() -> None:
    registry = load_all()
    verdicts = {
        cid: run_claim(registry.get(cid), Context()).verdict
        for cid in ("T25.softmax-time.reading-c", "T25.softmax-time.reading-d", "T25.relu-time.reading-c")
    }
    assert verdicts == {
        "T25.softmax-time.reading-c": Verdict.PROVED,
        "T25.softmax-time.reading-d": Verdict.REFUTED,
        "T25.relu-time.reading-c": Verdict.PROVED,
    }


def test_early_and_late_rates_are_proved_and_wrong_constants_are_not() -> None:
    right_early, right_late, wrong_early, wrong_late = Derivation(), Derivation(), Derivation(), Derivation()
    lc.early_rate(right_early)
    lc.late_rate(right_late)
    lc.early_rate(wrong_early, claimed=-2 * cf.rate(lc.lam, lc.n, lc.beta))
    lc.late_rate(wrong_late, coefficient=sp.Integer(3))
    assert right_early.proved and right_late.proved
    assert not wrong_early.proved and not wrong_late.proved
