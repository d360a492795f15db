"""`headflow verify`: decide the paper's claims and write the report."""

from __future__ import annotations

import argparse

from checks.decision_commands import add_decision_arguments, decide_and_report, validate_decision_arguments
from checks.registry import load_all

HELP = "decide every claim of the paper (or those matching --only) and report the verdicts"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--only", metavar="GLOB", help="claim ids to decide, e.g. 'T11.*' or 'T19.*,C8.*'")
    add_decision_arguments(parser)


def run(args: argparse.Namespace) -> int:
    validate_decision_arguments(args)
    claims = load_all().select(args.only)
    results = decide_and_report(claims, args, "verifying")
    return 1 if any(r.crashed for r in results) else 0
