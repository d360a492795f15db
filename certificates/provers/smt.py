"""Decide polynomial statements over the reals with Z3 (nlsat), and write their SMT certificates.

A statement (`headflow.certificates.statements.registry.SmtStatement`) is `hypotheses => goal` over real
constants. It is printed once as SMT-LIB2 by the checker's own printer
(`headflow.certificates.kernel.smtlib.problem_text`, from the statement's trees), parsed by Z3 from that text and
solved within a counted budget, z3's resource limit (`rlimit`: its own count of its work, the same on every run
of one z3 version, so that an answer does not depend on how busy the machine is): `unsat` proves the statement
for every real value at once; `sat` comes with a model (a candidate counterexample: its values as text, and as
rationals, exact for rational and integer values and within 10^-30 for algebraic ones); `unknown`, a spent budget
(`resource limit`) or the wall-clock safety net far above it (`timeout`, "wall-clock safety limit") is reported
as such. A certificate
holds the trees, never the text: `headflow check-cert` prints the text again and re-runs z3 and
cvc5 on it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import z3
from headflow.certificates.kernel import smtlib
from headflow.certificates.statements.registry import SmtStatement
from headflow.certificates.store import write_certificate

#: z3's resource limit for one problem: at most `headflow check-cert`'s (`certificates.kernel.solvers.RLIMITS`), so
#: that a problem z3 answers here it answers there.
RLIMIT = 5_000_000
#: The wall-clock safety net of one problem, far above what RLIMIT takes on a slow, busy machine.
SAFETY_SECONDS = 300.0
MODEL_DIGITS = 20
#: Decimal digits of the rational that stands for an algebraic model value.
APPROXIMATION_DIGITS = 30


@dataclass
class SmtResult:
    """The solver's answer on the negated statement: unsat (proved), sat (model), unknown, resource limit (the
    budget spent) or timeout (the wall-clock safety net), with the resources z3 counted and the seconds it took.

    `model` shows each constant's value; `point` gives it as a rational (exact unless the value is
    algebraic and irrational: then a rational approximation, so only a candidate to verify)."""

    status: str
    seconds: float
    resources: int
    model: dict[str, str] = field(default_factory=dict)
    reason: str = ""
    point: dict[str, Fraction] = field(default_factory=dict)


def problem(statement: SmtStatement) -> str:
    """The SMT-LIB2 text of the negated statement, exactly as the checker prints it."""
    tree = statement.tree()
    return smtlib.problem_text(tree["constants"], tree["hypotheses"], tree["goal"], tree.get("integers", ()))


def _model_value(value: z3.ExprRef) -> str:
    if z3.is_rational_value(value):
        return f"{value.numerator_as_long()}/{value.denominator_as_long()}"
    if z3.is_algebraic_value(value):
        return f"~{value.as_decimal(MODEL_DIGITS)} (algebraic)"
    return str(value)


def _model_rational(value: z3.ExprRef) -> Fraction | None:
    """The value as a rational: exact for integers and rationals, an approximation for algebraic numbers."""
    if z3.is_int_value(value):
        return Fraction(value.as_long())
    if z3.is_algebraic_value(value):
        value = value.approx(APPROXIMATION_DIGITS)
    if z3.is_rational_value(value):
        return Fraction(value.numerator_as_long(), value.denominator_as_long())
    return None


def decide(statement: SmtStatement, rlimit: int = RLIMIT) -> SmtResult:
    """Solve `hypotheses and not goal` from its SMT-LIB2 text, within z3's resource limit `rlimit`."""
    return solve(problem(statement), [s.name for s in statement.symbols], rlimit)


def solve(text: str, constants: Sequence[str], rlimit: int = RLIMIT, seconds: float = SAFETY_SECONDS) -> SmtResult:
    """Solve an SMT-LIB2 problem of `smtlib.problem_text` over `constants` (declared x0, x1, ... in that order),
    within z3's resource limit `rlimit` (and the safety net, `seconds`); a model's values are given by the constants'
    names."""
    solver = z3.Solver()
    solver.set("rlimit", max(1, rlimit))
    solver.set("timeout", int(seconds * 1000))
    solver.from_string(text)
    before, start = _resources(solver), time.monotonic()
    answer = solver.check()
    seconds, used = time.monotonic() - start, _resources(solver) - before
    if answer == z3.unsat:
        return SmtResult("unsat", seconds, used)
    if answer == z3.sat:
        model = solver.model()
        names = {f"x{index}": name for index, name in enumerate(constants)}
        # only the declared constants: a model may also interpret functions (division by zero), not values
        constants = {names[d.name()]: model[d] for d in model.decls() if d.arity() == 0 and d.name() in names}
        values = {name: _model_value(value) for name, value in constants.items()}
        point = {name: q for name, value in constants.items() if (q := _model_rational(value)) is not None}
        return SmtResult("sat", seconds, used, values, "the negated statement has a model", point)
    reason = solver.reason_unknown() or "unknown"
    if "resource" in reason:
        return SmtResult("resource limit", seconds, used, reason=f"z3 ran past its resource limit ({rlimit:,})")
    if "timeout" in reason or "canceled" in reason:
        reason = f"z3 ran past the wall-clock safety limit ({seconds:g} s)"
        return SmtResult("timeout", seconds, used, reason=reason)
    return SmtResult("unknown", seconds, used, reason=f"z3 answers unknown ({reason})")


def _resources(solver: z3.Solver) -> int:
    """z3's count of resources spent in this process so far (its `rlimit count`, read from a solver's statistics)."""
    statistics = solver.statistics()
    counted = statistics.keys()  # z3's Statistics is not a mapping
    return int(statistics.get_key_value("rlimit count")) if "rlimit count" in counted else 0


def certify(
    statements: Sequence[SmtStatement],
    claim_id: str,
    directory: Path,
    rlimit: int = RLIMIT,
) -> tuple[dict[str, SmtResult], Path | None]:
    """Decide every statement (each within `rlimit`); when all are `unsat`, write one certificate holding them all."""
    results: dict[str, SmtResult] = {}
    for statement in statements:
        results[statement.name] = decide(statement, rlimit)
        if results[statement.name].status != "unsat":
            return results, None
    return results, write_certificate(directory, claim_id, "smt", {})  # the statements are the core statement's
