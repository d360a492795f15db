"""`headflow check FILE.toml`: decide the user's own claims (identity, constant, inequality, dynamics)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from checks.claimsfile.loader import load_claims
from checks.claimsfile.register import register_claims
from checks.output import deliver
from checks.progress import progress_bar
from checks.registry import PROFILES, Context
from checks.report import FORMATS, build_report
from checks.runner import run_claims
from checks.verdicts import Verdict

HELP = "decide the claims of a claims file (TOML); exit 1 when one is refuted, 2 for bad input"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE.toml", help="the claims file (see 'Claims files' in the README)")
    parser.add_argument("--format", choices=FORMATS, default="table", help="report format (default: table)")
    parser.add_argument("--out", metavar="PATH", help="write the report here (atomically) instead of stdout")
    parser.add_argument("--seed", type=int, default=0, help="seed of every random search (default: 0)")
    parser.add_argument("--profile", choices=PROFILES, default="quick", help="quick (default) or thorough")
    parser.add_argument(
        "--certificates",
        metavar="DIR",
        default="certs",
        help="folder for certificate files written while deciding (default: certs)",
    )
    parser.add_argument(
        "--timeout", type=float, metavar="SECONDS", help="overall budget; claims left over are INCONCLUSIVE"
    )


def run(args: argparse.Namespace) -> int:
    claims = load_claims(args.file)
    registry = register_claims(claims)
    deadline = None if args.timeout is None else time.monotonic() + max(args.timeout, 0.0)
    base = Context(args.profile, args.seed, Path(args.certificates), deadline)
    selected = registry.claims()
    with progress_bar("checking", len(selected)) as advance:
        results = run_claims(selected, base, on_result=lambda r: advance(r.claim.id))
    deliver(build_report(results, args.profile, args.seed), args.format, args.out)
    return 1 if any(r.verdict is Verdict.REFUTED for r in results) else 0
