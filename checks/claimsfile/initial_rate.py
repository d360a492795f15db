"""Deciding `initial-rate`: the right derivative d+/dt at t = 0 of the claim's quantity equals the file's `derivative`.

Where the family is the regime of the equiangular reduction (cluster_gap or first_pair_gap, scalar heads,
equiangular tokens, the sphere) the derivative is the reduced field at the start, F(eps0), exact in n, beta, the
strengths and rho (`exact_dynamics`): PROVED or REFUTED. Elsewhere each start of the family is integrated over
[0, 4h] and the derivative is extrapolated from its one-sided difference quotients D(h) = (Q(h) - Q(0))/h (Richardson:
R(h) = 2 D(h) - D(2h) = Q'(0) + O(h^2)); the error is |R(h) - R(2h)| (the next order) plus the integration error over
h. A start holds when the claimed value lies within that error of every entry's R(h): at most CONFIRMED, and a float
disagreement is INCONCLUSIVE with the start as data (floats refute nothing).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from headflow.certificates.claims.evaluation import EvaluationError, ball
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.errors import InputError
from headflow.certificates.families import TOKEN_FAMILIES
from headflow.checks.claimsfile.dynamics_starts import configuration, parameter, quantity
from headflow.checks.claimsfile.exact_dynamics import decide_exactly
from headflow.checks.evidence.sampling import confidence_sentence, configuration_record, starts_for_confidence
from headflow.checks.integrator import IntegrationFailure, integrate
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict, exact_else

METHOD = "the right derivative at t = 0 extrapolated from difference quotients of {} integrated starts (Richardson)"
#: The step h of the difference quotients, and the integrator's tolerances over [0, 4h].
STEP = 1e-3
RTOL, ATOL = 1e-13, 1e-15
#: The confidence and failing fraction fixing the number of starts of a random family (as dynamics_decider).
CONFIDENCE = {"quick": (0.95, 0.10), "thorough": (0.99, 0.05)}


def decide_initial_rate(claim: DynamicsClaim, ctx: Context) -> Outcome:
    """PROVED or REFUTED on the exact reduction where it applies; otherwise CONFIRMED or INCONCLUSIVE from floats."""
    return exact_else(decide_exactly(claim, ctx), lambda: _by_floats(claim, ctx))


def _by_floats(claim: DynamicsClaim, ctx: Context) -> Outcome:
    """Every start's extrapolated derivative against the claimed one."""
    assert claim.target is not None
    try:
        target = float(ball(claim.target, {}, 128).mid())
    except EvaluationError as exc:
        return Outcome(Verdict.INCONCLUSIVE, METHOD.format(0), notes=f"the stated derivative: {exc}")
    options = claim.options
    one_orbit = TOKEN_FAMILIES[options["tokens"]].fixed and options["heads"] == "scalar"
    confidence, fraction = CONFIDENCE[ctx.profile]
    count = 1 if one_orbit else options.get("samples", starts_for_confidence(confidence, fraction))
    method = METHOD.format(count)
    records: list[dict[str, Any]] = []
    for k in range(count):
        ctx.check_budget()
        cfg = configuration(options, ctx.rng(f"initial-rate-{k}"))
        try:
            fitted, error = derivative_at_start(claim, cfg)
        except (IntegrationFailure, InputError) as exc:
            return Outcome(Verdict.INCONCLUSIVE, method, notes=f"start {k} could not be integrated over [0, 4h]: {exc}")
        off = float(np.max(np.abs(fitted - target)))
        record = {"start": k, "fitted": fitted.tolist(), "error": error, "claimed": target, "off_by": off}
        records.append(record)
        if off > error:
            notes = (
                f"start {k}: d/dt at t = 0 is {_text(fitted)} +- {error:.3g} vs claimed {target:.12g}: a float "
                "disagreement, not certified"
            )
            record["configuration"] = configuration_record(cfg)
            return Outcome(Verdict.INCONCLUSIVE, method, cases=k + 1, notes=notes, details={"starts": records})
    sentence = (
        "the family is one configuration up to rotation, which the dynamics commutes with: one start decides all"
        if one_orbit
        else confidence_sentence(0, count, confidence)
    )
    worst = max(records, key=lambda r: r["off_by"])
    notes = f"{sentence}; worst start {worst['start']}: off by {worst['off_by']:.3g} within +- {worst['error']:.3g}"
    tolerance = max(r["error"] for r in records)
    return Outcome(
        Verdict.CONFIRMED,
        method,
        cases=count,
        worst_margin=-worst["off_by"],
        error_bound=worst["error"],
        tolerance=tolerance,
        notes=notes,
        details={"starts": records},
    )


def derivative_at_start(claim: DynamicsClaim, cfg: Configuration) -> tuple[np.ndarray, float]:
    """The extrapolated d+/dt at t = 0 of every entry of the quantity, and its error (see the module docstring)."""
    grid = np.array([0.0, STEP, 2 * STEP, 4 * STEP])
    traj = integrate(cfg, grid[-1], rtol=RTOL, atol=ATOL, record_times=grid, observables=(), backend="numpy")
    assert traj.states is not None
    name, head, value = claim.quantity, claim.options.get("head"), parameter(claim)
    values = [np.atleast_1d(quantity(name, cfg.moved_to(X), head, value)) for X in traj.states]
    quotient = [(values[k] - values[0]) / grid[k] for k in (1, 2, 3)]
    fine, coarse = 2 * quotient[0] - quotient[1], 2 * quotient[1] - quotient[2]
    scale = 1.0 + max(float(np.max(np.abs(v))) for v in values)
    error = float(np.max(np.abs(fine - coarse))) + 10 * RTOL * scale / STEP
    return fine, error


def _text(values: np.ndarray) -> str:
    return (
        f"{float(values[0]):.12g}" if values.size == 1 else f"[{float(values.min()):.12g}, {float(values.max()):.12g}]"
    )
