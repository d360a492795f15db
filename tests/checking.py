"""The kernel's one check of a certificate file (`certificates.kernel.verify.check_file`) as the pair most tests
assert on: (accepted, the message on one line, as `headflow check-cert` prints it)."""

from __future__ import annotations

from pathlib import Path

from headflow.certificates.kernel import solvers
from headflow.certificates.kernel.verify import check_file


def verify_file(path: Path, solver_seconds: float = solvers.DEFAULT_SECONDS) -> tuple[bool, str]:
    """(ok, one line): `ok: <claim>: <what it proves> [how]` or the reason for the rejection."""
    result = check_file(Path(path), solver_seconds)
    return result.ok, " ".join(result.message.split())
