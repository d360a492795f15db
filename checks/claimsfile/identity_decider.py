"""Deciding an identity claim: an exact algebraic proof, a verified counterexample, or the SMT route.

The sides are inert expressions (`headflow.certificates.inert`), built from the text without any sign-dependent
rewrite. First `algebraic_identity.prove_identity` tries an exact proof (denominators cleared, radicals
reduced modulo a Groebner basis of their defining polynomials, logarithms compared through
exponentials), with every definedness condition of both sides, as written, proved on the whole domain
by exact algebra: PROVED. Otherwise exact points are tried, first those where a condition's
expression vanishes (a denominator's zero), then random ones: a point where a side is undefined
refutes the identity (verified exactly or with balls), and so does a point where both sides are
defined and their balls differ (REFUTED, `verified_by: "ball"`). Then the SMT route
(`headflow.checks.claimsfile.smt_route`) decides `lhs = rhs` with both sides defined, as a relation: an `smt`
certificate (CERTIFIED) or a verified model point (REFUTED). When none of these happens the claim
stays INCONCLUSIVE with the reasons. SymPy's simplify is not a proof route: its rewrites rest on
signs it gets from its assumptions and from floating-point evaluation.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import sympy as sp
from headflow.certificates.claims.evaluation import EvaluationError, ball, exact, exact_witness
from headflow.certificates.claims.schema import IdentityClaim
from headflow.certificates.kernel.exprtree import rational_text
from headflow.checks.claimsfile.algebraic_identity import prove_identity
from headflow.checks.claimsfile.definedness import candidate_points, check_point
from headflow.checks.claimsfile.domain_sampling import sample_point
from headflow.checks.claimsfile.inequality_decider import refutation, refuted
from headflow.checks.claimsfile.smt_route import decide as decide_smt
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict

SEARCH = "ball-verified counterexample search"
#: Random points tried for a counterexample, per profile.
POINTS = {"quick": 40, "thorough": 300}
#: Working precisions (bits): a difference too small to separate from 0 is retried at the next one.
PRECISIONS = (64, 256, 1024)


def decide_identity(claim: IdentityClaim, ctx: Context) -> Outcome:
    """PROVED (exact algebra), REFUTED (verified witness), CERTIFIED (SMT) or INCONCLUSIVE for lhs = rhs."""
    algebraic, not_algebraic = prove_identity(claim, ctx)
    if algebraic is not None:
        return _with_certificate(algebraic, claim, ctx)
    witness, tried, undefined = _search(claim, ctx)
    if witness is not None:
        return refuted(claim, witness, ctx)
    smt = decide_smt(claim, ctx, refutation)  # the second proof route: negation of the equality unsat
    if isinstance(smt, Outcome):
        return smt
    return Outcome(
        Verdict.INCONCLUSIVE,
        f"exact algebra; {SEARCH}; SMT",
        notes=f"{not_algebraic}; {smt}; no counterexample at {tried} points ({undefined} more could not be settled)",
        details={"points_tried": tried, "points_undefined": undefined},
    )


def _with_certificate(proved: Outcome, claim: IdentityClaim, ctx: Context) -> Outcome:
    """The algebraic proof, with the smt certificate of the same identity when the SMT route writes one (check-cert
    and Coq then re-check what SymPy's reduction showed; the verdict is the proof's either way)."""
    if proved.verdict is not Verdict.PROVED:
        return proved
    smt = decide_smt(claim, ctx, refutation)
    if isinstance(smt, Outcome) and smt.verdict is Verdict.CERTIFIED:
        proved.certificates = smt.certificates
    return proved


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
        left, right = exact(claim.lhs, point), exact(claim.rhs, point)
        if left is not None and right is not None:
            if left != right:
                return (
                    exact_witness(point, left, right) | {"lhs_minus_rhs": rational_text(left - right)},
                    tried + 1,
                    unsettled,
                )
            tried += 1
            continue
        for prec in PRECISIONS:
            try:
                left, right = ball(claim.lhs, point, prec), ball(claim.rhs, point, prec)
            except EvaluationError:
                continue  # not finite at this precision; the next may settle it
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
