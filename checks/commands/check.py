"""`headflow check FILE.toml`: decide the user's own claims (identity, constant, inequality, dynamics)."""

from __future__ import annotations

import argparse
from pathlib import Path

from headflow.checks.commands.options.decision import add_decision_arguments, decision_options
from headflow.checks.input_bounds import check_width

HELP = "decide the claims of a claims file (TOML); exit 1 when one is refuted, 2 for bad input"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE.toml", help="the claims file (see 'Your own claims' in the README)")
    parser.add_argument("--only", metavar="GLOB", help="claim ids to decide, e.g. 'rate.*' or 'a.*,b.*'")
    add_decision_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from headflow.checks import api
    from headflow.checks.reports.delivery import deliver
    from headflow.checks.verdicts import Verdict

    width = check_width(args.width)  # bad input stops before any claim is decided
    report = api.check(Path(args.file), args.only, **decision_options(args))
    deliver(report, args.format, args.out, width)
    return 1 if Verdict.REFUTED in report.verdicts.values() else 0
