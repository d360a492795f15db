"""Run `coqc` on one Coq source: a fresh temporary folder, a time limit, the process group killed on timeout.

Nothing from a certificate reaches a shell: the source is written to a file of a fixed name and coqc is
started with an argument list. The answer is `accepted` (coqc exited 0: every proof was checked by Coq's
kernel), `rejected` (coqc's first error, one line) or `timeout`.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from certificates.kernel import processes

#: Seconds one file may take in coqc before it is killed.
SECONDS = 120.0
FILE = "headflow_certificate.v"


@dataclass(frozen=True)
class CoqAnswer:
    """What coqc said about one file, and how long it took."""

    status: str  # "accepted", "rejected" or "timeout"
    message: str
    seconds: float


def coqc() -> str | None:
    """The coqc executable, or None when Coq is not installed."""
    return shutil.which("coqc")


def compile_source(text: str, seconds: float = SECONDS, name: str = FILE) -> CoqAnswer:
    """Compile `text` with coqc in a fresh folder; never raises for a failing proof."""
    executable = coqc()
    if executable is None:
        return CoqAnswer("rejected", "coqc is not installed", 0.0)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="headflow-coq-") as folder:
        Path(folder, name).write_text(text, encoding="ascii")
        finished = processes.run_program([executable, "-q", name], "", seconds, folder)
    elapsed = time.monotonic() - started
    if finished.returncode is None:
        return CoqAnswer("timeout", f"coqc did not finish in {seconds:.0f} s (killed)", elapsed)
    if finished.returncode == 0:
        return CoqAnswer("accepted", "coqc accepted every proof", elapsed)
    return CoqAnswer("rejected", first_error(finished.stdout + finished.stderr), elapsed)


def first_error(output: str) -> str:
    """coqc's location and error message on one line (at most 300 characters)."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    start = next((k for k, line in enumerate(lines) if line.startswith("File ")), 0)
    return " ".join(lines[start : start + 4])[:300] or "coqc failed without a message"
