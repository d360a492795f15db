"""Run `coqc` on one Coq source: a fresh temporary folder, a time limit, the process group killed on timeout.

Nothing from a certificate reaches a shell: the source is written to a file of a fixed name and coqc is
started with an argument list. The answer is `accepted` (coqc exited 0: every proof was checked by Coq's
kernel; the theorems rest on Coq's standard axioms alone and, given the kernel's statement, coqc reads them as it),
`rejected` (coqc's first error, or the assumption or statement found, one line) or `timeout`.
"""

import re
import secrets
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from .. import processes

#: Seconds one file may take in coqc before it is killed: a safety net (Coq has no counted budget), far above what
#: the files headflow writes take, so that a verdict does not depend on how busy the machine is.
SECONDS = 120.0
FILE = "headflow_certificate.v"
#: A statement to compare with: (the kernel's statement file, the queries whose answers must agree).
Stated = tuple[str, Sequence[str]]
#: The modules of the axioms a proof may rest on: those of Coq's real numbers (classical Dedekind reals, excluded
#: middle, functional extensionality) and of the primitive integers and floats Interval computes with.
_MODULES = "ClassicalDedekindReals|Classical_Prop|FunctionalExtensionality|Prim(Int63|Float)|Uint63|Float(Axioms|64)"
#: A line of `Print Assumptions` that starts an entry and passes: a heading, or an entry that names a standard axiom
#: (`Module.name` or `Module.name : type`).
STANDARD_AXIOMS = re.compile(rf"Axioms:|Closed under the global context|({_MODULES})\.[A-Za-z0-9_.']*( : .*)?")


class CoqAnswer(NamedTuple):
    """What coqc said about one file, and how long it took."""

    status: str  # "accepted", "rejected" or "timeout"
    message: str
    seconds: float


def coqc() -> str | None:
    """The coqc executable, or None when Coq is not installed."""
    return shutil.which("coqc")


def compile_source(
    text: str, seconds: float = SECONDS, name: str = FILE, theorems: Sequence[str] = (), statement: Stated | None = None
) -> CoqAnswer:
    """Compile `text` with coqc in a fresh folder; never raises for a failing proof. Each of `theorems` must then rest
    on no assumption beyond Coq's standard axioms (`Print Assumptions`, `foreign_assumptions`): an admitted proof, a
    declared axiom or a bypassed check rejects. `statement` is (the kernel's statement file, queries): coqc's answers to
    the queries (`Check`, `Print`, `Locate`) after `text` must be its answers after the statement file compiled alone,
    so the file states what the kernel states as coqc itself reads it, whatever its text looks like. Each query block
    is fenced by a fresh random marker that nothing in `text` can print."""
    if not all(theorem.isascii() and theorem.isidentifier() for theorem in theorems):
        raise ValueError("theorem names must be Coq identifiers")
    if (executable := coqc()) is None:
        return CoqAnswer("rejected", "coqc is not installed", 0.0)
    mark = f"headflow_{secrets.token_hex(12)}"
    fence = f'\nGoal True. idtac "{mark}". Abort.'
    queries = fence + "".join(f"\n{query}" for query in (statement[1] if statement else ())) + fence
    started = time.monotonic()
    expected = _coqc(executable, statement[0] + queries, seconds, name) if statement else None
    checked = text + queries + "".join(f"\nPrint Assumptions {t}." for t in theorems)
    # when the kernel's statement alone did not compile, there is nothing to compare with
    finished = expected if expected and expected.returncode != 0 else _coqc(executable, checked, seconds, name)
    elapsed = time.monotonic() - started
    if finished.returncode is None:
        return CoqAnswer("timeout", f"coqc ran past the wall-clock safety limit ({seconds:.0f} s; killed)", elapsed)
    if finished.returncode != 0:
        whose = "the kernel's statement alone: " if finished is expected else ""
        return CoqAnswer("rejected", whose + first_error(finished.stdout + finished.stderr), elapsed)
    parts = finished.stdout.split(mark)
    if len(parts) != 3 or (expected is not None and expected.stdout.split(mark)[1:2] != parts[1:2]):
        return CoqAnswer("rejected", "coqc does not read the file's theorems as the kernel's statement", elapsed)
    if foreign := foreign_assumptions(parts[2]):
        return CoqAnswer("rejected", f"the proof rests on {'; '.join(foreign[:3])}: not a standard axiom", elapsed)
    return CoqAnswer("accepted", "coqc accepted every proof", elapsed)


def _coqc(executable: str, text: str, seconds: float, name: str) -> processes.Finished:
    """coqc on `text`, written to `name` in a fresh temporary folder."""
    with tempfile.TemporaryDirectory(prefix="headflow-coq-") as folder:
        Path(folder, name).write_text(text, encoding="ascii")
        return processes.run_program([executable, "-q", name], "", seconds, folder)


def foreign_assumptions(output: str) -> list[str]:
    """Every assumption in `Print Assumptions`' output that is not one of Coq's standard axioms (`STANDARD_AXIOMS`):
    an axiom or parameter, a section variable, a fixpoint assumed guarded, an inductive assumed positive, a universe
    bypass (`relies on an unsafe hierarchy`), and any line not read as one of these (fail closed). An entry starts its
    line (`name`, or `name : type`); its type's further lines are indented."""
    return [line[:80] for line in output.splitlines() if line[:1].strip() and not STANDARD_AXIOMS.fullmatch(line)]


def first_error(output: str) -> str:
    """coqc's location and error message on one line (at most 300 characters)."""
    found = re.search(r"^\s*File .*", output, re.MULTILINE | re.DOTALL)
    return " ".join((found.group() if found else output).split())[:300] or "coqc failed without a message"
