"""What a certificate of a claims-file claim must establish, re-derived from the claim's embedded fields.

`headflow check-cert` hands every certificate whose `claim` field is set to `check`: the embedded
TOML is parsed by the claims-file loader (the same safe parser as `headflow check`), and the
obligation is rebuilt from the parsed claim alone, never from the certificate's own description:
- constant: a point witness whose conditions are exactly `expr - low >= 0`, `high - expr >= 0`
  (low and high from `value` and `digits`) and the definedness conditions of `expr`;
- inequality: interval covers of the relation and of every definedness condition, over boxes whose
  union contains the declared domain;
- dynamics: an exact configuration of the claim's family (sizes, the file's beta and strengths,
  attention kind, geometry, symmetry, W = M) where the refuting rate is negative.
Identities have no certificates (they are PROVED symbolically or REFUTED at a point).
This module uses the checker's re-computations (`certificates.recheck`) and the claims-file reader,
never a decider.
"""

from __future__ import annotations

from typing import Any

from certificates import recheck
from certificates.recheck import Rejected
from checks.claimsfile.embedding import read_embedded
from checks.claimsfile.schema import DynamicsClaim, UserClaim
from checks.claimsfile.witness_family import CERTIFIABLE, family_failures, family_hypotheses, searched_quantity
from checks.errors import InputError


def check(fields: dict[str, Any], claim_id: str, kind: str, payload: dict[str, Any]) -> tuple[str, str]:
    """(what the certificate proves, how it was re-checked); Rejected when it is not the claim's obligation."""
    try:
        claim = read_embedded(fields)
    except InputError as exc:
        raise Rejected(f"the embedded claim does not parse: {exc}") from None
    if claim.id != claim_id:
        raise Rejected(f"the certificate is filed under {claim_id[:80]!r} but embeds claim {claim.id!r}")
    if isinstance(claim, DynamicsClaim):
        return _dynamics(claim, kind, payload)
    raise Rejected(f"{claim.kind} claims have no certificates of kind {kind!r}")


def _require_kind(claim: UserClaim, kind: str, expected: str) -> None:
    if kind != expected:
        raise Rejected(f"a {claim.kind} claim is certified by a {expected} certificate, not {kind}")


def _dynamics(claim: DynamicsClaim, kind: str, payload: dict[str, Any]) -> tuple[str, str]:
    """A witness refuting the claim: an exact state of its family where the refuting rate is negative."""
    _require_kind(claim, kind, "witness")
    options = claim.options
    searched, hypotheses = searched_quantity(claim), family_hypotheses(options)
    if searched not in CERTIFIABLE or hypotheses is None:
        raise Rejected(f"claim {claim.id!r}: its family has no exact witnesses (no certificate can refute it)")
    how = recheck.configuration(
        payload,
        attention=options["attention"],
        geometry=options["geometry"],
        hypotheses=frozenset(hypotheses),
        quantity=searched,
        relation="<",
        claim_id=claim.id,
    )
    outside = family_failures(options, recheck.exact_configuration(payload["configuration"]))
    if outside:
        raise Rejected(f"the exact data are not in the family of {claim.id!r}: {', '.join(outside)}")
    if "head" in options and payload.get("head") != options["head"]:
        raise Rejected(f"claim {claim.id!r} is about head {options['head']}, the witness shows another")
    consequence = "" if searched == claim.quantity else f", so {claim.quantity} decreases on the trajectory from it"
    proved = (
        f"refutes claims-file claim {claim.id!r} ({claim.statement}): {searched} < 0 at an exact state of "
        f"its family{consequence}"
    )
    return proved, how
