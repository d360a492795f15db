"""headflow's numerical side: the model, the claim registry, the checks, the CLI and the Python API.

`headflow.checks.verify(...)` and `headflow.checks.check(...)` (see `headflow.checks.api`) decide claims and return a
`checks.Report`. They, and `__version__`, are loaded on first use, so that `import checks` (and
every `from checks import module`) stays cheap: nothing heavy is imported until it is needed.

BLAS runs on one thread unless the user asked for more (OPENBLAS_NUM_THREADS, read when numpy is first imported):
headflow's matrices are small (tokens x dimension, a few hundred at most), so BLAS threads mostly wait for
each other, and on a loaded two-core machine they multiplied the CPU time of the matrix-heavy claims of
`headflow verify` by two to nine and nearly doubled their wall time (benchmarks/blas_threads.py).
"""

from __future__ import annotations

import importlib
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

#: Public names loaded on first use, and the module each comes from.
_LAZY = {"verify": "headflow.checks.api", "check": "headflow.checks.api", "Report": "headflow.checks.reports.report"}

__all__ = ["Report", "__version__", "check", "verify"]


def __getattr__(name: str) -> object:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("headflow")
        except PackageNotFoundError:  # running from a source tree that was not installed
            found = "0.0.0+source"
        globals()["__version__"] = found
        return found
    raise AttributeError(f"module 'checks' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
