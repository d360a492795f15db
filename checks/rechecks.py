"""Which independent checkers re-checked a certificate: check-cert (balls and exact data, or z3 and cvc5 for smt)
and, when asked, Coq. What `headflow check-cert` prints, and what the reports list per verdict.

A checker is listed only when it accepted the file in this run: check-cert when the certificate re-checks against
its claim's obligation (each smt solver only when it answered within its time limit), Coq only when coqc accepted
the regenerated Coq file (`headflow.checks.coq_files`). Nothing is remembered between runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from headflow.certificates.kernel import solvers
from headflow.certificates.kernel.verify import CheckResult, check_file
from headflow.checks import coq_files

#: The name of check-cert's own re-check of a certificate that is not smt (balls, exact data).
BALLS = "check-cert (balls)"
#: check-cert's own re-check where it is exact algebra alone (no ball, no solver), by certificate kind.
EXACT = {"gram": "check-cert (exact algebra)"}


@dataclass(frozen=True)
class Recheck:
    """One certificate re-checked: the checkers that accepted it, check-cert's line, and the Coq re-check (or None)."""

    checkers: list[str]
    message: str
    coq: coq_files.CoqCheck | None = None

    @property
    def coq_missing(self) -> str:
        """Why Coq is not among the checkers ("" when it is, or when Coq was not asked): its status and reason."""
        if self.coq is None or self.coq.status == coq_files.RECHECKED:
            return ""
        return f"{self.coq.status}: {' '.join(self.coq.message.split())[:300]}".rstrip(": ")


def accepting(checked: CheckResult, message: str) -> list[str]:
    """The checkers that re-checked an accepted certificate (`checked`, the kernel's result; `message`, its line as
    shown): check-cert itself and, for smt, each solver that answered within its time limit
    (`headflow.certificates.kernel.solvers.recheck_unsat` names those that ran out)."""
    kind = checked.certificate["kind"] if checked.certificate is not None else ""
    if kind != "smt":
        return [EXACT.get(kind, BALLS)]
    return ["check-cert", *(s for s in solvers.SCRIPTS if f"not re-checked by {s}" not in message)]


def recheck(
    path: Path,
    coq: bool = False,
    solver_seconds: float = solvers.DEFAULT_SECONDS,
    coq_seconds: float = coq_files.run.SECONDS,
) -> Recheck:
    """Re-check one certificate with check-cert and, when `coq`, with coqc; never raises for a bad file."""
    result = check_file(path, solver_seconds)
    message = " ".join(result.message.split())
    checkers = accepting(result, message) if result.ok else []
    verdict = coq_files.check(path, coq_seconds, result) if coq else None
    if verdict is not None and verdict.status == coq_files.RECHECKED:
        checkers.append("Coq")
    return Recheck(checkers, message, verdict)
