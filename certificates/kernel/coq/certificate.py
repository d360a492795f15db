"""The Coq problem of a certificate, rebuilt from the claim's obligation and the file's checked data.

For a registry claim the statement comes from `certificates.kernel.registry_statements` (the kernel's own table), for a
claims-file claim from its core statement (form `real`: a constant's point witness, a relation's smt certificate
once the kernel re-checked it; form `dynamics`) or else the `ClaimProblem` the caller passes (model claims); the
file contributes only data that the obligation then constrains: integer parameters and an exact point
(whose coordinates must be the obligation's), and the recorded statements or conditions, which must be
exactly the obligation's (else `Rejected`: the file does not state the claim). A kind with no Coq
translation yet raises `NotTranslatable` with the reason. The Coq text is therefore regenerated every
time from checked data: a `.v` file next to a certificate is for reading, never what is compiled.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from certificates.kernel import (
    dynamics_statements,
    model_statements,
    real_encoding,
    real_statements,
    recheck,
    registry_statements,
    solvers,
)
from certificates.kernel.ball_model import ExactConfiguration
from certificates.kernel.coq import model_claims, model_tree
from certificates.kernel.coq.statements import PointProblem, Problem, UniversalProblem, UniversalStatement
from certificates.kernel.coq.terms import NotTranslatable
from certificates.kernel.model_quantities import MODEL_QUANTITIES
from certificates.kernel.recheck import Rejected

#: Bits `interval` works with on a configuration witness, less `certificates.coq.source.EXTRA_BITS` (its sign has a
#: wide margin; coqc checks).
PRECISION = 14

#: Why covers have no translation: their steps are not interval evaluations that Interval's tactic can replay.
COVERS = (
    "interval covers are not translated: their monotone, graph and boundary steps rest on derivative signs "
    "(a Coq proof of each needs a derivative lemma and the mean value theorem), their centred leaves on slopes, "
    "and integer sides on clipping; Interval's own bisection on the real box is no replay of them"
)

#: Why the kinds without a translation have none (the README's coverage table says the same).
UNTRANSLATED = {
    "equilibrium": "Krawczyk inclusion and Gershgorin spectrum over balls of jets: no Coq translation "
    "(interval matrices are not in Coq's Interval library)",
    "convexity": "a chain of a point and two covers of phi'' and g' with thousands of boxes: not translated "
    "(covers are not)",
    "interval-cover": COVERS,
}


def problem(certificate: dict[str, Any]) -> tuple[str, Problem]:
    """(what it proves, its Coq problem) for a loaded certificate (`certificates.kernel.loading.load`), written from
    its core statement once the kernel's own check of it passes (Rejected otherwise)."""
    claim_id, kind, payload = certificate["claim_id"], certificate["kind"], certificate["payload"]
    statement = certificate["statement"]
    if isinstance(statement, dict) and statement.get("form") == real_statements.FORM and kind == "witness":
        proved, _ = real_statements.check(statement, claim_id, kind, payload, 0.0)  # exactly the statement's conditions
        rows = [(c["name"], c["expression"], c["relation"]) for c in payload["conditions"]]
        return proved, PointProblem({}, rows, recheck.recorded_precision(payload))
    if isinstance(statement, dict) and statement.get("form") == dynamics_statements.FORM:
        proved, _ = dynamics_statements.check(statement, claim_id, kind, payload, 0)  # the kernel's check, or Rejected
        if statement["witness"] == dynamics_statements.STATIONARY:
            raise NotTranslatable("a stationary start: the exact zero test of exponential polynomials has no Coq proof")
        cfg = dynamics_statements.witness_configuration(statement, payload)
        return proved, configuration_problem(statement["refuting"]["quantity"], "<", cfg, payload)[1]
    if isinstance(statement, dict) and statement.get("form") == real_statements.FORM and kind == "smt":
        return _relation(statement, claim_id, payload)
    if isinstance(statement, dict) and statement.get("form") == model_statements.FORM and kind == "witness":
        proved, _ = model_statements.check(statement, claim_id, kind, payload, 0.0)  # the kernel's check, or Rejected
        witness = model_claims.witness_problem(model_statements.statement_of(statement, claim_id), payload)
        return f"{model_claims.EXACT_FACTS}; {proved}", witness
    if certificate["claim"] is not None:
        raise NotTranslatable(COVERS if kind == "interval-cover" else f"a claims-file {kind} certificate of this form")
    if kind in UNTRANSLATED:
        raise NotTranslatable(UNTRANSLATED[kind])
    statement = registry_statements.of_payload(claim_id, payload)
    if kind != statement["kind"]:
        raise Rejected(f"{claim_id} is certified by a {statement['kind']} certificate, not {kind}")
    if kind == "smt":
        return statement["sentence"], _smt(claim_id, statement, payload)
    if statement.get("witness") == "point":
        return _point(claim_id, statement, payload)
    if statement.get("witness") == "configuration":
        return _configuration(claim_id, statement, payload)
    raise NotTranslatable(f"no Coq translation of a {kind} certificate")


def _relation(statement: dict[str, Any], claim_id: str, payload: dict[str, Any]) -> tuple[str, UniversalProblem]:
    """An smt certificate of a relation, once the kernel's re-check passes (Rejected otherwise): for all values of its
    variables in the domain, every definedness condition and `lhs op rhs`, from the statement's trees (the Coq proof
    does not use the SMT encoding: it adds each atom's library facts and closes the goal with `nra`)."""
    proved, _ = real_statements.check(statement, claim_id, "smt", payload, solvers.DEFAULT_SECONDS)
    if payload["cuts"]:
        raise NotTranslatable("Taylor cuts of exp: their Coq lemmas (each cut proved by interval) are not written")
    if any(v["integer"] for v in statement["variables"]):
        raise NotTranslatable("a claim over integer variables (the Coq statements are over the reals)")
    hypotheses = real_encoding.bound_facts(statement["variables"], lambda bound: bound)
    conditions = [real_encoding.CONDITIONS[c["relation"]](c["expression"]) for c in statement["conditions"]]
    goal = ["and", *conditions, [statement["op"], statement["lhs"], statement["rhs"]]]
    names = [v["name"] for v in statement["variables"]]
    return proved, UniversalProblem([UniversalStatement(claim_id, names, hypotheses, goal)])


def _smt(claim_id: str, statement: dict[str, Any], payload: dict[str, Any]) -> UniversalProblem:
    recheck.require_keys(payload, {"logic", "statements"}, "smt payload")
    if payload["statements"] != statement["statements"]:
        raise Rejected(f"the statements are not the obligation of {claim_id}")
    return universal(statement["statements"])


def universal(statements: list[dict[str, Any]]) -> UniversalProblem:
    """SMT statement trees as universal statements over the reals (integer constants are not translated)."""
    if any(s.get("integers") for s in statements):
        raise NotTranslatable("a statement over integer constants (the Coq side states real ones only)")
    return UniversalProblem(
        [UniversalStatement(s["name"], s["constants"], s["hypotheses"], s["goal"]) for s in statements]
    )


def _point(claim_id: str, statement: dict[str, Any], payload: dict[str, Any]) -> tuple[str, PointProblem]:
    point = registry_statements.point_data(statement, claim_id, payload)
    rows = [(c["name"], c["expression"], c["relation"]) for c in statement["conditions"]]
    sentence = registry_statements.point_sentence(statement, point)
    if "lemma" in statement:
        sentence += f" (it rests on a lemma neither Coq nor check-cert re-checks: {statement['lemma']})"
    return sentence, PointProblem(point, rows, recheck.recorded_precision(payload))


def _configuration(claim_id: str, statement: dict[str, Any], payload: dict[str, Any]) -> tuple[str, PointProblem]:
    """`quantity < 0` at the exact data, once check-cert's own re-check (hypotheses exact, sign in balls) passes."""
    sentence, _ = registry_statements.configuration(statement, claim_id, payload, 0.0)
    cfg = recheck.exact_configuration(payload["configuration"])
    name, built = configuration_problem(statement["quantity"], statement["relation"], cfg, payload)
    return f"{sentence}; the witness: {name} {statement['relation']} 0 at exact data", built


def configuration_problem(
    quantity: str, relation: str, cfg: ExactConfiguration, payload: dict[str, Any]
) -> tuple[str, PointProblem]:
    """(the quantity's written name, `quantity relation 0` at the exact configuration `cfg`) for a witness the checker
    has already re-checked; `cfg` is the checker's own reading of the payload's data (with the claim's interaction,
    mask and sign of beta), the payload gives the quantity's head and token. The tree is built from the exact data by
    `model_tree` (never from file text), over named definitions that the Coq file bounds one by one (`statements`)."""
    if quantity not in model_tree.BUILDERS:
        raise NotTranslatable(f"the model quantity {quantity} has no Coq term yet")
    at = {axis: payload[axis] for axis in MODEL_QUANTITIES[quantity].axes}
    rate = model_tree.BUILDERS[quantity](cfg, at)
    name = MODEL_QUANTITIES[quantity].written(**at)
    if isinstance(rate.value, Fraction):
        raise NotTranslatable(f"{name} is the rational {rate.value} at these data (no exponential to bound)")
    rows = [(f"{name} {relation} 0", rate.value, relation)]
    return name, PointProblem({}, rows, PRECISION, tuple(rate.definitions))
