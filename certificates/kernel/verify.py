"""`headflow check-cert`: re-check a certificate from its file alone, against the core statement it carries.

In order: the file's size, JSON shape and schema, the sha256 checksum, the claim field's form (provenance only: null
or `{"toml": text}`, its text read outside the kernel by `headflow check-cert`, `certificates.claims.embedding`), then
the statement. A certificate carries the core statement it proves (`certificates.kernel.core`); the kernel
checks the payload against it by its form and prints it, rendered from its own data: the registry's claims
against the kernel's own table (`registry_statements`), claims-file claims as `real` relations and constants,
`model` witnesses (those of dynamics claims among them) and `equilibrium` statements. The proofs themselves:
- smt: the kernel prints the SMT-LIB2 text from the statement's trees (`smtlib`, `real_encoding`) and runs z3
  and cvc5, each in a fresh isolated process with a time limit (`solvers`): see `solvers.recheck_unsat`;
- witness: exact data (a point, or a configuration of the model) satisfy the statement's hypotheses
  exactly and every condition is settled by balls (`recheck`);
- interval-cover and convexity: the boxes cover the domain exactly and the relation holds on each;
- equilibrium: the Krawczyk inclusion and the Gershgorin spectrum are recomputed from the exact data
  (`equilibrium`).
An accepted result carries the certificate it checked and what it proved, so that the Coq statement of the
certificate (`certificates.kernel.coq.certificate`) is written from the same check, run once.
It imports only the kernel, the standard library and python-flint (a test holds it to that); SymPy and mpmath
are never loaded.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from certificates.kernel import core, solvers
from certificates.kernel.loading import load
from certificates.kernel.recheck import Rejected

#: The certificate's fields `core.check` takes, in its order.
CHECKED = ("statement", "claim_id", "kind", "payload")


@dataclass(frozen=True)
class CheckResult:
    """Whether the file re-checks; what it proves, in words (or why it was rejected). An accepted result also holds
    the certificate as checked and the sentence of what it proves."""

    ok: bool
    claim_id: str
    message: str
    certificate: dict[str, Any] | None = None
    proved: str = ""


def check_file(path: Path, solver_seconds: float = solvers.DEFAULT_SECONDS) -> CheckResult:
    """Re-check one certificate file, registry or claims-file; never raises on a hostile file. Each solver gets
    `solver_seconds` for the file. The one entry point of the kernel: `headflow check-cert` and the tests call it."""
    claim_id = "?"
    try:
        certificate = load(path)
        claim_id = str(certificate["claim_id"])[:200]
        if certificate["statement"] is None:
            raise Rejected(f"the certificate of {claim_id[:80]!r} carries no core statement: nothing to check")
        proved, how = core.check(*(certificate[key] for key in CHECKED), solver_seconds)
        return CheckResult(True, claim_id, f"ok: {claim_id}: {proved} [{how}]", certificate, proved)
    except Rejected as exc:
        return CheckResult(False, claim_id, str(exc))
    except OSError as exc:
        return CheckResult(False, claim_id, f"cannot read: {exc.strerror or exc}")
    except Exception as exc:  # any other failure on hostile input (a malformed tree: TreeError) is a rejection
        return CheckResult(False, claim_id, f"malformed certificate: {type(exc).__name__}: {str(exc)[:120]}")
