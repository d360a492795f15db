"""Invariant regions from pointwise statements: `stays-at-least c` (and `stays-non-negative`, c = 0) proved through a
`model` claim whose truth at every configuration implies it.

The claim: on every trajectory of the family where every entry q_k of the quantity is >= c at t = 0, every entry is
>= c at every t >= 0 (the region K = {q_k >= c for every k} is forward invariant). What is used (for the energies and
the attention entropy, whose values and rates are model terms, `certificates.statements.pointwise.region_claims`):

- `monotone`: dq_k/dt >= 0 at every configuration of the model. Along a trajectory each entry is then non-decreasing,
  so it stays >= its start, which is >= c. (A trajectory never leaves the model's configurations.)
- `bound`: q_k >= c at every configuration. The region is then every configuration.
- `boundary`: dq_k/dt > 0 at every configuration where q_k = c (the boundary as the model claim's `given`: q >= c
  and q <= c), for a quantity without a token axis (E, E_h). First exit: let t* = inf{t : some q_k(t) < c}. Every
  q_k(t*) >= c (the set where one is < c is open) and, the entries being finitely many, one of them, q_k, is < c at
  times t_m decreasing to t*, so q_k(t*) = c; then dq_k/dt(t*) > 0 puts q_k > c on (t*, t* + delta), a contradiction.
  Only the active entry's equality is used (corners, where several entries equal c, need nothing more), and no
  constraint qualification: the inequality is strict. With `>=` on the boundary (Nagumo / Bony-Brezis) the tangent
  cone of {q >= c} at a boundary point is the half-space {grad q . v >= 0} only where grad q != 0, and the tangent
  cone at a corner is the intersection of half-spaces only under a constraint qualification; neither is proved here,
  so a non-strict boundary sign is never used. The per-token entropy has no boundary statement: a model claim's
  `given` holds at every token, which would state "every entry equals c", not the boundary.

Each model claim is decided by the model kind's exact reduction alone (`model_decider.decide_model` without its
search, over a scratch folder): PROVED for every configuration of the claim's model (its n, d, H and exact beta, or
for a quantified claim every n, d and beta of its sign at its H). A witness of a model claim refutes nothing here: a
configuration where dq/dt < 0 is not on the boundary q = c unless c is exactly its value, and a trajectory from it is
not certified to leave the region. Refutations come from the validated enclosure of the user's exact start
(`validated_route`: a start shown to satisfy q >= c at t = 0, and a ball of a later state below c) and nowhere else;
the float route (`invariance`) gives at most CONFIRMED, a failure there is an INCONCLUSIVE candidate.
"""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path

from headflow.certificates.claims.evaluation import exact
from headflow.certificates.claims.schema import DynamicsClaim, ModelClaim
from headflow.certificates.provers import gram_identities, model_sums
from headflow.certificates.statements.pointwise import REGION_PROPERTIES, region_claims
from headflow.certificates.store import certificate_directory
from headflow.checks.claimsfile.model_decider import decide_model
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict

ROUTE = "invariant region"
#: What each model claim's truth gives, in the report.
READINGS = {
    "monotone": "{q} is non-decreasing along every trajectory, so every entry stays >= its start",
    "bound": "every entry of {q} is >= {c} at every configuration, so the region is every configuration",
    "boundary": (
        "at a first exit time t* some entry equals {c} and its rate is > 0 there, so it is > {c} just after t*: "
        "no trajectory leaves the region (first-exit argument; strict, so no constraint qualification is needed)"
    ),
}


def decide_region(claim: DynamicsClaim, ctx: Context) -> Outcome | None:
    """PROVED through the first of the claim's model claims (monotone, bound, boundary) that the exact reduction
    proves; None when the claim is no invariant region of a quantity with model terms, or none is proved."""
    if claim.property not in REGION_PROPERTIES or claim.exists:
        return None
    c = REGION_PROPERTIES[claim.property]
    bound = c if c is not None else None if claim.target.free_symbols else exact(claim.target, {})
    with tempfile.TemporaryDirectory() as scratch:
        scratch_ctx = dataclasses.replace(ctx, certificate_dir=Path(scratch))
        for route, model in region_claims(claim, bound):
            outcome = decide_model(model, scratch_ctx, search=False, certify=False)
            if outcome.verdict is Verdict.PROVED:
                return _proved(claim, route, model, outcome, bound, ctx)
    return None


#: The certificate writer of each route's statement (its statement elaborated again by `check-cert --claims`).
CERTIFIERS = {"monotone": gram_identities.certify_pointwise, "bound": model_sums.certify_region}


def _proved(
    claim: DynamicsClaim, route: str, model: ModelClaim, outcome: Outcome, bound: object, ctx: Context
) -> Outcome:
    """The invariance claim PROVED through one model claim, with its steps; through the monotone statement, with the
    `gram` certificate of that statement when the kernel's table lists it (`gram_identities.certify_pointwise`);
    through the bound, with the `sums` certificate of that statement when the kernel's normal form closes it."""
    directory = certificate_directory(ctx.certificate_dir)
    certify = CERTIFIERS.get(route)
    path = None if certify is None else certify(claim, directory)
    c = "c" if bound is None else str(bound)
    reading = READINGS[route].format(q=claim.quantity, c=c)
    method = f"{ROUTE} ({route}): {model.statement} (model claim, PROVED); hence {reading}"
    return Outcome(
        Verdict.PROVED,
        method,
        steps=outcome.steps,
        notes=(
            f"route: {ROUTE}, {route} statement; the model claim {model.id!r} was PROVED by {outcome.method}; a "
            "trajectory of the model never leaves its configurations, so every start the claim allows is covered"
        ),
        details={"route": f"{ROUTE}: {route}", "model_claim": model.raw},
        certificates=[] if path is None else [str(path)],
    )
