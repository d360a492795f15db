"""The Python API: decide the paper's claims, or a claims file's, and get a `Report` back.

```python
import headflow.checks as checks
report = checks.verify(only="T19.*")
report.summary, report.verdicts["T19.threshold"], report.differences
```

`headflow verify` and `headflow check` are these functions plus printing: there is no second
code path. The keyword arguments are those of `decide` (profile, seed, certificates, timeout,
progress, recheck, coq). Bad arguments raise `headflow.certificates.errors.InputError` before any claim is decided;
its message
names the argument as the command line spells it (`--seed`, `--timeout`, `--certificates`).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TypedDict, Unpack

from headflow.certificates.errors import InputError
from headflow.checks import coq_files, rechecks
from headflow.checks.choices import DEFAULT_CERTIFICATES, PROFILES
from headflow.checks.coq_files import write_coq_files
from headflow.checks.input_bounds import check_seed, check_timeout
from headflow.checks.progress import claims_progress
from headflow.checks.registry import Claim, Context, load_all
from headflow.checks.reports.document import Subject
from headflow.checks.reports.report import Report
from headflow.checks.runner import run_claims


class DecisionOptions(TypedDict, total=False):
    """How claims are decided: the keyword arguments `verify` and `check` pass on to `decide`."""

    profile: str
    seed: int
    certificates: str | Path
    timeout: float | None
    progress: bool
    recheck: bool
    coq: bool


def verify(only: str | None = None, **options: Unpack[DecisionOptions]) -> Report:
    """Decide the paper's claims (those whose id matches the glob(s) `only`, comma-separated; all when None)."""
    return decide(load_all().select(only), "verifying", subject="paper", **options)


def check(claims: str | Path, only: str | None = None, **options: Unpack[DecisionOptions]) -> Report:
    """Decide the claims of a claims file (those whose id matches the glob(s) `only`, comma-separated; all when
    None): a path, or the TOML text itself (text has a newline, a path has none; the data files text names are read
    from inside the working folder)."""
    from headflow.certificates.claims.loader import load_claims, parse_claims
    from headflow.checks.claimsfile.register import register_claims

    if not isinstance(claims, str | os.PathLike):
        raise InputError("claims", claims, "must be a claims file's path or its TOML text")
    is_text = isinstance(claims, str) and "\n" in claims
    loaded = parse_claims(claims, base=Path.cwd()) if is_text else load_claims(claims)
    return decide(register_claims(loaded).select(only), "checking", subject="claims file", **options)


def decide(
    claims: list[Claim],
    label: str = "deciding",
    profile: str = "quick",
    seed: int = 0,
    certificates: str | Path = DEFAULT_CERTIFICATES,
    timeout: float | None = None,
    progress: bool = True,
    subject: Subject = "paper",
    recheck: bool = False,
    coq: bool = False,
) -> Report:
    """Decide `claims` in order within the overall `timeout` in seconds; `label` names the progress bar.

    `subject` says whether they are the paper's claims or a claims file's (`headflow.checks.reports.document.Subject`).

    The bar is drawn on stderr when it is a terminal and `progress` is true (`progress.claims_progress`: which claim
    runs, k of N, and within a long claim its counted budget); nothing is drawn on a pipe. Certificate files go to
    the folder `certificates`; the options are checked before any claim is decided. With `recheck` every
    certificate is then re-checked by check-cert (`headflow.checks.rechecks`), with `coq` also by coqc, and each verdict
    lists the checkers that accepted its certificates.
    """
    validate(profile, seed, certificates, timeout)
    if coq and coq_files.run.coqc() is None:
        raise InputError("--coq", "coqc", "Coq is not installed (apt-get install coq libcoq-interval)")
    deadline = None if timeout is None else time.monotonic() + timeout
    with claims_progress(label, len(claims), enabled=progress) as bar:
        base = Context(profile, seed, Path(certificates), deadline, progress=bar.budget)
        results = run_claims(claims, base, on_result=lambda _: bar.done(), on_start=lambda claim: bar.begin(claim.id))
    write_coq_files([path for r in results for path in r.certificates])
    if recheck or coq:
        for r in results:
            done = {path: rechecks.recheck(Path(path), coq) for path in r.certificates}
            r.rechecked = {path: check.checkers for path, check in done.items()}
            r.coq_missing = {path: check.coq_missing for path, check in done.items() if check.coq_missing}
    return Report(results, profile, seed, subject)


def validate(profile: str, seed: int, certificates: str | Path, timeout: float | None) -> None:
    """Reject a bad profile, seed, certificate folder or timeout before any claim is decided."""
    if profile not in PROFILES:
        raise InputError("--profile", profile, f"expected one of {', '.join(PROFILES)}")
    check_seed("--seed", seed)
    check_timeout(timeout)
    if not isinstance(certificates, str | os.PathLike):
        raise InputError("--certificates", certificates, "must be a folder path")
    _require_writable_folder("--certificates", Path(certificates))


def _require_writable_folder(option: str, folder: Path) -> None:
    """The folder exists and is writable, or can be created (checked before any claim is decided)."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise InputError(option, str(folder), f"{existing} is not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise InputError(option, str(folder), f"{existing} is not writable")
