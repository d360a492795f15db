"""The exact route for two clusters of tokens: the gap angle's ODE of `headflow.identities.circle_clusters`.

It applies when the claim's exact start is two clusters (n1 tokens at a point a, n2 at b != a, given as exact points
or as angles, `two_clusters`), its heads scalar, geometry Post-LN, W_h = M_h, no mask, no interaction, beta > 0. Then
rho = <a, b> obeys rho' = (1 - rho)(1 + rho) K(rho), the equiangular reduction of n = 2 tokens with the pull K, and:

- cluster_gap (1 - rho): `tends-to`, `decays-at-rate` and `decays-like` exactly as in `exact_dynamics` (its
  `destination` and `late_rate` for size 2: eps -> 0 at the rate 2 K(1) when K(rho0) > 0);
- least_inner_product (rho): `tends-to`, on 1 - lim eps; arc_spread (d = 2: phi = arccos rho), `tends-to` when rho
  tends to 1 or -1 (0 or pi);
- order_parameter R = sqrt(n1^2 + n2^2 + 2 n1 n2 rho)/n: `tends-to` on the limit of rho, and `non-decreasing`,
  PROVED when rho does not decrease (K(rho0) >= 0: rho moves monotonically, R is increasing in rho), REFUTED when
  K(rho0) < 0 (then dR/dt = n1 n2 rho'/(n^2 R) < 0 at t = 0, by a ball of K(rho0)).

Antipodal clusters (rho0 = -1, checked exactly) are an equilibrium: sin phi = 0. Whatever the route cannot settle is
handed back undecided with the reason (the float evidence decides).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import sympy as sp
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.inert import inert
from headflow.certificates.kernel.clusters import FORM as CLUSTERS
from headflow.certificates.statements import clusters as cluster_statements
from headflow.certificates.statements.clusters import two_clusters
from headflow.certificates.store import certificate_directory, write_accepted
from headflow.checks.claimsfile import exact_dynamics as route
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict, derived
from headflow.identities import circle_clusters as cc
from headflow.identities import equiangular_reduction as er
from headflow.identities.derivation import Derivation

METHOD = (
    "exact: two clusters, the gap angle's ODE rho' = (1 - rho)(1 + rho) K(rho) (headflow.identities.circle_clusters)"
)
QUANTITIES = {
    "cluster_gap": ("tends-to", "decays-at-rate", "decays-like"),
    "least_inner_product": ("tends-to",),
    "order_parameter": ("tends-to", "non-decreasing"),
    "arc_spread": ("tends-to",),
}


def applies(claim: DynamicsClaim) -> bool:
    """Whether the claim's family and property are this route's (module docstring)."""
    options = claim.options
    return (
        claim.property in QUANTITIES.get(claim.quantity, ())
        and options["heads"] == "scalar"
        and options["geometry"] == "sphere"
        and options.get("mask") is None
        and options.get("values", "aligned") == "aligned"
        and "interaction" not in options
        and isinstance(options["beta"], int | float)
        and options["beta"] > 0
        and (claim.quantity != "arc_spread" or options["d"] == 2)
        and two_clusters(options) is not None
    )


def decide_two_clusters(claim: DynamicsClaim, ctx: Context) -> Outcome | None:
    """PROVED, REFUTED or INCONCLUSIVE (undecided, with the reason) on the gap angle's ODE; None outside the regime."""
    if not applies(claim):
        return None
    options = claim.options
    clusters = two_clusters(options)
    assert clusters is not None
    (size_a, size_b), start = clusters.sizes, clusters.inner
    strengths = [sp.Rational(stated(value)) for value in options["lambdas"]]
    derivation = Derivation()
    meaning = route.MEANING.get(claim.property, f"{claim.quantity} is {claim.property} along the trajectory")
    derivation.note(f"{meaning}; the start is {size_a} tokens at a and {size_b} at b with <a, b> = {start}")
    pull = cc.reduced_pull(derivation, options["attention"], strengths)
    pull = pull.subs({cc.n1: size_a, cc.n2: size_b, er.beta: sp.Rational(stated(options["beta"]))})
    details: dict[str, Any] = {"sizes": [size_a, size_b], "rho0": str(start), "pull": str(pull)}
    try:
        if start == -1:
            derivation.note("rho0 = -1: antipodal clusters, sin phi = 0, an equilibrium: eps(t) = 2 for all t")
            limit = sp.Integer(2)
        else:
            limit = er.destination(derivation, pull, start, 2)
            route._closed(derivation)
        details["limit"] = str(limit)
        problem = route._Problem(claim.target, 2, start, pull, derivation, limit, ctx, details)
        if start != -1:
            route._check_start_sign(problem)
        outcome = _decide(claim, problem, (size_a, size_b))
    except route._Undecided as undecided:
        notes = f"the exact route did not decide: {undecided}"
        return Outcome(Verdict.INCONCLUSIVE, METHOD, notes=notes, details=details)
    return _certified(claim, dataclasses.replace(outcome, method=METHOD), ctx)


def _certified(claim: DynamicsClaim, outcome: Outcome, ctx: Context) -> Outcome:
    """The outcome with a `clusters` certificate where the kernel's form states the claim and accepts it."""
    if outcome.verdict not in (Verdict.PROVED, Verdict.REFUTED):
        return outcome
    holds = outcome.verdict is Verdict.PROVED
    stated = cluster_statements.statement(claim, holds)
    return outcome.with_certificate(
        write_accepted(certificate_directory(ctx.certificate_dir), claim, CLUSTERS, {"holds": holds}, stated)
    )


def _decide(claim: DynamicsClaim, problem: route._Problem, sizes: tuple[int, int]) -> Outcome:
    """The claim's quantity and property on the reduced ODE."""
    if claim.quantity == "cluster_gap":
        if claim.property == "decays-at-rate":
            return route._decays(problem)
        if claim.property == "decays-like":
            return route._like(problem)
        return route._tends(problem)
    final = 1 - problem.limit  # lim rho
    if claim.quantity == "least_inner_product":
        return _limit_is(problem, "rho = least_inner_product", final)
    if claim.quantity == "arc_spread":  # d = 2: the shorter arc between the clusters, phi = arccos(rho) in [0, pi]
        if final not in (1, -1):
            raise route._Undecided(f"the arc spread tends to arccos({final}), which this route does not evaluate")
        problem.derivation.note(f"on the circle the arc spread is phi = arccos(rho) in [0, pi]; rho -> {final}")
        return _limit_is(problem, "phi = arc_spread", sp.Integer(0) if final == 1 else sp.pi)
    cc.order_parameter_identity(problem.derivation)
    route._closed(problem.derivation)
    if claim.property == "tends-to":
        return _limit_is(problem, "R = order_parameter", cc.order_parameter(*sizes, final))
    if problem.limit == 0 or problem.limit == 1 - problem.start:
        how = "rho increases to 1" if problem.limit == 0 else "rho is constant"
        problem.derivation.note(f"{how} (rho' keeps the sign of K(rho0) >= 0), so R = R(rho) never decreases")
        return derived(problem.derivation, METHOD, problem.details)
    reading = (
        f"K(rho0) < 0 (ball {problem.details['pull_at_rho0']}) and 1 - rho0^2 > 0, so rho' < 0 and "
        f"dR/dt = n1 n2 rho' / (n^2 R) < 0 at t = 0: R decreases on the trajectory from this start"
    )
    return route._refuted(problem, "ball", reading, pull_at_rho0=problem.details["pull_at_rho0"])


def _limit_is(problem: route._Problem, name: str, limit: sp.Expr) -> Outcome:
    """`tends-to` of a function of rho: the claimed limit against its exact limit."""
    claimed = problem.claimed
    problem.details["exact_limit"] = str(limit)
    if not route._equal(claimed, limit, problem.ctx):
        reading = f"{name} tends to {limit} exactly, and the claimed limit {claimed} differs from it"
        return route._refuted(problem, "ball", reading, exact_limit=str(limit), claimed_limit=str(claimed))
    problem.derivation.zero(f"the claimed limit {claimed} equals lim {name} = {limit}", claimed - inert(limit))
    return derived(problem.derivation, METHOD, problem.details)
