"""The SMT route for claims-file inequalities and identities: exact polynomial encoding, z3 with Taylor cuts.

The claim's statement of form `real` (`headflow.certificates.statements.real`: the trees as written, the domain, the
definedness conditions) becomes `domain => defined and lhs op rhs` in real (and integer) polynomial arithmetic by the
kernel's own encoder (`headflow.certificates.kernel.real_encoding`): sqrt, rational powers and quotients exactly through
auxiliary variables, exp as atoms known by true facts and Taylor cuts, log, lambertw and lambda_c through exp.
z3 decides it, over bounded and unbounded domains alike (`headflow.certificates.provers.smt_refinement`):
- the negation unsat: the problem `headflow check-cert` will solve is built as it does
  (`headflow.certificates.kernel.real_statements.smt_problem`, from the statement and the cut data, every cut validated
  with balls); it must be the text z3 just answered, and cvc5 must answer unsat on it within the resource limit
  check-cert gives it (`certificates.kernel.solvers`), or else, where an integer variable is unbounded (no cover can
  take the domain), both answer unsat on it with the integer variables read as reals (a proof for every real value
  holds at the integers: the cut `reals`), or, where a lambda_c root bounds the domain (no Coq proof of a cover of
  it), the kernel's check accepts the products and powers between every two atoms (`limits.proved_cuts`; z3 proves
  it, and Coq re-checks it); then the certificate (`smt`: its
  cuts, under the statement) is written: CERTIFIED;
- a model of the negation: a candidate only, REFUTED when the caller's test verifies the claim false
  at the model's point of the domain (a side undefined there, or balls that violate the relation);
- otherwise the reason, for the caller's notes (the route then leaves the claim to other methods).

Every budget here is counted (z3's and cvc5's resource limits), so the answer is the same however busy the machine.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import sympy as sp
import z3
from headflow.certificates.claims.domains import contains
from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.schema import IdentityClaim, InequalityClaim
from headflow.certificates.coq.covers import root_bounded
from headflow.certificates.kernel import real_statements, solvers
from headflow.certificates.kernel.exprtree import TreeError
from headflow.certificates.kernel.real_encoding import REALS, CutError, Encoding, NotEncodable
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.provers.counterexamples import witness_certificates
from headflow.certificates.provers.limits import proved_cuts
from headflow.certificates.provers.smt_refinement import refine, symbolic_power
from headflow.certificates.statements.real import covered, relation_statement
from headflow.certificates.store import certificate_directory, write_certificate
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict

METHOD = "SMT (z3; exp through Taylor cuts), re-checked with cvc5"
#: The method, and what was run, where the products and powers between every two atoms are the cuts (`_paired`).
PAIRED = "SMT (z3; exp through the products and powers of its atoms)"
PAIRED_HOW = "z3 answers unsat on the kernel's text of the statement with the products and powers as its cuts"
#: z3's resources (its `rlimit` count) for all the rounds of the route, per profile: at most check-cert's limit of
#: one problem, so that check-cert's z3 proves the last problem as this one did.
RLIMIT = {"quick": 600_000, "thorough": solvers.RLIMITS["z3"]}

#: The caller's refutation test: the claim (an identity as the relation `=`) and an exact point of the
#: domain -> the verified witness that the claim fails there, or None.
Refute = Callable[[InequalityClaim, dict[sp.Symbol, sp.Rational]], dict[str, Any] | None]


def decide(claim: InequalityClaim | IdentityClaim, ctx: Context, refute: Refute) -> Outcome | str:
    """CERTIFIED (smt certificate that re-checks) or REFUTED (verified model point); else why not."""
    if not covered(claim):
        return "no SMT statement (per-head families and punctured domains have none)"
    try:
        statement = relation_statement(claim)
        encoding = Encoding(statement)
    except (Rejected, NotEncodable) as exc:
        return f"no SMT encoding ({exc})"
    if symbolic_power(statement):
        return "no SMT encoding used for a symbolic exponent (z3's nonlinear search may not stop at its limits)"
    view = _as_relation(claim)

    def falsifies(values: dict[str, Fraction]) -> dict[str, Any] | None:
        point = {s: sp.Rational(values[s.name].numerator, values[s.name].denominator) for s in claim.order}
        return refute(view, point) if contains(claim.domains, claim.order, point) else None

    try:
        result = refine(encoding, falsifies, RLIMIT[ctx.profile])
    except (NotEncodable, CutError, TreeError, z3.Z3Exception) as exc:
        return f"the SMT statement cannot be formed or solved ({str(exc)[:200]})"
    counted = f"{result.rounds} z3 round(s), {len(result.cuts)} Taylor cut(s), {result.resources:,} z3 resources"
    if result.status == "counterexample":
        paths = witness_certificates(claim, result.witness, certificate_directory(ctx.certificate_dir))
        method = f"{METHOD}: a model of the negation, verified"
        return Outcome(Verdict.REFUTED, method, witness=result.witness, certificates=paths)
    if result.status != "proved":
        return f"SMT undecided after {counted}: {result.reason}"
    payload = {"cuts": result.data}
    try:  # what `headflow check-cert` will run: the kernel's text of the statement and the cut data
        text = real_statements.smt_problem(json.loads(json.dumps(statement)), json.loads(json.dumps(payload)))
    except Rejected as exc:
        return f"z3 proves the SMT statement ({counted}), but the certificate would not re-check: {exc}"
    if text != result.text:
        return f"z3 proves the SMT statement ({counted}), but the checker would print another problem"
    (answer,) = solvers.answers("cvc5", [text], solvers.DEFAULT_SECONDS)  # z3 answered unsat on this very text
    if answer != "unsat" and _unbounded_integer(statement):  # over the reals (which hold the integers); a bounded
        # domain is left to the cover route instead, whose boxes Coq re-checks
        payload = {"cuts": [*result.data, REALS]}
        try:  # the kernel's own check: z3 and cvc5 on its text of the relaxed problem
            real_statements.check(json.loads(json.dumps(statement)), claim.id, "smt", payload, solvers.DEFAULT_SECONDS)
            answer = "unsat"
        except Rejected as exc:
            answer = str(exc)
    method, how = METHOD, "z3 and cvc5 answer unsat on the kernel's text of the statement, as check-cert builds it"
    if answer != "unsat" and root_bounded(statement["variables"]):  # a cover of it has no Coq proof: the pair cuts
        answer, payload = _paired(statement, answer)
        method, how = PAIRED, f"{PAIRED_HOW} (cvc5 does not close it)"
    if answer != "unsat":
        return f"z3 proves the SMT statement ({counted}) but cvc5 answers {answer!r}: no certificate both accept"
    directory = certificate_directory(ctx.certificate_dir)
    path = write_certificate(directory, claim.id, "smt", payload, embedded(claim))
    return Outcome(
        Verdict.CERTIFIED,
        method,
        certificates=[str(path)],
        details={"rounds": result.rounds, "cuts": len(result.cuts), "z3_resources": result.resources},
        notes=f"negation of `domain => defined and {real_statements.relation_text(statement)}` unsat ({counted}); "
        + how,
    )


def _paired(statement: dict[str, Any], answer: str) -> tuple[str, dict[str, Any]]:
    """("unsat" and the payload of the products and powers between every two atoms, `limits.proved_cuts`, when the
    kernel's check accepts them: z3 proves the statement with them and Coq re-checks it, where a cover of a domain
    a root bounds has no Coq proof), else (cvc5's `answer` and no cuts)."""
    try:
        found = proved_cuts([json.loads(json.dumps(statement))], refining=False)
    except NotEncodable:
        found = None
    return ("unsat", {"cuts": found[0]}) if found else (answer, {})


def _unbounded_integer(statement: dict[str, Any]) -> bool:
    """Whether an integer variable of the statement has no upper bound (no cover can then take the domain)."""
    return any(v["integer"] and v["high"] is None for v in statement["variables"])


def _as_relation(claim: InequalityClaim | IdentityClaim) -> InequalityClaim:
    """The claim as a relation for the refutation test (an identity is `lhs = rhs`, with the same fields)."""
    if isinstance(claim, InequalityClaim):
        return claim
    return InequalityClaim(op="=", **{f.name: getattr(claim, f.name) for f in dataclasses.fields(claim)})
