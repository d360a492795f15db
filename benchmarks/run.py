"""Run every benchmark in one process: constants, the ball evaluator, integrator, velocity, `headflow verify`,
check-cert, engine, dynamics search.

Each figure is printed with its baseline measured in the same run and their ratio, and each
benchmark's rows are saved to `benchmarks/results/<benchmark>.json` with the date and the commit
(`benchmarks/results.py`), from which the documentation's tables are rendered. Run
`python benchmarks/run.py` or `python -m benchmarks` from the repository root (`--max-digits 100000` for the full
constants table: about a minute more).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import ball_evaluator, check_cert, constants, dynamics_search, engine, integrator, results, velocity

#: The quick profile's budget from the issue: every paper claim decided within a minute.
VERIFY_BUDGET_SECONDS = 60.0


def verify_timing() -> list[dict[str, object]]:
    """Wall time of `headflow verify --profile quick` in a fresh process, against its budget."""
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "headflow", "verify", "--profile", "quick", "--format", "json"]
        command += ["--out", str(Path(folder) / "report.json"), "--certificates", str(Path(folder) / "certs")]
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        seconds = time.perf_counter() - start
    print(f"\nheadflow verify --profile quick: {seconds:.1f} s (budget {VERIFY_BUDGET_SECONDS:.0f} s)")
    return [
        {
            "benchmark": "verify",
            "case": "headflow verify --profile quick (fresh process)",
            "seconds": seconds,
            "baseline": "budget",
            "baseline_seconds": VERIFY_BUDGET_SECONDS,
            "ratio": VERIFY_BUDGET_SECONDS / seconds,
        }
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-digits", type=int, default=10_000, help="largest constants size (default 10000)")
    parser.add_argument("--quick-integrator", action="store_true", help="the integrator's small problem only")
    args = parser.parse_args(argv)
    groups = {"constants": constants.measure(args.max_digits)}
    print()
    groups["ball_evaluator"] = ball_evaluator.measure(args.max_digits)
    print()
    groups["integrator"] = integrator.measure(args.quick_integrator)
    groups["velocity"] = velocity.measure(quick=args.quick_integrator)
    groups["verify"] = verify_timing()
    groups["check-cert"] = check_cert.run()
    groups["engine"] = engine.run()
    groups["dynamics_search"] = dynamics_search.run()
    settings = {
        "constants": {"max_digits": args.max_digits},
        "ball_evaluator": {"max_digits": args.max_digits},
        "integrator": {"quick": args.quick_integrator},
        "velocity": {"quick": args.quick_integrator},
    }
    rows = [row for group in groups.values() for row in group]
    print(f"\n{'benchmark':<12}{'case':<58}{'ratio':>10}  (baseline / headflow; > 1 means headflow is faster)")
    for row in rows:
        if "ratio" in row:
            print(f"{row['benchmark']:<12}{row['case']:<58}{row['ratio']:>9.2f}x  vs {row['baseline']}")
    print()
    for name, group in groups.items():
        results.save(name, group, **settings.get(name, {}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
