"""Run the procedures of selected claims, time them, and turn crashes into INCONCLUSIVE."""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from headflow.certificates.errors import BudgetExceeded
from headflow.checks.registry import Claim, Context
from headflow.checks.verdicts import Outcome, Verdict, combine

#: The reason given to a procedure that the overall deadline left no time to start.
TIMED_OUT = "the time budget (--timeout) ran out before this procedure started"


@dataclass
class ClaimResult:
    """The decided claim: combined verdict, per-procedure outcomes, seconds, crash flag."""

    claim: Claim
    verdict: Verdict
    outcomes: list[tuple[str, Outcome]]
    seconds: float
    crashed: bool = False
    conflict: str = ""
    certificates: list[str] = field(default_factory=list)
    #: Certificate path -> the independent checkers that re-checked it in this run; None when none were run.
    rechecked: dict[str, list[str]] | None = None
    #: Certificate path -> why Coq did not accept it (its status and reason), for those it did not; with `rechecked`.
    coq_missing: dict[str, str] = field(default_factory=dict)

    @property
    def method(self) -> str:
        return "; ".join(outcome.method for _, outcome in self.outcomes) or "none"


def run_claim(claim: Claim, base: Context, budget_seconds: float | None = None) -> ClaimResult:
    """Run every procedure of `claim`; a crash or an exhausted budget becomes INCONCLUSIVE."""
    start = time.monotonic()
    outcomes: list[tuple[str, Outcome]] = []
    crashed = False
    for name, procedure in claim.procedures:
        deadline = base.deadline
        if budget_seconds is not None:
            own = time.monotonic() + budget_seconds
            deadline = own if deadline is None else min(deadline, own)
        ctx = Context(base.profile, base.seed, base.certificate_dir, deadline, claim.id, base.progress)
        if ctx.seconds_left() <= 0:
            outcomes.append((name, Outcome(Verdict.INCONCLUSIVE, name, notes=f"budget: {TIMED_OUT}")))
            continue
        try:
            outcome = procedure(ctx)
        except BudgetExceeded as exc:
            outcome = Outcome(Verdict.INCONCLUSIVE, name, notes=f"budget: {exc}")
        except Exception as exc:  # a crashed procedure must not take the report down
            crashed = True
            where = traceback.extract_tb(exc.__traceback__)[-1]
            outcome = Outcome(
                Verdict.INCONCLUSIVE,
                name,
                notes=f"procedure crashed: {type(exc).__name__}: {exc} ({Path(where.filename).name}:{where.lineno})",
            )
        outcomes.append((name, outcome))
    if not outcomes:
        outcomes.append(("none", Outcome(Verdict.INCONCLUSIVE, "none", notes="no decision procedure yet")))
    verdict, conflict = combine([o for _, o in outcomes])
    certificates = [path for _, o in outcomes for path in o.certificates]
    return ClaimResult(claim, verdict, outcomes, time.monotonic() - start, crashed, conflict, certificates)


def run_claims(
    claims: Iterable[Claim],
    base: Context,
    on_result: Callable[[ClaimResult], None] | None = None,
    budget_seconds: float | None = None,
    on_start: Callable[[Claim], None] | None = None,
) -> list[ClaimResult]:
    """Decide each claim in order, calling `on_start` before and `on_result` after each (for progress display)."""
    results = []
    for claim in claims:
        if on_start is not None:
            on_start(claim)
        result = run_claim(claim, base, budget_seconds)
        results.append(result)
        if on_result is not None:
            on_result(result)
    return results
