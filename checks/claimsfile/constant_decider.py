"""Deciding a constant claim: the expression as a ball at increasing precision against the stated digits.

The stated value with `digits` significant digits denotes the closed interval [low, high]
(half a unit of the last digit either side). A ball strictly outside it refutes the claim
rigorously, with the counterexample certificate of the side it fails (`expr >= low` or `expr <= high` at the
empty point: `statements.real.constant_statement`); a ball inside it proves it rigorously, and is written as a
`witness` point certificate (conditions expr - low >= 0 and high - expr >= 0, re-checked by `headflow
check-cert`): CERTIFIED. Expressions the certificate format cannot hold (a symbolic real power)
stay CONFIRMED (one case, tolerance = the ball radius): rigorous, but without a file. The expression is
the inert form of the text (`headflow.certificates.claims.expressions`), so its ball is the value of the formula as
written; no SymPy evaluation decides a sign.

First the definedness conditions of the formula (`headflow.certificates.claims.conditions`) are settled
with balls: one verified to fail means the expression has no value (a log of a negative
number...), so it lies in no interval: REFUTED; one unsettled at every precision leaves the
claim INCONCLUSIVE. The settled conditions are written into the certificate with the interval's.
"""

from __future__ import annotations

from headflow.certificates.ball_reading import fails
from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.evaluation import EvaluationError, ball
from headflow.certificates.claims.schema import ConstantClaim, decimal_text
from headflow.certificates.kernel.exact import holds
from headflow.certificates.kernel.exprtree import TreeError
from headflow.certificates.kernel.real_statements import constant_conditions
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.provers.counterexamples import certify_counterexample
from headflow.certificates.provers.witness import certify_point
from headflow.certificates.statements.real import BALL_PRECISIONS, constant_statement
from headflow.certificates.store import certificate_directory
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict

METHOD = "ball evaluation"


def decide_constant(claim: ConstantClaim, ctx: Context) -> Outcome:
    """REFUTED (undefined, or a ball outside the interval), CERTIFIED/CONFIRMED (ball inside) or INCONCLUSIVE.

    A ball that is not finite at one precision (a square root of a ball that still reaches below 0) is
    retried at the next: only the last precision's failure is reported."""
    unevaluated = ""
    for prec in BALL_PRECISIONS:
        ctx.check_budget()
        defined = _definedness(claim, prec)
        if isinstance(defined, Outcome):
            return defined
        if not defined:
            continue
        try:
            value = ball(claim.expr, {}, prec)
        except EvaluationError as exc:
            unevaluated = f"cannot evaluate the expression at {prec} bits: {exc}"
            continue
        low, high = ball(claim.low, {}, prec), ball(claim.high, {}, prec)
        evidence = {
            "ball": value.str(30, radius=True),
            "precision_bits": prec,
            "interval": [decimal_text(claim.low), decimal_text(claim.high)],
        }
        if value < low or value > high:  # arb comparisons are True only when certain
            certificates = _refutation(claim, "low" if value < low else "high", ctx)
            return Outcome(
                Verdict.REFUTED, METHOD, witness={"verified_by": "ball", **evidence}, certificates=certificates
            )
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
    if unevaluated:
        return Outcome(Verdict.INCONCLUSIVE, METHOD, notes=unevaluated)
    return Outcome(
        Verdict.INCONCLUSIVE,
        METHOD,
        notes=f"the ball still straddles an end of the interval (or a definedness condition is unsettled) at "
        f"{BALL_PRECISIONS[-1]} bits (value at an end?)",
    )


def _definedness(claim: ConstantClaim, prec: int) -> bool | Outcome:
    """True when the conditions that make the formula defined are all settled at `prec` (the certificate states
    them), a REFUTED outcome when one verifiably fails, False when one is not settled yet."""
    for condition in claim.conditions:
        try:
            value = ball(condition.expr, {}, prec)
        except EvaluationError:
            return False
        if holds(value, condition.relation):
            continue
        if condition.necessary and condition.relation != "!=" and fails(value, condition.relation):
            witness = {
                "verified_by": "ball",
                "undefined": condition.reason,
                "condition": condition.text(),
                "condition_value": value.str(20, radius=True),
                "precision_bits": prec,
            }
            return Outcome(Verdict.REFUTED, METHOD, witness=witness)
        return False
    return True


def _certify(claim: ConstantClaim, ctx: Context) -> str | None:
    """The path of a point certificate of low <= expr <= high, or None when it cannot be written or settled."""
    directory = certificate_directory(ctx.certificate_dir)
    try:
        statement = constant_statement(claim)
        conditions = [(c["name"], c["expression"], c["relation"]) for c in constant_conditions(statement)]
        result = certify_point(claim.id, conditions, {}, directory, claim=embedded(claim))
    except (TreeError, Rejected):
        return None
    return str(result.path) if result.verified else None


def _refutation(claim: ConstantClaim, side: str, ctx: Context) -> list[str]:
    """The counterexample certificate of the side of the interval ("low" or "high") the value is outside of (the
    side `check-cert --claims` elaborates too: `statements.real.outside`), as a list: empty when it cannot be
    written or settled."""
    try:
        statement = constant_statement(claim, side)
    except (TreeError, Rejected):
        return []
    path = certify_counterexample(claim, {}, certificate_directory(ctx.certificate_dir), statement)
    return [path] if path else []
