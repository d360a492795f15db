"""The prover of trajectory certificates: its rounding up is an upper bound, and its counted budget stops a chain
with the reason (never a timed stop)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from flint import arb
from headflow.certificates.kernel import trajectory
from headflow.certificates.provers.validated import replayable
from headflow.certificates.provers.validated.replayable import _dyadic_up, build_chain

from tests.certificates.kernel.test_trajectory import statement


@pytest.mark.parametrize("ball", [arb(1) / 3, arb("2.5e-30"), arb("123456789.123"), arb(0, "1e-40"), arb(-2)], ids=str)
def test_rounding_up_is_an_upper_bound_with_a_short_dyadic(ball: arb) -> None:
    up = _dyadic_up(ball)
    exact = arb(up.numerator) / up.denominator
    assert up >= 0 and exact >= ball.upper()
    assert up.denominator & (up.denominator - 1) == 0  # a power of two
    assert up == 0 or exact <= ball.upper() * (1 + arb(2) ** -40)  # 48 significant bits: hardly more


def test_a_chain_stops_at_its_step_budget_with_the_reason() -> None:
    parsed = trajectory.statement_of(statement(">=", "0"), "demo")
    chain = build_chain(parsed, parsed.time, 3)
    assert len(chain.steps) == 3 and chain.stopped.startswith("the budget of 3 steps ended at t = ")
    assert chain.t < parsed.time


def test_a_chain_whose_pace_cannot_reach_its_horizon_stops_early_and_is_not_built_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """T = 1000 with 300 steps: after PACE_STEPS steps the pace says twice the budget would not reach T, so the
    chain stops there (counted, as the budget is), and no tighter tolerance (more steps) is tried."""
    tolerances: list[Fraction] = []
    chaining = replayable._chain
    monkeypatch.setattr(replayable, "_chain", lambda *args: tolerances.append(args[-1]) or chaining(*args))
    parsed = trajectory.statement_of(statement(">=", "0", time="1000"), "demo")
    chain = build_chain(parsed, parsed.time, 300)
    assert len(chain.steps) == replayable.PACE_STEPS and chain.out_of_steps and "a pace that needs" in chain.stopped
    assert tolerances == [replayable.TOLERANCES[0]]


def test_a_sometime_chain_that_never_shows_its_bound_stops_with_the_reason() -> None:
    """The least inner product (0 at t = 0, rising) is never below -1/10 on [0, 1/4]: no certificate to write."""
    parsed = trajectory.statement_of(statement("<", "-1/10", when="sometime"), "demo")
    chain = build_chain(parsed, parsed.time, 200)
    assert chain.t >= parsed.time and chain.stopped == "no step end up to t = 0.25 shows the bound"


def test_a_sometime_bound_the_start_shows_needs_one_step() -> None:
    """The largest inner product is 4/5 > 1/2 at t = 0: one step, which the kernel needs, and no more."""
    parsed = trajectory.statement_of(statement(">", "1/2", when="sometime", over="largest"), "demo")
    chain = build_chain(parsed, parsed.time, 200)
    assert not chain.stopped and len(chain.steps) == 1


def test_a_chain_the_looser_tolerance_leaves_short_is_built_again_with_the_tighter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """'The least inner product passes v - 1e-10 at some t <= 1/4', v its value at 1/4 (an independent float
    integration, scipy, error ~1e-13; the least inner product rises, so only the end can show it): the looser
    tolerance's end radius (~3e-9) cannot show it, the tighter one's (~1e-12) does."""
    import numpy as np
    from scipy.integrate import solve_ivp

    def field(_t: float, z: np.ndarray) -> np.ndarray:
        X = z.reshape(3, 2)
        V = np.exp(X @ X.T) @ X / 3
        return (V - (V * X).sum(1, keepdims=True) * X).ravel()

    start = np.array([[1, 0], [0.6, 0.8], [0, 1]], dtype=float).ravel()
    X = solve_ivp(field, (0, 0.25), start, rtol=1e-13, atol=1e-15).y[:, -1].reshape(3, 2)
    least = min(float(X[i] @ X[j]) for i in range(3) for j in range(i + 1, 3))
    data = statement(">", str(Fraction(least - 1e-10)), when="sometime")
    parsed = trajectory.statement_of(data, "demo")
    monkeypatch.setattr(replayable, "TOLERANCES", replayable.TOLERANCES[:1])
    assert build_chain(parsed, parsed.time, 200).stopped == "no step end up to t = 0.25 shows the bound"
    monkeypatch.undo()
    chain = build_chain(parsed, parsed.time, 200)
    assert not chain.stopped and chain.t == parsed.time
