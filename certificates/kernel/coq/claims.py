"""The Coq problem of a claims-file certificate, rebuilt from the claim's embedded fields.

The claim is parsed by the claims-file reader (as `certificate_obligations.check` does) and the Coq
statement is the claim itself, written from its trees:
- (a constant's point witness carries its statement: `certificates.kernel.coq.certificate.problem` translates it);
- (an inequality's or identity's smt certificate carries its statement: `certificates.kernel.coq.certificate`);
- dynamics with a witness: `rate < 0` at the exact configuration, once the checker's own re-check of the
  witness (`certificate_obligations.dynamics_obligation`: the family, the hypotheses, the sign in balls)
  passes; the rate's tree is built from the exact data (`certificates.kernel.coq.certificate.configuration_problem`).
- model with a witness (a universal claim's counterexample, an existence claim's instance): once the checker's
  re-check (`model_obligation.check`) passes, the claim's terms at the exact configuration, its given conditions at
  every token and the sign of rhs - lhs (`certificates.kernel.coq.model_claims`); the hypotheses are the checker's
  exact facts, named in the header.
Taylor cuts of exp, integer variables and covers are not translated yet (`NotTranslatable`, with why).
"""

from __future__ import annotations

from typing import Any

from certificates.kernel.claims import certificate_obligations as co
from certificates.kernel.claims import model_obligation
from certificates.kernel.claims.schema import DynamicsClaim, ModelClaim
from certificates.kernel.claims.witness_family import searched_quantity
from certificates.kernel.coq import model_claims
from certificates.kernel.coq.certificate import COVERS, configuration_problem
from certificates.kernel.coq.statements import Problem
from certificates.kernel.coq.terms import NotTranslatable


def problem(fields: dict[str, Any], claim_id: str, kind: str, payload: dict[str, Any]) -> tuple[str, Problem]:
    """(what the certificate proves, its Coq problem); Rejected when the file is not the claim's obligation."""
    claim = co.embedded_claim(fields, claim_id)
    if isinstance(claim, DynamicsClaim) and isinstance(payload, dict) and payload.get("witness") == "stationary-start":
        raise NotTranslatable("a stationary start: the exact zero test of exponential polynomials has no Coq proof")
    if isinstance(claim, DynamicsClaim) and kind == "witness":
        proved, _ = co.dynamics_obligation(claim, kind, payload)  # the checker's re-check, or Rejected
        return proved, configuration_problem(searched_quantity(claim), "<", payload)[1]
    if isinstance(claim, ModelClaim) and kind == "witness":
        proved, _ = model_obligation.check(claim, kind, payload)  # the checker's re-check, or Rejected
        return f"{model_claims.EXACT_FACTS}; {proved}", model_claims.witness_problem(claim, payload)
    if kind == "interval-cover":
        raise NotTranslatable(COVERS)
    raise NotTranslatable(f"{claim.kind} claims with {kind} certificates have no Coq translation yet")
