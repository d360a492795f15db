"""What `headflow check-cert` does and prints: each certificate file re-checked by the kernel (and compared with a
claims file, re-checked in Coq, when asked), one entry each wrapped to the width, then a closing summary."""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path
from typing import IO

from headflow.certificates.errors import InputError
from headflow.certificates.kernel.loading import require_regular
from headflow.checks import coq_files, rechecks
from headflow.checks.input_bounds import MAX_TIMEOUT, check_range, check_width
from headflow.checks.progress import progress_bar
from headflow.checks.reports.terminal import console_for
from headflow.checks.reports.wrapping import wrapped


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
    """Check one file (the kernel's one check, and what check-cert adds: its embedded claim read and, when asked,
    compared with the claims file and re-checked in Coq: `rechecks.recheck`); print what it proves or why it fails.
    Whether it passed."""
    check = rechecks.recheck(path, args.coq, seconds, coq_seconds, compare, read_claim=True)
    _write(sys.stdout if check.ok else sys.stderr, f"{path}: {'' if check.ok else 'FAIL: '}{check.message}", width)
    coq_ok = _coq_line(path, check.coq, check.checkers, width) if check.coq is not None else True
    return check.ok and coq_ok


def _write(stream: IO[str], line: str, width: int) -> None:
    """One entry, wrapped at words to `width` (a path or a number longer than a line stays whole)."""
    stream.write("\n".join(wrapped(line, width, then="    ")) + "\n")


def _coq_line(path: Path, verdict: coq_files.CoqCheck, checkers: list[str], width: int) -> bool:
    """Print the Coq re-check of one certificate (written from the kernel's one check of it) and the independent
    `checkers` that accepted it; False when Coq rejected it (not translatable is no failure)."""
    timing = f", {verdict.seconds:.1f} s" if verdict.seconds else ""
    line = f"{verdict.status}: {verdict.message}{timing}"
    if verdict.status == coq_files.REJECTED:
        _write(sys.stderr, f"{path}: FAIL: coq: {line}", width)
        return False
    _write(sys.stdout, f"{path}: coq: {line}", width)
    _write(sys.stdout, f"{path}: independent checkers: {', '.join(checkers) or 'none'}", width)
    return True
