"""`headflow check-cert`: re-check a certificate from its file alone, against the core statement it carries.

In order: the file's size, JSON shape and schema, the sha256 checksum, the claim field's form (provenance only: null
or `{"toml": text}`, its text read outside the kernel by `headflow check-cert`, `certificates.claims.embedding`), then
the statement. A certificate carries the core statement it proves (below); the kernel
checks the payload against it by its form and prints it, rendered from its own data: the registry's claims
against the kernel's own table (`registry_statements`), claims-file claims as `real` relations and constants,
`model` witnesses (those of dynamics claims among them) and `equilibrium` statements. The proofs themselves:
- smt: the kernel prints the SMT-LIB2 text from the statement's trees (`smtlib`, `real_encoding`) and runs z3
  and cvc5, each in a fresh isolated process with a time limit (`solvers`): see `solvers.recheck_unsat`;
- witness: exact data (a point, or a configuration of the model) satisfy the statement's hypotheses
  exactly and every condition is settled by balls (`recheck`);
- interval-cover and convexity: the boxes cover the domain exactly and the relation holds on each;
- equilibrium: the Krawczyk inclusion and the Gershgorin spectrum are recomputed from the exact data
  (`equilibrium`);
- gram: the inner-product identities of the registry's table entry, expanded and shown 0 by exact algebra
  (`inner_products`); a claims-file `model` statement only when the table lists it under that entry
  (`registry_statements.model_check`).
An accepted result carries the certificate it checked, what it proved and (smt) the solvers that re-checked it
(`solvers.Unsat`: a structured field, never read back from the words), so that the Coq statement of the
certificate (`headflow.certificates.kernel.coq.certificate`) is written from the same check, run once.
It imports only the kernel, the standard library and python-flint (a test holds it to that); SymPy and mpmath
are never loaded.

Core statements: what a certificate proves, as data the kernel checks and prints. A claim (a registry id, or a
claims-file claim in its rich language) is elaborated outside the kernel (`certificates.statements`) into a core
statement: a JSON object whose `form` names one of the few shapes of `FORMS`, built over the expression trees of
`certificates.kernel.exprtree` and the model's primitives. The certificate carries it; the kernel checks the payload
against it and prints it, rendered from its own data, as what the certificate proved. The kernel never re-derives a
statement from a claim's text, so nothing that elaborates a claim (a parser, SymPy) is trusted: `check-cert --claims
FILE` re-elaborates the file and refuses a certificate whose statement differs, and a registry claim's statement
must equal the kernel's own table of them.

`FORMS` maps each form to its checker: `(statement, claim_id, kind, payload, solver_seconds) -> (what it proved,
how it was re-checked)`, raising `Rejected` when the payload does not prove the statement; `check` holds every
statement to the certificate's claim id first.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import equiangular, equilibrium_statements, model_statements, real_statements, registry_statements, trajectory
from .arc import FORM as ARC, check as arc_check
from .circulant import FORM as CIRCULANT, check as circulant_check
from .clusters import FORM as CLUSTERS, check as clusters_check
from .exit_gap import FORM as EXIT_GAP, check as exit_gap_check
from .jensen import FORM as JENSEN, check as jensen_check
from .limits import FORM as LIMIT, check as limit_check
from .loading import load
from .punctured import FORM as PUNCTURED, check as punctured_check
from .recheck import Rejected
from .reduced_time import FORM as REDUCED_TIME, check as reduced_time_check
from .solvers import DEFAULT_SECONDS
from .spaced import FORM as SPACED, check as spaced_check
from .start import FORM as START, check as start_check

#: form -> its checker (the form's module holds its shape and its checker; a `model` statement's, which may rest on
#: a paper identity of the registry's table, is `registry_statements.model_check`).
CHECKERS = (real_statements, registry_statements, equilibrium_statements, trajectory, equiangular)
FORMS = {m.FORM: m.check for m in CHECKERS} | {
    model_statements.FORM: registry_statements.model_check,
    registry_statements.ORDER: registry_statements.order_check,
    LIMIT: limit_check,
    JENSEN: jensen_check,
    PUNCTURED: punctured_check,
    CIRCULANT: circulant_check,
    SPACED: spaced_check,
    START: start_check,
    ARC: arc_check,
    CLUSTERS: clusters_check,
    REDUCED_TIME: reduced_time_check,
    EXIT_GAP: exit_gap_check,
}


@dataclass(frozen=True)
class CheckResult:
    """Whether the file re-checks; what it proves, in words (or why it was rejected). An accepted result also holds
    the certificate as checked, the sentence of what it proves and, for smt, the solvers that answered unsat to every
    problem (in the order they ran; one that ran out of its limits is not among them)."""

    ok: bool
    message: str
    certificate: dict[str, Any] | None = None
    proved: str = ""
    solvers: tuple[str, ...] = ()


def check_file(path: Path, solver_seconds: float = DEFAULT_SECONDS) -> CheckResult:
    """Re-check one certificate file, registry or claims-file; never raises on a hostile file. Each solver gets
    `solver_seconds` for the file. The one entry point of the kernel: `headflow check-cert` and the tests call it."""
    try:
        certificate = load(path)
        claim_id = str(certificate["claim_id"])[:200]
        proved, how = check(certificate, solver_seconds)
        return CheckResult(True, f"ok: {claim_id}: {proved} [{how}]", certificate, proved, getattr(how, "solvers", ()))
    except Rejected as exc:
        return CheckResult(False, str(exc))
    except OSError as exc:
        return CheckResult(False, f"cannot read: {exc.strerror or exc}")
    except Exception as exc:  # any other failure on hostile input (a malformed tree: TreeError) is a rejection
        return CheckResult(False, f"malformed certificate: {type(exc).__name__}: {str(exc)[:120]}")


def check(certificate: dict[str, Any], seconds: float) -> tuple[str, str]:
    """(what a loaded certificate proves, how it was re-checked), by the checker of its statement's form."""
    statement, claim_id = certificate["statement"], certificate["claim_id"]
    if statement is None:
        raise Rejected(f"the certificate of {claim_id[:80]!r} carries no core statement: nothing to check")
    form = statement.get("form")
    if not isinstance(form, str) or form not in FORMS:
        raise Rejected(f"unknown core statement form {str(form)[:60]!r}")
    if statement.get("claim") != claim_id:  # every form names its claim: a statement filed under another never checks
        raise Rejected(f"the statement is of claim {str(statement.get('claim'))[:80]!r}, not {claim_id[:80]!r}")
    return FORMS[form](statement, claim_id, certificate["kind"], certificate["payload"], seconds)
