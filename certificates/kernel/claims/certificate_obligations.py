"""What a certificate of a claims-file claim must establish, re-derived from the claim's embedded fields.

`headflow check-cert` hands every certificate whose `claim` field is set to `check`: the embedded
TOML is parsed by the claims-file loader (the same safe parser as `headflow check`), and the
obligation is rebuilt from the parsed claim alone, never from the certificate's own description:
- dynamics: an exact configuration of the claim's family (sizes, the file's beta and strengths,
  attention kind, geometry, symmetry, W = M) where the refuting rate is negative, or a stationary start of the family
  (velocity exactly 0) whose quantity avoids the claimed limit (`certificates.kernel.claims.stationary_witness`);
- model: an exact configuration of the claim's kind with its hypotheses where the given conditions hold at every
  token and `rhs - lhs` negates the relation, or states it for an existence claim (`exists = true`;
  `certificates.kernel.claims.model_obligation`).
- equilibrium: an instance of the claim's domain where the regime moves (exact velocities), or an equilibrium
  certificate of the regime at an instance whose re-checked spectrum shows or contradicts the property
  (`certificates.kernel.claims.equilibrium_witness`).
Constants, inequalities and identities carry their statement (form real, `certificates.kernel.real_statements`:
covers, smt certificates, point witnesses).
What it prints is generated from what it checked, never the file's own text.
This module uses the checker's re-computations (`certificates.kernel.recheck`) and the claims-file reader,
never a decider.
"""

from __future__ import annotations

from typing import Any

from certificates.kernel import recheck
from certificates.kernel.claims import equilibrium_witness, model_obligation, stationary_witness
from certificates.kernel.claims.embedding import read_embedded
from certificates.kernel.claims.schema import (
    ConstantClaim,
    DynamicsClaim,
    EquilibriumClaim,
    IdentityClaim,
    InequalityClaim,
    ModelClaim,
    UserClaim,
)
from certificates.kernel.claims.witness_family import (
    family_failures,
    family_hypotheses,
    repulsive,
    searched_quantity,
)
from certificates.kernel.errors import InputError
from certificates.kernel.model_quantities import CERTIFIED
from certificates.kernel.recheck import Rejected


def check(fields: dict[str, Any], claim_id: str, kind: str, payload: dict[str, Any]) -> tuple[str, str]:
    """(what the certificate proves, how it was re-checked); Rejected when it is not the claim's obligation."""
    return _obligation(embedded_claim(fields, claim_id), kind, payload)


def embedded_claim(fields: dict[str, Any], claim_id: str) -> UserClaim:
    """The claim a claims-file certificate embeds, parsed by the claims-file reader; Rejected when it does not
    parse or is not the claim the certificate is filed under."""
    try:
        claim = read_embedded(fields)
    except InputError as exc:
        raise Rejected(f"the embedded claim does not parse: {exc}") from None
    if claim.id != claim_id:
        raise Rejected(f"the certificate is filed under {claim_id[:80]!r} but embeds claim {claim.id!r}")
    return claim


def _obligation(claim: UserClaim, kind: str, payload: dict[str, Any]) -> tuple[str, str]:
    if isinstance(claim, DynamicsClaim) and isinstance(payload, dict) and payload.get("witness") == "stationary-start":
        return stationary_witness.check(claim, kind, payload)
    if isinstance(claim, DynamicsClaim):
        return dynamics_obligation(claim, kind, payload)
    if isinstance(claim, ModelClaim):
        return model_obligation.check(claim, kind, payload)
    if isinstance(claim, EquilibriumClaim):
        return equilibrium_witness.check(claim, kind, payload)
    if isinstance(claim, ConstantClaim | InequalityClaim | IdentityClaim):
        raise Rejected(f"a {kind} certificate of a {claim.kind} claim carries its statement (form real)")
    raise Rejected(f"{claim.kind} claims have no certificates of kind {kind!r}")


def _require_kind(claim: UserClaim, kind: str, expected: str) -> None:
    if kind != expected:
        raise Rejected(f"a {claim.kind} claim is certified by a {expected} certificate, not {kind}")


def dynamics_obligation(claim: DynamicsClaim, kind: str, payload: dict[str, Any]) -> tuple[str, str]:
    """A witness refuting the claim: an exact state of its family where the refuting rate is negative."""
    _require_kind(claim, kind, "witness")
    options = claim.options
    searched, hypotheses = searched_quantity(claim), family_hypotheses(options)
    if searched not in CERTIFIED or hypotheses is None:
        raise Rejected(f"claim {claim.id!r}: its family has no exact witnesses (no certificate can refute it)")
    how = recheck.configuration(
        payload,
        attention=options["attention"],
        geometry=options["geometry"],
        hypotheses=frozenset(hypotheses),
        quantity=searched,
        relation="<",
        claim_id=claim.id,
        masked=options.get("mask") is not None,
        interaction=options.get("interaction"),
        negative_beta=repulsive(options),
    )
    exact = recheck.exact_configuration(
        payload["configuration"],
        options.get("interaction"),
        negative_beta=repulsive(options),
        masked=options.get("mask") is not None,
    )
    outside = family_failures(options, exact)
    if outside:
        raise Rejected(f"the exact data are not in the family of {claim.id!r}: {', '.join(outside)}")
    if "head" in options and payload.get("head") != options["head"]:
        raise Rejected(f"claim {claim.id!r} is about head {options['head']}, the witness shows another")
    consequence = "" if searched == claim.quantity else f", so {claim.quantity} decreases on the trajectory from it"
    family = ", ".join(f"{key}={value}" for key, value in options.items())
    proved = (
        f"refutes claims-file claim {claim.id!r} ({claim.quantity} {claim.property}; {family}): {searched} < 0 at "
        f"an exact state of its family{consequence}"
    )
    return proved, how
