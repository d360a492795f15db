"""The kernel's one check of a certificate file (`certificates.kernel.verify.check_file`) as the pair most tests
assert on: (accepted, the message on one line, as `headflow check-cert` prints it); and the check of many files in
one fresh process, with the SymPy and mpmath modules it loaded (`check_in_a_fresh_process`)."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from headflow.certificates.kernel import solvers
from headflow.certificates.kernel.verify import check_file

ROOT = Path(__file__).resolve().parents[1]


def verify_file(path: Path, solver_seconds: float = solvers.DEFAULT_SECONDS) -> tuple[bool, str]:
    """(ok, one line): `ok: <claim>: <what it proves> [how]` or the reason for the rejection."""
    result = check_file(Path(path), solver_seconds)
    return result.ok, " ".join(result.message.split())


#: Checks each file given on the command line in one process; prints the rejections (path -> message) and the
#: SymPy/mpmath modules loaded at the end. With `--check-cert` first, the same process then runs
#: `headflow check-cert --width=1000` on the files and prints its exit code, stdout and stderr too.
FRESH_CHECKER = """
import contextlib, io, json, sys
from headflow.certificates.kernel.verify import check_file
command = sys.argv[1:2] == ["--check-cert"]
paths = sys.argv[2:] if command else sys.argv[1:]
failed = {path: result.message for path in paths if not (result := check_file(path)).ok}
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("sympy", "mpmath", "identities"))
found = {"failed": failed, "loaded": loaded}
if command:
    from headflow.checks import cli
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["check-cert", "--width=1000", *paths])
    found["check_cert"] = [code, out.getvalue(), err.getvalue()]
print(json.dumps(found))
"""


@dataclass(frozen=True)
class FreshCheck:
    """`check_file` of `paths`, in order, in one fresh Python process: the rejections (path -> message; the accepted
    files are not there) and the SymPy and mpmath modules the process had loaded once every file was checked
    (modules are never unloaded: none loaded at the end means none loaded by any one file's check)."""

    paths: list[str]
    failed: dict[str, str]
    loaded: list[str]
    #: `headflow check-cert --width=1000 PATHS` run after the checks in the same process (`check_cert=True`)
    check_cert: subprocess.CompletedProcess[str] | None = None

    def failures(self) -> list[str]:
        """`path: message` of each rejected file, in order."""
        return [f"{path}: {self.failed[path]}" for path in self.paths if path in self.failed]


def check_in_a_fresh_process(paths: list[Path], check_cert: bool = False) -> FreshCheck:
    """Check `paths` in one fresh process (`FRESH_CHECKER`); with `check_cert`, that process then runs `headflow
    check-cert` on them too (its solver answers are the ones the checks just got: `certificates.kernel.solvers._MEMO`),
    so that a test of the command's output pays no second round of solver runs."""
    names = [str(path) for path in paths]
    flag = ["--check-cert"] if check_cert else []
    run = subprocess.run(
        [sys.executable, "-c", FRESH_CHECKER, *flag, *names], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    command = None
    if check_cert:
        code, out, err = found["check_cert"]
        command = subprocess.CompletedProcess(["headflow", "check-cert", "--width=1000", *names], code, out, err)
    return FreshCheck(names, found["failed"], found["loaded"], command)


def accepted_for(path: Path, claims_text: str) -> bool:
    """Whether check-cert accepts the file and, with `--claims` the claims file `claims_text`, the claim it states
    (the kernel's check, then the elaboration of the user's claim compared with the file's statement)."""
    from headflow.certificates.claims.loader import parse_claims
    from headflow.checks.rechecks import recheck

    claims = {claim.id: claim for claim in parse_claims(claims_text)}
    return check_file(path).ok and recheck(path, claims=claims, read_claim=True).ok


def decided_claims(claims_text: str, folder: Path) -> dict[str, Any]:
    """Each claim of the claims text as `headflow.checks.api.check` decides it (certificates into `folder`), by id."""
    from headflow.checks import api

    return {claim.id: claim for claim in api.check(claims_text, certificates=folder, progress=False).claims}


def certified_as(decided: dict[str, Any], expected: dict[str, bool], form: str, claims_text: str) -> dict[str, Path]:
    """Assert each claim of `expected` PROVED (True) or REFUTED (False) with one certificate of `form` that check-cert
    accepts for its claim (`accepted_for`); those certificates, by claim id."""
    from headflow.checks.verdicts import Verdict

    found = {}
    for claim_id, holds in expected.items():
        claim = decided[claim_id]
        assert claim.verdict is (Verdict.PROVED if holds else Verdict.REFUTED), claim_id
        (found[claim_id],) = [Path(p) for p in claim.certificates if f".{form}." in Path(p).name]
        assert accepted_for(found[claim_id], claims_text), claim_id
    return found
