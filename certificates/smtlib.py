"""The one way an SMT certificate's text is assembled from its parts (shared by writer and verifier).

A certificate of `hypotheses => goal` asserts every hypothesis and the negated goal; `unsat`
then proves the statement for every real value of the declared constants.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,40}$")
SORTS = ("Real", "Int")
FORBIDDEN = ("assert", "check-sat", "push", "pop", "reset", "exit", "set-option", "declare", "define", "get-")


class SmtTextError(ValueError):
    """Parts that do not make a well-formed certificate problem."""


def check_term(term: str) -> None:
    """A term must be one balanced s-expression without commands (so it cannot smuggle assertions)."""
    if not isinstance(term, str) or not term.strip():
        raise SmtTextError("empty term")
    depth = 0
    for ch in term:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            raise SmtTextError(f"unbalanced term {term[:40]!r}")
    if depth != 0:
        raise SmtTextError(f"unbalanced term {term[:40]!r}")
    if any(f"({word}" in term.replace("( ", "(") for word in FORBIDDEN):
        raise SmtTextError(f"a command inside a term {term[:40]!r}")


def assemble(logic: str, declarations: Sequence[Sequence[str]], hypotheses: Sequence[str], goal: str) -> str:
    """The SMT-LIB2 problem `hypotheses and not goal`, ending in (check-sat)."""
    if logic not in ("QF_NRA", "QF_LRA", "NRA"):
        raise SmtTextError(f"unsupported logic {logic!r}")
    lines = [f"(set-logic {logic})"]
    for declaration in declarations:
        if len(declaration) != 2 or not IDENTIFIER.match(str(declaration[0])) or declaration[1] not in SORTS:
            raise SmtTextError(f"bad declaration {declaration!r}")
        lines.append(f"(declare-fun {declaration[0]} () {declaration[1]})")
    for term in [*hypotheses, goal]:
        check_term(term)
    lines += [f"(assert {term})" for term in hypotheses]
    lines.append(f"(assert (not {goal}))")
    lines.append("(check-sat)")
    return "\n".join(lines) + "\n"
