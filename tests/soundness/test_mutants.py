"""The soundness suite: no false mutant is accepted, no true variant is refuted (see mutation.py and mutants.py).

Each mutant is one test (fast ones by default, thorough ones marked slow); the mutation score over
the mutants that ran is printed at the end of the session by conftest.py, and
`test_mutation_score_of_required_mutants` fails below 100% of the required false mutants.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from headflow.checks.verdicts import TRUE_VERDICTS, Verdict

from tests.soundness import score
from tests.soundness.mutants import all_mutants
from tests.soundness.mutation import Mutant, accepted

MUTANTS = all_mutants()
RESULTS: dict[str, score.MutantResult] = {}


def _decide(mutant: Mutant, directory: Path) -> score.MutantResult:
    if mutant.id not in RESULTS:
        RESULTS[mutant.id] = score.run([mutant], directory)[0]
    return RESULTS[mutant.id]


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mutant-certificates")


@pytest.mark.parametrize(
    "mutant", [pytest.param(m, id=m.id, marks=[pytest.mark.slow] if m.slow else []) for m in MUTANTS]
)
def test_mutant(mutant: Mutant, certificates: Path) -> None:
    result = _decide(mutant, certificates)
    if mutant.true:
        assert result.verdict is not Verdict.REFUTED, f"a true variant was refuted: {result.note}"
        if mutant.accept:
            assert accepted(result.verdict), f"the true variant was not accepted: {result.note}"
    elif mutant.required:
        assert result.verdict in (Verdict.REFUTED, Verdict.INCONCLUSIVE), f"a false mutant came out {result.verdict}"
    else:
        assert result.verdict not in TRUE_VERDICTS, f"a false mutant came out {result.verdict}"


def test_mutation_score_of_required_mutants(certificates: Path, request: pytest.FixtureRequest) -> None:
    """Every required false mutant that ran (all fast ones at least) is killed: score 100%."""
    chosen = [m for m in MUTANTS if not m.slow or m.id in RESULTS]
    results = [_decide(m, certificates) for m in chosen]
    killed, _, total = score.score(results, required_only=True)
    assert total >= 50
    assert killed == total, score.table([r for r in results if not r.sound])


def test_every_decided_claim_has_a_false_mutant() -> None:
    """The table covers every SPEC claim that has a decision procedure today (readings fold into their claim)."""
    from headflow.checks.registry import load_all

    decided = {c.id for c in load_all().claims() if c.procedures}
    covered = {m.claim for m in MUTANTS if not m.true}
    uncovered = {
        claim
        for claim in decided
        if not any(claim == c or claim.startswith(c + ".") or c.startswith(claim + ".") for c in covered)
    }
    assert not uncovered, f"claims without a false mutant: {sorted(uncovered)}"
