"""`headflow check-cert`: re-check a certificate from its file alone, against the obligation of its claim.

In order: the file's size, JSON shape and schema, the sha256 checksum, then the claim. The
checker knows what a certificate of each claim must establish (the kernel's table of the registry's statements,
`certificates.kernel.registry_statements`; for a claims-file claim, `certificates.kernel.claims.certificate_obligations`
re-derives it from the claim's own fields) and rejects any certificate whose content is not that obligation,
naming the difference. Then it re-checks the proof itself:
- smt: the checker prints the SMT-LIB2 text from its own trees (`certificates.kernel.smtlib`) and runs z3
  and cvc5, each in a fresh isolated process with a time limit (`certificates.kernel.solvers`): see
  `solvers.recheck_unsat` for what is accepted;
- witness: exact data (a point, or a configuration of the model) satisfy the claim's hypotheses
  exactly and every condition is settled by balls (`certificates.kernel.recheck`);
- interval-cover and convexity: the boxes cover the domain exactly and the relation holds on each;
- equilibrium: the Krawczyk inclusion and the Gershgorin spectrum are recomputed from the exact data
  (`certificates.kernel.equilibrium_obligations`).
It imports only the kernel (`certificates.kernel`, whose docstring gives the rule a test holds it to).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from certificates.kernel import core, smtlib, solvers
from certificates.kernel.exprtree import TreeError
from certificates.kernel.loading import load
from certificates.kernel.recheck import Rejected


@dataclass(frozen=True)
class CheckResult:
    """Whether the file re-checks; what it proves, in words (or why it was rejected)."""

    ok: bool
    claim_id: str
    message: str


def verify_file(path: Path, solver_seconds: float = solvers.DEFAULT_SECONDS) -> tuple[bool, str]:
    """(ok, one line): `ok: <claim>: <what it proves> [how]` or the reason for the rejection."""
    result = check_file(Path(path), solver_seconds)
    return result.ok, " ".join(result.message.split())


def check_file(path: Path, solver_seconds: float = solvers.DEFAULT_SECONDS) -> CheckResult:
    """Re-check one certificate file, registry or claims-file; never raises on a hostile file. Each solver gets
    `solver_seconds` for the file. The one entry point of the kernel: `headflow check-cert` and the tests call it."""
    claim_id = "?"
    try:
        certificate = load(path)
        claim_id = str(certificate["claim_id"])[:200]
        proved, how = _check(certificate, solver_seconds)
        return CheckResult(True, claim_id, f"ok: {claim_id}: {proved} [{how}]")
    except Rejected as exc:
        return CheckResult(False, claim_id, str(exc))
    except (TreeError, smtlib.SmtTextError) as exc:
        return CheckResult(False, claim_id, f"malformed certificate data: {exc}")
    except OSError as exc:
        return CheckResult(False, claim_id, f"cannot read: {exc.strerror or exc}")
    except Exception as exc:  # any other failure on hostile input is a rejection, never a crash
        return CheckResult(False, claim_id, f"malformed certificate: {type(exc).__name__}: {str(exc)[:120]}")


def _check(certificate: dict[str, Any], seconds: float) -> tuple[str, str]:
    """(what the certificate proves, how it was re-checked) for a certificate of a known claim: by its core
    statement (`certificates.kernel.core`) when it carries one, else by the older re-derivation from the claim."""
    claim_id, kind, payload = certificate["claim_id"], certificate["kind"], certificate["payload"]
    if certificate["claim"] is not None and not isinstance(certificate["claim"], dict):
        raise Rejected("claim must be null or the claims-file claim's fields")
    if certificate["statement"] is not None:
        return core.check(certificate["statement"], claim_id, kind, payload, seconds)
    return _legacy_check(certificate, seconds)


def _legacy_check(certificate: dict[str, Any], seconds: float) -> tuple[str, str]:
    """The re-derivation of a claims-file certificate's obligation from its claim, for kinds without a core statement
    yet (it loads SymPy; each kind moves to `core` in turn). A registry certificate always carries its statement."""
    from certificates.kernel.claims import certificate_obligations

    claim_id, kind, payload = certificate["claim_id"], certificate["kind"], certificate["payload"]
    if certificate["claim"] is None:
        raise Rejected(f"a certificate of the registry claim {claim_id[:80]} must carry its core statement")
    return certificate_obligations.check(certificate["claim"], claim_id, kind, payload, seconds)
