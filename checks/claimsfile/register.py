"""Turn loaded claims into a fresh registry, so the ordinary runner and report decide and show them."""

from __future__ import annotations

from functools import partial

from certificates.claims.schema import UserClaim
from checks.claimsfile.deciders import DECIDERS, decide
from checks.registry import Registry


def register_claims(claims: list[UserClaim]) -> Registry:
    """A registry holding each user claim with the decider of its kind as its one procedure."""
    registry = Registry()
    for claim in claims:
        registry.declare(claim.id, claim.title, claim.statement)
        registry.procedure(claim.id, DECIDERS[claim.kind][0])(partial(decide, claim))
    return registry
