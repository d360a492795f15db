"""Which independent checkers re-checked a certificate: check-cert (balls and exact data, or z3 and cvc5 for smt)
and, when asked, Coq. What `headflow check-cert` prints, and what the reports list per verdict.

A checker is listed only when it accepted the file in this run: check-cert when the certificate re-checks against
its claim's obligation (each smt solver only when it answered within its time limit), Coq only when coqc accepted
the regenerated Coq file (`headflow.checks.coq_files`). Nothing is remembered between runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from headflow.certificates.errors import InputError
from headflow.certificates.kernel import solvers
from headflow.certificates.kernel.verify import CheckResult, check_file
from headflow.certificates.statements import restated
from headflow.checks import coq_files

if TYPE_CHECKING:
    from headflow.certificates.claims.schema import UserClaim

#: The name of check-cert's own re-check of a certificate that is not smt (balls, exact data).
BALLS = "check-cert (balls)"
#: check-cert's own re-check where it is exact algebra alone (no ball, no solver), by certificate kind.
EXACT = {kind: "check-cert (exact algebra)" for kind in ("gram", "start", "sums")}


@dataclass(frozen=True)
class Recheck:
    """One certificate re-checked: whether check-cert accepted it, its line (what it proves, or why not), the checkers
    that accepted it, and the Coq re-check (or None)."""

    ok: bool
    message: str
    checkers: list[str]
    coq: coq_files.CoqCheck | None = None

    @property
    def coq_missing(self) -> str:
        """Why Coq is not among the checkers ("" when it is, or when Coq was not asked): its status and reason."""
        if self.coq is None or self.coq.status == coq_files.RECHECKED:
            return ""
        return f"{self.coq.status}: {' '.join(self.coq.message.split())[:300]}".rstrip(": ")


def accepting(checked: CheckResult) -> list[str]:
    """The checkers that re-checked a certificate the kernel accepted (`checked`, its result): check-cert itself and,
    for smt, each solver that answered within its limits (the result's `solvers`, structured by the kernel)."""
    kind = checked.certificate["kind"] if checked.certificate is not None else ""
    return ["check-cert", *checked.solvers] if kind == "smt" else [EXACT.get(kind, BALLS)]


def recheck(
    path: Path,
    coq: bool = False,
    solver_seconds: float = solvers.DEFAULT_SECONDS,
    coq_seconds: float = coq_files.run.SECONDS,
    claims: dict[str, UserClaim] | None = None,
    read_claim: bool = False,
) -> Recheck:
    """Re-check one certificate with check-cert and, when `coq`, with coqc; never raises for a bad file. The file is
    loaded and checked by the kernel once: the Coq file is written from that one result. With `read_claim` (what
    `headflow check-cert` adds to the kernel), check-cert also refuses a file whose embedded claim is not one claim
    as headflow writes it, or (with `claims`, `--claims`) not the user's claim of its id (`refused_claim`)."""
    checked = check_file(path, solver_seconds)
    ok, message = checked.ok, " ".join(checked.message.split())
    if ok and read_claim and (refusal := refused_claim(checked.certificate, claims)) is not None:
        ok, message = False, refusal
    checkers = accepting(checked) if ok else []
    verdict = coq_files.check(path, coq_seconds, checked) if coq else None
    if verdict is not None and verdict.status == coq_files.RECHECKED:
        checkers.append("Coq")
    return Recheck(ok, message, checkers, verdict)


def refused_claim(certificate: dict[str, Any] | None, claims: dict[str, UserClaim] | None) -> str | None:
    """Why check-cert refuses the claim a certificate the kernel accepted embeds (None: it does not). The embedded
    claim is provenance, never evidence: the kernel holds it to its form (`{"toml": text}`) and its text is read here
    by the claims-file loader, so free text (`title`, `statement`), a comment or any other spacing or order than the
    canonical text is refused naming what is wrong (issue 23: nothing in a certificate is unchecked). With `claims`
    (the user's file, by id) the embedded claim must be the file's, and the certificate's core statement the one the
    file's claim elaborates into (elaborated again here, so a statement that is not the claim's never passes)."""
    # here: the claims-file loader brings SymPy, which the reports' re-check (no `read_claim`) never needs
    from headflow.certificates.claims.embedding import embedded, embedded_claim_mismatch, read_embedded

    if certificate is None:
        return None
    if certificate["claim"] is not None:
        try:
            read_embedded(certificate["claim"])
        except InputError as exc:
            return f"the embedded claim: {exc}"
    if claims is None or certificate["claim"] is None:  # a registry lemma: the kernel holds it to its own table
        return None
    mismatch = embedded_claim_mismatch(certificate, claims)
    return mismatch or restated(certificate, embedded(claims[certificate["claim_id"]]))
