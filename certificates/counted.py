"""Counted budgets for Python work (SymPy's above all): a number of call events, not seconds.

A budget in seconds lets a verdict depend on how busy the machine is. `spend(operations, compute)` runs
compute() under a profile hook (`sys.setprofile`, this thread) that counts its events: each call and return of
a Python or C function is one operation. The count is the same in every run of the same code and library
versions, up to the order in which SymPy meets objects hashed by their address (a few events in 10^4), so a
budget far from what a computation needs decides the same way on any machine under any load.

A spent budget raises `Exhausted` (a BaseException: no `except Exception` catches it) from the hook. CPython
removes a profile function that raises, so a handler that swallows the exception (a gc callback, a bare `except:`
in mpmath) would leave the rest unbounded: the exception puts the hook back when it is freed, and the hook, spent,
raises again at the next event, until the scope ends. However compute() ends once the budget is spent, the
answer is None: the count alone decides.

Wall-clock time is only a safety net, far above any budget (`safety_seconds`): checked by the hook every
CHECK_EVERY events, it stops the work the same way, and the reason then says "wall-clock safety limit", so a
verdict cut by it reads differently from one the count decided. Scopes nest: an inner budget is at most what is
left of the enclosing one, and what it spent is charged to it.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any, TypeVar

T = TypeVar("T")

#: Events between two looks at the clock (the safety net).
CHECK_EVERY = 4096
#: The safety net: SAFETY_FLOOR seconds, plus one second per SAFETY_RATE operations. Counted, this machine runs some
#: 3 million operations a second; the net lets a machine run ten times slower than that before it cuts anything.
SAFETY_FLOOR = 30.0
SAFETY_RATE = 300_000
SAFETY = "the wall-clock safety limit"


class Exhausted(BaseException):
    """A counted scope's budget (or its safety net) is spent; raised inside the scope until it ends."""

    def __init__(self, meter: _Meter) -> None:
        super().__init__(meter.why)
        self.meter = meter

    def __del__(self) -> None:
        self.meter.rearm()


def safety_seconds(operations: int) -> float:
    """The wall-clock safety net of a budget of `operations`: far above the time it takes on a slow, busy machine."""
    return SAFETY_FLOOR + operations / SAFETY_RATE


class _Meter:
    """One scope's budget: the operations left, the safety deadline, and why it stopped ("" while it runs)."""

    def __init__(self, operations: int, seconds: float, enclosing: _Meter | None) -> None:
        self.budget = operations if enclosing is None else min(operations, max(enclosing.left, 0))
        self.left = self.budget
        self.next_look = max(self.left - CHECK_EVERY, 0)
        self.deadline = time.monotonic() + seconds
        self.seconds = seconds
        self.enclosing = enclosing
        self.thread = threading.get_ident()
        self.why = ""
        self.closed = False

    def hook(self, frame: FrameType, event: str, arg: Any) -> None:
        """The profile function: one operation per event."""
        self.left -= 1
        if self.left <= self.next_look:
            self._look(frame)

    def _look(self, frame: FrameType) -> None:
        if self.closed or frame.f_code in _REARMING:
            return
        if not self.why:
            self.next_look = max(self.left - CHECK_EVERY, 0)
            if self.left <= 0:
                self.why = f"its budget of {self.budget:,} operations"
            elif time.monotonic() > self.deadline:
                self.why = f"{SAFETY} ({self.seconds:g} s)"
            else:
                return
        raise Exhausted(self)

    def rearm(self) -> None:
        """Put the hook back (a swallowed Exhausted was freed): it raises again at the next event."""
        if not self.closed and threading.get_ident() == self.thread and sys.getprofile() is None:
            sys.setprofile(self.hook)

    def charge(self, operations: int) -> None:
        """Count `operations` spent by an inner scope; a spent budget stops at the next event."""
        self.left -= operations
        self.next_look = min(self.next_look, self.left)


#: The code that puts the hook back: its own events (the hook's first) raise nothing.
_REARMING = (Exhausted.__del__.__code__, _Meter.rearm.__code__)
_ACTIVE = threading.local()


def spend(operations: int, compute: Callable[[], T], seconds: float | None = None) -> tuple[T | None, str]:
    """(compute(), "") within `operations` counted operations, or (None, what stopped it): "its budget of N
    operations" or "the wall-clock safety limit (S s)" (`seconds`, else `safety_seconds(operations)`).

    Exceptions of compute() other than the budget's own pass through, unless the budget was spent first."""
    enclosing: _Meter | None = getattr(_ACTIVE, "meter", None)
    meter = _Meter(operations, safety_seconds(operations) if seconds is None else seconds, enclosing)
    previous = sys.getprofile()
    _ACTIVE.meter = meter
    sys.setprofile(meter.hook)
    try:
        if meter.left <= 0:
            meter.why = f"its budget of {meter.budget:,} operations"
            return None, meter.why
        value = compute()
    except (Exhausted, Exception):
        if not meter.why:
            raise
    finally:
        meter.closed = True
        _put_back(previous)
        _ACTIVE.meter = enclosing
        if enclosing is not None:
            enclosing.charge(meter.budget - meter.left)
    return (None, meter.why) if meter.why else (value, "")


def _put_back(previous: Any) -> None:
    """Make `previous` the profile function again. A C-level profiler (cProfile's: sys.getprofile() gives its Profile
    object, which is not a Python hook) is put back by its own `enable()`; given to sys.setprofile it would be called
    as a hook at the next event and raise TypeError there (a claims file failed to parse under `python -m cProfile`)."""
    if previous is not None and not callable(previous) and hasattr(previous, "enable"):
        sys.setprofile(None)
        previous.enable()
    else:
        sys.setprofile(previous)
