"""The options `headflow verify` and `headflow check` share, and their translation into the API's arguments."""

from __future__ import annotations

import argparse
from typing import Any

from headflow.checks.choices import DEFAULT_CERTIFICATES, FORMATS, PROFILES
from headflow.checks.input_bounds import MAX_TIMEOUT, MAX_WIDTH, MIN_WIDTH


def add_decision_arguments(parser: argparse.ArgumentParser) -> None:
    """--profile, --format, --out, --seed, --certificates, --timeout, --recheck, --coq and --width."""
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
    parser.add_argument(
        "--recheck",
        action="store_true",
        help="re-check every certificate written with check-cert; each verdict lists the checkers that accepted it",
    )
    parser.add_argument("--coq", action="store_true", help="with --recheck, also re-check every certificate in Coq")
    add_width_argument(parser)


def add_width_argument(parser: argparse.ArgumentParser) -> None:
    """--width: the line width of what is printed (a terminal's own, else 80)."""
    parser.add_argument(
        "--width",
        type=int,
        metavar="COLUMNS",
        help=f"line width of the printed output, {MIN_WIDTH}..{MAX_WIDTH} (default: the terminal's, 80 when piped)",
    )


def decision_options(args: argparse.Namespace) -> dict[str, Any]:
    """The API's keyword arguments (`headflow.checks.api.verify` and `check`) from the parsed options."""
    options = {"profile": args.profile, "seed": args.seed, "certificates": args.certificates, "timeout": args.timeout}
    return options | {"recheck": args.recheck or args.coq, "coq": args.coq}
