"""Run `coqc` on one Coq source: a fresh temporary folder, a time limit, the process group killed on timeout.

Nothing from a certificate reaches a shell: the source is written to a file of a fixed name and coqc is
started with an argument list. The answer is `accepted` (coqc exited 0: every proof was checked by Coq's
kernel), `rejected` (coqc's first error, one line) or `timeout`.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from certificates.kernel import processes

#: Seconds one file may take in coqc before it is killed.
SECONDS = 120.0
FILE = "headflow_certificate.v"
#: The axioms a proof may rest on, by module: those of Coq's real numbers (classical Dedekind reals, excluded
#: middle, functional extensionality) and of the primitive integers and floats Interval computes with.
STANDARD_AXIOMS = (
    "ClassicalDedekindReals.",
    "Classical_Prop.",
    "FunctionalExtensionality.",
    "PrimInt63.",
    "Uint63.",
    "PrimFloat.",
    "FloatAxioms.",
    "Float64.",
)
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_']*$")
_AXIOM = re.compile(r"^([A-Za-z_][A-Za-z0-9_.']*)(\s*:.*)?$")


@dataclass(frozen=True)
class CoqAnswer:
    """What coqc said about one file, and how long it took."""

    status: str  # "accepted", "rejected" or "timeout"
    message: str
    seconds: float


def coqc() -> str | None:
    """The coqc executable, or None when Coq is not installed."""
    return shutil.which("coqc")


def compile_source(text: str, seconds: float = SECONDS, name: str = FILE, theorems: Sequence[str] = ()) -> CoqAnswer:
    """Compile `text` with coqc in a fresh folder; never raises for a failing proof. Each of `theorems` must then rest
    on no axiom beyond Coq's standard ones (`Print Assumptions`): an admitted proof or a declared axiom rejects."""
    if not all(_IDENTIFIER.match(theorem) for theorem in theorems):
        raise ValueError("theorem names must be Coq identifiers")
    text += "".join(f"\nPrint Assumptions {theorem}." for theorem in theorems)
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
        foreign = foreign_axioms(finished.stdout)
        if foreign:
            return CoqAnswer("rejected", f"the proof rests on {', '.join(foreign[:3])}: not a standard axiom", elapsed)
        return CoqAnswer("accepted", "coqc accepted every proof", elapsed)
    return CoqAnswer("rejected", first_error(finished.stdout + finished.stderr), elapsed)


def foreign_axioms(output: str) -> list[str]:
    """The axioms `Print Assumptions` lists that are not Coq's standard ones (`STANDARD_AXIOMS`)."""
    names = []
    for line in output.splitlines():
        found = _AXIOM.match(line)  # an axiom's name starts its line; its type follows indented
        if found and line not in ("Axioms:", "Closed under the global context"):
            names.append(found.group(1))
    return [name for name in names if not name.startswith(STANDARD_AXIOMS)]


def first_error(output: str) -> str:
    """coqc's location and error message on one line (at most 300 characters)."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    start = next((k for k, line in enumerate(lines) if line.startswith("File ")), 0)
    return " ".join(lines[start : start + 4])[:300] or "coqc failed without a message"
