"""Mutants of the certified constants (checks.constants.certified): wrong digits, and shifted or relabelled balls."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from flint import ctx as flint_ctx
from headflow.certificates.kernel.exact import ball_of
from headflow.checks.constants import certified as constants
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict

from tests.soundness.mutation import Decide, Mutant


def digits_claim(quantity: str, params: dict[str, int], claimed: str) -> Decide:
    """`quantity(params)` = the decimal `claimed` to its printed digits: REFUTED when the certified ball
    excludes every number that rounds to `claimed`, CONFIRMED when the certified digits equal it."""

    def decide(ctx: Context) -> Outcome:
        significant = len(claimed.replace(".", "").replace("-", "").lstrip("0"))
        value = constants.compute(quantity, params, significant)
        if value.value == claimed:
            return Outcome(Verdict.CONFIRMED, "certified digits", cases=1, tolerance=0.0)
        exponent = len(claimed.split(".")[1]) if "." in claimed else 0
        half = Fraction(1, 2 * 10**exponent)
        centre = Fraction(claimed)
        ball = value.ball
        lo, hi = ball_of(centre - half), ball_of(centre + half)
        if ball is not None and (ball < lo or ball > hi):
            return Outcome(Verdict.REFUTED, "certified digits", witness={"verified_by": "ball", "ball": ball.str(30)})
        return Outcome(Verdict.INCONCLUSIVE, "certified digits", notes="the ball does not exclude the claimed value")

    return decide


def cross_checked(quantity: str, params: dict[str, int], shift_digits: int | None, relabel: str = "") -> Decide:
    """constants.cross_check on a certified value shifted by 10^-shift_digits (relative) or relabelled."""

    def decide(ctx: Context) -> Outcome:
        value = constants.compute(quantity, params, 20, check=False)
        ball = value.ball
        if shift_digits is not None:
            with flint_ctx.workprec(value.precision_bits + 64):  # keep the shift: 53 bits would round it away
                ball = ball * (1 + ball_of(Fraction(1, 10**shift_digits)))
        mutated = dataclasses.replace(value, ball=ball, quantity=relabel or quantity)
        if relabel:
            mutated = dataclasses.replace(mutated, parameters=constants.validate(relabel, params))
        try:
            constants.cross_check(mutated)
        except constants.CrossCheckError as exc:
            return Outcome(Verdict.INCONCLUSIVE, "mpmath cross-check", notes=str(exc)[:200])
        return Outcome(Verdict.CONFIRMED, "mpmath cross-check", cases=1, tolerance=0.0)

    return decide


def mutants() -> list[Mutant]:
    """Certified digits of c*, beta* and lambda_c against wrong decimals; the mpmath cross-check against
    shifted or relabelled balls."""
    return [
        Mutant(
            "digits-cstar-last",
            "T19.c-star",
            "c*(2) = 0.6180339888 (last digit changed)",
            False,
            digits_claim("c_star", {"H": 2}, "0.6180339888"),
        ),
        Mutant(
            "digits-cstar-true",
            "T19.c-star",
            "c*(2) = 0.6180339887 (true)",
            True,
            digits_claim("c_star", {"H": 2}, "0.6180339887"),
            accept=True,
        ),
        Mutant(
            "digits-betastar-H3",
            "T19.threshold",
            "beta*(3, 10, 1) = 0.8580 (the value at H = 2)",
            False,
            digits_claim("beta_star", {"H": 3, "n": 10, "alpha": 1}, "0.8580"),
        ),
        Mutant(
            "digits-lambdac-is-lmax",
            "T22.superadditivity.reading-b",
            "lambda_c(10, 1) = lambda_max(10, 1) to 12 digits (phi'' = 0 confused with phi' = 0)",
            False,
            digits_claim("lambda_c", {"n": 10, "beta": 1}, constants.lambda_max(10, 1, digits=12).value),
        ),
        Mutant(
            "crosscheck-shift",
            "T19.c-star",
            "a c*(3) ball shifted by 1e-18 relative passes the cross-check",
            False,
            cross_checked("c_star", {"H": 3}, 18),
        ),
        Mutant(
            "crosscheck-relabel",
            "T22.early-rate",
            "the lambda_max(2, 1) ball presented as lambda_c(2, 1)",
            False,
            cross_checked("lambda_max", {"n": 2, "beta": 1}, None, relabel="lambda_c"),
        ),
        Mutant(
            "crosscheck-true",
            "T19.c-star",
            "the certified c*(3) ball (true)",
            True,
            cross_checked("c_star", {"H": 3}, None),
            accept=True,
        ),
    ]
