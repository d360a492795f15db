"""`headflow check FILE.toml`: decide the user's own claims (identity, constant, inequality, dynamics)."""

from __future__ import annotations

import argparse

from checks.claimsfile.loader import load_claims
from checks.claimsfile.register import register_claims
from checks.decision_commands import add_decision_arguments, decide_and_report, validate_decision_arguments
from checks.verdicts import Verdict

HELP = "decide the claims of a claims file (TOML); exit 1 when one is refuted, 2 for bad input"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE.toml", help="the claims file (see 'Claims files' in the README)")
    add_decision_arguments(parser)


def run(args: argparse.Namespace) -> int:
    validate_decision_arguments(args)
    registry = register_claims(load_claims(args.file))
    results = decide_and_report(registry.claims(), args, "checking")
    return 1 if any(r.verdict is Verdict.REFUTED for r in results) else 0
