"""The exact route for the arc spread of angles within a half circle: it never grows (attraction), so a bound at the
start is a bound for all time.

Regime: tokens given as exact angles (`tokens = "angles"`) whose arc spread s(0) is < pi, scalar heads with every
lambda_h > 0, beta > 0, exp or relu weights, no mask, W_h = M_h, under Post-LN or a scheme whose directions move
along the Post-LN field times a positive speed (`identities.scheme_energy.SPEEDS`). The argument (cone collapse on
the circle; Geshkovski, Letrouit, Polyanskiy, Rigollet, *A mathematical perspective on Transformers*, 2023, for the
hemisphere): while s < pi the tokens lie on an arc [theta_min, theta_max] of length s; for the token at theta_min every
theta_j - theta_min lies in [0, s] within [0, pi], so sin(theta_j - theta_min) >= 0, every weight is >= 0 and every
lambda_h > 0, hence theta_min' >= 0 by the phase form (times sigma > 0 under a scheme); likewise theta_max' <= 0. The
spread, a max minus a min of C^1 functions, has upper Dini derivative <= 0, so it is non-increasing while < pi, and
the set {s < pi} is therefore never left. So `arc_spread at-most b` holds for all t exactly when s(0) <= b (PROVED;
s(0) > b is REFUTED at t = 0 by `angle_start`).
"""

from __future__ import annotations

import math
from pathlib import Path

from flint import arb
from flint import ctx as flint_ctx
from headflow.certificates.claims.evaluation import EvaluationError, ball
from headflow.certificates.claims.given_angles import Angle, GivenAngles
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.claims.symbolic import REDUCTION_OPERATIONS, exactly_zero
from headflow.certificates.inert import inert
from headflow.certificates.kernel import arc as kernel_arc
from headflow.certificates.statements import spaced as spaced_statements
from headflow.certificates.store import certificate_directory, write_accepted
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict, derived
from headflow.identities import scheme_energy
from headflow.identities.derivation import Derivation

METHOD = "exact: the arc spread within a half circle never grows under attraction (arc_route)"
BITS = 256


def applies(claim: DynamicsClaim) -> bool:
    """Whether the claim is `arc_spread at-most b` from exact angles in the route's regime (module docstring)."""
    options = claim.options
    beta = options["beta"]
    return (
        claim.quantity == "arc_spread"
        and claim.property == "at-most"
        and isinstance(options.get("angles"), GivenAngles)
        and options["heads"] == "scalar"
        and all(stated(value) > 0 for value in options["lambdas"])
        and isinstance(beta, int | float)
        and beta > 0
        and options.get("mask") is None
        and options.get("values", "aligned") == "aligned"
        and "interaction" not in options
        and (options["geometry"] == "sphere" or options["geometry"] in scheme_energy.SPEEDS)
    )


def decide_arc(claim: DynamicsClaim, ctx: Context) -> Outcome | None:
    """PROVED when s(0) < pi and s(0) <= b (exactly or by balls); None otherwise (other routes and floats decide)."""
    if not applies(claim):
        return None
    options = claim.options
    a, b = options["angles"].arc_spread()
    with flint_ctx.workprec(BITS):
        start = Angle(a, b).ball()
        within_half = bool(start - arb.pi() < 0)
    try:
        bound = ball(claim.target, {}, BITS)
    except EvaluationError:
        return None
    below = bool(start - bound < 0)
    equal = False
    if not below:
        equal, _ = exactly_zero(claim.target - inert(Angle(a, b).sympy()), REDUCTION_OPERATIONS[ctx.profile])
    if not within_half or not (below or equal):
        return None
    derivation = Derivation()
    derivation.note(f"'arc_spread is at most {claim.target}' means s(t) <= {claim.target} for every t >= 0")
    derivation.holds(f"s(0) = {a} + {b} pi < pi (balls)", within_half)
    derivation.holds(f"s(0) <= {claim.target} ({'balls' if below else 'exact algebra: equal'})", below or equal)
    positive = all(stated(value) > 0 for value in options["lambdas"]) and stated(options["beta"]) > 0
    derivation.holds("every lambda_h > 0 and beta > 0 (exact rationals as written)", positive)
    derivation.cite(
        "extreme tokens move inward",
        "theta_min' >= 0 and theta_max' <= 0 while s < pi: every sin(theta_j - theta_min) >= 0, weights >= 0, "
        "lambda_h > 0 in the phase form theta_i' = c sum_h lambda_h sum_j w^h_ij sin(theta_j - theta_i) "
        "(headflow.identities.circle.phase_form), times sigma_i > 0 under a scheme (headflow.identities.scheme_energy)",
        "sin >= 0 on [0, pi]; exp and relu weights are >= 0",
    )
    derivation.cite(
        "Dini derivative of a max",
        "s(t) = theta_max - theta_min is non-increasing while s < pi, so {s < pi} is never left and s(t) <= s(0)",
        "the upper Dini derivative of a max of C^1 functions is at most the largest derivative among the active ones",
    )
    proved = derived(derivation, METHOD, {"start_spread": f"{a} + {b}*pi"})
    return proved.with_certificate(_certificate(claim, ctx)) if proved.verdict is Verdict.PROVED else proved


def _certificate(claim: DynamicsClaim, ctx: Context) -> str | None:
    """The `arc` certificate of the proof (`certificate`)."""
    return certificate(claim, True, certificate_directory(ctx.certificate_dir))


def certificate(claim: DynamicsClaim, holds: bool, directory: Path) -> str | None:
    """The `arc` certificate that the claim holds (or fails at t = 0): the tokens on the arc after the largest gap
    between them (each with its winding; in their order along it for a refutation), found with floats and checked
    by the kernel before it is written; None when it does not accept it (or the claim is outside the form)."""
    if not applies(claim):
        return None
    angles = [angle.float() for angle in claim.options["angles"].angles]
    turn = 2 * math.pi
    order = sorted(range(len(angles)), key=lambda i: angles[i] % turn)
    gaps = [(angles[order[(k + 1) % len(order)]] - angles[order[k]]) % turn for k in range(len(order))]
    low = order[(max(range(len(gaps)), key=gaps.__getitem__) + 1) % len(order)]
    windings = [math.ceil((angles[low] - theta) / turn - 1e-12) for theta in angles]
    along = sorted(range(len(angles)), key=lambda i: angles[i] + turn * windings[i])
    payload = {"low": low, "high": along[-1], "windings": windings} | ({} if holds else {"order": along})
    return write_accepted(directory, claim, kernel_arc.FORM, payload, spaced_statements.arc_statement(claim, holds))
