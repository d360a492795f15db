"""Counted budgets (`certificates.counted`): the count decides, the same way on every run, and cannot be swallowed."""

from __future__ import annotations

import contextlib
import gc
import time

import pytest
from headflow.certificates.counted import spend


def _calls(n: int) -> str:
    for _ in range(n):
        abs(-1)
    return "done"


def test_a_computation_within_its_budget_returns_its_value() -> None:
    assert spend(100_000, lambda: 6 * 7) == (42, "")
    assert spend(100_000, lambda: _calls(1000)) == ("done", "")


def test_the_count_decides_and_decides_the_same_way_every_time() -> None:
    """1,000 calls are some 2,000 events (a call and its return): past a budget of 1,000, within one of 10,000."""
    for _ in range(3):
        assert spend(1000, lambda: _calls(1000)) == (None, "its budget of 1,000 operations")
        assert spend(10_000, lambda: _calls(1000)) == ("done", "")


def test_a_swallowed_exhaustion_is_raised_again() -> None:
    """A budget spent where Python discards the exception (a gc callback, a `__del__`, a bare `except:` in
    mpmath) must not let the computation run on to a verdict: it is raised again at the next event until the scope
    ends, and the answer is None even if the computation then returns (the SIGALRM limit this replaces was once
    swallowed by a gc callback, and a claim came out REFUTED)."""
    done = {"calls": 0}

    def work() -> None:
        for _ in range(1000):
            done["calls"] += 1  # no call: no event
            abs(-1)

    def compute() -> str:
        for _ in range(100):
            with contextlib.suppress(BaseException):  # swallowed, as mpmath's bare `except:` would
                work()
        return "finished past the budget"

    assert spend(1000, compute) == (None, "its budget of 1,000 operations")
    assert done["calls"] < 1000, done  # not 100,000: each swallowed exhaustion came back at once


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # Python reports the swallowed one
def test_a_budget_spent_inside_a_gc_callback_still_ends_the_computation() -> None:
    def callback(phase: str, info: dict[str, int]) -> None:
        _calls(200)

    def allocate() -> str:
        kept = [[k] for k in range(200_000)]
        return f"{len(kept)} lists"

    gc.callbacks.append(callback)
    try:
        assert spend(20_000, allocate) == (None, "its budget of 20,000 operations")
    finally:
        gc.callbacks.remove(callback)


def test_an_inner_budget_is_charged_to_the_enclosing_one() -> None:
    def both() -> tuple[object, object]:
        return spend(10**6, lambda: _calls(3000)), spend(10**6, lambda: _calls(3000))

    assert spend(10**6, both)[0] == (("done", ""), ("done", ""))
    # each inner scope spends some 6,000 events: the second runs past what the outer one has left
    assert spend(10_000, both) == (None, "its budget of 10,000 operations")


def test_exceptions_of_the_computation_pass_through() -> None:
    with contextlib.suppress(ZeroDivisionError):
        spend(10**6, lambda: 1 / 0)
        raise AssertionError("the ZeroDivisionError was swallowed")


def test_the_wall_clock_safety_net_stops_what_the_count_does_not_and_says_so() -> None:
    def slow() -> str:
        time.sleep(0.2)  # one event: the count hardly moves
        return _calls(100_000)

    assert spend(10**9, slow, seconds=0.1) == (None, "the wall-clock safety limit (0.1 s)")


def test_a_budget_under_cprofile_counts_and_gives_cprofile_its_hook_back() -> None:
    """Under `python -m cProfile` the previous profile function is cProfile's Profile object: put back with
    sys.setprofile, it was called as a hook at the next event and raised TypeError (a claims file failed to parse)."""
    import cProfile
    import sys

    profiler = cProfile.Profile()
    profiler.enable()
    try:
        first, second = spend(10**6, lambda: _calls(100)), spend(10**6, lambda: _calls(100))
        after = sys.getprofile()
    finally:
        profiler.disable()
    assert first == second == ("done", "")
    assert after is profiler  # cProfile profiles again after each scope
