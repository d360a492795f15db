"""`headflow check-cert FILE...`: re-check certificate files from the files alone, against their claims' obligations."""

from __future__ import annotations

import argparse
import contextlib
import functools
import sys
from pathlib import Path

from certificates import solvers, verify
from certificates.reading import require_regular
from certificates.verify import check_file
from checks.bounds import MAX_TIMEOUT, check_range
from checks.claimsfile import certificate_obligations
from checks.claimsfile.embedding import embedded_claim_mismatch
from checks.errors import InputError

NAME = "check-cert"
HELP = "re-check certificate files: each must prove its claim's obligation (z3 and cvc5, balls, exact data)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="certificate files (a folder means its *.json)")
    parser.add_argument(
        "--claims",
        metavar="CLAIMS.toml",
        help="also confirm that each claims-file certificate embeds exactly the claim of that id in this file",
    )
    parser.add_argument(
        "--solver-seconds",
        type=float,
        default=solvers.DEFAULT_SECONDS,
        metavar="SECONDS",
        help=f"wall time z3 and cvc5 each get per smt certificate (default: {solvers.DEFAULT_SECONDS:g}); "
        "a solver still running then is killed and the file is not re-checked by it",
    )


def verify_file(path: Path, solver_seconds: float = solvers.DEFAULT_SECONDS) -> tuple[bool, str]:
    """(ok, one line) for any certificate, claims-file certificates included (what `check-cert` prints)."""
    return verify.verify_file(path, _claim_checker(solver_seconds), solver_seconds)


def _claim_checker(solver_seconds: float) -> verify.ClaimChecker:
    return functools.partial(certificate_obligations.check, solver_seconds=solver_seconds)


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


def run(args: argparse.Namespace) -> int:
    """One line per file (what it proves, or why it fails); exit 1 when any file fails, 0 when all re-check."""
    seconds = check_range("--solver-seconds", args.solver_seconds, 0.0, MAX_TIMEOUT, open_low=True)
    paths = _expand(args.files)
    if not paths:
        sys.stderr.write("FAIL: no certificate files given\n")
        return 1
    compare = None
    if args.claims is not None:
        from checks.claimsfile.loader import load_claims

        try:
            compare = {claim.id: claim for claim in load_claims(args.claims)}
        except InputError as exc:
            raise InputError(f"--claims: {exc}") from None
    failures = 0
    for path in paths:
        result = check_file(path, _claim_checker(seconds), seconds)
        message = " ".join(result.message.split())
        if result.ok and compare is not None:
            mismatch = embedded_claim_mismatch(path, compare)
            if mismatch:
                result_ok, message = False, mismatch
            else:
                result_ok = True
        else:
            result_ok = result.ok
        failures += not result_ok
        if result_ok:
            sys.stdout.write(f"{path}: {message}\n")
        else:
            sys.stderr.write(f"{path}: FAIL: {message}\n")
    return 1 if failures else 0
