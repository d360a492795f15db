"""Deliver a report: printed (in colour at a terminal, laid out wide in a pipe), or written atomically to a file.

After the report, a run that wrote certificate files says in one line how many, where, and the
command that re-checks them. The line goes to stdout, unless stdout carries a JSON, markdown or
HTML report, which it would spoil: then to stderr.
"""

from __future__ import annotations

import sys

from checks.reports.report import Report
from checks.reports.terminal import certificates_notice, console_for, print_terminal


def deliver(report: Report, fmt: str, out: str | None) -> None:
    """Print the report in `fmt`, or write it to `out` so that it appears complete or not at all."""
    if out is None and fmt == "table":
        print_terminal(report.data, console_for())
    elif out is None:
        sys.stdout.write(report.render(fmt))
    else:
        report.save(out, fmt)
    notice = certificates_notice(report.certificates)
    if notice:
        stream = sys.stderr if out is None and fmt != "table" else sys.stdout
        stream.write(notice + "\n")
