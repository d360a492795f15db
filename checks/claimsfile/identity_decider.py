"""Deciding an identity claim: exact simplification first, then a search for a ball-verified counterexample.

PROVED when SymPy reduces lhs - rhs to 0 under the symbols' assumptions (which are implied by
their domains, never stronger). Otherwise random exact rational points of the domain are tried:
where both sides evaluate to finite balls whose difference excludes 0, the identity is false
(REFUTED, `verified_by: "ball"`). When neither happens the claim stays INCONCLUSIVE.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from checks.claimsfile.domains import sample_point
from checks.claimsfile.evaluation import EvaluationError, ball
from checks.claimsfile.schema import IdentityClaim
from checks.claimsfile.symbolic import short_text, simplifies_to_zero, within
from checks.registry import Context
from checks.verdicts import Outcome, Step, Verdict

PROOF = "SymPy simplification"
SEARCH = "ball-verified counterexample search"
#: Seconds SymPy may spend simplifying, per profile.
SIMPLIFY_SECONDS = {"quick": 10.0, "thorough": 60.0}
#: Random points tried for a counterexample, per profile.
POINTS = {"quick": 40, "thorough": 300}
#: Working precisions (bits): a difference too small to separate from 0 is retried at the next one.
PRECISIONS = (64, 256)
#: Seconds for SymPy to form lhs - rhs, or to print it.
PRINT_SECONDS = 2.0


def decide_identity(claim: IdentityClaim, ctx: Context) -> Outcome:
    """PROVED, REFUTED (ball witness) or INCONCLUSIVE for lhs = rhs over the declared domains."""
    difference = within(PRINT_SECONDS, lambda: claim.lhs - claim.rhs)
    seconds = min(SIMPLIFY_SECONDS[ctx.profile], ctx.seconds_left())
    zero, left = (
        (None, "forming lhs - rhs timed out") if difference is None else simplifies_to_zero(difference, seconds)
    )
    if zero:
        return Outcome(Verdict.PROVED, PROOF, steps=_proof_steps(claim, difference))
    witness, tried, undefined = _search(claim, ctx)
    if witness is not None:
        return Outcome(Verdict.REFUTED, SEARCH, witness=witness)
    reason = left if zero is None else f"left {left}"
    return Outcome(
        Verdict.INCONCLUSIVE,
        f"{PROOF}; {SEARCH}",
        notes=f"SymPy could not reduce lhs - rhs to 0 ({reason}); no counterexample at {tried} random points "
        f"({undefined} more were outside the expressions' domain)",
        details={"points_tried": tried, "points_undefined": undefined},
    )


def _search(claim: IdentityClaim, ctx: Context) -> tuple[dict[str, Any] | None, int, int]:
    """A ball-verified counterexample, with the number of points tried and of points where a side is undefined."""
    rng = ctx.rng("identity-points")
    tried = undefined = 0
    for _ in range(POINTS[ctx.profile]):
        ctx.check_budget()
        point = sample_point(claim.domains, claim.order, rng)
        if point is None:
            continue
        for prec in PRECISIONS:
            try:
                left, right = ball(claim.lhs, point, prec), ball(claim.rhs, point, prec)
            except EvaluationError:
                undefined += 1
                break
            gap = left - right
            if gap > 0 or gap < 0:
                witness = {
                    "verified_by": "ball",
                    "point": {str(symbol): str(value) for symbol, value in point.items()},
                    "lhs": left.str(20, radius=True),
                    "rhs": right.str(20, radius=True),
                    "lhs_minus_rhs": gap.str(20, radius=True),
                    "precision_bits": prec,
                }
                return witness, tried + 1, undefined
        else:
            tried += 1
    return None, tried, undefined


def _proof_steps(claim: IdentityClaim, difference: sp.Expr) -> list[Step]:
    facts = ", ".join(f"{s}: {', '.join(sorted(claim.domains[s].assumptions()))}" for s in claim.order)
    return [
        Step(f"lhs - rhs = {short_text(difference, 2000)}", within(PRINT_SECONDS, lambda: sp.latex(difference)) or ""),
        Step(f"SymPy simplify reduces lhs - rhs to 0 under the assumptions ({facts or 'none'})", "0"),
        Step("The assumptions are implied by the declared domains, so lhs = rhs on all of them"),
    ]
