"""The Coq problem of a claims-file certificate, rebuilt from the claim's embedded fields.

The claim is parsed by the claims-file reader (as `certificate_obligations.check` does) and the Coq
statement is the claim itself, written from its trees:
- (a constant's point witness carries its statement: `certificates.kernel.coq.certificate.problem` translates it);
- inequality or identity with an smt certificate: for all real values of its variables in the domain,
  every definedness condition of the claim and `lhs op rhs` (the payload must be exactly the encoding
  `certificate_obligations.smt_problem` re-derives). The Coq proof does not use the SMT encoding: it
  adds each atom's library facts (`certificates.kernel.coq.statements`) and closes the goal with `nra`.
- dynamics with a witness: handled on its core statement by `certificates.kernel.coq.certificate.problem` (once
  `certificates.kernel.dynamics_statements` re-checks the family, the hypotheses and the sign in balls); the rate's
  tree is built from the exact data (`certificates.kernel.coq.certificate.configuration_problem`).
- model with a witness (a universal claim's counterexample, an existence claim's instance): once the checker's
  re-check of the certificate's statement (`model_statements.check`; the caller holds it equal to the claim's
  elaboration) passes, the claim's terms at the exact configuration, its given conditions at
  every token and the sign of rhs - lhs (`certificates.kernel.coq.model_claims`); the hypotheses are the checker's
  exact facts, named in the header.
Taylor cuts of exp, integer variables and covers are not translated yet (`NotTranslatable`, with why).
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from certificates.kernel import model_statements
from certificates.kernel.claims import certificate_obligations as co
from certificates.kernel.claims.schema import DynamicsClaim, IdentityClaim, InequalityClaim, ModelClaim
from certificates.kernel.claims.smt_statement import relation_of
from certificates.kernel.coq import model_claims
from certificates.kernel.coq.certificate import COVERS
from certificates.kernel.coq.statements import Problem, UniversalProblem, UniversalStatement
from certificates.kernel.coq.terms import NotTranslatable
from certificates.kernel.exprtree import Tree, from_sympy
from certificates.kernel.recheck import Rejected


def problem(
    fields: dict[str, Any], claim_id: str, kind: str, payload: dict[str, Any], statement: Any = None
) -> tuple[str, Problem]:
    """(what the certificate proves, its Coq problem); Rejected when the file is not the claim's obligation (a model
    claim's: its core `statement`, which the caller holds equal to the claim's elaboration)."""
    claim = co.embedded_claim(fields, claim_id)
    if isinstance(claim, InequalityClaim | IdentityClaim) and kind == "smt":
        co.smt_problem(claim, payload)  # the payload is exactly the claim's encoding, or Rejected
        if payload["cuts"]:
            raise NotTranslatable("Taylor cuts of exp: their Coq lemmas (each cut proved by interval) are not written")
        return f"claims-file claim {claim.id!r}: {claim.statement}", UniversalProblem([_whole_claim(claim)])
    if isinstance(claim, DynamicsClaim):
        raise Rejected("a dynamics claim's certificate carries its core statement (form dynamics); this one has none")
    if isinstance(claim, ModelClaim) and kind == "witness":
        if statement is None:
            raise Rejected(f"a certificate of model claim {claim_id!r} carries its statement")
        proved, _ = model_statements.check(statement, claim_id, kind, payload, 0.0)  # the checker's, or Rejected
        return f"{model_claims.EXACT_FACTS}; {proved}", model_claims.witness_problem(claim, payload)
    if kind == "interval-cover":
        raise NotTranslatable(COVERS)
    raise NotTranslatable(f"{claim.kind} claims with {kind} certificates have no Coq translation yet")


def _whole_claim(claim: InequalityClaim | IdentityClaim) -> UniversalStatement:
    """For all variables in the domain: the claim's definedness conditions and its relation."""
    if any(claim.domains[s].integer for s in claim.order):
        raise NotTranslatable("a claim over integer variables (the Coq statements are over the reals)")
    hypotheses: list[Tree] = []
    for symbol in claim.order:
        domain, variable = claim.domains[symbol], ["sym", symbol.name]
        if domain.low is not None:
            hypotheses.append([">" if domain.low_open else ">=", variable, from_sympy(domain.low)])
        if domain.high is not None:
            hypotheses.append(["<" if domain.high_open else "<=", variable, from_sympy(domain.high)])
    lhs, op, rhs = relation_of(claim)
    conditions = [_condition(c.expr, c.relation) for c in claim.conditions]
    goal = ["and", *conditions, [op, from_sympy(lhs), from_sympy(rhs)]]
    return UniversalStatement(claim.id, [s.name for s in claim.order], hypotheses, goal)


def _condition(expr: sp.Expr, relation: str) -> Tree:
    """A definedness condition `expr relation 0` as a formula tree."""
    tree = from_sympy(expr)
    return ["not", ["=", tree, ["rat", "0"]]] if relation == "!=" else [relation, tree, ["rat", "0"]]
