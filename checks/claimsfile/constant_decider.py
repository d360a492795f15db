"""Deciding a constant claim: the expression as a ball at increasing precision against the stated digits.

The stated value with `digits` significant digits denotes the closed interval [low, high]
(half a unit of the last digit either side). A ball strictly outside it refutes the claim
rigorously; a ball inside it proves it rigorously. The latter is reported CONFIRMED (one case,
tolerance = the ball radius) until certificate files are integrated.
"""

from __future__ import annotations

from checks.claimsfile.evaluation import EvaluationError, ball
from checks.claimsfile.schema import ConstantClaim, decimal_text
from checks.registry import Context
from checks.verdicts import Outcome, Verdict

METHOD = "ball evaluation"
PRECISIONS = (64, 128, 256, 512, 1024, 2048, 4096)


def decide_constant(claim: ConstantClaim, ctx: Context) -> Outcome:
    """REFUTED (ball outside the interval), CONFIRMED (ball inside) or INCONCLUSIVE."""
    for prec in PRECISIONS:
        ctx.check_budget()
        try:
            value = ball(claim.expr, {}, prec)
        except EvaluationError as exc:
            return Outcome(Verdict.INCONCLUSIVE, METHOD, notes=f"cannot evaluate the expression: {exc}")
        low, high = ball(claim.low, {}, prec), ball(claim.high, {}, prec)
        evidence = {
            "ball": value.str(30, radius=True),
            "precision_bits": prec,
            "interval": [decimal_text(claim.low), decimal_text(claim.high)],
        }
        if value < low or value > high:  # arb comparisons are True only when certain
            return Outcome(Verdict.REFUTED, METHOD, witness={"verified_by": "ball", **evidence})
        if value >= low and value <= high:
            margin = min((value - low).lower(), (high - value).lower())
            return Outcome(
                Verdict.CONFIRMED,
                METHOD,
                cases=1,
                worst_margin=float(margin),
                tolerance=float(value.rad()),
                notes="rigorous ball evaluation; certificate file pending integration",
                details=evidence,
            )
    return Outcome(
        Verdict.INCONCLUSIVE,
        METHOD,
        notes=f"the ball still straddles an end of the interval at {PRECISIONS[-1]} bits (value at an end?)",
    )
