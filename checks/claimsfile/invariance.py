"""The float route of `stays-non-negative` and `stays-at-least c`: on every trajectory where the quantity is >= c at
t = 0 (c = 0 for `stays-non-negative`) it stays >= c. Every sign below is of the quantity minus c.

The exact route (`reduced_observables`) decides the equiangular regime; elsewhere starts of the family are drawn (as
many as `dynamics_decider`'s confidence asks, one for a family that is one configuration up to rotation) and each is
read at t = 0 first: a start where some entry is below -TOLERANCE (relative) does not satisfy the hypothesis and is
set aside (the statement says nothing about it); one within TOLERANCE of 0 is set aside as undecided (floats cannot
tell whether it satisfies it). Each remaining start is integrated over [0, time] and fails when an entry falls below
-TOLERANCE. Floats give at most CONFIRMED, for the starts that satisfied the hypothesis and on the integrated interval;
a failure is a float candidate (INCONCLUSIVE, with the start and the time as data), and a family none of whose starts
satisfied the hypothesis is INCONCLUSIVE.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from headflow.certificates.claims.evaluation import ball
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.errors import InputError
from headflow.certificates.families import TOKEN_FAMILIES
from headflow.checks.claimsfile.dynamics_starts import (
    HORIZON,
    POINTWISE_STEPS,
    RECORDS,
    configuration,
    parameter,
    quantity,
)
from headflow.checks.evidence.sampling import confidence_sentence, configuration_record, starts_for_confidence
from headflow.checks.integrator import IntegrationFailure, integrate
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict

METHOD = "{} starts of the family read at t = 0, those satisfying the hypothesis integrated over [0, {:g}]"
#: Relative float tolerance of a sign (as dynamics_starts.POINTWISE_TOLERANCE).
TOLERANCE = 1e-8
CONFIDENCE = {"quick": (0.95, 0.10), "thorough": (0.99, 0.05)}


def decide_by_floats(claim: DynamicsClaim, ctx: Context) -> Outcome:
    """CONFIRMED when every start that satisfied the hypothesis kept it; INCONCLUSIVE otherwise (see the docstring)."""
    options = claim.options
    one_orbit = TOKEN_FAMILIES[options["tokens"]].fixed and options["heads"] == "scalar"
    confidence, fraction = CONFIDENCE[ctx.profile]
    count = 1 if one_orbit else options.get("samples", starts_for_confidence(confidence, fraction))
    horizon = options.get("time", HORIZON[options["geometry"]])
    method = METHOD.format(count, horizon)
    name, head, value = claim.quantity, options.get("head"), parameter(claim)
    c = 0.0 if claim.target is None else float(ball(claim.target, {}, 128).mid())

    def entries(cfg: Any) -> np.ndarray:
        """The quantity's entries minus the bound c."""
        return np.asarray(quantity(name, cfg, head, value), dtype=float) - c

    outside = undecided = 0
    held: list[float] = []
    for k in range(count):
        ctx.check_budget()
        cfg = configuration(options, ctx.rng(f"invariance-{k}"))
        first = entries(cfg)
        scale = 1.0 + float(np.max(np.abs(first + c)))
        if float(np.min(first)) < -TOLERANCE * scale:
            outside += 1
            continue
        if float(np.min(first)) <= TOLERANCE * scale:
            undecided += 1
            continue
        times = np.linspace(0.0, horizon, RECORDS)
        try:
            traj = integrate(
                cfg, horizon, record_times=times, observables=(), max_steps=POINTWISE_STEPS, backend="numpy"
            )
        except (IntegrationFailure, InputError) as exc:
            return Outcome(Verdict.INCONCLUSIVE, method, notes=f"start {k} could not be integrated: {exc}")
        assert traj.states is not None
        records = np.array([np.min(entries(cfg.moved_to(X))) for X in traj.states])
        least = float(np.min(records)) / scale
        if least < -TOLERANCE:
            when = float(traj.times[int(np.argmax(records < -TOLERANCE * scale))])
            notes = (
                f"start {k} satisfied the hypothesis at t = 0 and its least entry is {least:.6g} (relative) by "
                f"t = {when:.6g}: a float failure, not certified"
            )
            details: dict[str, Any] = {"failing_start": {"start": k, "configuration": configuration_record(cfg)}}
            details["failing_start"] |= {"time": when, "least": least}
            return Outcome(Verdict.INCONCLUSIVE, method, cases=k + 1, notes=notes, details=details)
        held.append(least)
    counts = {"starts": count, "outside_hypothesis": outside, "undecided_at_start": undecided, "held": len(held)}
    if not held:
        notes = (
            "no start satisfied the hypothesis at t = 0 with a margin floats can see "
            f"({outside} of {count} below the bound, {undecided} within {TOLERANCE:g} of it): not tested"
        )
        return Outcome(Verdict.INCONCLUSIVE, method, notes=notes, details=counts)
    sentence = (
        "the family is one configuration up to rotation, which the dynamics commutes with: one start decides all"
        if one_orbit
        else confidence_sentence(0, len(held), confidence) + " (among the starts that satisfy the hypothesis)"
    )
    notes = (
        f"{sentence}; {len(held)} of {count} starts satisfied the hypothesis at t = 0 ({outside} did not, {undecided} "
        f"undecided) and kept it on [0, {horizon:g}] (least relative margin {min(held):.3g}); nothing is claimed "
        "beyond the integrated interval"
    )
    return Outcome(
        Verdict.CONFIRMED,
        method,
        cases=len(held),
        worst_margin=min(held),
        tolerance=TOLERANCE,
        notes=notes,
        details=counts,
    )
