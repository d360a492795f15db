"""The in-process time limit of symbolic work (`certificates.claims.symbolic.within`) cannot be swallowed."""

from __future__ import annotations

import contextlib
import time

from certificates.claims.symbolic import SymbolicTimeout, within


def test_a_swallowed_timeout_is_raised_again() -> None:
    """A timeout that lands where Python discards it (a gc callback, a `__del__`, an over-broad handler) must not let
    the computation run on to a verdict: the expired limit fires again until its scope ends."""

    def compute() -> str:
        with contextlib.suppress(SymbolicTimeout):  # swallowed, as a gc callback would
            time.sleep(0.5)
        time.sleep(2.0)
        return "finished past the limit"

    start = time.monotonic()
    assert within(0.01, compute) is None
    assert time.monotonic() - start < 1.5


def test_a_computation_within_its_limit_returns_its_value() -> None:
    assert within(5.0, lambda: 6 * 7) == 42
