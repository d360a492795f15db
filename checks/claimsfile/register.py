"""Turn loaded claims into a fresh registry, so the ordinary runner and report decide and show them."""

from __future__ import annotations

from functools import partial

from headflow.certificates.claims.schema import DynamicsClaim, UserClaim, with_parts
from headflow.checks.claimsfile.deciders import DECIDERS, decide
from headflow.checks.claimsfile.dynamics_starts import check_sizes
from headflow.checks.registry import Registry


def register_claims(claims: list[UserClaim]) -> Registry:
    """A registry holding each user claim with the decider of its kind as its one procedure; InputError (bad input,
    before anything is decided) for a dynamics claim whose model is too large to draw."""
    for claim in with_parts(claims):
        if isinstance(claim, DynamicsClaim):
            check_sizes(claim)
    registry = Registry()
    for claim in claims:
        registry.declare(claim.id, claim.title, claim.statement)
        registry.procedure(claim.id, DECIDERS[claim.kind][0])(partial(decide, claim))
    return registry
