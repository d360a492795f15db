"""Verdicts (SPEC section 3) and the evidence a procedure must attach to each one.

The rules of the SPEC are enforced when an Outcome is built: PROVED needs derivation steps,
CERTIFIED needs a certificate file, CONFIRMED needs a case count and a tolerance, REFUTED needs
a witness that says how it was verified rigorously. A procedure cannot skip them.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from headflow.identities.derivation import Derivation, Step


class Verdict(enum.StrEnum):
    PROVED = "PROVED"
    CERTIFIED = "CERTIFIED"
    CONFIRMED = "CONFIRMED"
    REFUTED = "REFUTED"
    INCONCLUSIVE = "INCONCLUSIVE"


#: Verdicts that settle a claim true, or false, with exact or rigorous methods.
TRUE_VERDICTS = frozenset({Verdict.PROVED, Verdict.CERTIFIED})
#: Rigour methods a REFUTED witness may cite.
RIGOROUS_WITNESS_METHODS = frozenset({"exact", "ball"})


class EvidenceError(ValueError):
    """An Outcome that does not carry what its verdict requires (a bug in a procedure)."""


@dataclass
class Outcome:
    """What one decision procedure concluded about one claim, with its evidence."""

    verdict: Verdict
    method: str
    cases: int | None = None
    worst_margin: float | None = None
    tolerance: float | None = None
    #: The first-order bound on the rounding error of the float `worst_margin` (None where none is carried).
    error_bound: float | None = None
    witness: dict[str, Any] | None = None
    certificates: list[str] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    notes: str = ""
    details: dict[str, Any] = field(default_factory=dict)
    #: What was found that the paper's summary states differently (empty when it agrees).
    finding: str = ""

    def __post_init__(self) -> None:
        self.verdict = Verdict(self.verdict)
        if self.verdict is Verdict.PROVED and not self.steps:
            raise EvidenceError("PROVED needs the derivation steps")
        if self.verdict is Verdict.CERTIFIED and not self.certificates:
            raise EvidenceError("CERTIFIED needs at least one certificate file")
        if self.verdict is Verdict.CONFIRMED and (not self.cases or self.tolerance is None):
            raise EvidenceError("CONFIRMED needs a positive case count and a tolerance")
        if self.verdict is Verdict.REFUTED:
            verified = (self.witness or {}).get("verified_by")
            if verified not in RIGOROUS_WITNESS_METHODS:
                raise EvidenceError("REFUTED needs a witness with verified_by in {'exact', 'ball'}")
        if self.verdict is Verdict.INCONCLUSIVE and not self.notes:
            raise EvidenceError("INCONCLUSIVE needs the reason in notes")

    def with_certificate(self, path: object) -> Outcome:
        """This outcome with one more certificate file, when a route wrote one (`path` None: unchanged)."""
        return self if path is None else dataclasses.replace(self, certificates=[*self.certificates, str(path)])

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready evidence of this procedure."""
        data: dict[str, Any] = {"method": self.method, "verdict": self.verdict.value}
        for key in ("cases", "worst_margin", "error_bound", "tolerance", "witness", "notes", "finding"):
            value = getattr(self, key)
            if value not in (None, ""):
                data[key] = value
        if self.certificates:
            data["certificates"] = list(self.certificates)
        if self.steps:
            data["steps"] = [{"text": s.text, "latex": s.latex, "kind": s.kind} for s in self.steps]
        if self.details:
            data["details"] = self.details
        return data


def combine(outcomes: list[Outcome]) -> tuple[Verdict, str]:
    """One verdict from several procedures' outcomes, and a note when they conflict.

    A rigorous REFUTED next to a PROVED or CERTIFIED is a soundness alarm: the claim is
    reported INCONCLUSIVE with the conflict named. Otherwise the strongest verdict wins:
    PROVED, then CERTIFIED, then REFUTED, then CONFIRMED, then INCONCLUSIVE.
    """
    verdicts = {o.verdict for o in outcomes}
    if Verdict.REFUTED in verdicts and verdicts & TRUE_VERDICTS:
        return Verdict.INCONCLUSIVE, "procedures disagree: a rigorous refutation and a proof"
    for verdict in (Verdict.PROVED, Verdict.CERTIFIED, Verdict.REFUTED, Verdict.CONFIRMED):
        if verdict in verdicts:
            return verdict, ""
    return Verdict.INCONCLUSIVE, ""


def derived(derivation: Derivation, method: str, details: dict[str, Any] | None = None) -> Outcome:
    """PROVED with the steps when every check of the derivation passed; INCONCLUSIVE with the failures otherwise."""
    if derivation.proved:
        return Outcome(Verdict.PROVED, method, steps=list(derivation.steps), details=details or {})
    return Outcome(
        Verdict.INCONCLUSIVE,
        method,
        notes="symbolic derivation did not close: " + "; ".join(derivation.failures),
        details=details or {},
    )


def exact_else(exact: Outcome | None, fallback: Callable[[], Outcome]) -> Outcome:
    """An exact route's outcome where it decides; otherwise the fallback's (floats, at most CONFIRMED), with the exact
    route's notes and details joined to it when that route ran without deciding, so the report says why it did not."""
    if exact is not None and exact.verdict is not Verdict.INCONCLUSIVE:
        return exact
    numeric = fallback()
    if exact is None:
        return numeric
    notes = "; ".join(note for note in (exact.notes, numeric.notes) if note)
    return dataclasses.replace(numeric, notes=notes, details=(numeric.details or {}) | {"exact_route": exact.details})
