"""The Coq statement of what a certificate proves, written from the checker's own obligation (never from file text).

The statement is the `Definition`s and the `Theorem` line; the proofs are written outside the kernel
(`certificates.coq.source`) and checked by coqc, so a wrong proof fails the file and never changes what it states.
Two shapes cover the translatable certificates:
- `PointProblem`: conditions `expr relation 0` at an exact rational point (a constant to digits, a
  counterexample, a refuting point). The file defines each coordinate once, and the `Theorem` states
  every definedness condition of every expression (`terms.definedness`) and every condition, in the
  obligation's order; `interval` proves each conjunct (bisection-free: the point is exact).
- `UniversalProblem`: statements `forall constants, hypotheses -> goal` over the reals (the SMT
  obligations: the T19 threshold statements, a claims-file inequality on its domain). The proof adds,
  for each `exp`, `sqrt`, `ln` and inverse atom, the library facts it rests on (`exp_pos`,
  `exp_ineq1_le`, monotonicity, `exp_plus`, `sqrt_sqrt` with its sign proved, `exp_ln`, `Rinv_r` with its
  base proved non-zero), then closes the goal with
  `nra`/`lra` after splitting conjunctions and equivalences.
The source starts with the prelude (`prelude.v`) inline, so each file compiles alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from certificates.kernel.coq import terms
from certificates.kernel.coq.terms import NotTranslatable

PRELUDE = (Path(__file__).with_name("prelude.v")).read_text(encoding="ascii")


@dataclass(frozen=True)
class PointProblem:
    """Conditions (name, expression tree, relation) at an exact point, with the ball precision they were settled at."""

    point: dict[str, Fraction]
    conditions: list[tuple[str, Any, str]]
    prec: int
    #: Named subterms (name, tree) after the point, each over the point and the earlier names.
    definitions: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class UniversalStatement:
    """For all real `constants`: the hypotheses (formula trees) imply the goal (a formula tree)."""

    name: str
    constants: list[str]
    hypotheses: list[Any]
    goal: Any


@dataclass(frozen=True)
class UniversalProblem:
    """Statements, each its own Theorem."""

    statements: list[UniversalStatement]


Problem = PointProblem | UniversalProblem


def theorem_name(text: str) -> str:
    """A Coq identifier from a claim id or statement name (letters, digits, underscores)."""
    return "claim_" + re.sub(r"[^A-Za-z0-9]", "_", text)[:80]


def comment(text: str) -> str:
    """Text inside a Coq comment, with the comment delimiters removed (claim text is untrusted)."""
    return re.sub(r"[^ -~]", "?", text.replace("(*", "( *").replace("*)", "* )"))[:300]


@dataclass(frozen=True)
class PointStatement:
    """A point problem in Coq: its definitions (identifier, `Definition ... .`) in order, and the theorem."""

    definitions: list[tuple[str, str]]
    theorem: str


def header(title: str, claim_id: str, sentence: str) -> str:
    """The file's opening comment (certificate, claim, what it proves) and the prelude's definitions."""
    return (
        f"(* headflow certificate {comment(title)}: claim {comment(claim_id)} *)\n(* {comment(sentence)} *)\n" + PRELUDE
    )


def point_statement(claim_id: str, problem: PointProblem) -> PointStatement:
    """Each coordinate and named subterm as a `Definition`, then the `Theorem`: every definedness condition of every
    expression (`terms.definedness`) and every condition, in the obligation's order."""
    definitions = [
        (terms.identifier(name), f"Definition {terms.identifier(name)} : R := {terms.real(value)}.")
        for name, value in problem.point.items()
    ]
    conjuncts: list[str] = []
    for name, tree in problem.definitions:
        definitions.append((terms.identifier(name), f"Definition {terms.identifier(name)} : R := {terms.term(tree)}."))
        conjuncts += [c for c in terms.definedness(tree) if c not in conjuncts]
    for name, tree, relation in problem.conditions:
        conjuncts += [c for c in terms.definedness(tree) if c not in conjuncts]
        conjuncts.append(f"(* {comment(name)} *) {terms.condition(tree, relation)}")
    if not conjuncts:
        raise NotTranslatable("the point witness has no conditions")
    statement = " /\\\n  ".join(conjuncts)
    return PointStatement(definitions, f"Theorem {theorem_name(claim_id)} :\n  {statement}.")


def universal_statement(statement: UniversalStatement) -> str:
    """`Theorem name : forall constants : R, hypotheses -> goal.`"""
    names = [terms.identifier(name) for name in statement.constants]
    binders = f"forall {' '.join(names)} : R,\n  " if names else ""
    shown = "".join(f"{terms.formula(h)} ->\n  " for h in statement.hypotheses)
    return f"Theorem {theorem_name(statement.name)} :\n  {binders}{shown}{terms.formula(statement.goal)}."


def theorem_names(claim_id: str, problem: Problem) -> list[str]:
    """The names of the theorems a problem's Coq file must prove."""
    if isinstance(problem, PointProblem):
        return [theorem_name(claim_id)]
    return [theorem_name(s.name) for s in problem.statements]


def statement_texts(claim_id: str, problem: Problem) -> list[str]:
    """Every `Definition` and `Theorem` the file must hold verbatim: what it states."""
    if isinstance(problem, PointProblem):
        statement = point_statement(claim_id, problem)
        return [text for _, text in statement.definitions] + [statement.theorem]
    return [universal_statement(s) for s in problem.statements]


#: Vernacular a proof may not use: what could declare an axiom, leave a proof unfinished, or change what the stated
#: text means (notations, scopes, definitions, options). The prelude (kernel text) is exempt.
_FORBIDDEN = re.compile(
    r"\b(Axiom|Axioms|Parameter|Parameters|Hypothesis|Hypotheses|Variable|Variables|Conjecture|Admitted|admit|"
    r"Abort|Notation|Infix|Reserved|Ltac|Tactic|Require|Import|Export|From|Module|Section|End|Local|Global|Set|"
    r"Unset|Arguments|Coercion|Canonical|Instance|Existing|Declare|Delimit|Bind|Open|Close|Definition|Fixpoint|"
    r"CoFixpoint|Inductive|CoInductive|Record|Structure|Class|Let|Include|Transparent|Remove|Hint|Create|Add|"
    r"Program|Obligation|Next|Scheme|Theorem|Corollary|Proposition|Fact|Remark|Example|Print|Extraction|Drop|"
    r"Redirect|Timeout|Fail|Succeed|Time|Load|Cd|Back|Reset)\b"
)


def require_stated(text: str, title: str, claim_id: str, sentence: str, problem: Problem) -> None:
    """NotStated unless the Coq file is the kernel's header, then its statements verbatim with only proofs around
    them: every `Definition` and `Theorem` the obligation gives, once each, and no vernacular in between that could
    add an axiom or change their meaning (`_FORBIDDEN`). What coqc then accepts is the claim."""
    opening = header(title, claim_id, sentence)
    if not text.startswith(opening):
        raise NotStated("the file does not open with the kernel's header and prelude")
    rest = text[len(opening) :]
    for statement in statement_texts(claim_id, problem):
        if rest.count(statement) != 1:
            raise NotStated(f"the file does not state, once, {statement.splitlines()[0][:80]!r}")
        rest = rest.replace(statement, "\n")
    found = _FORBIDDEN.search(rest)
    if found:
        raise NotStated(f"the proof uses {found.group(1)!r}, which a certificate's proof may not")


class NotStated(ValueError):
    """A Coq file that does not state exactly the kernel's statement (or whose proof could change it)."""


def uses_c_star(trees: list[Any]) -> bool:
    """Whether a `c_star` node occurs (the proof then unfolds the prelude's definition)."""
    return any(node == "c_star" or (isinstance(node, list) and uses_c_star(node)) for node in trees)
