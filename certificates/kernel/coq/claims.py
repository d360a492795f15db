"""The Coq problem of a claims-file certificate, rebuilt from the claim's embedded fields.

The claim is parsed by the claims-file reader and the Coq
statement is the claim itself, written from its trees:
- (a constant's point witness carries its statement: `certificates.kernel.coq.certificate.problem` translates it);
- (an inequality's or identity's smt certificate carries its statement: `certificates.kernel.coq.certificate`);
- (a dynamics witness carries its statement (form dynamics): `certificates.kernel.coq.certificate` translates it);
- model with a witness (a universal claim's counterexample, an existence claim's instance): once the checker's
  re-check of the certificate's statement (`model_statements.check`; the caller holds it equal to the claim's
  elaboration) passes, the claim's terms at the exact configuration, its given conditions at
  every token and the sign of rhs - lhs (`certificates.kernel.coq.model_claims`); the hypotheses are the checker's
  exact facts, named in the header.
Taylor cuts of exp, integer variables and covers are not translated yet (`NotTranslatable`, with why).
"""

from __future__ import annotations

from typing import Any

from certificates.kernel import model_statements
from certificates.kernel.claims.embedding import read_embedded
from certificates.kernel.claims.schema import ModelClaim
from certificates.kernel.coq import model_claims
from certificates.kernel.coq.certificate import COVERS
from certificates.kernel.coq.statements import Problem
from certificates.kernel.coq.terms import NotTranslatable
from certificates.kernel.recheck import Rejected


def problem(
    fields: dict[str, Any], claim_id: str, kind: str, payload: dict[str, Any], statement: Any = None
) -> tuple[str, Problem]:
    """(what the certificate proves, its Coq problem); Rejected when the file is not the claim's obligation (a model
    claim's: its core `statement`, which the caller holds equal to the claim's elaboration)."""
    claim = read_embedded(fields)
    if claim.id != claim_id:
        raise Rejected(f"the certificate is filed under {claim_id[:80]!r} but embeds claim {claim.id!r}")
    if isinstance(claim, ModelClaim) and kind == "witness":
        if statement is None:
            raise Rejected(f"a certificate of model claim {claim_id!r} carries its statement")
        proved, _ = model_statements.check(statement, claim_id, kind, payload, 0.0)  # the checker's, or Rejected
        return f"{model_claims.EXACT_FACTS}; {proved}", model_claims.witness_problem(claim, payload)
    if kind == "interval-cover":
        raise NotTranslatable(COVERS)
    raise NotTranslatable(f"{claim.kind} claims with {kind} certificates have no Coq translation yet")
