"""`headflow COMMAND --help` for every command, in fresh processes, against the 0.3 s budget of issue 41.

Each command's help is timed (best of REPEATS fresh processes) beside the bare interpreter's start-up measured in
the same run, so that a slow machine shows as a slow baseline, not as a slow headflow. Which modules the help loads
is held by a test (`tests/checks/test_api.py`, nothing that decides); this gives the seconds.

Run `python benchmarks/help_start.py` from the repository root.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from headflow.checks.cli import _command_names, _summary

#: The budget of one `--help` (issue 41).
BUDGET_SECONDS = 0.3
#: Fresh processes per command; the best is kept (start-up noise only adds).
REPEATS = 3


def _best(argv: list[str]) -> float:
    """The fastest of REPEATS runs of `python argv` in fresh processes, in seconds."""
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        subprocess.run([sys.executable, *argv], check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return min(times)


def run() -> list[dict[str, object]]:
    """One row per command: its --help's seconds, the interpreter's start-up, and the budget's ratio to it."""
    interpreter = _best(["-c", "pass"])
    print(f"python -c pass: {interpreter:.3f} s (the interpreter's start-up)")
    rows: list[dict[str, object]] = []
    for command in [_summary(name)[0] for name in _command_names()]:
        seconds = _best(["-m", "headflow", command, "--help"])
        over = "" if seconds <= BUDGET_SECONDS else "  OVER BUDGET"
        print(f"headflow {command} --help: {seconds:.3f} s ({seconds / interpreter:.1f}x the interpreter){over}")
        rows.append(
            {
                "benchmark": "help",
                "case": f"headflow {command} --help (fresh process)",
                "seconds": seconds,
                "baseline": "budget",
                "baseline_seconds": BUDGET_SECONDS,
                "ratio": BUDGET_SECONDS / seconds,
                "interpreter_seconds": interpreter,
            }
        )
    return rows


if __name__ == "__main__":
    run()
