"""The report at the terminal: the table of claims, then the claims that need attention, one line each.

The table always shows each claim's id, verdict and seconds on one line. Its procedures and evidence
columns are shown only when each can be at least `MIN_DETAIL_WIDTH` wide; otherwise they are folded
into a block under the table, one entry per claim wrapped at words, so that no cell breaks into fragments of a few
characters. Output that is not a terminal (a file, a pipe) is laid out `PLAIN_WIDTH` (80) columns wide, unless
$COLUMNS or `--width` says otherwise (`console_for`); the findings are wrapped at words to the same width
(`headflow.checks.reports.wrapping.wrapped`), a word longer than a line (a path, a long number) left whole.

The block of claims that need attention is the same list, with the same heading, as the HTML and
markdown reports (`report["differences"]`, worded by `headflow.checks.reports.document.attention_words`). Text from
the evidence is never read as rich markup: a witness such as `lambdas=['11/100']` is shown as written.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import IO, Any

from headflow.checks.reports.document import attention_words, checkers_text
from headflow.checks.reports.values import visible
from headflow.checks.reports.wrapping import PLAIN_WIDTH, wrapped
from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

VERDICT_STYLES = {
    "PROVED": "bold green",
    "CERTIFIED": "green",
    "CONFIRMED": "cyan",
    "REFUTED": "bold red",
    "INCONCLUSIVE": "yellow",
}
#: The narrowest the procedures and evidence columns may be; below it they go under the table.
MIN_DETAIL_WIDTH = 24
#: How much of a procedure's notes the evidence shows (cut at a word, with an ellipsis).
NOTES_WIDTH = 80
#: The heading of the block that holds the procedures and evidence when the table has no room for them.
DETAILS_HEADING = "Procedures and evidence"


def console_for(file: IO[str] | None = None, width: int | None = None) -> Console:
    """A console for `file` (stdout by default), `width` columns wide if given, else a terminal's own width, else
    `PLAIN_WIDTH` (or $COLUMNS)."""
    console = Console(file=file)
    if width is not None:
        console.width = width
    elif not console.is_terminal and not os.environ.get("COLUMNS"):
        console.width = PLAIN_WIDTH
    return console


def print_terminal(report: dict[str, Any], console: Console) -> None:
    """The table of claims, the procedures and evidence when the table has no room for them, then the
    claims that need attention, each wrapped to the console's width. Control characters of the claims' texts are
    written as escapes (`headflow.checks.reports.values.visible`): a title cannot drive the terminal."""
    report = visible(report)
    with_details = _details_fit(report, console.width)
    console.print(render_table(report, with_details, bordered=with_details or _fits_bordered(report, console.width)))
    console.print()
    if not with_details:
        console.print(Text(f"{DETAILS_HEADING}:", style="bold"))
        for c in report["claims"]:
            for line in _details_lines(c, console.width):
                console.print(line, soft_wrap=True)
        console.print()
    for line in findings_lines(report, console.width):
        console.print(line, soft_wrap=True)


def render_table(report: dict[str, Any], with_details: bool = True, bordered: bool = True) -> Table:
    """A rich Table of claims, verdicts and seconds, with the procedures and evidence when `with_details`;
    without borders when `bordered` is false (the narrowest layout)."""
    table = Table(
        title=f"headflow {report['headflow']} — profile {report['profile']}, seed {report['seed']}",
        box=box.HEAVY_HEAD if bordered else None,
        pad_edge=bordered,
    )
    table.add_column("claim", style="bold", no_wrap=with_details, overflow="fold")
    table.add_column("verdict", no_wrap=True)
    if with_details:
        table.add_column("procedures", overflow="fold")
        table.add_column("evidence", overflow="fold")
    table.add_column("s", justify="right", no_wrap=True)
    for c in report["claims"]:
        verdict = Text(c["verdict"], style=VERDICT_STYLES[c["verdict"]])
        details = [Text(_procedures_line(c)), Text(_evidence_line(c["evidence"]))] if with_details else []
        table.add_row(Text(c["id"]), verdict, *details, f"{c['seconds']:.2f}")
    return table


def findings_lines(report: dict[str, Any], width: int) -> list[Text]:
    """The heading and each claim that needs attention, wrapped to `width` (or the sentence saying there is none)."""
    heading, none = attention_words(report)
    if not report.get("differences"):
        return [Text(line) for line in wrapped(none, width, then="")]
    lines = [Text(line, style="bold") for line in wrapped(f"{heading}:", width, then="")]
    for d in report["differences"]:
        head = f"  {d['id']} ({d['verdict']})"
        finding = [Text(line) for line in wrapped(f"{head}: {d['finding']}", width)]
        finding[0].stylize("bold", 2, 2 + len(d["id"]))
        if finding[0].plain.startswith(head):
            finding[0].stylize(VERDICT_STYLES.get(d["verdict"], ""), len(head) - len(d["verdict"]) - 1, len(head) - 1)
        lines.extend(finding)
    return lines


def certificates_notice(paths: list[str], width: int = PLAIN_WIDTH) -> list[str]:
    """How many certificate files the run wrote and where (wrapped to `width`), then the command that re-checks them
    on a line of its own, never wrapped, so that it can be copied ([] if none)."""
    files = sorted(set(paths))
    if not files:
        return []
    folders = sorted({str(Path(path).parent) for path in files})
    command = "headflow check-cert " + " ".join(shlex.quote(folder) for folder in folders)
    noun = "certificate" if len(files) == 1 else "certificates"
    sentence = f"{len(files)} {noun} written to {', '.join(folders)}; re-check them with:"
    return [*wrapped(sentence, width), f"  {command}"]


def _fixed_widths(report: dict[str, Any]) -> int:
    """The widths of the claim, verdict and seconds columns: their longest cell or heading."""
    claims = report["claims"]
    return (
        max([cell_len("claim"), *(cell_len(c["id"]) for c in claims)])
        + max([len("verdict"), *(len(c["verdict"]) for c in claims)])
        + max([len("s"), *(len(f"{c['seconds']:.2f}") for c in claims)])
    )


def _details_fit(report: dict[str, Any], width: int) -> bool:
    """Whether five bordered columns fit in `width` with procedures and evidence `MIN_DETAIL_WIDTH` wide each."""
    return _fixed_widths(report) + 2 * MIN_DETAIL_WIDTH + _border_width(5) <= width


def _fits_bordered(report: dict[str, Any], width: int) -> bool:
    return _fixed_widths(report) + _border_width(3) <= width


def _border_width(columns: int) -> int:
    """What a bordered table adds to its cells: a rule either side of each column and one space of padding."""
    return columns + 1 + 2 * columns


def _details_lines(claim: dict[str, Any], width: int) -> list[Text]:
    """The claim's id, procedures and evidence wrapped at words to `width`, continued under a deeper indent."""
    details = "; ".join(part for part in (_procedures_line(claim), _evidence_line(claim["evidence"])) if part)
    lines = [Text(line) for line in wrapped(f"{claim['id']}: {details}", width, first="  ", whole=False)]
    lines[0].stylize("bold", 2, 2 + len(claim["id"]))
    return lines


def _procedures_line(claim: dict[str, Any]) -> str:
    return ", ".join(f"{p['name']}: {p['verdict'].lower()}" for p in claim["evidence"]["procedures"])


def _evidence_line(evidence: dict[str, Any]) -> str:
    checkers = checkers_text(evidence)
    parts = [] if checkers is None else [f"re-checked by: {checkers}"]
    for proc in evidence["procedures"]:
        bits = []
        if "cases" in proc:
            bits.append(f"{proc['cases']} cases")
        if "worst_margin" in proc:
            bound = f" (float error <= {_number(proc['error_bound'])})" if "error_bound" in proc else ""
            bits.append(f"worst {_number(proc['worst_margin'])}{bound}")
        if "certificates" in proc:
            bits.append(f"{len(proc['certificates'])} cert")
        if "notes" in proc:
            bits.append(_shortened(proc["notes"], NOTES_WIDTH))
        parts.append(", ".join(bits))
    if "conflict" in evidence:
        parts.append(f"CONFLICT: {evidence['conflict']}")
    return "; ".join(p for p in parts if p)


def _number(value: Any) -> str:
    """A float to three significant digits; anything else (an exact number's text, "inf") as written."""
    return f"{value:.3g}" if isinstance(value, int | float) else str(value)


def _shortened(text: str, width: int) -> str:
    """`text` if it has at most `width` characters, else its words that fit and an ellipsis."""
    if len(text) <= width:
        return text
    cut = text[: width - 1].rsplit(" ", 1)[0] if " " in text[: width - 1] else text[: width - 1]
    return cut.rstrip(" ,;:") + "…"
