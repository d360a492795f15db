"""`headflow check-cert FILE...`: re-verify certificate files from the files alone."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from certificates.store import verify_certificate

NAME = "check-cert"
HELP = "re-verify certificate files (SMT re-run in a fresh solver, balls re-evaluated, hash checked)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="certificate files (a folder means its *.json)")


def _expand(names: list[str]) -> list[Path]:
    paths: list[Path] = []
    for name in names:
        path = Path(name)
        paths.extend(sorted(path.glob("*.json")) if path.is_dir() else [path])
    return paths


def run(args: argparse.Namespace) -> int:
    """One line per file; exit 1 when any file fails, 0 when all re-check."""
    failures = 0
    paths = _expand(args.files)
    for path in paths:
        ok, reason = verify_certificate(path)
        failures += not ok
        stream = sys.stdout if ok else sys.stderr
        stream.write(f"{path}: {reason}\n" if ok else f"{path}: FAIL: {reason}\n")
    if not paths:
        sys.stderr.write("FAIL: no certificate files given\n")
        return 1
    return 1 if failures else 0
