"""A claim about the trajectory from the user's exact angles, refuted at its start (t = 0) with balls.

`non-negative`, `at-most` and `at-least` speak of every time, t = 0 included, where the state is the angles exactly as
written (`headflow.certificates.claims.given_angles`). The order parameter R and the arc spread there are balls from
the exact angles (cos_pi of the exact multiple of pi, or cos of a rational), so a ball that lies beyond the bound is
a counterexample; a bound the value equals exactly (R^2 rational in the cyclotomic field, the spread a + b pi) holds.
Anything else: None, and the float evidence (and the exact routes) decide.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
from flint import arb
from headflow.certificates.claims.evaluation import exact
from headflow.certificates.claims.given_angles import GivenAngles
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.checks.claimsfile.given_start import separated, start_refutation
from headflow.checks.verdicts import Outcome

METHOD = "balls: the claimed quantity at the start t = 0, the user's angles exactly as written"


def _value(angles: GivenAngles, quantity: str, bits: int) -> arb:
    """The quantity's ball at t = 0, at `bits` bits."""
    if quantity == "order_parameter":
        return angles.order_parameter_ball(bits)
    return angles.arc_spread_ball(bits)


def _equal(angles: GivenAngles, quantity: str, bound: Fraction | None) -> bool:
    """Whether the quantity at t = 0 equals a rational bound exactly (R^2 in the cyclotomic field, the spread a + b
    pi); False for a bound that is no rational (balls then separate them or nothing is decided)."""
    if bound is None:
        return False
    if quantity == "order_parameter":
        square = angles.order_parameter_exact()
        return square is not None and bound >= 0 and square == bound * bound
    return angles.arc_spread() == (bound, 0)


def refuted_at_angles(claim: DynamicsClaim) -> Outcome | None:
    """REFUTED with the ball at t = 0 when the user's angles violate the claim there (`given_start.separated`: balls
    of more bits while they do not separate the value from the bound, so a bound 10^-300 below the start is refuted,
    never confirmed by floats that cannot see it); None otherwise."""
    angles = claim.options.get("angles")
    if not isinstance(angles, GivenAngles) or claim.quantity not in ("order_parameter", "arc_spread"):
        return None
    if claim.property not in ("non-negative", "at-most", "at-least") or claim.options.get("head") is not None:
        return None
    target = sp.Integer(0) if claim.target is None else claim.target
    if _equal(angles, claim.quantity, exact(target, {})):
        return None
    found = separated(lambda bits: _value(angles, claim.quantity, bits), target)
    if found is None:
        return None
    above, value = found
    if above is (claim.property in ("non-negative", "at-least")):
        return None
    return start_refutation(claim, target, value.str(20, radius=True), "ball", "the given angles", METHOD)
