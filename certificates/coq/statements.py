"""Coq source for what a certificate proves, written from the checker's own obligation (never from file text).

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

from certificates.coq import enclosures, terms
from certificates.coq.proofs import PROOFS
from certificates.coq.terms import NotTranslatable
from certificates.kernel import exprtree

PRELUDE = (Path(__file__).with_name("prelude.v")).read_text(encoding="ascii")
#: Bits of working precision `interval` uses beyond the certificate's ball precision.
EXTRA_BITS = 16


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


def _comment(text: str) -> str:
    """Text inside a Coq comment, with the comment delimiters removed (claim text is untrusted)."""
    return re.sub(r"[^ -~]", "?", text.replace("(*", "( *").replace("*)", "* )"))[:300]


def source(title: str, claim_id: str, sentence: str, problem: Problem) -> str:
    """The whole Coq file: a header naming the certificate, the prelude, the statement and its proof."""
    header = f"(* headflow certificate {_comment(title)}: claim {_comment(claim_id)} *)\n(* {_comment(sentence)} *)\n"
    if isinstance(problem, PointProblem):
        body = _point(claim_id, problem)
    else:
        body = "\n".join(_universal(s) for s in problem.statements)
    return header + PRELUDE + "\n" + body


# ---------------------------------------------------------------- points


def _point(claim_id: str, problem: PointProblem) -> str:
    names = [terms.identifier(name) for name in problem.point]
    lines = [
        f"Definition {name} : R := {terms.real(value)}."
        for name, value in zip(names, problem.point.values(), strict=True)
    ]
    conjuncts: list[str] = []
    defined = [terms.identifier(name) for name, _ in problem.definitions]
    bounds = enclosures.hints(problem.point, problem.definitions) if problem.definitions else []
    for (name, tree), hint in zip(problem.definitions, bounds, strict=True):
        lines.append(f"Definition {terms.identifier(name)} : R := {terms.term(tree)}.")
        lines.append(_bound_lemma(name, tree, hint, names))
        conjuncts += [c for c in terms.definedness(tree) if c not in conjuncts]
    for name, tree, relation in problem.conditions:
        conjuncts += [c for c in terms.definedness(tree) if c not in conjuncts]
        conjuncts.append(f"(* {_comment(name)} *) {terms.condition(tree, relation)}")
    if not conjuncts:
        raise NotTranslatable("the point witness has no conditions")
    prec = max(problem.prec + EXTRA_BITS, enclosures.COQ_BITS if defined else 0)
    close = f"first [ interval with (i_prec {prec}) | apply nonzero_of_abs; interval with (i_prec {prec}) ]"
    named = names + (["c_star"] if _uses_c_star([tree for _, tree, _ in problem.conditions]) else [])
    unfold = f"  unfold {', '.join(named)}.\n" if named else ""
    statement = " /\\\n  ".join(conjuncts)
    facts = "".join(f"  pose proof {name}_bounds.\n" for name in defined)
    lines += [
        f"Theorem {theorem_name(claim_id)} :\n  {statement}.",
        f"Proof.\n{facts}{unfold}  repeat split.\n  all: {close}.\nQed.",
    ]
    return "\n".join(lines) + "\n"


def _bound_lemma(name: str, tree: Any, hint: tuple[Fraction, Fraction], point: list[str]) -> str:
    """`lo <= name <= hi`, proved by `interval` on the definition's own term, the earlier names as bounded atoms."""
    used = sorted(exprtree.symbols(tree))
    facts = "".join(f" pose proof {terms.identifier(u)}_bounds." for u in used if u not in point)
    unfold = ", ".join([terms.identifier(name)] + [u for u in used if u in point])
    low, high = terms.real(hint[0]), terms.real(hint[1])
    return (
        f"Lemma {terms.identifier(name)}_bounds : {low} <= {terms.identifier(name)} <= {high}.\n"
        f"Proof.{facts} unfold {unfold}. interval with (i_prec {enclosures.COQ_BITS}). Qed.\n"
        f"Opaque {terms.identifier(name)}."
    )


# ---------------------------------------------------------------- universal statements


def _universal(statement: UniversalStatement) -> str:
    names = [terms.identifier(name) for name in statement.constants]
    hypotheses = [terms.formula(h) for h in statement.hypotheses]
    goal = terms.formula(statement.goal)
    binders = f"forall {' '.join(names)} : R,\n  " if names else ""
    shown = "".join(f"{h} ->\n  " for h in hypotheses)
    labels = [f"h{k}" for k in range(len(hypotheses))]
    intros = " ".join(names + labels)
    facts = _atom_facts([*statement.hypotheses, statement.goal])
    proof = [f"  intros {intros}." if intros else "", *facts, PROOFS.get(statement.name, "  hf_decide.")]
    return (
        f"Theorem {theorem_name(statement.name)} :\n  {binders}{shown}{goal}.\n"
        "Proof.\n" + "\n".join(line for line in proof if line) + "\nQed.\n"
    )


def _atom_facts(formulas: list[Any]) -> list[str]:
    """Proof lines that put the library facts of every exp, sqrt and ln atom among the hypotheses."""
    exps: list[str] = []
    roots: list[str] = []
    logs: list[str] = []
    inverses: list[str] = []

    def walk(node: Any) -> None:
        if not isinstance(node, list) or not node or node[0] in ("rat", "sym"):
            return
        for child in node[1:2] if node[0] == "pow" else node[1:]:
            walk(child)
        if node[0] == "exp":
            exps.append(terms.term(node[1]))
        elif node[0] == "sqrt":
            roots.append(terms.term(node[1]))
        elif node[0] == "log":
            logs.append(terms.term(node[1]))
        elif node[0] == "c_star":
            roots.append(f"(({terms.term(node[1])} - 1) ^ 2 + 4)")
        elif node[0] == "div":
            inverses.append(terms.term(node[2]))
        elif node[0] == "pow" and isinstance(node[2], int) and node[2] < 0:
            inverses.append(terms.term(node[1] if node[2] == -1 else ["pow", node[1], -node[2]]))

    for f in formulas:
        walk(f)
    exps, roots, logs, inverses = (list(dict.fromkeys(x)) for x in (exps, roots, logs, inverses))
    lines = ["  unfold c_star in *."] if _uses_c_star(formulas) else []
    lines += [f"  hf_inverse_facts {a}." for a in inverses]
    for a in logs:
        lines.append(f"  hf_log_facts {a}.")
        exps.append(f"(ln {a})")
    for a in roots:
        lines.append(f"  hf_sqrt_facts {a}.")
    for a in exps:
        lines.append(f"  hf_exp_facts {a}.")
    for i, a in enumerate(exps):
        for b in exps[i + 1 :]:
            lines.append(f"  hf_exp_pair {a} {b}.")
    return lines


def _uses_c_star(trees: list[Any]) -> bool:
    """Whether a `c_star` node occurs (the proof then unfolds the prelude's definition)."""
    return any(node == "c_star" or (isinstance(node, list) and _uses_c_star(node)) for node in trees)
