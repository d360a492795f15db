"""`headflow verify`: decide the paper's claims and write the report (`headflow.checks.api.verify`, then printing)."""

from __future__ import annotations

import argparse

from headflow.checks.commands.options.decision import add_decision_arguments, decision_options
from headflow.checks.input_bounds import check_width

HELP = "decide every claim of the paper (or those matching --only) and report the verdicts"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--only", metavar="GLOB", help="claim ids to decide, e.g. 'T11.*' or 'T19.*,C8.*'")
    add_decision_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from headflow.checks import api
    from headflow.checks.reports.delivery import deliver

    width = check_width(args.width)  # bad input stops before any claim is decided
    report = api.verify(args.only, **decision_options(args))
    deliver(report, args.format, args.out, width)
    return 1 if report.crashed else 0
