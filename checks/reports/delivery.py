"""Deliver a report: printed (in colour at a terminal, 80 columns wide in a pipe), or written atomically to a file.

After the report, a run that wrote certificate files says how many and where, and gives the command that
re-checks them on a line of its own. The line goes to stdout, unless stdout carries a JSON, markdown or
HTML report, which it would spoil: then to stderr.
"""

from __future__ import annotations

import sys

from headflow.checks.reports.report import Report
from headflow.checks.reports.terminal import certificates_notice, console_for, print_terminal


def deliver(report: Report, fmt: str, out: str | None, width: int | None = None) -> None:
    """Print the report in `fmt` (a table `width` columns wide: by default the terminal's, 80 in a pipe), or write
    it to `out` so that it appears complete or not at all."""
    console = console_for(width=width)
    if out is None and fmt == "table":
        print_terminal(report.data, console)
    elif out is None:
        sys.stdout.write(report.render(fmt))
    else:
        report.save(out, fmt)
    notice = certificates_notice(report.certificates, console.width)
    if notice:
        stream = sys.stderr if out is None and fmt != "table" else sys.stdout
        stream.write("\n".join(notice) + "\n")
