"""SymPy simplification under a time limit (SymPy has none of its own).

The limit is a SIGALRM timer, which only the main thread can use; elsewhere the call runs
unbounded. The timeout exception derives from BaseException so that no `except Exception`
inside SymPy can swallow it. An enclosing timer keeps running: the inner limit is shortened to
it, and what is left of it is restored afterwards.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")


class SymbolicTimeout(BaseException):
    """The time limit of a symbolic computation passed."""


def within(seconds: float, compute: Callable[[], T]) -> T | None:
    """compute(), or None when it did not finish within `seconds`."""
    if seconds <= 0:
        return None
    try:
        with _alarm(seconds):
            return compute()
    except SymbolicTimeout:
        return None


@contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise SymbolicTimeout

    enclosing = signal.getitimer(signal.ITIMER_REAL)[0]
    start = time.monotonic()
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, min(seconds, enclosing) if enclosing > 0 else seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if enclosing > 0:
            signal.setitimer(signal.ITIMER_REAL, max(enclosing - (time.monotonic() - start), 1e-3))
