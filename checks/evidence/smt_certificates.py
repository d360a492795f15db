"""The SMT certificate of a registry claim's obligation (`certificates.statements.registry.SMT`), written where the
verdict is decided: z3 proves each statement, the kernel re-checks the file (z3 and cvc5 again) before the verdict
is reported. Theorem modules attach it to their procedures (T19's constants and Lambert W, T22's convexity lemma,
T25's bounds on the exact and simplified reductions); the obligation, and so what check-cert prints, is the table's.
"""

from __future__ import annotations

from pathlib import Path

from headflow.certificates.provers.smt import certify
from headflow.certificates.statements import registry as obligations
from headflow.certificates.statements.registry import SmtStatement
from headflow.certificates.store import certificate_directory
from headflow.checks import kernel_checks
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Step, Verdict


def certify_statements(ctx: Context, statements: tuple[SmtStatement, ...] | None = None) -> Outcome:
    """CERTIFIED with one SMT certificate holding the statements (by default the claim's obligation) when z3
    finds every negation unsat, else INCONCLUSIVE naming the first statement that was not proved."""
    if statements is None:
        statements = obligations.SMT[ctx.claim_id].statements()
    results, path = certify(statements, ctx.claim_id, certificate_directory(ctx.certificate_dir))
    answers = {
        name: r.status + (f" {r.model}" if r.model else "") + (f" ({r.reason})" if r.reason else "")
        for name, r in results.items()
    }
    if path is None:
        name = next(name for name, r in results.items() if r.status != "unsat")
        return Outcome(
            Verdict.INCONCLUSIVE,
            "z3 nlsat",
            notes=f"statement {name!r} not proved: {answers[name]}",
            details={"answers": answers},
        )
    steps = [Step(f"{s.sentence}: negation unsat (z3 nlsat, for all real parameters)") for s in statements]
    return Outcome(
        Verdict.CERTIFIED,
        "z3 nlsat on polynomial encodings (t = exp(alpha beta), c* by its defining polynomial)",
        certificates=[str(path)],
        steps=steps,
        details={"answers": answers},
    )


def with_certificate(ctx: Context, outcome: Outcome) -> Outcome:
    """A PROVED (or REFUTED) outcome with the SMT certificate of the claim's statement (or of the statement against
    it: `certificates.statements.registry.SMT`), once z3 proved it and the kernel re-checked the file; when either
    does not, INCONCLUSIVE: SymPy and the certificate disagree, and neither is taken (as for the identities' gram
    certificates)."""
    if outcome.verdict not in (Verdict.PROVED, Verdict.REFUTED):
        return outcome
    found = outcome.verdict.value
    smt = certify_statements(ctx)
    if smt.verdict is not Verdict.CERTIFIED:
        notes = f"SymPy found it {found}, but z3 did not prove the statement of its certificate: {smt.notes}"
        return Outcome(Verdict.INCONCLUSIVE, outcome.method, notes=notes, details=smt.details)
    checked = kernel_checks.checked(Path(smt.certificates[0]))  # the check the Coq file is then written from
    if not checked.ok:
        notes = f"SymPy found it {found}, but the kernel rejected its certificate: {checked.message}"
        return Outcome(Verdict.INCONCLUSIVE, outcome.method, notes=notes, details=smt.details)
    outcome.certificates = smt.certificates
    outcome.steps = [*outcome.steps, *smt.steps]
    outcome.method = f"{outcome.method}; SMT certificate of the statement (z3, re-checked by the kernel)"
    return outcome
