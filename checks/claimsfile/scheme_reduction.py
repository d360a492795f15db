"""The exact route for the cluster gap of equiangular tokens under the normalization schemes (Pre-LN, Peri-LN,
Mix-LN, nGPT).

It applies to the family of `exact_dynamics` (quantity `cluster_gap`, `tends-to` or `decays-at-rate`, tokens =
"equiangular", heads = "scalar") under one of `identities.normalized_reduction.SCHEMES` with every lambda_h > 0.
There the directions follow Post-LN's equiangular trajectory at a positive speed whose integral diverges, so:

- `tends-to`: the limit is Post-LN's (`equiangular_reduction.destination`), decided exactly as in `exact_dynamics`;
- `decays-at-rate` under nGPT: the exact rate is r*/V* (= 2), PROVED when the claimed rate equals it and eps -> 0,
  REFUTED when a ball separates them;
- `decays-at-rate` under Pre-LN, Peri-LN, Mix-LN: eps decays like a power of t (`normalized_reduction`), so no rate
  holds: REFUTED, with the power in the reading;
- `decays-like f`: the proved form (eps ~ C e^(-(r*/V*) t) under nGPT, eps ~ C t^(-p) under the others) against the
  stated shape f (`rate_shapes`): PROVED when lim form/f is a positive number, REFUTED when it is 0 or oo or when eps
  does not tend to 0 (Karagodin-Ge-Polyanskiy-Rigollet's Pre-LN power law 1 - rho(t) ~ C/t^2).
Whatever the route cannot settle is handed back undecided (the float evidence decides).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import sympy as sp
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import TIME, DynamicsClaim
from headflow.certificates.inert import inert
from headflow.checks.claimsfile import exact_dynamics as route
from headflow.checks.claimsfile import rate_shapes
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
        and (claim.property in route.PROPERTIES or claim.property == rate_shapes.PROPERTY)
        and options["tokens"] == "equiangular"
        and options["heads"] == "scalar"
        and options["geometry"] in nr.SCHEMES
        and options.get("mask") is None  # the reduction's regime: no mask, W_h = M_h, exp(beta s) weights
        and options.get("values", "aligned") == "aligned"
        and "interaction" not in options
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
            shaped = claim.property == rate_shapes.PROPERTY
            outcome = _decays(problem, geometry, options["attention"], strengths, known, shaped)
    except route._Undecided as undecided:
        notes = f"the exact route did not decide: {undecided}"
        return Outcome(Verdict.INCONCLUSIVE, METHOD, notes=notes, details=details)
    return _renamed(outcome)


def _decays(
    problem: route._Problem,
    geometry: str,
    attention: str,
    strengths: list[sp.Rational],
    known: dict,
    shaped: bool = False,
) -> Outcome:
    """nGPT: the claimed rate against r*/V*; the other schemes: eps decays like t^(-p), at no exponential rate.
    `shaped`: the claim is `decays-like` its target, decided on that form (`rate_shapes`)."""
    derivation = problem.derivation
    rate = er.late_rate(derivation, er.on_side(problem.pull, positive=True), problem.size)
    speed = nr.late_speed(derivation, attention, strengths).subs(known)
    route._closed(derivation)
    like = problem.claimed if shaped else None
    if problem.limit != 0:
        if like is not None:
            return rate_shapes.no_decay(derivation, problem.details, METHOD, problem.limit, "ball")
        reading = f"eps(t) -> {problem.limit} != 0: it decays at no rate"
        return route._refuted(problem, "ball", reading, exact_limit=str(problem.limit))
    derivation.holds("V* > 0 (its ball is positive)", bool(route._ball(speed) > 0))
    _, factor = nr.SCHEMES[geometry]
    if factor is None:  # nGPT: the tokens stay on the sphere and the speed tends to 1/V*
        if like is not None:  # r* = 2 V* (`late_speed`, checked)
            derivation.zero(f"r*/V* = {rate / speed} = 2", rate - 2 * speed)
            _ngpt_form(derivation)
            return rate_shapes.shaped(derivation, problem.details, like, sp.exp(-2 * TIME), METHOD)
        return _ngpt(problem, rate / speed)
    power = rate / (factor * speed)
    derivation.note(
        f"{geometry}: the directions' speed sigma ~ 1/(k V* t) with k = {factor}, so tau(t) ~ ln(t)/(k V*) and "
        f"eps(t) ~ C t^(-p) with p = r*/(k V*) = {power}",
        r"\varepsilon(t) \sim C\, t^{-p}",
    )
    if like is not None:  # r* = 2 V* (`late_speed`, checked): p = 2/k
        derivation.zero(f"p = r*/(k V*) = 2/k = {2 / factor}", rate - 2 * speed)
        return rate_shapes.shaped(derivation, problem.details, like, TIME ** (-2 / factor), METHOD)
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
    _ngpt_form(problem.derivation)
    return derived(problem.derivation, METHOD, problem.details)


def _ngpt_form(derivation: Derivation) -> None:
    """nGPT's eps(t) ~ C e^(-(r*/V*) t), C > 0, once eps -> 0 is shown."""
    derivation.note(
        "with eps -> 0 and |v| -> V* smoothly, d/dt ln(eps e^(r t)) = O(eps) with r = r*/V*, integrable: "
        "eps(t) e^(r t) -> C in (0, oo) [cited: comparison for a scalar ODE]",
        r"\varepsilon(t) \sim C e^{-2t}",
    )


def _renamed(outcome: Outcome) -> Outcome:
    """The outcome under this route's method name."""
    return dataclasses.replace(outcome, method=METHOD)
