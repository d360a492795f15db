"""The certified constants against direct python-flint and against mpmath, side by side in one process, and start-up.

Run `python benchmarks/constants.py` (or `python -m benchmarks.constants`) from the repository root. For every
constant of `headflow constants` but c8_exit_gap (a certified bracket of Condition 8's exit, not a formula), at
1,000 / 10,000 / 100,000 digits, it times

- headflow's certified digits (`checks.constants.certified.certify`: the stored tree's ball (its compiled program)
  or lambda_c's certified root, the precision loop and correct rounding; no cross-check; the radius text is written
  only when shown);
- direct python-flint: the same formula written by hand in arb at the precision of the digits (lambda_c by Newton at
  doubling precision, e^u shared by g and g', uncertified), printed by `arb.str(digits, radius=False)`;
- mpmath's cross-check formula (`checks.constants.mpmath_reference`) at the same precision (lambda_c by Newton at
  doubling precision), on gmpy2 when installed (`pip install -e '.[fast]'`);

and prints the ratios headflow / python-flint (the goal: at most 1.5) and mpmath / headflow. These are CPU times of
this process (`time.process_time`), so that on a loaded machine a time slice spent waiting does not count: the
shortest of up to 99 calls of each, taken in turns, after one call of each (warm: headflow keeps its compiled
programs, the balls of their rationals and of the parameters per precision, and powers of ten, as a table calling
the same constant many times does; python-flint keeps what it keeps). The cold columns are the first call in a
fresh process (imports done, nothing computed yet), the best of three processes for each side. Then
`headflow constants --quantity lambda_c --n 10 --digits 100000 --cross-check` end to end in-process, and
start-up: fresh processes of `headflow --help`, `headflow constants --help` and `headflow constants --quantity
c_star --H 2 --digits 50` against a fresh python-flint script printing the same 50 digits (best of five wall and
CPU times; the goal: at most 1.5 times the script's CPU time). `--max-digits 10000` skips the 100,000-digit rows
(half a minute in all, most of it the fresh processes of the cold columns).
"""

from __future__ import annotations

import argparse
import math
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flint import arb, ctx
from headflow.checks.constants import certified as constants
from headflow.checks.constants.mpmath_reference import mpmath_value

ROOT = Path(__file__).resolve().parent.parent
DIGITS = (1_000, 10_000, 100_000)
#: The most a small command's fresh process may cost, in CPU, against a fresh python-flint script (issue 44).
START_UP_GOAL = 1.5


def _lambda_c(n: int, beta: int) -> arb:
    """u_c(n) / beta by Newton at doubling precision (the midpoint only, as a plain script would)."""
    m, x, target = n - 1, arb(max(6, math.log(2 * (n - 1)) + 2)), ctx.prec
    with ctx.workprec(64):
        for _ in range(100):
            e = x.exp()
            nxt = (x - ((x - 2) * e - m * (x + 2)) / ((x - 1) * e - m)).mid()
            if abs(float(nxt - x)) < 1e-15:
                break
            x = nxt
    prec = 64
    while prec < target:
        prec = min(2 * prec, target)
        with ctx.workprec(prec + 16):
            e = x.exp()
            x = (x - ((x - 2) * e - m * (x + 2)) / ((x - 1) * e - m)).mid()
    return x / beta


def _c_star(heads: int) -> arb:
    return ((arb(heads - 1) ** 2 + 4).sqrt() - (heads - 1)) / 2


def _beta_star(heads: int, tokens: int, scale: int) -> arb:
    c = _c_star(heads)
    return (c * c * (tokens - 1) / (1 - c * c)).log() / (2 * scale)


#: (label, quantity, exact parameters, the direct python-flint formula at the context precision).
CASES: list[tuple[str, str, dict[str, Fraction], Callable[[], arb]]] = [
    ("golden", "golden", {}, lambda: (1 + arb(5).sqrt()) / 2),
    ("c*(2)", "c_star", {"H": Fraction(2)}, lambda: _c_star(2)),
    (
        "beta*(2, 10, 1)",
        "beta_star",
        {"H": Fraction(2), "n": Fraction(10), "alpha": Fraction(1)},
        lambda: _beta_star(2, 10, 1),
    ),
    (
        "phi(1; 10, 1)",
        "rate",
        {"lam": Fraction(1), "n": Fraction(10), "beta": Fraction(1)},
        lambda: 2 / (arb(1).exp() + 9),
    ),
    (
        "lambda_max(10, 1)",
        "lambda_max",
        {"n": Fraction(10), "beta": Fraction(1)},
        lambda: 1 + (9 / arb(1).exp()).lambertw(),
    ),
    ("W0(1)", "lambertw", {"x": Fraction(1)}, lambda: arb(1).lambertw()),
    ("lambda_c(10, 1)", "lambda_c", {"n": Fraction(10), "beta": Fraction(1)}, lambda: _lambda_c(10, 1)),
]


def _best(task: Callable[[], object], budget: float = 2.0, most: int = 5) -> float:
    """The shortest of a few timed runs (fewer when one run is long)."""
    times: list[float] = []
    while len(times) < most and sum(times) < budget:
        start = time.process_time()
        task()
        times.append(time.process_time() - start)
    return min(times)


def _side_by_side(
    first: Callable[[], object], second: Callable[[], object], budget: float = 3.0
) -> tuple[float, float]:
    """The shortest of up to 99 runs of each, taken in turns (a load that comes and goes hits both alike; calls
    of some 10 microseconds need many to find one that no other process interrupted)."""
    times: tuple[list[float], list[float]] = ([], [])
    while len(times[0]) < 99 and sum(times[0]) + sum(times[1]) < budget:
        for task, found in zip((first, second), times, strict=True):
            start = time.process_time()
            task()
            found.append(time.process_time() - start)
    return min(times[0]), min(times[1])


def _direct(formula: Callable[[], arb], digits: int) -> str:
    """The formula in arb at the precision of `digits` (and 16 guard bits), printed to `digits` digits."""
    with ctx.workprec(math.ceil(digits * math.log2(10)) + 16):
        return formula().str(digits, radius=False)


def _leading(text: str, count: int = 40) -> str:
    return "".join(ch for ch in text.split("e")[0] if ch.isdigit())[:count]


def first_call(index: int, digits: int, side: str) -> float:
    """The CPU seconds of the first call of CASES[index] at `digits` digits in this process (`side`: "headflow"
    or "python-flint"), as `python benchmarks/constants.py --first INDEX DIGITS SIDE` prints them."""
    _, quantity, params, formula = CASES[index]
    start = time.process_time()
    text = constants.certify(quantity, params, digits).value if side == "headflow" else _direct(formula, digits)
    seconds = time.process_time() - start
    assert _leading(text), text
    return seconds


def _cold(index: int, digits: int, processes: int = 3) -> tuple[float, float]:
    """(headflow, python-flint): the first call of CASES[index] at `digits` digits in a fresh process, the best of
    `processes` of each, taken in turns."""
    found: dict[str, list[float]] = {"headflow": [], "python-flint": []}
    for _ in range(processes):
        for side, times in found.items():
            done = subprocess.run(
                [sys.executable, str(Path(__file__).resolve()), "--first", str(index), str(digits), side],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            )
            times.append(float(done.stdout.split()[-1]))
    return min(found["headflow"]), min(found["python-flint"])


def measure(max_digits: int = 100_000) -> list[dict[str, object]]:
    """Print the table of headflow, python-flint and mpmath and return its rows."""
    rows: list[dict[str, object]] = []
    print(
        f"{'constant':<19}{'digits':>8}{'headflow s':>12}{'flint s':>11}{'ratio':>8}{'mpmath s':>11}{'mpmath/hf':>11}"
        f"{'cold hf s':>11}{'cold flint':>11}{'ratio':>8}"
    )
    for index, (label, quantity, params, formula) in enumerate(CASES):
        for digits in (d for d in DIGITS if d <= max_digits):
            ours = constants.certify(quantity, params, digits)
            direct = _direct(formula, digits)
            assert _leading(ours.value) == _leading(direct), f"{label}: {ours.value[:40]} against {direct[:40]}"
            cold, cold_flint = _cold(index, digits)
            seconds, flint_seconds = _side_by_side(
                lambda q=quantity, p=params, d=digits: constants.certify(q, p, d).value,
                lambda f=formula, d=digits: _direct(f, d),
            )
            bits = math.ceil(digits * math.log2(10)) + 16
            mp_seconds = _best(lambda q=quantity, p=params, b=bits: mpmath_value(q, p, b))
            ratio = seconds / flint_seconds
            print(
                f"{label:<19}{digits:>8}{seconds:>12.6f}{flint_seconds:>11.6f}{ratio:>7.2f}x{mp_seconds:>11.4f}"
                f"{mp_seconds / seconds:>10.1f}x{cold:>11.6f}{cold_flint:>11.6f}{cold / cold_flint:>7.2f}x",
                flush=True,
            )
            rows.append(
                {
                    "benchmark": "constants",
                    "case": f"{label} at {digits} digits",
                    "seconds": seconds,
                    "baseline": "python-flint",
                    "baseline_seconds": flint_seconds,
                    "ratio": ratio,
                    "mpmath_seconds": mp_seconds,
                    "cold_seconds": cold,
                    "cold_baseline_seconds": cold_flint,
                    "cold_ratio": cold / cold_flint,
                }
            )
    return rows


def _fresh(argv: list[str]) -> tuple[float, float]:
    """The best wall time and the best CPU time (user + system) of five fresh processes running `argv` (output
    discarded); on a loaded machine the CPU time is what the start-up costs, the wall time what it waited too."""
    walls, cpus = [], []
    for _ in range(5):
        before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
        subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        walls.append(time.perf_counter() - start)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(walls), min(cpus)


FLINT_SCRIPT = "from flint import arb, ctx\nctx.dps = 60\nprint(((arb(5).sqrt() - 1) / 2).str(50, radius=False))"


def start_up() -> list[dict[str, object]]:
    """Fresh-process wall times of the small commands against a fresh python-flint script."""
    baseline, baseline_cpu = _fresh([sys.executable, "-c", FLINT_SCRIPT])
    rows: list[dict[str, object]] = []
    print(
        f"\nstart-up, wall and CPU s (best of 5 fresh processes; python-flint script {baseline:.3f} {baseline_cpu:.3f})"
    )
    for argv in (
        ["--help"],
        ["constants", "--help"],
        ["constants", "--quantity", "c_star", "--H", "2", "--digits", "50"],
    ):
        seconds, cpu = _fresh([sys.executable, "-m", "headflow", *argv])
        ratio = cpu / baseline_cpu
        verdict = f"CPU ratio {ratio:.2f} {'(goal 1.5: met)' if ratio <= START_UP_GOAL else '(goal 1.5: MISSED)'}"
        print(f"  headflow {' '.join(argv):<52}{seconds:8.3f}{cpu:8.3f}  {verdict}")
        rows.append(
            {
                "benchmark": "constants",
                "case": f"start-up: headflow {' '.join(argv)} (wall)",
                "seconds": seconds,
                "baseline": "python-flint script",
                "baseline_seconds": baseline,
                "ratio": seconds / baseline,
                "cpu_seconds": cpu,
                "baseline_cpu_seconds": baseline_cpu,
            }
        )
    return rows


def end_to_end() -> dict[str, Any]:
    """lambda_c(10, 1) at 100,000 digits as `headflow constants` computes it: certified and cross-checked."""
    from mpmath.libmp import BACKEND

    start = time.process_time()
    constants.compute("lambda_c", {"n": 10, "beta": 1}, 100_000)
    seconds = time.process_time() - start
    print(f"\nlambda_c(10, 1) at 100,000 digits, cross-check included (mpmath on {BACKEND}): {seconds:.2f} s")
    return {
        "benchmark": "constants",
        "case": f"lambda_c(10, 1) at 100000 digits, cross-checked ({BACKEND})",
        "seconds": seconds,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-digits", type=int, default=100_000, help="skip the sizes above this (default 100000)")
    parser.add_argument("--first", nargs=3, metavar=("INDEX", "DIGITS", "SIDE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.first:  # one cold measurement, in the fresh process `_cold` started
        print(first_call(int(args.first[0]), int(args.first[1]), args.first[2]))
        return 0
    from benchmarks import results

    rows = measure(args.max_digits)
    if args.max_digits >= 100_000:
        rows.append(end_to_end())
    rows += start_up()
    results.save("constants", rows, max_digits=args.max_digits)
    digit_rows = [row for row in rows if "ratio" in row and not str(row["case"]).startswith("start-up")]
    worst = max(float(row["ratio"]) for row in digit_rows)
    print(f"\nworst headflow / python-flint ratio: {worst:.2f} (goal 1.5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
