"""Decide polynomial statements over the reals with Z3 (nlsat), from SymPy, with SMT-LIB2 text.

A statement is `hypotheses => goal` over real symbols. It is printed once as SMT-LIB2
(`certificates.smtlib.assemble`: hypotheses and the negated goal), parsed by Z3 from that same
text and solved under a time budget: `unsat` proves the statement for every real value at once;
`sat` comes with a model (a counterexample to the statement); `unknown` or a timeout is reported
as such. The text goes into the certificate unchanged.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sympy as sp
import z3

from certificates import smtlib
from certificates.store import write_certificate

DEFAULT_TIMEOUT_SECONDS = 10.0
MODEL_DIGITS = 20


@dataclass(frozen=True)
class SmtStatement:
    """`hypotheses => goal` over `symbols` (real), with a name and a sentence for the report."""

    name: str
    sentence: str
    symbols: tuple[sp.Symbol, ...]
    hypotheses: tuple[sp.Basic, ...]
    goal: sp.Basic

    def parts(self) -> dict[str, Any]:
        """logic, declarations, hypotheses, goal and the assembled SMT-LIB2 text."""
        declarations = [[s.name, "Real"] for s in self.symbols]
        hypotheses = [to_smt(h) for h in self.hypotheses]
        goal = to_smt(self.goal)
        return {
            "logic": "QF_NRA",
            "declarations": declarations,
            "hypotheses": hypotheses,
            "goal": goal,
            "smtlib": smtlib.assemble("QF_NRA", declarations, hypotheses, goal),
        }


@dataclass
class SmtResult:
    """The solver's answer on the negated statement: unsat (proved), sat (model), unknown."""

    status: str
    seconds: float
    parts: dict[str, Any]
    model: dict[str, str] = field(default_factory=dict)
    reason: str = ""


def _number(value: sp.Rational) -> str:
    p, q = int(value.p), int(value.q)
    magnitude = f"{abs(p)}.0" if q == 1 else f"(/ {abs(p)}.0 {q}.0)"
    return f"(- {magnitude})" if p < 0 else magnitude


_RELATIONS = {sp.StrictLessThan: "<", sp.LessThan: "<=", sp.StrictGreaterThan: ">", sp.GreaterThan: ">="}


def to_smt(e: sp.Basic) -> str:
    """SMT-LIB2 text of a polynomial SymPy expression or a boolean combination of relations."""
    if e is sp.true:
        return "true"
    if e is sp.false:
        return "false"
    if isinstance(e, sp.Symbol):
        return e.name
    if isinstance(e, sp.Rational):
        return _number(e)
    if isinstance(e, sp.Add):
        return "(+ " + " ".join(to_smt(a) for a in e.args) + ")"
    if isinstance(e, sp.Mul):
        return "(* " + " ".join(to_smt(a) for a in e.args) + ")"
    if isinstance(e, sp.Pow) and e.exp.is_Integer and int(e.exp) >= 1:
        return "(* " + " ".join([to_smt(e.base)] * int(e.exp)) + ")" if int(e.exp) > 1 else to_smt(e.base)
    if type(e) in _RELATIONS:
        return f"({_RELATIONS[type(e)]} {to_smt(e.lhs)} {to_smt(e.rhs)})"
    if isinstance(e, sp.Equality):
        return f"(= {to_smt(e.lhs)} {to_smt(e.rhs)})"
    if isinstance(e, sp.Unequality):
        return f"(not (= {to_smt(e.lhs)} {to_smt(e.rhs)}))"
    if isinstance(e, sp.Not):
        return f"(not {to_smt(e.args[0])})"
    if isinstance(e, sp.And | sp.Or):
        return f"({'and' if isinstance(e, sp.And) else 'or'} " + " ".join(to_smt(a) for a in e.args) + ")"
    if isinstance(e, sp.Implies):
        return f"(=> {to_smt(e.args[0])} {to_smt(e.args[1])})"
    if isinstance(e, sp.Equivalent):
        a, *rest = e.args
        return "(and " + " ".join(f"(= {to_smt(a)} {to_smt(b)})" for b in rest) + ")"
    raise ValueError(f"not a polynomial statement node: {type(e).__name__}")


def _model_value(value: z3.ExprRef) -> str:
    if z3.is_rational_value(value):
        return f"{value.numerator_as_long()}/{value.denominator_as_long()}"
    if z3.is_algebraic_value(value):
        return f"~{value.as_decimal(MODEL_DIGITS)} (algebraic)"
    return str(value)


def decide(statement: SmtStatement, timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS) -> SmtResult:
    """Solve `hypotheses and not goal` from its SMT-LIB2 text, within the time budget."""
    parts = statement.parts()
    solver = z3.Solver()
    solver.set("timeout", max(1, int(timeout_seconds * 1000)))
    solver.from_string(parts["smtlib"])
    start = time.monotonic()
    answer = solver.check()
    seconds = time.monotonic() - start
    if answer == z3.unsat:
        return SmtResult("unsat", seconds, parts)
    if answer == z3.sat:
        model = solver.model()
        values = {d.name(): _model_value(model[d]) for d in model.decls()}
        return SmtResult("sat", seconds, parts, values, "the negated statement has a model")
    reason = solver.reason_unknown() or "unknown"
    status = "timeout" if "timeout" in reason or "canceled" in reason else "unknown"
    return SmtResult(status, seconds, parts, reason=f"z3 {reason} after {seconds:.2f}s (budget {timeout_seconds:g}s)")


def certify(
    statement: SmtStatement, claim_id: str, directory: Path, timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS
) -> tuple[SmtResult, Path | None]:
    """Decide the statement; on `unsat`, write its certificate and return the path."""
    result = decide(statement, timeout_seconds)
    if result.status != "unsat":
        return result, None
    payload = dict(result.parts) | {"answer": "unsat", "name": statement.name, "sentence": statement.sentence}
    method = f"z3 {z3.get_version_string()} nlsat: negation unsat"
    return result, write_certificate(directory, claim_id, statement.sentence, method, "smt", payload)
