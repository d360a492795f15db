"""`headflow export coq DIR`: write the paper's general identities as Coq files that coqc checks."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from headflow.certificates.errors import InputError

HELP = "write the paper's dimension-free identities and the T19 threshold statements as Coq files"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", choices=("coq",), help="the proof assistant (coq)")
    parser.add_argument("folder", metavar="DIR", help="folder for the .v files (created if missing)")


def run(args: argparse.Namespace) -> int:
    from headflow.certificates.atomic import write_text_atomic
    from headflow.certificates.coq import general
    from headflow.checks.reports.terminal import console_for
    from headflow.checks.reports.wrapping import wrapped

    folder = Path(args.folder)
    if folder.exists() and not folder.is_dir():
        raise InputError("DIR", str(folder), "is not a folder")
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in general.files().items():
        write_text_atomic(folder / name, text)
    lines = [f"{claim}: {name}: {theorems}" for claim, (name, theorems) in general.THEOREMS.items()]
    lines.append(f"{len(general.files())} Coq files in {folder}; check them with: coqc FILE.v")
    width = console_for().width  # the terminal's, else $COLUMNS, else 80
    sys.stdout.write("".join("\n".join(wrapped(line, width)) + "\n" for line in lines))
    return 0
