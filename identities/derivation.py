"""A derivation under construction: its steps, and the residuals SymPy must reduce to exactly 0.

A prover records each step; a step that carries a check is kept only as a proved step when
SymPy reduces the residual to 0 (or decides the stated sign). Any failed check turns the final
outcome (`checks.verdicts.derived`) into INCONCLUSIVE with the residual in the notes: a derivation can never be PROVED
unless every computation in it succeeded on this run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp


@dataclass(frozen=True)
class Step:
    """One step of a derivation: what it says in words, and optionally in LaTeX."""

    text: str
    latex: str = ""


def is_zero(residual: sp.Expr) -> bool:
    """True when SymPy reduces the residual to exactly 0 (expansion, then simplification)."""
    expanded = sp.expand(residual)
    return expanded == 0 or sp.simplify(expanded) == 0


@dataclass
class Derivation:
    """Steps of one proof; `failures` lists every check that did not go through."""

    steps: list[Step] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def note(self, text: str, latex: str = "") -> None:
        """A step that states a definition, a hypothesis or a rule used (no computation)."""
        self.steps.append(Step(text, latex))

    def zero(self, text: str, residual: sp.Expr, latex: str = "") -> bool:
        """A step whose residual (left side minus right side) SymPy must reduce to 0."""
        ok = is_zero(residual)
        if ok:
            self.steps.append(Step(f"{text} [SymPy: residual = 0]", latex))
        else:
            self.failures.append(f"{text}: residual {sp.simplify(residual)} is not 0")
        return ok

    def holds(self, text: str, decided: bool | None, latex: str = "") -> bool:
        """A step whose fact SymPy's assumption system (or an exact computation) decided True."""
        ok = decided is True
        if ok:
            self.steps.append(Step(f"{text} [SymPy: True]", latex))
        else:
            self.failures.append(f"{text}: not decided True (got {decided})")
        return ok

    def include(self, other: Derivation, prefix: str) -> None:
        """The steps and failures of a lemma's derivation, labelled with `prefix`."""
        self.steps += [Step(f"{prefix}: {s.text}", s.latex) for s in other.steps]
        self.failures += [f"{prefix}: {f}" for f in other.failures]

    @property
    def proved(self) -> bool:
        return not self.failures and bool(self.steps)
