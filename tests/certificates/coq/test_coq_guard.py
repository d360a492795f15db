"""The kernel holds a Coq file to its statement: a proof may not add an axiom, admit a goal, bypass a check of Coq's
kernel or change what the stated text means. Each attack is caught twice: by the sentence check (`require_stated`:
the statements, then only lemmas, `Opaque`, and tactic sentences between `Proof.` and `Qed.`) before coqc runs, and
by coqc after it (`run.compile_source`: `Print Assumptions` names every assumption beyond the standard axioms, and the
theorems' and definitions' printing and names answer as in the kernel's statement compiled alone)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from headflow.certificates.coq.source import source
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.statements import (
    NotStated,
    PointProblem,
    guard,
    require_stated,
    sentences,
    theorem_name,
)
from headflow.certificates.provers.witness import certify_obligation_point
from headflow.checks import coq_files

from tests.coq_tier import needs_coqc

CLAIM = "demo.third-above-quarter"
#: x = 1/3 satisfies x - 1/4 > 0 (true); the same problem with x = 1/5 is false.
ABOVE = {"name": "x > 1/4", "expression": ["sub", ["sym", "x"], ["rat", "1/4"]], "relation": ">"}
TRUE = PointProblem({"x": Fraction(1, 3)}, [ABOVE])
FALSE = PointProblem({"x": Fraction(1, 5)}, [ABOVE])
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
    text = _file(TRUE).replace("(1 / 4)", "(1 / 8)", 1)  # the theorem now states something weaker
    with pytest.raises(NotStated):
        require_stated(text, "demo", CLAIM, "demo", TRUE)


def test_a_relabelled_header_is_refused() -> None:
    with pytest.raises(NotStated):
        require_stated(_file(TRUE), "demo", "another.claim", "demo", TRUE)


@pytest.mark.slow
@needs_coqc
def test_a_genuine_proof_rests_only_on_standard_axioms() -> None:
    answer = run.compile_source(_file(TRUE), **guard("demo", CLAIM, "demo", TRUE))
    assert answer.status == "accepted", answer.message


@needs_coqc
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


# ---------------------------------------------------------------- tricks: the sentence check and coqc's reading

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

#: Tricks the sentence check refuses whether or not coqc would compile them.
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
    "Definition y : R := 0.\n",
    "Opaque x.(* a period that a comment follows is no sentence end for Coq *)Axiom cheat : False.\n",
    "(* a comment left open\n",
    '(* a string in a comment carries it on: " *) Axiom cheat : False. (* " *)\nAxiom cheat : False.\n',
]


def _trick(problem: PointProblem, before: str, theorem: str | None = None, proof: str | None = None) -> str:
    """The genuine file with `before` inserted before its theorem, and the theorem or its proof replaced if given."""
    text = _file(problem)
    start = text.index(f"Theorem {THEOREM}")
    end = text.index("Proof.", start)
    return text[:start] + before + (theorem or text[start:end]) + "\n" + (proof or text[end:]) + "\n"


@pytest.mark.parametrize("trick", TRICKS)
def test_a_trick_is_refused_by_the_sentence_check(trick: str) -> None:
    problem, before, theorem, proof, _ = TRICKS[trick]
    with pytest.raises(NotStated):
        require_stated(_trick(problem, before, theorem, proof), "demo", CLAIM, "demo", problem)


@pytest.mark.parametrize("before", TEXT_TRICKS)
def test_a_command_outside_the_allow_list_is_refused(before: str) -> None:
    with pytest.raises(NotStated):
        require_stated(_trick(TRUE, before), "demo", CLAIM, "demo", TRUE)


@pytest.mark.parametrize(
    "proof",
    [
        "Proof. unfold x. Admitted.",
        "Proof. Abort.",
        "Proof. unfold x. Show. lra. Qed.",
        "Proof. unfold x. Axiom cheat : False. lra. Qed.",
        "Proof. unfold x. lra. Defined.",
        "Proof using. unfold x. lra. Qed.",
        "unfold x. lra. Qed.",
        "Proof. unfold x. lra.",
    ],
)
def test_a_proof_is_tactic_sentences_between_proof_and_qed(proof: str) -> None:
    with pytest.raises(NotStated):
        require_stated(_trick(TRUE, "", proof=proof), "demo", CLAIM, "demo", TRUE)


def test_comments_and_layout_do_not_matter_to_the_sentence_check() -> None:
    text = _file(TRUE).replace("(* x > 1/4 *)", "(* another (* nested *) comment *)").replace(" :\n ", " :  \n\n ")
    require_stated(text, "demo", CLAIM, "demo", TRUE)
    assert sentences('Opaque x. (* "*)" *) Lemma y : 0 < 1.\nProof. lra. Qed.') == [
        "Opaque x",
        "Lemma y : 0 < 1",
        "Proof",
        "lra",
        "Qed",
    ]


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
    text = _trick(problem, before, theorem, proof)
    return run.compile_source(text, **guard("demo", CLAIM, "demo", problem))


@needs_coqc
def test_coqc_refuses_the_theorem_in_a_comment_with_a_guard_bypass() -> None:
    """The issue's file: coqc compiles it and `Print Assumptions` once passed it; now its assumption rejects it."""
    answer = _guarded("theorem-in-comment-guard-bypass")
    assert answer.status == "rejected" and "assumed to be guarded" in answer.message, answer.message


@pytest.mark.slow
@needs_coqc
@pytest.mark.parametrize("trick", [t for t in TRICKS if t != "theorem-in-comment-guard-bypass"])
def test_coqc_refuses_every_trick_the_sentence_check_would_miss(trick: str) -> None:
    """Each trick compiles (coqc's exit code alone would accept it); the guard's reading of coqc's output refuses it."""
    answer = _guarded(trick)
    assert answer.status == "rejected" and TRICKS[trick][4] in answer.message, answer.message


@needs_coqc
def test_check_cert_holds_a_certificate_file_to_its_statement_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's trick in a real certificate's file, through `coq_files.check`: the sentence check refuses it, and
    with that check switched off, coqc's reading (the statement compiled alone, `Print Assumptions`) still does."""
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
    assert verdict.status == coq_files.REJECTED and "does not state the claim" in verdict.message, verdict.message
    monkeypatch.setattr(coq_files, "require_stated", lambda *args: None)
    verdict = coq_files.check(Path(result.path))
    assert verdict.status == coq_files.REJECTED and "assumed to be guarded" in verdict.message, verdict.message
