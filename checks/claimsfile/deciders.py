"""One decision procedure per claim kind; a new kind's decider plugs in here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from checks.claimsfile.constant_decider import decide_constant
from checks.claimsfile.identity_decider import decide_identity
from checks.claimsfile.schema import UserClaim
from checks.registry import Context
from checks.verdicts import Outcome, Verdict

Decider = Callable[[Any, Context], Outcome]


def decide_pending(claim: UserClaim, ctx: Context) -> Outcome:
    """The claim was parsed and validated, but no decider for its kind is integrated yet."""
    return Outcome(
        Verdict.INCONCLUSIVE,
        "none",
        notes=f"decider pending: {claim.kind} claims are parsed and validated but not decided yet",
    )


#: kind -> (procedure name, decider).
DECIDERS: dict[str, tuple[str, Decider]] = {
    "identity": ("symbolic+ball", decide_identity),
    "constant": ("ball", decide_constant),
    "inequality": ("pending", decide_pending),
    "dynamics": ("pending", decide_pending),
}
