"""A claim about the trajectory from the user's exact angles, refuted at its start (t = 0) with balls.

`non-negative`, `at-most` and `at-least` speak of every time, t = 0 included, where the state is the angles exactly as
written (`headflow.certificates.claims.given_angles`). The order parameter R and the arc spread there are balls from
the exact angles (cos_pi of the exact multiple of pi, or cos of a rational), so a ball that lies beyond the bound is
a counterexample; a bound the value equals exactly (R^2 rational in the cyclotomic field, the spread a + b pi) holds.
Anything else: None, and the float evidence (and the exact routes) decide.
"""

from __future__ import annotations

from fractions import Fraction

from flint import arb, ctx
from headflow.certificates.claims.evaluation import exact
from headflow.certificates.claims.given_angles import GivenAngles
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.checks.claimsfile.given_start import start_refutation
from headflow.checks.verdicts import Outcome

METHOD = "balls: the claimed quantity at the start t = 0, the user's angles exactly as written"
BITS = 256


def _value(angles: GivenAngles, quantity: str, bound: Fraction) -> tuple[arb, bool]:
    """The quantity's ball at t = 0 and whether it equals `bound` exactly."""
    if quantity == "order_parameter":
        square = angles.order_parameter_exact()
        return angles.order_parameter_ball(BITS), square is not None and bound >= 0 and square == bound * bound
    a, b = angles.arc_spread()
    return angles.arc_spread_ball(BITS), (a, b) == (bound, 0)


def refuted_at_angles(claim: DynamicsClaim) -> Outcome | None:
    """REFUTED with the ball at t = 0 when the user's angles violate the claim there; None otherwise."""
    angles = claim.options.get("angles")
    if not isinstance(angles, GivenAngles) or claim.quantity not in ("order_parameter", "arc_spread"):
        return None
    if claim.property not in ("non-negative", "at-most", "at-least") or claim.options.get("head") is not None:
        return None
    bound = Fraction(0) if claim.target is None else exact(claim.target, {})
    if bound is None:
        return None
    value, equal = _value(angles, claim.quantity, bound)
    if equal:
        return None
    with ctx.workprec(BITS):
        difference = value - arb(f"{bound.numerator}/{bound.denominator}")
    above = difference > 0
    if not (above or difference < 0):
        return None
    holds = not above if claim.property == "at-most" else above
    if holds:
        return None
    return start_refutation(claim, bound, value.str(20, radius=True), "ball", "the given angles", METHOD)
