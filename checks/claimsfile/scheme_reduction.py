"""The exact route for the cluster gap of equiangular tokens under the normalization schemes (Pre-LN, Peri-LN,
Mix-LN, nGPT).

It applies to the family of `exact_dynamics` (quantity `cluster_gap`, `tends-to` or `decays-at-rate`, tokens =
"equiangular", heads = "scalar") under one of `identities.normalized_reduction.SCHEMES` with every lambda_h > 0.
There the directions follow Post-LN's equiangular trajectory at a positive speed whose integral diverges, so:

- `tends-to`: the limit is Post-LN's (`equiangular_reduction.destination`), decided exactly as in `exact_dynamics`;
- `decays-at-rate` under nGPT: the exact rate is r*/V* (= 2), PROVED when the claimed rate equals it and eps -> 0,
  REFUTED when a ball separates them;
- `decays-at-rate` under Pre-LN, Peri-LN, Mix-LN: eps decays like a power of t (`normalized_reduction`), so no rate
  holds: REFUTED, with the power in the reading.
Whatever the route cannot settle is handed back undecided (the float evidence decides).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import sympy as sp
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.inert import inert
from headflow.checks.claimsfile import exact_dynamics as route
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict, derived
from headflow.identities import equiangular_reduction as er
from headflow.identities import normalized_reduction as nr
from headflow.identities.derivation import Derivation

METHOD = "exact: the equiangular reduction, Post-LN's trajectory at the scheme's speed (normalized_reduction)"


def applies(claim: DynamicsClaim) -> bool:
    """Whether the claim is a cluster-gap claim of the equiangular scalar regime under a scheme, every lambda_h > 0."""
    options = claim.options
    return (
        claim.quantity == "cluster_gap"
        and claim.property in route.PROPERTIES
        and options["tokens"] == "equiangular"
        and options["heads"] == "scalar"
        and options["geometry"] in nr.SCHEMES
        and all(stated(value) > 0 for value in options["lambdas"])
    )


def decide_scheme(claim: DynamicsClaim, ctx: Context) -> Outcome | None:
    """PROVED, REFUTED or INCONCLUSIVE (undecided, with the reason); None outside the regime."""
    if not applies(claim) or claim.target is None:
        return None
    options, geometry = claim.options, claim.options["geometry"]
    start = route._rational(options["rho"])
    strengths = [route._rational(value) for value in options["lambdas"]]
    derivation = Derivation()
    derivation.note(route.MEANING[claim.property])
    nr.time_change(derivation, geometry)
    pull = er.reduced_pull(derivation, options["attention"], strengths)
    known = {er.n: options["n"], er.beta: route._rational(options["beta"])}
    pull = pull.subs(known)
    details: dict[str, Any] = {"meaning": route.MEANING[claim.property], "rho0": str(start), "pull": str(pull)}
    try:
        limit = er.destination(derivation, pull, start, options["n"])
        route._closed(derivation)
        details["limit"] = str(limit)
        problem = route._Problem(claim.target, options["n"], start, pull, derivation, limit, ctx, details)
        route._check_start_sign(problem)
        if claim.property == "tends-to":
            outcome = route._tends(problem)
        else:
            outcome = _decays(problem, geometry, options["attention"], strengths, known)
    except route._Undecided as undecided:
        notes = f"the exact route did not decide: {undecided}"
        return Outcome(Verdict.INCONCLUSIVE, METHOD, notes=notes, details=details)
    return _renamed(outcome)


def _decays(
    problem: route._Problem, geometry: str, attention: str, strengths: list[sp.Rational], known: dict
) -> Outcome:
    """nGPT: the claimed rate against r*/V*; the other schemes: eps decays like t^(-p), at no exponential rate."""
    derivation = problem.derivation
    rate = er.late_rate(derivation, er.on_side(problem.pull, positive=True), problem.size)
    speed = nr.late_speed(derivation, attention, strengths).subs(known)
    route._closed(derivation)
    if problem.limit != 0:
        reading = f"eps(t) -> {problem.limit} != 0: it decays at no rate"
        return route._refuted(problem, "ball", reading, exact_limit=str(problem.limit))
    derivation.holds("V* > 0 (its ball is positive)", bool(route._ball(speed) > 0))
    _, factor = nr.SCHEMES[geometry]
    if factor is None:  # nGPT: the tokens stay on the sphere and the speed tends to 1/V*
        return _ngpt(problem, rate / speed)
    power = rate / (factor * speed)
    derivation.note(
        f"{geometry}: the directions' speed sigma ~ 1/(k V* t) with k = {factor}, so tau(t) ~ ln(t)/(k V*) and "
        f"eps(t) ~ C t^(-p) with p = r*/(k V*) = {power}",
        r"\varepsilon(t) \sim C\, t^{-p}",
    )
    reading = (
        f"under {geometry} eps(t) ~ C t^(-{power}) (a power of t): eps(t) e^(r t) -> oo for every r > 0 and -> 0 for "
        "r <= 0, so it decays at no exponential rate"
    )
    return route._refuted(problem, "ball", reading, power=str(power), post_ln_rate=str(rate), late_speed=str(speed))


def _ngpt(problem: route._Problem, exact_rate: sp.Expr) -> Outcome:
    """nGPT decays at the exact rate r*/V*: PROVED at it, REFUTED at any rate a ball separates from it."""
    claimed = problem.claimed
    problem.details["exact_rate"] = str(exact_rate)
    if not route._equal(claimed, exact_rate, problem.ctx):
        reading = (
            f"under nGPT d ln eps/dt = F(eps)/(eps |v|) -> -r*/V* = -{exact_rate}, so no rate other than {exact_rate} "
            f"holds, and the claimed rate {claimed} differs from it"
        )
        return route._refuted(problem, "ball", reading, exact_rate=str(exact_rate), claimed_rate=str(claimed))
    problem.derivation.zero(f"the claimed rate {claimed} equals r*/V* = {exact_rate}", claimed - inert(exact_rate))
    problem.derivation.note(
        "with eps -> 0 and |v| -> V* smoothly, d/dt ln(eps e^(r t)) = O(eps) with r = r*/V*, integrable: "
        "eps(t) e^(r t) -> C in (0, oo) [cited: comparison for a scalar ODE]",
        r"\varepsilon(t) \sim C e^{-2t}",
    )
    return derived(problem.derivation, METHOD, problem.details)


def _renamed(outcome: Outcome) -> Outcome:
    """The outcome under this route's method name."""
    return dataclasses.replace(outcome, method=METHOD)
