"""`headflow check-cert FILE...`: re-check certificate files from the files alone, against their claims' obligations.

The options only: the checking and its printed entries are `checks.certificate_lines` (imported when the command
runs, so that `--help` answers at once)."""

from __future__ import annotations

import argparse

from headflow.certificates.kernel import solvers
from headflow.certificates.kernel.coq import run as coq_run
from headflow.checks.commands.options.decision import add_width_argument

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
        help=f"wall-clock safety net of z3 and cvc5, each, per smt certificate (default: {solvers.DEFAULT_SECONDS:g}), "
        "far above their counted resource limits; a solver still running then is killed and does not re-check the file",
    )
    parser.add_argument(
        "--coq",
        action="store_true",
        help="also re-check each certificate in Coq: its Coq file is regenerated from the claim and compiled by coqc",
    )
    parser.add_argument(
        "--coq-seconds",
        type=float,
        default=coq_run.SECONDS,
        metavar="S",
        help=f"time limit of coqc per certificate (default: {coq_run.SECONDS:.0f})",
    )
    add_width_argument(parser)


def run(args: argparse.Namespace) -> int:
    """One entry per file (what it proves, or why it fails), then a closing summary; exit 1 when any file fails."""
    from headflow.checks.certificate_lines import check_files

    return check_files(args)
