"""The kernel holds a Coq file to its statement: a proof may not add an axiom, admit a goal or change what the
stated text means. Each attack is caught twice: by the text check (`require_stated`) before coqc runs, and by
`Print Assumptions` after it (an axiom the statement rests on rejects the file even if the text check were fooled)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from certificates.coq.source import source
from certificates.kernel.coq import run
from certificates.kernel.coq.statements import (
    NotStated,
    PointProblem,
    require_stated,
    theorem_name,
    theorem_names,
)

needs_coq = pytest.mark.skipif(run.coqc() is None, reason="coqc is not installed (apt-get install coq libcoq-interval)")

CLAIM = "demo.third-above-quarter"
#: x = 1/3 satisfies x - 1/4 > 0 (true); the same problem with x = 1/5 is false.
TRUE = PointProblem({"x": Fraction(1, 3)}, [("x > 1/4", ["sub", ["sym", "x"], ["rat", "1/4"]], ">")], 64)
FALSE = PointProblem({"x": Fraction(1, 5)}, [("x > 1/4", ["sub", ["sym", "x"], ["rat", "1/4"]], ">")], 64)
THEOREM = theorem_name(CLAIM)


def _file(problem: PointProblem) -> str:
    return source("demo", CLAIM, "demo", problem)


def _cheating(problem: PointProblem, cheat: str) -> str:
    """The file with its proof replaced by `cheat` (inserted before the theorem when it declares something)."""
    text = _file(problem)
    start = text.index("Proof.", text.index(f"Theorem {THEOREM}"))
    return text[:start] + cheat + "\n"


def test_the_genuine_file_is_stated() -> None:
    require_stated(_file(TRUE), "demo", CLAIM, "demo", TRUE)


@pytest.mark.parametrize(
    "cheat",
    [
        "Proof. admit. Admitted.",
        "Proof. Admitted.",
        "Axiom cheat : False.\nProof. exfalso; exact cheat. Qed.",
        'Proof. Local Notation "a > b" := True. Admitted.',
    ],
)
def test_a_proof_that_cheats_is_refused_before_coqc(cheat: str) -> None:
    with pytest.raises(NotStated):
        require_stated(_cheating(FALSE, cheat), "demo", CLAIM, "demo", FALSE)


def test_an_altered_statement_is_refused() -> None:
    text = _file(TRUE).replace("1/4", "1/8", 1)  # the theorem now states something weaker
    with pytest.raises(NotStated):
        require_stated(text, "demo", CLAIM, "demo", TRUE)


def test_a_relabelled_header_is_refused() -> None:
    with pytest.raises(NotStated):
        require_stated(_file(TRUE), "demo", "another.claim", "demo", TRUE)


@pytest.mark.slow
@needs_coq
def test_a_genuine_proof_rests_only_on_standard_axioms() -> None:
    answer = run.compile_source(_file(TRUE), theorems=theorem_names(CLAIM, TRUE))
    assert answer.status == "accepted", answer.message


@needs_coq
@pytest.mark.parametrize(
    "cheat", ["Proof. admit. Admitted.", "Axiom cheat : False.\nProof. exfalso; exact cheat. Qed."]
)
def test_coqc_accepts_a_cheat_but_print_assumptions_rejects_it(cheat: str) -> None:
    """coqc alone compiles an admitted or axiom-based proof of a false statement: the assumptions check stops it."""
    text = _cheating(FALSE, cheat)
    assert run.compile_source(text).status == "accepted"  # what coqc's exit code alone would have said
    answer = run.compile_source(text, theorems=[THEOREM])
    assert answer.status == "rejected" and "not a standard axiom" in answer.message


def test_theorem_names_must_be_identifiers() -> None:
    with pytest.raises(ValueError):
        run.compile_source("", theorems=["x. Axiom y : False"])
