"""Decide an encoded claim with Z3, tightening the exponential atoms until the answer is exact.

The encoding (`certificates.real_encoding`) knows exp only through positivity and monotonicity.
Each round asks Z3 for a model of `facts and cuts and not goal`:
- unsat: the claim is proved; the cuts used are the certificate's data;
- a model whose claim variables rigorously falsify the claim (the caller's test, in balls): a
  counterexample candidate, returned to be certified exactly;
- otherwise some atom's value disagrees with exp at the model's argument, and a cut removes the
  model: a lower Taylor bound at the argument when the value is too small, an upper one on a
  small interval around it when too large, of higher degree when a cut of lower degree is placed
  already. When no cut is left, or the rounds or the time run out, the answer is unknown, with the
  last model as a candidate.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp
from flint import arb, ctx

from certificates.exprtree import ball_of
from certificates.obligations import SmtStatement
from certificates.real_encoding import CUT_DEGREES, CUT_PRECISION, Cut, Encoding
from certificates.smt import decide

#: Denominator bound of a cut's point (keeps cut data short and the SMT problem small).
POINT_DENOMINATOR = 2**24
#: Rounds of cutting before the answer is unknown.
MAX_ROUNDS = 40


@dataclass
class Refinement:
    """The outcome: `proved`, `counterexample` or `unknown`, with the cuts and the last model."""

    status: str
    statement: SmtStatement
    cuts: list[Cut] = field(default_factory=list)
    point: dict[sp.Symbol, Fraction] = field(default_factory=dict)
    rounds: int = 0
    seconds: float = 0.0
    reason: str = ""


def refine(
    encoding: Encoding,
    name: str,
    sentence: str,
    hypotheses: Sequence[sp.Basic],
    goal: sp.Basic,
    falsifies: Callable[[dict[sp.Symbol, Fraction]], bool],
    seconds: float = 5.0,
    max_rounds: int = MAX_ROUNDS,
) -> Refinement:
    """Decide `hypotheses imply goal` through the encoding, within `seconds` of solver time."""
    start, cuts = time.monotonic(), []
    statement = encoding.statement(name, sentence, hypotheses, goal)
    for round_number in range(1, max_rounds + 1):
        left = seconds - (time.monotonic() - start)
        if left <= 0:
            return Refinement("unknown", statement, cuts, rounds=round_number - 1, reason="time budget spent")
        statement = encoding.statement(name, sentence, hypotheses, goal, cuts)
        result = decide(statement, timeout_seconds=left)
        spent = time.monotonic() - start
        if result.status == "unsat":
            return Refinement("proved", statement, cuts, rounds=round_number, seconds=spent)
        if result.status != "sat":
            return Refinement("unknown", statement, cuts, rounds=round_number, seconds=spent, reason=result.reason)
        values = {s: result.point.get(s.name, Fraction(0)) for s in encoding.symbols}
        point = {v: values[v] for v in encoding.variables}
        if falsifies(point):
            return Refinement("counterexample", statement, cuts, point, round_number, spent)
        new = [cut for cut in _cuts(encoding, values, cuts) if cut not in cuts]
        if not new:
            reason = "a model agrees with exp to rounding but does not falsify the claim"
            return Refinement("unknown", statement, cuts, point, round_number, spent, reason)
        cuts += new
    spent = time.monotonic() - start
    return Refinement("unknown", statement, cuts, rounds=max_rounds, seconds=spent, reason="rounds spent")


def _cuts(encoding: Encoding, values: dict[sp.Symbol, Fraction], existing: list[Cut]) -> list[Cut]:
    """Cuts that remove the model: at each exponential atom whose value is not exp of its argument
    (or cannot be told from it at the rounded model), the lowest-degree Taylor cut not yet placed."""
    cuts = []
    old = ctx.prec
    ctx.prec = CUT_PRECISION
    try:
        for index, atom in enumerate(encoding.exponentials):
            t = _evaluate(atom.argument, values).limit_denominator(POINT_DENOMINATOR)
            value, exact = ball_of(values[atom.symbol]), ball_of(t).exp()
            placed = sum(1 for c in existing if c.atom == index)
            for step, degree in enumerate(CUT_DEGREES):
                candidates = []
                if not value > exact:
                    candidates.append(Cut("lower", index, degree, (t,), (_below(exact),)))
                if not value < exact:
                    delta = Fraction(1, 2 ** min(placed // 2 + step + 1, 30))
                    remainder = _above(ball_of(delta).exp() / math.factorial(degree + 1))
                    candidates.append(Cut("upper", index, degree, (t, delta), (_above(exact), remainder)))
                fresh = [c for c in candidates if c not in existing]
                if fresh:
                    cuts += fresh
                    break
    finally:
        ctx.prec = old
    return cuts


def _evaluate(polynomial: sp.Expr, values: dict[sp.Symbol, Fraction]) -> Fraction:
    exact = polynomial.subs({s: sp.Rational(v.numerator, v.denominator) for s, v in values.items()})
    return Fraction(int(exact.p), int(exact.q))


def _below(ball: arb) -> Fraction:
    """A short rational below the ball (the ball's value itself when it is exact, as exp(0) = 1)."""
    return _rounded(ball, -1)


def _above(ball: arb) -> Fraction:
    """A short rational above the ball (the ball's value itself when it is exact)."""
    return _rounded(ball, 1)


def _rounded(ball: arb, direction: int) -> Fraction:
    if ball.rad() == 0 and ball.mid().is_exact():
        mantissa, exponent = ball.mid().man_exp()
        return Fraction(int(mantissa)) * Fraction(2) ** int(exponent)
    low, high = (Fraction(str(end.mid().str(40, radius=False))) for end in (ball.lower(), ball.upper()))
    scale = max(abs(low), abs(high), Fraction(1))
    step = scale / 2**60
    if direction < 0:
        return Fraction(int((low - 2 * step) / step) - 1) * step
    return Fraction(int((high + 2 * step) / step) + 1) * step
