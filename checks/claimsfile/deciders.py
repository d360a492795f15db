"""One decision procedure per claim kind; a new kind's decider plugs in here.

Every claim reaches its decider through `decide`: a claim whose domain could not be shown non-empty (no verified
point, no proof of emptiness: `schema._unsettled`) is INCONCLUSIVE with that reason, before any decider runs
(a universal claim over an empty domain is vacuous; one proved empty never loads).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from headflow.checks.claimsfile.asymptotic_decider import decide_asymptotic
from headflow.checks.claimsfile.conjunction import conjunction
from headflow.checks.claimsfile.constant_decider import decide_constant
from headflow.checks.claimsfile.dynamics_decider import decide_dynamics
from headflow.checks.claimsfile.equilibrium_decider import decide_equilibrium
from headflow.checks.claimsfile.head_inequality import decide_any_heads
from headflow.checks.claimsfile.identity_decider import decide_identity
from headflow.checks.claimsfile.inequality_decider import decide_inequality
from headflow.checks.claimsfile.maximiser import decide_punctured
from headflow.checks.claimsfile.model_decider import decide_model
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict

Decider = Callable[[Any, Context], Outcome]


def decide_any_inequality(claim: Any, ctx: Context) -> Outcome:
    """A punctured domain by `maximiser` alone, per-head symbols by `head_inequality`, else `inequality_decider`."""
    if claim.punctures:
        return decide_punctured(claim, ctx)
    if claim.heads is not None:
        return decide_any_heads(claim, ctx)
    return decide_inequality(claim, ctx)


def decide_every_part(claim: Any, ctx: Context) -> Outcome:
    """A conjunction: each part by the decider of its own kind (`conjunction` weighs their verdicts)."""
    return conjunction([(part, decide(part, ctx)) for part in claim.parts])


#: kind -> (procedure name, decider): the one table from a claim's kind to what decides it.
DECIDERS: dict[str, tuple[str, Decider]] = {
    "identity": ("symbolic+ball+smt", decide_identity),
    "constant": ("ball", decide_constant),
    "inequality": ("ball search+smt+cover", decide_any_inequality),
    "dynamics": ("reduction+trajectories", decide_dynamics),
    "asymptotic": ("bracket+checked limits", decide_asymptotic),
    "model": ("symbolic+witness search", decide_model),
    "equilibrium": ("exact velocities+symbolic+certified spectrum", decide_equilibrium),
    "all": ("every part", decide_every_part),
}


def decide(claim: Any, ctx: Context) -> Outcome:
    """The decider of the claim's kind, once its domain is known to be non-empty."""
    unsettled = getattr(claim, "domain_unsettled", "")
    if unsettled:
        return Outcome(Verdict.INCONCLUSIVE, "domain check", notes=unsettled)
    return DECIDERS[claim.kind][1](claim, ctx)
