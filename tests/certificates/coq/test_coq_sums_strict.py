"""A strict `sums` statement in Coq (`certificates.kernel.coq.sums_statement`, `certificates.coq.sums`): the summed
Condition 8, strict, and the head's energy (examples/implications.toml, strict-summed-condition8-with-energy).

The Theorem states the claim: the strict premise, M g M g' = 0 for heads g != g' (orthogonal-heads), the strict goal.
The proof gets its term > 0 from the strict premise (`lra`) and its coefficient (`nra`), the other heads' pairings
from the orthogonality premise. Coq re-checks the genuine proof and rejects it with the premise made non-strict (only
parts >= 0 left), a coefficient of the identity changed, the given or the orthogonality premise dropped.
"""

from __future__ import annotations

from pathlib import Path

from headflow.certificates.coq.source import source
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import problem
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.model_sums import certify_model
from headflow.checks import coq_files

from tests.coq_tier import needs_coqc
from tests.sample_claims import example, one_claim

STRICT = "strict-summed-condition8-with-energy"
PREMISE = "(hsum n (fun i => ((a h i) * (A h i)))) < (hsum n (fun i => (T h i))) ->\n"
ORTHOGONAL = "  (forall g g' u, (g < H)%nat -> (g' < H)%nat -> g <> g' -> M g (M g' u) = zero) ->\n"


def genuine(folder: Path) -> tuple[Path, str, str]:
    """The certificate, its Coq source (statement and proof) and the Theorem's text."""
    path = certify_model(one_claim(example("implications", STRICT)), folder)
    assert path is not None
    sentence, built = problem(check_file(path))
    return path, source(path.name, "c", sentence, built), built.text


def test_the_theorem_states_the_strict_claim(tmp_path: Path) -> None:
    _, _, stated = genuine(tmp_path)
    assert PREMISE in stated and ORTHOGONAL in stated
    assert stated.rstrip().endswith("((((INR n) ^ 3) * (dEh h)) + (Eh h)) > 0.")


@needs_coqc
def test_the_strict_claim_is_rechecked_by_coq(tmp_path: Path) -> None:
    path, _, _ = genuine(tmp_path)
    verdict = coq_files.check(path)
    assert verdict.status == coq_files.RECHECKED, verdict.message


@needs_coqc
def test_coq_refuses_the_premise_not_strict_a_coefficient_or_a_premise_dropped(tmp_path: Path) -> None:
    _, text, stated = genuine(tmp_path)
    weak = stated.replace(PREMISE, PREMISE.replace(") < (", ") <= ("))
    dropped_given = stated.replace(f"  {PREMISE}", "")
    dropped_orthogonal = stated.replace(ORTHOGONAL, "")
    forged = {
        "not strict": text.replace(stated, weak),
        "a coefficient": text.replace("L - R = 1 * N0 + 1 * N1", "L - R = 2 * N0 + 1 * N1"),
        "the given dropped": text.replace(stated, dropped_given).replace(" dE G0.", " dE."),
        "orthogonality dropped": text.replace(stated, dropped_orthogonal).replace(" HOrth ", " "),
    }
    for what, source_text in forged.items():
        assert source_text != text, what
        assert run.compile_source(source_text).status == "rejected", what
