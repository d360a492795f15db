"""The verdict of a conjunction (`kind = "all"`) from the verdicts of its parts.

A conjunction is false when one part is false and true only when every part is: REFUTED by the first refuted
part's witness; PROVED when every part is PROVED; CERTIFIED when every part is PROVED or CERTIFIED; INCONCLUSIVE
when some part is (and none is refuted); otherwise CONFIRMED, on the fewest cases and the widest tolerance of its
confirmed parts. Each part's own evidence is kept in the details.
"""

from __future__ import annotations

from collections.abc import Sequence

from headflow.certificates.claims.schema import UserClaim
from headflow.checks.verdicts import TRUE_VERDICTS, Outcome, Verdict
from headflow.identities.derivation import Step

METHOD = "conjunction: every part decided by its own kind"


def conjunction(parts: Sequence[tuple[UserClaim, Outcome]]) -> Outcome:
    """The outcome of `all of the parts` from each part's claim and outcome."""
    verdicts = [outcome.verdict for _, outcome in parts]
    details = {
        "parts": [{"id": claim.id, "statement": claim.statement, **outcome.as_dict()} for claim, outcome in parts]
    }
    certificates = [path for _, outcome in parts for path in outcome.certificates]
    listed = "; ".join(f"{claim.id}: {outcome.verdict.value}" for claim, outcome in parts)
    for claim, outcome in parts:
        if outcome.verdict is Verdict.REFUTED:
            witness = {**(outcome.witness or {}), "part": claim.id}
            notes = f"part {claim.id} is refuted ({claim.statement}); parts: {listed}"
            return Outcome(
                Verdict.REFUTED, METHOD, witness=witness, certificates=certificates, notes=notes, details=details
            )
    if all(verdict in TRUE_VERDICTS for verdict in verdicts):
        steps = [
            step
            for claim, outcome in parts
            for step in (Step(f"Part {claim.id} ({outcome.verdict.value}): {claim.statement}"), *outcome.steps)
        ]
        verdict = Verdict.PROVED if all(v is Verdict.PROVED for v in verdicts) else Verdict.CERTIFIED
        return Outcome(verdict, METHOD, steps=steps, certificates=certificates, notes=listed, details=details)
    undecided = [(claim, outcome) for claim, outcome in parts if outcome.verdict is Verdict.INCONCLUSIVE]
    if undecided:
        reasons = "; ".join(f"{claim.id}: {outcome.notes}" for claim, outcome in undecided)
        return Outcome(Verdict.INCONCLUSIVE, METHOD, certificates=certificates, notes=reasons, details=details)
    confirmed = [outcome for _, outcome in parts if outcome.verdict is Verdict.CONFIRMED]
    return Outcome(
        Verdict.CONFIRMED,
        METHOD,
        cases=min(outcome.cases or 0 for outcome in confirmed),
        tolerance=max(outcome.tolerance or 0.0 for outcome in confirmed),
        certificates=certificates,
        notes=f"the weakest part is only confirmed; parts: {listed}",
        details=details,
    )
