"""Turn loaded claims into a fresh registry, so the ordinary runner and report decide and show them.

Each user claim gets one procedure, its road: `ClaimDecision`, the claim bound to `deciders.decide`, which reaches
the decider of the claim's kind in the one table `deciders.DECIDERS` (named there with the procedure's name)."""

from __future__ import annotations

from dataclasses import dataclass

from headflow.certificates.claims.schema import DynamicsClaim, UserClaim, with_parts
from headflow.checks.claimsfile.deciders import DECIDERS, decide
from headflow.checks.claimsfile.dynamics_starts import check_sizes
from headflow.checks.registry import Context, Registry
from headflow.checks.verdicts import Outcome


@dataclass(frozen=True, eq=False)
class ClaimDecision:
    """The one procedure of a user claim: `decide(claim, ctx)`, by the decider of its kind (`DECIDERS`)."""

    claim: UserClaim

    @property
    def name(self) -> str:
        """The procedure's name: DECIDERS' name of the claim's kind (what the report shows)."""
        return DECIDERS[self.claim.kind][0]

    def __call__(self, ctx: Context) -> Outcome:
        return decide(self.claim, ctx)


def register_claims(claims: list[UserClaim]) -> Registry:
    """A registry holding each user claim with the decider of its kind as its one procedure; InputError (bad input,
    before anything is decided) for a dynamics claim whose model is too large to draw."""
    for claim in with_parts(claims):
        if isinstance(claim, DynamicsClaim):
            check_sizes(claim)
    registry = Registry()
    for claim in claims:
        registry.declare(claim.id, claim.title, claim.statement)
        decision = ClaimDecision(claim)
        registry.procedure(claim.id, decision.name)(decision)
    return registry
