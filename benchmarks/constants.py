"""Digits per second of the certified constants against plain mpmath at the same precision.

Run `python benchmarks/constants.py` (or `python -m benchmarks.constants`) from the repository
root. For c*(2), beta*(2, 10, 1) and lambda_c(10, 1) at 1,000 / 10,000 / 100,000 digits it
times the certified ball computation (precision loop and correct rounding included, no digit
limit, no cross-check) and mpmath's evaluation at the same precision, and prints both rates and
their ratio. It then checks the target: 10,000 certified digits of c*(2) and beta*(2, 10, 1)
in under one second, this time with mpmath's cross-check included.

The whole run takes about seven minutes, nearly all of it mpmath's lambda_c at 100,000 digits
(a Newton iteration at full precision); `--max-digits 10000` gives the table up to 10,000 digits
in a few seconds.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from checks.constants import certified as constants
from checks.constants.mpmath_reference import mpmath_value

CASES: list[tuple[str, str, dict[str, Fraction]]] = [
    ("c*(2)", "c_star", {"H": Fraction(2)}),
    ("beta*(2, 10, 1)", "beta_star", {"H": Fraction(2), "n": Fraction(10), "alpha": Fraction(1)}),
    ("lambda_c(10, 1)", "lambda_c", {"n": Fraction(10), "beta": Fraction(1)}),
]
DIGITS = (1_000, 10_000, 100_000)


def _best(task: Callable[[], object], budget: float = 2.0, most: int = 5) -> float:
    """The shortest of a few timed runs (fewer when one run is long)."""
    times: list[float] = []
    while len(times) < most and sum(times) < budget:
        start = time.perf_counter()
        task()
        times.append(time.perf_counter() - start)
    return min(times)


def measure(max_digits: int = 100_000) -> list[dict[str, object]]:
    """Print the digits-per-second table and return its rows (ratio = mpmath time / headflow time)."""
    rows: list[dict[str, object]] = []
    header = f"{'constant':<18}{'digits':>9}{'headflow s':>12}{'digits/s':>12}{'mpmath s':>11}{'digits/s':>12}"
    print(header + f"{'ratio':>8}")
    for label, quantity, params in CASES:
        for digits in (d for d in DIGITS if d <= max_digits):
            ours = _best(lambda q=quantity, p=params, d=digits: constants.certify(q, p, d))
            bits = math.ceil(digits * math.log2(10)) + 10
            theirs = _best(lambda q=quantity, p=params, b=bits: mpmath_value(q, p, b))
            print(
                f"{label:<18}{digits:>9}{ours:>12.4f}{digits / ours:>12.0f}{theirs:>11.4f}{digits / theirs:>12.0f}"
                f"{theirs / ours:>7.1f}x",
                flush=True,
            )
            rows.append(
                {
                    "benchmark": "constants",
                    "case": f"{label} at {digits} digits",
                    "seconds": ours,
                    "baseline": "mpmath",
                    "baseline_seconds": theirs,
                    "ratio": theirs / ours,
                }
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-digits", type=int, default=100_000, help="skip the sizes above this (default 100000)")
    args = parser.parse_args(argv)
    from benchmarks import results

    results.save("constants", measure(args.max_digits), max_digits=args.max_digits)
    print("\ntarget: 10,000 certified digits in under one second (cross-check by mpmath included)")
    met = True
    for label, quantity, params in CASES[:2]:
        seconds = _best(lambda q=quantity, p=params: constants.compute(q, p, 10_000))
        met &= seconds < 1.0
        print(f"  {label:<18}{seconds:8.3f} s  {'ok' if seconds < 1.0 else 'MISSED'}")
    print("target met" if met else "target MISSED")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
