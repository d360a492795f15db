"""The options `headflow verify` and `headflow check` share, and their translation into the API's arguments."""

from __future__ import annotations

import argparse
from typing import Any

from checks.api import DEFAULT_CERTIFICATES
from checks.input_bounds import MAX_TIMEOUT
from checks.registry import PROFILES
from checks.reports.document import FORMATS


def add_decision_arguments(parser: argparse.ArgumentParser) -> None:
    """--profile, --format, --out, --seed, --certificates and --timeout."""
    parser.add_argument("--profile", choices=PROFILES, default="quick", help="quick (default) or thorough")
    parser.add_argument("--format", choices=FORMATS, default="table", help="report format (default: table)")
    parser.add_argument("--out", metavar="PATH", help="write the report here (atomically) instead of stdout")
    parser.add_argument("--seed", type=int, default=0, help="seed of every random search, 0..2^64-1 (default: 0)")
    parser.add_argument(
        "--certificates",
        metavar="DIR",
        default=DEFAULT_CERTIFICATES,
        help=f"folder for certificate files written while deciding (default: {DEFAULT_CERTIFICATES})",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help=f"overall budget, 0..{MAX_TIMEOUT:g} s; claims left over are INCONCLUSIVE",
    )


def decision_options(args: argparse.Namespace) -> dict[str, Any]:
    """The API's keyword arguments (`checks.api.verify` and `check`) from the parsed options."""
    return {"profile": args.profile, "seed": args.seed, "certificates": args.certificates, "timeout": args.timeout}
