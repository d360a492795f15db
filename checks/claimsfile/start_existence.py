"""Dynamics statements about some start (`exists = true`) or with the properties `does-not-tend-to` and
`decays-exponentially`, and stationary witnesses against universal limit statements.

- A stationary start of the family (velocity exactly 0) whose quantity is not the limit L settles, with a certificate
  that `check-cert` re-checks from the embedded claim (`checks.claimsfile.stationary_starts`): CERTIFIED "some start
  does not tend to L"; REFUTED "every start tends to L" (for L = 0 also `decays-at-rate` and `decays-exponentially`)
  for given tokens or tokens in an open hemisphere (`headflow.certificates.statements.dynamics.avoided_limit`).
- `decays-exponentially` (some r > r0 and C with q(t) <= C e^(-r t)): `headflow.checks.claimsfile.exponential_decay`.
- `does-not-tend-to L` is the negation, start by start, of `tends-to L`: the universal claim is REFUTED when every
  start provably tends to L and PROVED when the exact route refutes `tends-to L` on a family that is one start up to
  rotation; "some start does not tend to L" is REFUTED when every start provably tends to L. Floats that see every
  start tend to L refute no existence claim: INCONCLUSIVE (on M = I, usa, an open hemisphere every start clusters,
  a theorem; no candidate is stationary there, so it is never CERTIFIED).
- "some start has P" for the other limit properties: the universal claim's PROVED or CONFIRMED carries over (the
  family has members); on a family that is one start up to rotation (with scalar heads) its every verdict does.
"""

from __future__ import annotations

import dataclasses

from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.families import TOKEN_FAMILIES
from headflow.checks.claimsfile.exponential_decay import applies_exactly, decide_by_fit, decide_exactly
from headflow.checks.claimsfile.stationary_starts import find_stationary, witness_fields
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict
from headflow.identities.derivation import Step

METHOD = "an exact stationary start of the family (velocity exactly 0), re-checked by check-cert"


def handles(claim: DynamicsClaim) -> bool:
    """Whether this module decides the claim (before the universal routes of `dynamics_decider`)."""
    return claim.exists or claim.property in ("does-not-tend-to", "decays-exponentially")


def stationary_outcome(claim: DynamicsClaim, ctx: Context) -> Outcome | None:
    """CERTIFIED (some start does not tend to L) or REFUTED (every start tends to L / decays) by a stationary start,
    or None when no candidate is one."""
    found = find_stationary(claim, ctx)
    if found is None:
        return None
    witness = witness_fields(found, claim)
    if claim.exists:
        notes = f"a stationary start of the family keeps {claim.quantity} = {found[2]} for all t: not the limit"
        return Outcome(Verdict.CERTIFIED, METHOD, witness=witness, certificates=[str(found[0])], notes=notes)
    return Outcome(Verdict.REFUTED, METHOD, witness=witness, certificates=[str(found[0])])


def decide_alone(claim: DynamicsClaim, ctx: Context) -> Outcome | None:
    """The verdict where no universal claim is needed: a stationary start, or `decays-exponentially` (the exact
    regime is one start up to rotation: some = every); None when the verdict comes from `universal_counterpart`."""
    witnessed = stationary_outcome(claim, ctx)
    if witnessed is not None:
        return witnessed
    if claim.property == "decays-exponentially":
        return decide_exactly(claim) if applies_exactly(claim) else decide_by_fit(claim, ctx)
    return None


def universal_counterpart(claim: DynamicsClaim) -> DynamicsClaim:
    """The universal claim whose verdict decides this one (`from_universal`): every start tends to L for
    `does-not-tend-to L`, else the claim about every start."""
    if claim.property == "does-not-tend-to":
        return dataclasses.replace(claim, property="tends-to", exists=False)
    return dataclasses.replace(claim, exists=False)


def from_universal(claim: DynamicsClaim, universal: Outcome) -> Outcome:
    """The verdict (see the module docstring) from the verdict of `universal_counterpart(claim)`."""
    if claim.property == "does-not-tend-to":
        return _not_tending(claim, universal)
    if universal.verdict in (Verdict.PROVED, Verdict.CONFIRMED) or _one_start(claim):
        return universal
    notes = f"every start of the family was not shown to have the property ({universal.verdict}: {universal.notes})"
    return Outcome(Verdict.INCONCLUSIVE, universal.method, notes=notes, details=universal.details)


def _one_start(claim: DynamicsClaim) -> bool:
    return TOKEN_FAMILIES[claim.options["tokens"]].fixed and claim.options["heads"] == "scalar"


def _not_tending(claim: DynamicsClaim, tending: Outcome) -> Outcome:
    """`does-not-tend-to L` from the decision of `tends-to L` (every start)."""
    if tending.verdict is Verdict.PROVED:
        witness = {"verified_by": "exact", "reading": f"every start provably has {claim.quantity} -> {claim.target}"}
        return Outcome(Verdict.REFUTED, tending.method, witness=witness, steps=tending.steps, details=tending.details)
    exact_refutation = tending.verdict is Verdict.REFUTED and "derivation" in tending.details
    if exact_refutation and _one_start(claim):
        reading = "; ".join(f"{k} = {v}" for k, v in (tending.witness or {}).items() if k != "verified_by")
        steps = [Step(text) for text in tending.details["derivation"]]
        steps.append(Step(f"so {claim.quantity} does not tend to {claim.target}: {reading}", kind="computed"))
        return Outcome(Verdict.PROVED, tending.method, steps=steps, details=tending.details)
    notes = (
        f"no stationary start of the family avoids the limit, and 'every start tends to {claim.target}' is "
        f"{tending.verdict} ({tending.notes or tending.method}): a float trajectory shows no start's limit"
    )
    return Outcome(Verdict.INCONCLUSIVE, tending.method, notes=notes, details={"tends_to": tending.details})
