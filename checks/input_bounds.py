"""Documented bounds of the command line's numeric options, checked in one place.

Every numeric option is finite and lies in a stated range (README, "Size limits"); a value outside
is an InputError naming the option (one line, exit code 2), never a huge loop or allocation.
"""

from __future__ import annotations

import math

from headflow.certificates.errors import InputError
from headflow.checks.choices import MAX_SEED

#: Largest --timeout in seconds (about 11.6 days): a budget, not a way to ask for a run without end.
MAX_TIMEOUT = 1e6
#: The narrowest and widest --width: a table needs some 40 columns; wider than a few screens is not a width.
MIN_WIDTH, MAX_WIDTH = 40, 1000


def check_width(width: int | None) -> int | None:
    """A `--width` from MIN_WIDTH to MAX_WIDTH columns (None: the terminal's own)."""
    if width is not None and not MIN_WIDTH <= width <= MAX_WIDTH:
        raise InputError("--width", width, f"must be an integer from {MIN_WIDTH} to {MAX_WIDTH}")
    return width


def check_range(option: str, value: float, low: float, high: float, *, open_low: bool = False) -> float:
    """value is finite and low <= value <= high (low < value when `open_low`)."""
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        raise InputError(option, value, "must be a finite number")
    if value > high or value < low or (open_low and value == low):
        raise InputError(option, value, f"must lie in {'(' if open_low else '['}{low:g}, {high:g}]")
    return value


def check_seed(option: str, seed: int) -> int:
    """An integer seed from 0 to 2^64 - 1."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise InputError(option, seed, f"must be an integer from 0 to {MAX_SEED}")
    return seed


def check_timeout(timeout: float | None) -> float | None:
    """None (no budget) or a finite number of seconds from 0 to MAX_TIMEOUT."""
    return None if timeout is None else check_range("--timeout", timeout, 0.0, MAX_TIMEOUT)
