"""Deciding an identity claim: exact simplification first, then a search for a verified counterexample.

PROVED when SymPy reduces lhs - rhs to 0 under the symbols' assumptions (which are implied by
their domains, never stronger) AND every definedness condition of both sides, as written, is
proved on the whole domain (`definedness.proved_symbolically`): simplify's result is only valid
where the original sides are defined. Otherwise exact points are tried, first those where a
condition's expression vanishes (a denominator's zero), then random ones: a point where a side is
undefined refutes the identity (verified exactly or with balls), and so does a point where both
sides are defined and their balls differ (REFUTED, `verified_by: "ball"`). Between the two,
`algebraic_identity.prove_identity` tries an exact algebraic proof (denominators cleared, radicals
reduced modulo a Groebner basis of their defining polynomials, logarithms compared through
exponentials), which also proves the non-vanishing conditions SymPy's assumptions leave open, such
as c_star(H) != 0. Then the SMT route (`checks.claimsfile.smt_route`) decides `lhs = rhs` with both
sides defined, as a relation: an `smt` certificate (CERTIFIED) or a verified model point (REFUTED).
When none of these happens the claim stays INCONCLUSIVE.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import sympy as sp

from checks.claimsfile.algebraic_identity import prove_identity
from checks.claimsfile.definedness import candidate_points, check_point, proved_symbolically
from checks.claimsfile.domains import sample_point
from checks.claimsfile.evaluation import EvaluationError, ball
from checks.claimsfile.inequality_decider import refutation
from checks.claimsfile.schema import IdentityClaim
from checks.claimsfile.smt_route import decide as decide_smt
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
    unproved = [c for c in claim.conditions if not proved_symbolically(c, claim.domains, claim.order)]
    difference = within(PRINT_SECONDS, lambda: claim.lhs - claim.rhs)
    seconds = min(SIMPLIFY_SECONDS[ctx.profile], ctx.seconds_left())
    zero, left = (
        (None, "forming lhs - rhs timed out") if difference is None else simplifies_to_zero(difference, seconds)
    )
    if zero and not unproved:
        return Outcome(Verdict.PROVED, PROOF, steps=_proof_steps(claim, difference))
    algebraic, not_algebraic = prove_identity(claim, ctx)
    if algebraic is not None:
        return algebraic
    witness, tried, undefined = _search(claim, ctx)
    if witness is not None:
        return Outcome(Verdict.REFUTED, SEARCH, witness=witness)
    smt = decide_smt(claim, ctx, refutation)  # the second proof route: negation of the equality unsat
    if isinstance(smt, Outcome):
        return smt
    if zero:
        reason = "SymPy reduces lhs - rhs to 0, but it did not prove both sides defined on the whole domain ("
        reason += "; ".join(f"{c.text()}: {c.reason}" for c in unproved[:3]) + ")"
    else:
        reason = f"SymPy could not reduce lhs - rhs to 0 ({left if zero is None else f'left {left}'})"
    return Outcome(
        Verdict.INCONCLUSIVE,
        f"{PROOF}; {SEARCH}",
        notes=f"{reason}; {not_algebraic}; {smt}; "
        f"no counterexample at {tried} points ({undefined} more could not be settled)",
        details={"points_tried": tried, "points_undefined": undefined},
    )


def _points(claim: IdentityClaim, ctx: Context) -> Iterator[dict[sp.Symbol, sp.Rational] | None]:
    """Points where a definedness condition vanishes, then random points of the domain."""
    rng = ctx.rng("identity-points")
    candidates = candidate_points(claim.conditions, claim.domains, claim.order, rng)
    randoms = (sample_point(claim.domains, claim.order, rng) for _ in range(POINTS[ctx.profile]))
    return itertools.chain(candidates, randoms)


def _search(claim: IdentityClaim, ctx: Context) -> tuple[dict[str, Any] | None, int, int]:
    """A verified counterexample, with the number of points tried and of points that could not be settled."""
    tried = unsettled = 0
    for point in _points(claim, ctx):
        ctx.check_budget()
        if point is None:
            continue
        check = check_point(claim.conditions, point)
        if check.status == "undefined":
            return check.witness(point), tried + 1, unsettled
        if check.status == "unknown":
            unsettled += 1
            continue
        for prec in PRECISIONS:
            try:
                left, right = ball(claim.lhs, point, prec), ball(claim.rhs, point, prec)
            except EvaluationError:
                unsettled += 1
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
                return witness, tried + 1, unsettled
        else:
            tried += 1
    return None, tried, unsettled


def _proof_steps(claim: IdentityClaim, difference: sp.Expr) -> list[Step]:
    facts = ", ".join(f"{s}: {', '.join(sorted(claim.domains[s].assumptions()))}" for s in claim.order)
    return [
        Step(f"lhs - rhs = {short_text(difference, 2000)}", within(PRINT_SECONDS, lambda: sp.latex(difference)) or ""),
        Step(f"SymPy simplify reduces lhs - rhs to 0 under the assumptions ({facts or 'none'})", "0"),
        Step(
            "Both sides are defined on the whole domain: "
            + ("; ".join(c.text() for c in claim.conditions) or "no condition (no quotient, log, sqrt, root, lambertw)")
            + " (SymPy's assumptions, with each symbol written from its rational end)"
        ),
        Step("The assumptions are implied by the declared domains, so lhs = rhs on all of them"),
    ]
