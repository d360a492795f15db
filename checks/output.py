"""Deliver a rendered report: to stdout, or atomically to a file."""

from __future__ import annotations

import io
import sys
from typing import Any

from certificates.atomic import write_text_atomic
from checks.html_report import render_html
from checks.report import render_json, render_markdown, render_table


def render(report: dict[str, Any], fmt: str) -> str:
    """The report as text in `fmt` (table, json, markdown, html)."""
    if fmt == "json":
        return render_json(report)
    if fmt == "markdown":
        return render_markdown(report)
    if fmt == "html":
        return render_html(report)
    from rich.console import Console

    buffer = io.StringIO()
    Console(file=buffer, width=160, force_terminal=False).print(render_table(report))
    return buffer.getvalue()


def deliver(report: dict[str, Any], fmt: str, out: str | None) -> None:
    """Print the report, or write it to `out` so that it appears complete or not at all."""
    if out is None and fmt == "table":
        from rich.console import Console

        Console().print(render_table(report))
        return
    text = render(report, fmt)
    if out is None:
        sys.stdout.write(text)
    else:
        write_text_atomic(out, text)
