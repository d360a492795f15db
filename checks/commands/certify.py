"""`headflow certify`: run the certifying procedures and write their certificate files."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from headflow.checks.choices import DEFAULT_CERTIFICATES, PROFILES
from headflow.checks.progress import progress_bar

if TYPE_CHECKING:
    from headflow.checks.registry import Claim

HELP = "write certificate files for the claims that have certifying procedures (smt, interval, witness, gram)"
#: Names of the procedures that write certificates (docs/certificates.md); a claim adds its own (`Claim.certifying`:
#: a derivation that writes a `gram` certificate).
CERTIFYING = frozenset({"smt", "interval", "witness", "smt+witness", "exact+smt"})


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--only", metavar="GLOB", help="claim ids to certify, e.g. 'T19.*'")
    parser.add_argument(
        "--certificates",
        metavar="DIR",
        default=DEFAULT_CERTIFICATES,
        help=f"folder for the certificates (default: {DEFAULT_CERTIFICATES})",
    )
    parser.add_argument("--profile", choices=PROFILES, default="quick", help="quick (default) or thorough")
    parser.add_argument("--seed", type=int, default=0, help="seed of the witness searches, 0..2^64-1 (default: 0)")


def certifying_claims(pattern: str | None) -> list[Claim]:
    """The selected claims, each reduced to its certifying procedures (claims without any are skipped)."""
    from headflow.checks.registry import Claim, load_all

    chosen = []
    for claim in load_all().select(pattern):
        procedures = [(name, p) for name, p in claim.procedures if name in CERTIFYING | claim.certifying]
        if procedures:
            chosen.append(Claim(claim.id, claim.title, claim.statement, procedures, claim.certifying))
    return chosen


def run(args: argparse.Namespace) -> int:
    from headflow.checks.coq_files import write_coq_files
    from headflow.checks.registry import Context
    from headflow.checks.reports.terminal import console_for
    from headflow.checks.reports.wrapping import wrapped
    from headflow.checks.runner import run_claims

    claims = certifying_claims(args.only)
    out = Path(args.certificates)
    base = Context(args.profile, args.seed, out)  # validates the seed before the folder is made
    out.mkdir(parents=True, exist_ok=True)
    with progress_bar("certifying", len(claims)) as advance:
        results = run_claims(claims, base, on_result=lambda r: advance(r.claim.id))
    coq = write_coq_files([path for r in results for path in r.certificates])
    lines = [
        f"{r.verdict.value:<12} {r.claim.id}: {', '.join(Path(p).name for p in r.certificates) or 'no certificate'}"
        for r in results
    ]
    written = sum(len(r.certificates) for r in results)
    lines.append(f"{written} certificate(s) in {out}, {len(coq)} with a Coq file (headflow check-cert --coq)")
    width = console_for().width  # the terminal's, else $COLUMNS, else 80; a file name longer than a line stays whole
    sys.stdout.write("".join("\n".join(wrapped(line, width)) + "\n" for line in lines))
    return 1 if any(r.crashed for r in results) else 0
