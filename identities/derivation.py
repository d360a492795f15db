"""A derivation under construction: its steps, and the residuals that must be shown exactly 0.

A prover records each step; a step that carries a check is kept only as a proved step when the residual is
shown identically 0 by exact polynomial arithmetic (`headflow.identities.zero_test`), or the stated sign is proved by
the structural sign prover (`headflow.identities.signs`), or an exact fact (a structural test, an exact computation)
holds. SymPy's simplify and assumption system are never taken as proof. Any failed check turns the final
outcome (`checks.verdicts.derived`) into INCONCLUSIVE with the residual in the notes: a derivation can never be PROVED
unless every computation in it succeeded on this run.

Three kinds of step, told apart in the text and in `Step.kind`, so a reader sees what was computed:
- computed (`zero`, `all_zero`, `sign`, `holds`): the text ends with "[checked exactly: residual = 0]",
  "[checked exactly: k residuals = 0]", "[checked by signs: k rule steps]" or "[checked: True]"; a residual that was
  already the number 0 when the step received it (SymPy's arithmetic cancelled `lhs - rhs` as it was formed) says
  "[residual = 0 as built by SymPy's arithmetic: nothing left for the exact test]" instead;
- cited (`cite`): a named standard lemma that is used, not computed; the text starts with
  "[cited lemma: <name>]" and gives the reason it holds;
- note (`note`): a definition, a hypothesis or a rule of the model (no computation, nothing cited).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import sympy as sp
from headflow.identities import signs
from headflow.identities.zero_test import is_identically_zero

#: The kinds of step (see the module docstring).
STEP_KINDS = ("note", "computed", "cited")


@dataclass(frozen=True)
class Step:
    """One step of a derivation: what it says in words, optionally in LaTeX, and its kind (STEP_KINDS)."""

    text: str
    latex: str = ""
    kind: str = "note"


def is_zero(residual: sp.Expr) -> bool:
    """True when the residual is shown identically 0 by exact polynomial arithmetic (`headflow.identities.zero_test`);
    SymPy's simplify is never taken as a proof."""
    return is_identically_zero(residual)


def _checked(residuals: Sequence[sp.Expr]) -> str:
    """What a zero step checked, in words. A residual that is already the number 0 when the step receives it was
    cancelled by SymPy's arithmetic as the prover formed `lhs - rhs` (its automatic canonicalisation): the exact test
    then had nothing left to check, and the reader is told so."""
    built = sum(1 for r in residuals if isinstance(r, sp.Basic) and r.is_Number and r == 0)
    count = "residual = 0" if len(residuals) == 1 else f"{len(residuals)} residuals = 0"
    if built == len(residuals):
        return f"{count} as built by SymPy's arithmetic: nothing left for the exact test"
    return f"checked exactly: {count}" + (f" ({built} of them 0 as built by SymPy's arithmetic)" if built else "")


def _shown(residual: sp.Expr, limit: int = 400) -> str:
    """A failed residual for the notes: simplified when it is small (large ones take long to simplify), truncated."""
    text = str(sp.simplify(residual) if sp.count_ops(residual) <= 60 else residual)
    return text if len(text) <= limit else text[:limit] + " ..."


@dataclass
class Derivation:
    """Steps of one proof; `failures` lists every check that did not go through."""

    steps: list[Step] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def note(self, text: str, latex: str = "") -> None:
        """A step that states a definition, a hypothesis or a rule used (no computation)."""
        self.steps.append(Step(text, latex))

    def zero(self, text: str, residual: sp.Expr, latex: str = "") -> bool:
        """A step whose residual (left side minus right side) must be shown identically 0 (`is_zero`)."""
        ok = is_zero(residual)
        if ok:
            self.steps.append(Step(f"{text} [{_checked([residual])}]", latex, "computed"))
        else:
            self.failures.append(f"{text}: residual {_shown(residual)} is not shown to be 0")
        return ok

    def all_zero(self, text: str, residuals: Sequence[sp.Expr], latex: str = "") -> bool:
        """One step with several residuals (entries of a matrix, say), every one of which must reduce to 0.

        The check stops at the first residual that does not reduce (simplifying non-zero residuals is slow)."""
        for k, residual in enumerate(residuals):
            if not is_zero(residual):
                shown = _shown(residual)
                self.failures.append(f"{text}: residual {k} of {len(residuals)} is not shown to be 0: {shown}")
                return False
        self.steps.append(Step(f"{text} [{_checked(residuals)}]", latex, "computed"))
        return True

    def holds(self, text: str, decided: bool | None, latex: str = "") -> bool:
        """A step whose fact an exact computation decided True: a structural test (`has`, `==` of trees), exact
        rational arithmetic or a proved sign combined by logic. Never a `.is_*` assumption or a simplify result:
        signs go through `sign`, zeros through `zero`."""
        ok = decided is True
        if ok:
            self.steps.append(Step(f"{text} [checked: True]", latex, "computed"))
        else:
            self.failures.append(f"{text}: not decided True (got {decided})")
        return ok

    def sign(self, text: str, expr: sp.Expr, relation: str, known: signs.Facts, latex: str = "") -> bool:
        """A step whose sign fact `expr relation 0` the structural prover (`identities.signs`) proves from `known`."""
        proof = signs.prove(expr, relation, known)
        if proof is None:
            self.failures.append(f"{text}: {expr} {relation[:-1]} 0 not proved from the declared facts")
            return False
        self.steps.append(Step(f"{text} [checked by signs: {len(proof)} rule steps]", latex, "computed"))
        return True

    def cite(self, name: str, statement: str, reason: str, latex: str = "") -> None:
        """A standard lemma used without computing it: its name, what it gives here, and why it holds.

        Nothing is checked, so a derivation that rests on cited lemmas says so in its steps; a
        prover cites only textbook facts (uniqueness of ODE solutions, Jensen, ...), never the claim."""
        self.steps.append(Step(f"[cited lemma: {name}] {statement} (why: {reason})", latex, "cited"))

    def include(self, other: Derivation, prefix: str) -> None:
        """The steps and failures of a lemma's derivation, labelled with `prefix`."""
        self.steps += [Step(f"{prefix}: {s.text}", s.latex, s.kind) for s in other.steps]
        self.failures += [f"{prefix}: {f}" for f in other.failures]

    @property
    def proved(self) -> bool:
        return not self.failures and bool(self.steps)
