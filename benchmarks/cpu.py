"""CPU seconds of the main job and of the default test suite, against issue 44's goals.

CPU, not wall time: user + system seconds of the command and of every process it waited for (solver processes,
pytest-xdist workers), which a busy machine changes far less than the wall clock (it still inflates them somewhat:
caches and hyperthreads are shared). The load average is printed with each figure.

    python benchmarks/cpu.py            # `headflow verify` (quick profile, seed 0) in a fresh process
    python benchmarks/cpu.py --suite    # and the default test suite (`pytest`, the addopts of pyproject.toml)
                                        # and, apart, the Coq tier that .ci/run adds (`pytest -m "coq and not slow"`)

Each figure is measured in a fresh child process from the repository root, with this interpreter; `--repeat`
runs `headflow verify` several times and prints each figure and the least. The suite is measured as it runs on a
developer's machine, with Python's bytecode cache: the variable PYTHONDONTWRITEBYTECODE (set in some sandboxes) is
removed for it, and a collection pass (`pytest --collect-only`, not counted) first writes the bytecode of every
module and pytest's rewritten test modules, which a process that may not write them compiles again each time (about
6 s of CPU per process here, three processes with two workers).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Issue 44's goals, CPU seconds: `headflow verify` (quick) and the default test suite.
VERIFY_GOAL, SUITE_GOAL = 20.0, 400.0


def child_cpu(command: list[str], cached: bool = False) -> tuple[float, float, int]:
    """(CPU seconds, wall seconds, exit code) of `command` run to its end from the repository root: the user and
    system time of it and of every process it waited for (RUSAGE_CHILDREN before and after). `cached`: the child may
    write Python's bytecode cache (PYTHONDONTWRITEBYTECODE removed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    if cached:
        environment.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print(done.stderr[-2000:], file=sys.stderr)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, done.returncode


def verify_cpu() -> tuple[float, float, int]:
    """`headflow verify` (quick profile, seed 0, JSON report) in a fresh process, certificates to a scratch folder."""
    with tempfile.TemporaryDirectory(prefix="headflow-cpu-") as folder:
        command = [sys.executable, "-m", "headflow", "verify", "--format", "json", "--certificates", folder]
        return child_cpu(command)


def suite_cpu(*markers: str) -> tuple[float, float, int]:
    """The default test suite: `pytest` with pyproject.toml's addopts (every core, `-m 'not slow and not coq'`), or
    with `markers` (e.g. "-m", "coq and not slow"), with the bytecode cache written by a collection pass first (not
    counted)."""
    pytest = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *markers]
    child_cpu([*pytest, "--collect-only", "-n", "0"], cached=True)
    return child_cpu(pytest, cached=True)


def report(name: str, cpu: float, wall: float, code: int, goal: float) -> None:
    """One line: the figure, its goal and whether it is met, the wall time and the load average."""
    load = os.getloadavg()[0]
    verdict = "met" if cpu < goal and code == 0 else "NOT met" if code == 0 else f"exit code {code}"
    print(f"{name}: {cpu:.1f} s CPU (goal < {goal:.0f} s: {verdict}), {wall:.1f} s wall, load {load:.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", action="store_true", help="also the default test suite (minutes)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of `headflow verify` (default 1)")
    args = parser.parse_args(argv)
    figures = []
    for _ in range(max(args.repeat, 1)):
        cpu, wall, code = verify_cpu()
        report("headflow verify (quick)", cpu, wall, code, VERIFY_GOAL)
        figures.append(cpu)
    if len(figures) > 1:
        print(f"headflow verify (quick): least {min(figures):.1f} s CPU of {len(figures)} runs")
    if args.suite:
        report("default test suite (bytecode cached)", *suite_cpu(), SUITE_GOAL)
        cpu, wall, code = suite_cpu("-m", "coq and not slow")
        print(f"the Coq tier .ci/run adds (no goal): {cpu:.1f} s CPU, {wall:.1f} s wall, exit code {code}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
