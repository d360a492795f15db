"""What `headflow check-cert` does and prints: each certificate file re-checked by the kernel (and compared with a
claims file, re-checked in Coq, when asked), one entry each wrapped to the width, then a closing summary."""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path
from typing import IO

from headflow.certificates.claims.embedding import embedded, embedded_claim_mismatch, read_embedded
from headflow.certificates.claims.schema import UserClaim
from headflow.certificates.errors import InputError
from headflow.certificates.kernel.loading import load, require_regular
from headflow.certificates.kernel.verify import CheckResult, check_file
from headflow.certificates.statements import restated
from headflow.checks import coq_files, rechecks
from headflow.checks.input_bounds import MAX_TIMEOUT, check_range, check_width
from headflow.checks.progress import progress_bar
from headflow.checks.reports.terminal import console_for, wrapped


def _expand(names: list[str]) -> list[Path]:
    """The certificate files named (a folder stands for its *.json). One that exists but is not a regular file (a FIFO
    or a device would hang or flood the reader) is bad input: OSError (one line, exit 2) before any file is checked;
    a missing file fails on its own line like any other unreadable certificate."""
    paths: list[Path] = []
    for name in names:
        path = Path(name)
        paths.extend(sorted(path.glob("*.json")) if path.is_dir() else [path])
    for path in paths:
        with contextlib.suppress(FileNotFoundError):
            require_regular(path)
    return paths


def check_files(args: argparse.Namespace) -> int:
    """`headflow check-cert` with its parsed options: one entry per file (what it proves, or why it fails), wrapped to
    the width, then a closing summary; a progress bar on a terminal's stderr while they run. Exit 1 when any file
    fails, 0 when all re-check."""
    seconds = check_range("--solver-seconds", args.solver_seconds, 0.0, MAX_TIMEOUT, open_low=True)
    width = console_for(width=check_width(args.width)).width
    paths = _expand(args.files)
    if not paths:
        sys.stderr.write("FAIL: no certificate files given\n")
        return 1
    compare = None
    if args.claims is not None:
        from headflow.certificates.claims.loader import load_claims
        from headflow.certificates.claims.schema import with_parts

        try:
            compare = {claim.id: claim for claim in with_parts(load_claims(args.claims))}
        except InputError as exc:
            raise InputError("--claims", args.claims, exc.reason) from None
    if args.coq and coq_files.run.coqc() is None:
        raise InputError("--coq", "coqc", "Coq is not installed (apt-get install coq libcoq-interval)")
    coq_seconds = check_range("--coq-seconds", args.coq_seconds, 1.0, 3600.0)
    failures = 0
    with progress_bar("check-cert", len(paths)) as advance:
        for path in paths:
            failures += not _check_one(path, args, seconds, coq_seconds, compare, width)
            advance(path.name)
    noun = "certificate" if len(paths) == 1 else "certificates"
    summary = f"{len(paths) - failures} of {len(paths)} {noun} re-checked" + (
        f", {failures} failed" if failures else ""
    )
    _write(sys.stderr if failures else sys.stdout, summary, width)
    return 1 if failures else 0


def _check_one(
    path: Path, args: argparse.Namespace, seconds: float, coq_seconds: float, compare: dict | None, width: int
) -> bool:
    """Check one file (and compare it with the claims file, re-check it in Coq, when asked); print what it proves or
    why it fails. Whether it passed."""
    result = check_file(path, seconds)
    message = " ".join(result.message.split())
    ok = result.ok
    if ok and (unread := _unread_claim(result.certificate)) is not None:
        ok, message = False, unread
    if ok and compare is not None:
        mismatch = embedded_claim_mismatch(path, compare) or _restated(path, compare)
        ok, message = mismatch is None, mismatch or message
    _write(sys.stdout if ok else sys.stderr, f"{path}: {'' if ok else 'FAIL: '}{message}", width)
    coq_ok = _coq_line(path, coq_seconds, result, message if ok else None, width) if args.coq else True
    return ok and coq_ok


def _unread_claim(certificate: dict | None) -> str | None:
    """Why the claim a certificate embeds is not one claim as headflow writes it (None: it is, or the field is null).
    The embedded claim is provenance, never evidence: the kernel holds it to its form (`{"toml": text}`) and its text
    is read here by the claims-file loader, so free text (`title`, `statement`), a comment or any other spacing or
    order than the canonical text is refused naming what is wrong (issue 23: nothing in a certificate is unchecked)."""
    if certificate is None or certificate["claim"] is None:
        return None
    try:
        read_embedded(certificate["claim"])
    except InputError as exc:
        return f"the embedded claim: {exc}"
    return None


def _write(stream: IO[str], line: str, width: int) -> None:
    """One entry, wrapped at words to `width` (a path or a number longer than a line stays whole)."""
    stream.write("\n".join(wrapped(line, width, then="    ")) + "\n")


def _restated(path: Path, claims: dict[str, UserClaim]) -> str | None:
    """Why the certificate's core statement is not the one its claim in the user's file elaborates into (None: it
    is): the file's claim is elaborated again, so a statement that is not the claim's never passes `--claims`."""
    certificate = load(path)
    return restated(certificate, embedded(claims[certificate["claim_id"]]))


def _coq_line(path: Path, seconds: float, checked: CheckResult, rechecked: str | None, width: int) -> bool:
    """Print the Coq re-check of one certificate (written from `checked`, the kernel's check of it: it runs once) and
    the independent checkers that accepted it; False when Coq rejected it (not translatable is no failure)."""
    verdict = coq_files.check(path, seconds, checked)
    timing = f", {verdict.seconds:.1f} s" if verdict.seconds else ""
    line = f"{verdict.status}: {verdict.message}{timing}"
    if verdict.status == coq_files.REJECTED:
        _write(sys.stderr, f"{path}: FAIL: coq: {line}", width)
        return False
    _write(sys.stdout, f"{path}: coq: {line}", width)
    checkers = rechecks.accepting(checked, rechecked) if rechecked is not None else []
    checkers += ["Coq"] if verdict.status == coq_files.RECHECKED else []
    _write(sys.stdout, f"{path}: independent checkers: {', '.join(checkers) or 'none'}", width)
    return True
