"""The kernel holds a Coq file to its statement: a proof may not add an axiom, admit a goal, bypass a check of Coq's
kernel or change what the stated text means. Each attack is caught by coqc's own reading of the file
(`run.compile_source`: `Print Assumptions` names every assumption beyond the standard axioms, and the theorems' and
definitions' printing and names answer as in the kernel's statement compiled alone), never by its text: a statement
in a comment, a notation, a shadowing name or a printing option changes what coqc answers, whatever the text says."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from certificates.coq.source import source
from certificates.kernel.coq import run
from certificates.kernel.coq.statements import PointProblem, statement_file, theorem_name, theorem_names
from certificates.provers.witness import certify_obligation_point
from checks import coq_files

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


def _guard(text: str, problem: PointProblem, claim: str = CLAIM) -> run.CoqAnswer:
    """coqc's reading of `text` against the kernel's statement of `problem` for `claim` (what check-cert --coq runs)."""
    statement = statement_file("demo", claim, "demo", problem)
    return run.compile_source(text, theorems=theorem_names(claim, problem), statement=statement)


#: Cheats in the proof of the false statement (x = 1/5 > 1/4).
CHEATS = [
    "Proof. admit. Admitted.",
    "Proof. Admitted.",
    "Axiom cheat : False.\nProof. exfalso; exact cheat. Qed.",
    'Proof. Local Notation "a > b" := True. Admitted.',
]


@needs_coq
def test_an_altered_statement_is_refused() -> None:
    answer = _guard(_file(TRUE).replace("(1 / 4)", "(1 / 8)", 1), TRUE)  # the theorem now states something weaker
    assert answer.status == "rejected" and "does not read" in answer.message, answer.message


@pytest.mark.slow
@needs_coq
def test_a_relabelled_file_and_every_cheat_are_refused() -> None:
    assert _guard(_file(TRUE), TRUE, "another.claim").status == "rejected"
    for cheat in CHEATS:
        answer = _guard(_cheating(FALSE, cheat), FALSE)
        assert answer.status == "rejected", (cheat, answer.message)


@pytest.mark.slow
@needs_coq
def test_a_genuine_proof_rests_only_on_standard_axioms() -> None:
    statement = statement_file("demo", CLAIM, "demo", TRUE)
    answer = run.compile_source(_file(TRUE), theorems=theorem_names(CLAIM, TRUE), statement=statement)
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


# ---------------------------------------------------------------- tricks: coqc's reading

STATED = "0 < (x - (1 / 4))"
LOOP = "Fixpoint loop (n : nat) : False := loop n."
BAD = "Inductive bad : Prop := C : (bad -> False) -> bad."
FROM_BAD = "Proof. assert (nb : bad -> False) by (intros [f]; exact (f (C f))). destruct (nb (C nb)). Qed."
BIG = "Definition big := Type : Type."
USES_BIG = "Proof. pose (u := big). unfold x. lra. Qed."

#: Trick -> (problem, what goes before the theorem, the theorem (None: the kernel's), the proof), each a file coqc
#: compiles; all but the universe bypasses prove the false statement (x = 1/5 > 1/4), those rely on an unsafe hierarchy
#: in a proof of the true one. The expected word of the guard's refusal follows.
TRICKS = {
    "theorem-in-comment-guard-bypass": (
        FALSE,
        f"#[bypass_check(guard)] {LOOP}\n(* Theorem {THEOREM} : {STATED}. *)\n",
        f"Lemma {THEOREM} : {STATED}.",
        "Proof. destruct (loop 0). Qed.",
        "assumed to be guarded",
    ),
    "admitted": (FALSE, "", None, "Proof. Admitted.", f"{THEOREM} : "),
    **{
        f"{kind.lower().replace(' ', '-')}": (
            FALSE,
            f"{kind} cheat : False.\n",
            None,
            "Proof. destruct cheat. Qed.",
            "cheat : False",
        )
        for kind in ("Axiom", "Parameter", "Hypothesis", "Variable", "Conjecture", "Local Axiom")
    },
    "unset-guard-checking": (
        FALSE,
        f"Unset Guard Checking.\n{LOOP}\nSet Guard Checking.\n",
        None,
        "Proof. destruct (loop 0). Qed.",
        "assumed to be guarded",
    ),
    "unset-positivity-checking": (
        FALSE,
        f"Unset Positivity Checking.\n{BAD}\nSet Positivity Checking.\n",
        None,
        FROM_BAD,
        "assumed to be positive",
    ),
    "bypass-positivity": (FALSE, f"#[bypass_check(positivity)] {BAD}\n", None, FROM_BAD, "assumed to be positive"),
    "unset-universe-checking": (
        TRUE,
        f"Unset Universe Checking.\n{BIG}\nSet Universe Checking.\n",
        None,
        USES_BIG,
        "unsafe hierarchy",
    ),
    "bypass-universes": (TRUE, f"#[bypass_check(universes)] {BIG}\n", None, USES_BIG, "unsafe hierarchy"),
    "notation-redefines-lt": (
        FALSE,
        'Local Notation "a < b" := (a <= b + 1) : R_scope.\n',
        None,
        "Proof. unfold x. lra. Qed.",
        "does not read",
    ),
    "module-shadows-a-definition": (
        FALSE,
        "Module Shadow. Definition x : R := 1. End Shadow. Import Shadow.\n",
        None,
        "Proof. unfold x. lra. Qed.",
        "does not read",
    ),
    "lemma-shadows-a-definition": (
        FALSE,
        "Module Shadow. Lemma x : R. Proof. exact 1. Defined. End Shadow. Import Shadow.\n",
        None,
        "Proof. unfold x. lra. Qed.",
        "does not read",
    ),
}

#: Commands outside a proof's usual sentences that coqc's reading refuses: each changes what coqc reads or checks
#: (an axiom used, a plugin, a printing option, a shadowing name, an unclosed section or comment, a second theorem).
TEXT_TRICKS = [
    "Require Import Coq.Logic.Classical.\n",
    'Declare ML Module "cheat_plugin".\n',
    "Drop.\n",
    "Set Printing All.\n",
    "Unset Printing Notations.\n",
    "#[local] Opaque x.\n",
    f"Theorem {THEOREM} : {STATED}.\nProof. unfold x. lra. Qed.\n",  # the theorem declared twice
    "Lemma R : Type. Proof. exact nat. Qed.\n",  # a lemma named like a name the statement uses
    "Section S. Variable cheat : False.\n",
    "Opaque x.(* a period that a comment follows is no sentence end for Coq *)Axiom cheat : False.\n",
    "(* a comment left open\n",
]
#: Text that changes nothing coqc proves: the theorem is still the kernel's and rests on the standard axioms alone (an
#: axiom declared and unused, a definition of a new name, a transparent proof, `Show`, `Proof using`, no `Proof.`).
HARMLESS = [
    ("Definition y : R := 0.\n", None),
    ('(* a string in a comment carries it on: " *) Axiom cheat : False. (* " *)\n', None),
    ("", "Proof. unfold x. Show. lra. Qed."),
    ("", "Proof. unfold x. Axiom cheat : False. lra. Qed."),
    ("", "Proof. unfold x. lra. Defined."),
    ("", "Proof using. unfold x. lra. Qed."),
    ("", "unfold x. lra. Qed."),
]


def _trick(problem: PointProblem, before: str, theorem: str | None = None, proof: str | None = None) -> str:
    """The genuine file with `before` inserted before its theorem, and the theorem or its proof replaced if given."""
    text = _file(problem)
    start = text.index(f"Theorem {THEOREM}")
    end = text.index("Proof.", start)
    return text[:start] + before + (theorem or text[start:end]) + "\n" + (proof or text[end:]) + "\n"


@pytest.mark.slow
@needs_coq
@pytest.mark.parametrize("before", TEXT_TRICKS)
def test_a_command_that_changes_the_reading_is_refused(before: str) -> None:
    answer = _guard(_trick(TRUE, before), TRUE)
    assert answer.status == "rejected", answer.message


@pytest.mark.slow
@needs_coq
@pytest.mark.parametrize("proof", ["Proof. unfold x. Admitted.", "Proof. Abort.", "Proof. unfold x. lra."])
def test_a_proof_left_open_admitted_or_aborted_is_refused(proof: str) -> None:
    answer = _guard(_trick(TRUE, "", proof=proof), TRUE)
    assert answer.status == "rejected", answer.message


@pytest.mark.slow
@needs_coq
@pytest.mark.parametrize(("before", "proof"), HARMLESS)
def test_text_that_changes_nothing_proved_is_accepted(before: str, proof: str | None) -> None:
    """The guard reads what coqc proves, not the file's text: these edits leave the kernel's theorem, as coqc reads it,
    proved on the standard axioms alone; on the false statement the same edits prove nothing."""
    assert _guard(_trick(TRUE, before, proof=proof), TRUE).status == "accepted"
    assert _guard(_trick(FALSE, before, proof=proof), FALSE).status == "rejected"


def test_every_kind_of_assumption_is_foreign() -> None:
    """`Print Assumptions`' output as coqc 8.16 writes it: only the standard axioms pass, and an unknown line fails."""
    output = """Section Variables:
v
: False
Axioms:
tt3 relies on an unsafe hierarchy.
loop is assumed to be guarded.
bad is assumed to be positive.
ClassicalDedekindReals.sig_forall_dec
  : forall P : nat -> Prop,
    (forall n : nat, {P n} + {~ P n}) -> {n : nat | ~ P n} + {forall n : nat, P n}
FunctionalExtensionality.functional_extensionality_dep
  : forall (A : Type) (B : A -> Type) (f g : forall x : A, B x), (forall x : A, f x = g x) -> f = g
ax : 1 = 2
ClassicalDedekindReals.fake is assumed to be guarded.
something Coq may print one day
"""
    assert run.foreign_assumptions(output) == [
        "Section Variables:",
        "v",
        ": False",
        "tt3 relies on an unsafe hierarchy.",
        "loop is assumed to be guarded.",
        "bad is assumed to be positive.",
        "ax : 1 = 2",
        "ClassicalDedekindReals.fake is assumed to be guarded.",
        "something Coq may print one day",
    ]
    assert run.foreign_assumptions("Axioms:\nClassicalDedekindReals.sig_forall_dec\n  : P\n") == []
    assert run.foreign_assumptions("Closed under the global context\n") == []


def _guarded(trick: str) -> run.CoqAnswer:
    problem, before, theorem, proof, _ = TRICKS[trick]
    return _guard(_trick(problem, before, theorem, proof), problem)


@needs_coq
def test_coqc_refuses_the_theorem_in_a_comment_with_a_guard_bypass() -> None:
    """The issue's file: coqc compiles it and `Print Assumptions` once passed it; now its assumption rejects it."""
    answer = _guarded("theorem-in-comment-guard-bypass")
    assert answer.status == "rejected" and "assumed to be guarded" in answer.message, answer.message


@pytest.mark.slow
@needs_coq
@pytest.mark.parametrize("trick", [t for t in TRICKS if t != "theorem-in-comment-guard-bypass"])
def test_coqc_refuses_every_trick(trick: str) -> None:
    """Each trick compiles (coqc's exit code alone would accept it); the guard's reading of coqc's output refuses it."""
    answer = _guarded(trick)
    assert answer.status == "rejected" and TRICKS[trick][4] in answer.message, answer.message


@needs_coq
def test_check_cert_holds_a_certificate_file_to_its_statement(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The issue's trick in a real certificate's file, through `coq_files.check`: coqc's reading (the statement
    compiled alone, `Print Assumptions`) refuses it."""
    result = certify_obligation_point(
        "T22.superadditivity", {"n": 2, "H": 2}, [Fraction(11, 100), Fraction(242, 45)], tmp_path
    )
    assert result.path is not None
    genuine = coq_files.coq_text(Path(result.path))
    start = genuine.index("Theorem claim_")
    end = genuine.index("Proof.", start)
    theorem = genuine[start:end]
    lemma = theorem.replace("Theorem", "Lemma", 1) + "\nProof. destruct (loop 0). Qed.\n"
    trick = f"{genuine[:start]}#[bypass_check(guard)] {LOOP}\n(* {theorem} *)\n{lemma}"
    monkeypatch.setattr(coq_files, "source", lambda *args: trick)
    verdict = coq_files.check(Path(result.path))
    assert verdict.status == coq_files.REJECTED and "assumed to be guarded" in verdict.message, verdict.message
