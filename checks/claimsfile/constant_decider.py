"""Deciding a constant claim: the expression as a ball at increasing precision against the stated digits.

The stated value with `digits` significant digits denotes the closed interval [low, high]
(half a unit of the last digit either side). A ball strictly outside it refutes the claim
rigorously; a ball inside it proves it rigorously, and is written as a `witness` point
certificate (conditions expr - low >= 0 and high - expr >= 0, re-checked by `headflow
check-cert`): CERTIFIED. Expressions the certificate format cannot hold (`lambda_c`, `Abs`)
stay CONFIRMED (one case, tolerance = the ball radius): rigorous, but without a file.
"""

from __future__ import annotations

from certificates.exprtree import TreeError
from certificates.store import certificate_directory
from certificates.witness import certify_point
from checks.claimsfile.evaluation import EvaluationError, ball
from checks.claimsfile.schema import ConstantClaim, decimal_text
from checks.registry import Context
from checks.verdicts import Outcome, Verdict
from identities.balls import UnsupportedExpression

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
            certified = _certify(claim, ctx)
            if certified is not None:
                return Outcome(Verdict.CERTIFIED, METHOD, certificates=[certified], details=evidence)
            margin = min((value - low).lower(), (high - value).lower())
            return Outcome(
                Verdict.CONFIRMED,
                METHOD,
                cases=1,
                worst_margin=float(margin),
                tolerance=float(value.rad()),
                notes="rigorous ball evaluation; the certificate format cannot hold this expression",
                details=evidence,
            )
    return Outcome(
        Verdict.INCONCLUSIVE,
        METHOD,
        notes=f"the ball still straddles an end of the interval at {PRECISIONS[-1]} bits (value at an end?)",
    )


def _certify(claim: ConstantClaim, ctx: Context) -> str | None:
    """The path of a point certificate of low <= expr <= high, or None when it cannot be written or settled."""
    conditions = [
        ("expr - low >= 0", claim.expr - claim.low, ">="),
        ("high - expr >= 0", claim.high - claim.expr, ">="),
    ]
    try:
        result = certify_point(claim.id, claim.statement, conditions, {}, certificate_directory(ctx.certificate_dir))
    except (TreeError, UnsupportedExpression):
        return None
    return str(result.path) if result.verified else None
