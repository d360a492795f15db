"""The Coq problem of a certificate, rebuilt from its core statement and the file's checked data.

A claims-file certificate's problem comes from its core statement (form `real`: a point witness's conditions, a
relation's smt certificate; form `dynamics`; form `model`), once the kernel's own check of it passes
(`certificates.kernel.core`, Rejected otherwise); a registry claim's from the kernel's own table
(`certificates.kernel.registry_statements`). The file contributes only data that the statement then constrains:
integer parameters and an exact point (whose coordinates must be the statement's), and the recorded statements or
conditions, which must be exactly the statement's (else `Rejected`: the file does not state the claim). A kind with
no Coq translation yet raises `NotTranslatable` with the reason. The Coq text is therefore regenerated every time from
checked data: a `.v` file next to a certificate is for reading, never what is compiled.
"""

from __future__ import annotations

from typing import Any

from certificates.kernel import (
    core,
    dynamics_statements,
    model_statements,
    real_encoding,
    real_statements,
    recheck,
    registry_statements,
    solvers,
)
from certificates.kernel.coq import model_claims
from certificates.kernel.coq.model_tree import configuration_problem
from certificates.kernel.coq.statements import PointProblem, Problem, UniversalProblem, UniversalStatement
from certificates.kernel.coq.terms import NotTranslatable
from certificates.kernel.recheck import Rejected

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

#: The core statement forms, with the certificate's kind, that have a Coq translation (besides dynamics, of any kind).
TRANSLATED = {(real_statements.FORM, "witness"), (real_statements.FORM, "smt"), (model_statements.FORM, "witness")}


def problem(certificate: dict[str, Any]) -> tuple[str, Problem]:
    """(what it proves, its Coq problem) for a loaded certificate (`certificates.kernel.loading.load`), written from
    its core statement once the kernel's own check of it passes (Rejected otherwise)."""
    claim_id, kind, payload = certificate["claim_id"], certificate["kind"], certificate["payload"]
    statement = certificate["statement"]
    form = (statement.get("form"), kind) if isinstance(statement, dict) else None
    dynamics = form is not None and form[0] == dynamics_statements.FORM
    if dynamics or form in TRANSLATED:
        seconds = solvers.DEFAULT_SECONDS if kind == "smt" else 0.0
        proved, _ = core.check(statement, claim_id, kind, payload, seconds)  # the kernel's own check, or Rejected
    if form == (real_statements.FORM, "witness"):  # exactly the statement's conditions, at the payload's point
        return proved, PointProblem({}, _rows(payload["conditions"]), recheck.recorded_precision(payload))
    if dynamics:
        if statement["witness"] == dynamics_statements.STATIONARY:
            raise NotTranslatable("a stationary start: the exact zero test of exponential polynomials has no Coq proof")
        cfg = dynamics_statements.witness_configuration(statement, payload)
        return proved, configuration_problem(statement["refuting"]["quantity"], "<", cfg, payload)[1]
    if form == (real_statements.FORM, "smt"):
        return proved, _relation(statement, claim_id, payload)
    if form == (model_statements.FORM, "witness"):
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
        recheck.require_keys(payload, {"logic", "statements"}, "smt payload")
        if payload["statements"] != statement["statements"]:
            raise Rejected(f"the statements are not the obligation of {claim_id}")
        return statement["sentence"], universal(statement["statements"])
    if statement.get("witness") == "point":
        point = registry_statements.point_data(statement, claim_id, payload)
        sentence = registry_statements.point_sentence(statement, point)
        if "lemma" in statement:
            sentence += f" (it rests on a lemma neither Coq nor check-cert re-checks: {statement['lemma']})"
        return sentence, PointProblem(point, _rows(statement["conditions"]), recheck.recorded_precision(payload))
    if (
        statement.get("witness") == "configuration"
    ):  # quantity relation 0 at exact data, once check-cert's re-check passes
        sentence, _ = registry_statements.configuration(statement, claim_id, payload, 0.0)
        cfg = recheck.exact_configuration(payload["configuration"])
        name, built = configuration_problem(statement["quantity"], statement["relation"], cfg, payload)
        return f"{sentence}; the witness: {name} {statement['relation']} 0 at exact data", built
    raise NotTranslatable(f"no Coq translation of a {kind} certificate")


def _rows(conditions: list[dict[str, Any]]) -> list[tuple[str, Any, str]]:
    """A point's conditions as (name, expression tree, relation) rows."""
    return [(c["name"], c["expression"], c["relation"]) for c in conditions]


def _relation(statement: dict[str, Any], claim_id: str, payload: dict[str, Any]) -> UniversalProblem:
    """An smt certificate of a relation the kernel re-checked: for all values of its variables in the domain, every
    definedness condition and `lhs op rhs`, from the statement's trees (the Coq proof does not use the SMT encoding:
    it adds each atom's library facts and closes the goal with `nra`)."""
    if payload["cuts"]:
        raise NotTranslatable("Taylor cuts of exp: their Coq lemmas (each cut proved by interval) are not written")
    if any(v["integer"] for v in statement["variables"]):
        raise NotTranslatable("a claim over integer variables (the Coq statements are over the reals)")
    hypotheses = real_encoding.bound_facts(statement["variables"], lambda bound: bound)
    conditions = [real_encoding.CONDITIONS[c["relation"]](c["expression"]) for c in statement["conditions"]]
    goal = ["and", *conditions, [statement["op"], statement["lhs"], statement["rhs"]]]
    names = [v["name"] for v in statement["variables"]]
    return UniversalProblem([UniversalStatement(claim_id, names, hypotheses, goal)])


def universal(statements: list[dict[str, Any]]) -> UniversalProblem:
    """SMT statement trees as universal statements over the reals (integer constants are not translated)."""
    if any(s.get("integers") for s in statements):
        raise NotTranslatable("a statement over integer constants (the Coq side states real ones only)")
    return UniversalProblem(
        [UniversalStatement(s["name"], s["constants"], s["hypotheses"], s["goal"]) for s in statements]
    )
