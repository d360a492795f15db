"""The pointwise route of a dynamics claim: decided through the `model` claim whose truth at every state implies it.

`Q non-decreasing along every trajectory` follows from `dQ/dt >= 0 at every configuration` of the model, and
`Q non-negative at every time` from `Q >= 0 at every configuration` (`certificates.statements.pointwise` builds that
model claim from the dynamics claim's options: the same attention kind, geometry, heads, values, mask, interaction
and sign of beta). The model kind's own decider (`model_decider.decide_model`) decides it:

- PROVED (the Gram reduction, for all n, d, H, beta of the claim's sizes): the dynamics claim is PROVED for every
  start, whatever its start family (a trajectory never leaves the model's configurations), with the proof's steps;
- REFUTED by a ball-verified configuration where the rate is negative (its model-claim certificate is scratch, written
  to a temporary folder: it embeds a claim the user never wrote): that configuration refutes the dynamics claim
  only when it is a start of the claim's family. It is re-certified as a witness of the dynamics claim's own
  statement (`statements.dynamics.refutation`: the rate >= 0 over the family's exact members, its sizes, beta, data
  and given conditions; relu scores off the kink), in a certificate that embeds the dynamics claim; for a family that
  is one configuration (given tokens, equiangular, ...) the model search is not even run: its witness is no start;
- anything else: None, and the decider's other routes and its float route decide as before.

A claim quantified over n, d, beta (positive) or the family's rho is PROVED for its whole domain when the same
statement for every n, d and beta > 0 at its H is (`decide_pointwise_domain`); it is never refuted here.
"""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path

from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import DynamicsClaim, ModelClaim
from headflow.certificates.families import TOKEN_FAMILIES
from headflow.certificates.kernel.loading import load
from headflow.certificates.kernel.recheck import exact_configuration
from headflow.certificates.provers import gram_identities
from headflow.certificates.provers.model_witness import certify_model_witness
from headflow.certificates.statements.dynamics import family_failures, on_a_kink, refutation
from headflow.certificates.statements.pointwise import general_pointwise_claim, pointwise_claim
from headflow.certificates.store import certificate_directory
from headflow.checks.claimsfile.model_decider import decide_model
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict

ROUTE = "pointwise"


def decide_pointwise(claim: DynamicsClaim, ctx: Context) -> Outcome | None:
    """PROVED or REFUTED through the pointwise statement (see the module docstring); None when it does not decide."""
    model = pointwise_claim(claim)
    if model is None:
        return None
    # a witness of the model search (any unit tokens) can be a start only of a family that is not one configuration
    statement = None if TOKEN_FAMILIES[claim.options["tokens"]].fixed else refutation(claim)
    # the model claim's own witness certificate is scratch: it embeds a claim that is not in the user's file, so only
    # its re-certification as a witness of the dynamics claim is written to the run's folder
    with tempfile.TemporaryDirectory() as scratch:
        scratch_ctx = dataclasses.replace(ctx, certificate_dir=Path(scratch))
        outcome = decide_model(model, scratch_ctx, statement is not None, certify=False)
        if outcome.verdict is Verdict.PROVED:
            return _proved(claim, model, outcome, ctx)
        if outcome.verdict is not Verdict.REFUTED or statement is None or not outcome.certificates:
            return None
        payload = load(Path(outcome.certificates[0]))["payload"]
    options = claim.options
    exact = exact_configuration(
        payload["configuration"], options.get("interaction"), stated(options["beta"]) < 0, model.mask != "none"
    )
    if family_failures(options, exact) or on_a_kink(exact):
        return None  # a configuration where the rate is negative, but no start of this claim's family
    at = {key: int(value) for key, value in payload["at"].items()}
    if options.get("head") is not None and "h" in at:
        at["h"] = options["head"]
    directory = certificate_directory(ctx.certificate_dir)
    result = certify_model_witness(statement, exact, at, directory, embedded(claim))
    if not result.verified:
        return None
    reading = _reading(claim, model)
    witness = outcome.witness or {}
    return Outcome(
        Verdict.REFUTED,
        f"{ROUTE}: {reading} fails at a configuration of the model (model claim, REFUTED: {outcome.method}); "
        "that configuration is a start of the claim's family, re-certified against the claim's own statement",
        witness=witness
        | {
            "verified_by": "ball",
            "ball": result.values[0],
            "hypotheses": statement["hypotheses"],
            "certificate": str(result.path),
            "reading": f"{reading} fails at this exact start of the family, so {_consequence(claim)} fails on the "
            "trajectory that starts there (at t = 0)",
        },
        certificates=[str(result.path)],
        notes=f"route: {ROUTE} (the model claim {model.id!r}: {model.statement})",
        details={"route": ROUTE, "model_claim": model.raw, "model_witness": outcome.witness},
    )


def decide_pointwise_domain(claim: DynamicsClaim, ctx: Context) -> Outcome | None:
    """PROVED for every point of a quantified claim's domain when its pointwise statement for every n, d and beta of
    the claim's sign, at its H, is PROVED; None otherwise (the domain sweep decides)."""
    model = general_pointwise_claim(claim)
    if model is None:
        return None
    outcome = decide_model(model, ctx, search=False, certify=False)
    return _proved(claim, model, outcome, ctx) if outcome.verdict is Verdict.PROVED else None


def _proved(claim: DynamicsClaim, model: ModelClaim, outcome: Outcome, ctx: Context) -> Outcome:
    """The dynamics claim PROVED through its model claim: the proof's steps, and the `gram` certificate of the
    claim's pointwise statement when the kernel's table lists it under one of the paper's identities
    (`gram_identities.certify_pointwise`)."""
    path = gram_identities.certify_pointwise(claim, certificate_directory(ctx.certificate_dir))
    reading = _reading(claim, model)
    method = (
        f"{ROUTE}: {reading} at every configuration (model claim, PROVED), hence {_consequence(claim)} along every "
        "trajectory"
    )
    return Outcome(
        Verdict.PROVED,
        method,
        steps=outcome.steps,
        certificates=[] if path is None else [str(path)],
        notes=(
            f"route: {method}; the model claim {model.id!r} ({model.statement}) was PROVED by {outcome.method}; a "
            "trajectory of the model never leaves its configurations, so every start the claim allows is covered"
        ),
        details={"route": ROUTE, "model_claim": model.raw},
    )


def _reading(claim: DynamicsClaim, model: ModelClaim) -> str:
    """`d(energy)/dt = dE_dt >= 0` (non-decreasing) or `energy_rate = dE_dt >= 0` (non-negative)."""
    quantity = f"d({claim.quantity})/dt" if claim.property == "non-decreasing" else claim.quantity
    return f"{quantity} = {model.relation.text}"


def _consequence(claim: DynamicsClaim) -> str:
    if claim.property == "non-decreasing":
        return f"{claim.quantity} is non-decreasing"
    return f"{claim.quantity} is non-negative at every time"
