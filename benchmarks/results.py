"""Machine-readable benchmark results: each benchmark's rows, with the date, the commit and the machine they come from.

Every benchmark run from the command line saves its rows to `benchmarks/results/<benchmark>.json` (replacing the
previous file, atomically). The documentation's benchmark tables are rendered from these files
(`python docs/generate.py`), so a table always says when, at which commit and on what machine it was measured.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

from headflow.certificates.atomic import write_text_atomic

ROOT = Path(__file__).resolve().parent.parent
#: Where the committed results live (one JSON file per benchmark).
RESULTS = Path(__file__).with_name("results")
#: The folders whose changes can change a measurement.
#: The code a result depends on: the packages and the benchmarks, less the results folder itself (a results file
#: written by an earlier benchmark is not a change of the code that measures).
CODE = ("identities", "certificates", "checks", "benchmarks", ":(exclude)benchmarks/results", "pyproject.toml")


def provenance() -> dict[str, object]:
    """When, at which commit and where a measurement is taken: the date (UTC), the commit, whether the code
    (the packages and the benchmarks) had uncommitted changes, Python's version, the processors, the platform and
    the load averages over the last 1, 5 and 15 minutes when the results are saved (a loaded machine slows the side
    measured while the load was high; the benchmarks interleave their sides to spread it)."""
    return {
        "date": datetime.datetime.now(datetime.UTC).date().isoformat(),
        "commit": _git("rev-parse", "--short=12", "HEAD") or "unknown",
        "uncommitted_changes": bool(_git("status", "--porcelain", "--untracked-files=no", "--", *CODE)),
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "platform": platform.platform(terse=True),
        "load": [round(value, 2) for value in os.getloadavg()],
    }


def save(benchmark: str, rows: list[dict[str, object]], folder: Path = RESULTS, **settings: object) -> Path:
    """Write `rows` of `benchmark` (with how it was run, `settings`) and their provenance; returns the file."""
    path = folder / f"{benchmark}.json"
    record = {"benchmark": benchmark, **provenance(), "settings": settings, "rows": rows}
    write_text_atomic(path, json.dumps(record, indent=2) + "\n")
    print(f"results written to {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    return path


def _git(*args: str) -> str:
    """The output of a git command in the repository, or '' when git or the repository is missing."""
    try:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=30, check=False)
    except OSError:
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""
