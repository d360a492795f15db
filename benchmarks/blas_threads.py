"""`headflow verify` on its matrix-heavy claims with one BLAS thread (headflow's default) and with one per core.

headflow sets OPENBLAS_NUM_THREADS=1 unless the user set it (`checks/__init__.py`): its matrices are small, so
more threads mostly wait for each other. This prints the wall and CPU seconds of both runs (fresh processes)
and their ratios; on a loaded two-core machine one thread took about half the wall time and half the CPU or less.

Run `python benchmarks/blas_threads.py` from the repository root.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time

#: The claims whose time is mostly matrix products (tokens x dimension up to 100 x 100).
CLAIMS = "C8.invariance.exit-gap,critical-points*,T22.late-rate"


def _run(threads: int) -> tuple[float, float]:
    """(wall, CPU) seconds of one `headflow verify --only CLAIMS` process with `threads` BLAS threads."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "headflow", "verify", "--only", CLAIMS, "--certificates", folder]
        start = time.perf_counter()
        subprocess.run(
            command, check=True, capture_output=True, env={**os.environ, "OPENBLAS_NUM_THREADS": str(threads)}
        )
        wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    cores = os.cpu_count() or 1
    one, many = _run(1), _run(cores)
    print(f"one BLAS thread:   {one[0]:6.1f} s wall, {one[1]:6.1f} s CPU")
    print(f"{cores} BLAS threads:  {many[0]:6.1f} s wall, {many[1]:6.1f} s CPU")
    print(f"ratio (threads / one): wall {many[0] / one[0]:.2f}, CPU {many[1] / one[1]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
