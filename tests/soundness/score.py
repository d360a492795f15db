"""Run mutants through the claim runner and compute the mutation score (printed as a table)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from headflow.checks.registry import Context
from headflow.checks.runner import run_claim
from headflow.checks.verdicts import TRUE_VERDICTS, Verdict

from tests.soundness.mutation import Mutant, accepted, killed, registry


@dataclass
class MutantResult:
    """A mutant and what the deciding code concluded about it."""

    mutant: Mutant
    verdict: Verdict
    note: str
    seconds: float

    @property
    def sound(self) -> bool:
        """Required false mutants killed, other false mutants never PROVED or CERTIFIED (floats may miss a
        change below their tolerance), true variants never refuted (and accepted when marked `accept`)."""
        if not self.mutant.true:
            return killed(self.verdict) or (not self.mutant.required and self.verdict not in TRUE_VERDICTS)
        return self.verdict is not Verdict.REFUTED and (accepted(self.verdict) or not self.mutant.accept)

    @property
    def status(self) -> str:
        """ok, 'missed' (a non-required false mutant that floats could not see), or BAD."""
        if not self.sound:
            return "BAD"
        return "missed" if not self.mutant.true and not killed(self.verdict) else "ok"


def run(mutants: list[Mutant], directory: Path, seed: int = 0) -> list[MutantResult]:
    """Decide every mutant (as claim `mutant.<id>` of a private registry) with certificates in `directory`."""
    reg = registry(mutants)
    results = []
    for mutant in mutants:
        result = run_claim(reg.get(f"mutant.{mutant.id}"), Context("quick", seed, directory))
        outcome = result.outcomes[0][1]
        note = outcome.notes or outcome.method
        results.append(MutantResult(mutant, result.verdict, " ".join(note.split())[:90], result.seconds))
    return results


def score(results: list[MutantResult], required_only: bool = False) -> tuple[int, int, int]:
    """(false mutants killed, false mutants rigorously REFUTED, false mutants), over required ones if asked."""
    false = [r for r in results if not r.mutant.true and (r.mutant.required or not required_only)]
    return (
        sum(killed(r.verdict) for r in false),
        sum(r.verdict is Verdict.REFUTED for r in false),
        len(false),
    )


def table(results: list[MutantResult]) -> str:
    """A plain-text table: id, claim, description, expected truth, required, verdict, sound, seconds."""
    header = f"{'id':<26} {'claim':<30} {'truth':<5} {'req':<3} {'verdict':<12} {'status':<6} {'s':>5}  description"
    lines = [header, "-" * len(header)]
    for r in results:
        m = r.mutant
        lines.append(
            f"{m.id:<26} {m.claim:<30} {'true' if m.true else 'false':<5} {'yes' if m.required else 'no':<3} "
            f"{r.verdict.value:<12} {r.status:<6} {r.seconds:5.2f}  {m.description}"
        )
    k, refuted, total = score(results)
    rk, _, rtotal = score(results, required_only=True)
    lines.append(
        f"mutation score: {k}/{total} false mutants killed ({100 * k / max(total, 1):.0f}%), {refuted} of them "
        f"REFUTED with a rigorous witness; required: {rk}/{rtotal}; true variants: "
        f"{sum(r.sound for r in results if r.mutant.true)}/{sum(r.mutant.true for r in results)} sound"
    )
    return "\n".join(lines)
