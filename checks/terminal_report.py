"""The report at the terminal: the rich table of claims, then the differences from the summary, one line each.

The differences are the same list, with the same heading, as the HTML and markdown reports
(`report["differences"]`, built by `checks.report.summary_differences`). Text from the evidence is
never read as rich markup: a witness such as `lambdas=['11/100']` is shown as written.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from checks.report import DIFFERENCES_HEADING, NO_DIFFERENCES

VERDICT_STYLES = {
    "PROVED": "bold green",
    "CERTIFIED": "green",
    "CONFIRMED": "cyan",
    "REFUTED": "bold red",
    "INCONCLUSIVE": "yellow",
}


def print_terminal(report: dict[str, Any], console: Console) -> None:
    """The table of claims and verdicts, then the differences from the summary, each on one line (not wrapped)."""
    console.print(render_table(report))
    console.print()
    for line in findings_lines(report.get("differences", [])):
        console.print(line, soft_wrap=True)


def render_table(report: dict[str, Any]) -> Table:
    """A rich Table of claims, verdicts, procedures and evidence."""
    table = Table(title=f"headflow {report['headflow']} — profile {report['profile']}, seed {report['seed']}")
    table.add_column("claim", style="bold", no_wrap=True)
    table.add_column("verdict", no_wrap=True)
    table.add_column("procedures", overflow="fold")
    table.add_column("evidence", ratio=1, overflow="fold")
    table.add_column("s", justify="right", no_wrap=True)
    for c in report["claims"]:
        table.add_row(
            Text(c["id"]),
            Text(c["verdict"], style=VERDICT_STYLES[c["verdict"]]),
            Text(", ".join(f"{p['name']}: {p['verdict'].lower()}" for p in c["evidence"]["procedures"])),
            Text(_evidence_line(c["evidence"])),
            f"{c['seconds']:.2f}",
        )
    return table


def findings_lines(differences: list[dict[str, str]]) -> list[Text]:
    """The heading and one line per claim whose finding differs from the summary (or the 'none' sentence)."""
    if not differences:
        return [Text(NO_DIFFERENCES)]
    lines = [Text(f"{DIFFERENCES_HEADING}:", style="bold")]
    for d in differences:
        line = Text("  ")
        line.append(d["id"], style="bold")
        line.append(" (")
        line.append(d["verdict"], style=VERDICT_STYLES.get(d["verdict"], ""))
        line.append(f"): {d['finding']}")
        lines.append(line)
    return lines


def certificates_notice(paths: list[str]) -> str:
    """One line: how many certificate files the run wrote, where, and the command that re-checks them ('' if none)."""
    files = sorted(set(paths))
    if not files:
        return ""
    folders = sorted({str(Path(path).parent) for path in files})
    where = ", ".join(folders)
    command = "headflow check-cert " + " ".join(shlex.quote(folder) for folder in folders)
    noun = "certificate" if len(files) == 1 else "certificates"
    return f"{len(files)} {noun} written to {where}; re-check them with: {command}"


def _evidence_line(evidence: dict[str, Any]) -> str:
    parts = []
    for proc in evidence["procedures"]:
        bits = []
        if "cases" in proc:
            bits.append(f"{proc['cases']} cases")
        if "worst_margin" in proc:
            bits.append(f"worst {proc['worst_margin']:.3g}")
        if "certificates" in proc:
            bits.append(f"{len(proc['certificates'])} cert")
        if "notes" in proc:
            bits.append(proc["notes"][:80])
        parts.append(", ".join(bits))
    if "conflict" in evidence:
        parts.append(f"CONFLICT: {evidence['conflict']}")
    return "; ".join(p for p in parts if p)
