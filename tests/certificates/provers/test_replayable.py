"""The prover of trajectory certificates: its rounding up is an upper bound, and its counted budget stops a chain
with the reason (never a timed stop)."""

from __future__ import annotations

import pytest
from flint import arb
from headflow.certificates.kernel import trajectory
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
