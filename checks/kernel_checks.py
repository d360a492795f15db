"""The kernel's check of a certificate file, run once per file content in a process.

`headflow verify` writes the Coq file of each certificate from the kernel's check of it
(`headflow.checks.coq_files.write_coq_files`), and a procedure that re-checks its own certificate before it reports
(SMT certificates of registry claims: `headflow.checks.evidence.smt_certificates.with_certificate`) ran the same
check, z3 and cvc5 included, a second time on the same file: both read it from here. The key is the file's path
and the sha256 of its bytes, so a file changed in between is checked again. The check is a function of those bytes
(a solver out of its time limit aside: a rejection for it is kept like any other, as one check's answer). Only the
default solver limit is remembered; `headflow check-cert` and `--recheck` run their own checks
(`headflow.checks.rechecks`).
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from headflow.certificates.kernel.verify import CheckResult, check_file

#: How many checks are remembered (a whole-paper run writes some eighty certificates).
REMEMBERED = 256


def checked(path: Path) -> CheckResult:
    """The kernel's check of the certificate file `path` (`check_file`), run once for the same path and bytes."""
    try:
        digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return check_file(Path(path))  # its own "cannot read" rejection
    return _checked(str(path), digest)


@functools.lru_cache(maxsize=REMEMBERED)
def _checked(path: str, digest: str) -> CheckResult:
    """`check_file` of the file at `path` whose bytes hash to `digest` (the key; the check reads the file)."""
    return check_file(Path(path))
