"""What `headflow verify` and `headflow check` share: their options and the decide-then-report run."""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from checks.bounds import MAX_TIMEOUT, check_seed, check_timeout
from checks.claim_runner import ClaimResult, run_claims
from checks.errors import InputError
from checks.output import deliver
from checks.progress import progress_bar
from checks.registry import PROFILES, Claim, Context
from checks.report import FORMATS, build_report


def add_decision_arguments(parser: argparse.ArgumentParser) -> None:
    """--profile, --format, --out, --seed, --certificates and --timeout."""
    parser.add_argument("--profile", choices=PROFILES, default="quick", help="quick (default) or thorough")
    parser.add_argument("--format", choices=FORMATS, default="table", help="report format (default: table)")
    parser.add_argument("--out", metavar="PATH", help="write the report here (atomically) instead of stdout")
    parser.add_argument("--seed", type=int, default=0, help="seed of every random search, 0..2^64-1 (default: 0)")
    parser.add_argument(
        "--certificates",
        metavar="DIR",
        default="certs",
        help="folder for certificate files written while deciding (default: certs)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help=f"overall budget, 0..{MAX_TIMEOUT:g} s; claims left over are INCONCLUSIVE",
    )


def validate_decision_arguments(args: argparse.Namespace) -> None:
    """Reject a bad --timeout or --certificates before any claim is decided."""
    check_timeout(args.timeout)
    check_seed("--seed", args.seed)
    _require_writable_folder("--certificates", Path(args.certificates))


def decide_and_report(claims: list[Claim], args: argparse.Namespace, label: str) -> list[ClaimResult]:
    """Decide `claims` with a progress bar, then deliver the report (figures in html and markdown)."""
    deadline = None if args.timeout is None else time.monotonic() + args.timeout
    base = Context(args.profile, args.seed, Path(args.certificates), deadline)
    with progress_bar(label, len(claims)) as advance:
        results = run_claims(claims, base, on_result=lambda r: advance(r.claim.id))
    report = build_report(results, args.profile, args.seed)
    if args.format in ("html", "markdown"):
        from checks.figures import figures_for  # matplotlib and the integrator only when figures are wanted

        report["figures"] = figures_for([r.claim.id for r in results])
    deliver(report, args.format, args.out)
    return results


def _require_writable_folder(option: str, folder: Path) -> None:
    """The folder exists and is writable, or can be created (checked before any claim is decided)."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise InputError(option, str(folder), f"{existing} is not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise InputError(option, str(folder), f"{existing} is not writable")
