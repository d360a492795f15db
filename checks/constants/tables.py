"""Tables of certified constants: one record per value, rendered as rich, csv, json, markdown or LaTeX."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from headflow.certificates.constant_specs import PARAMETERS, QUANTITIES
from headflow.checks.constants.certified import Constant
from headflow.checks.constants.exact_numbers import format_number

RESULT_COLUMNS = ("digits", "value", "radius", "correctly_rounded", "precision_bits", "note")


def record(c: Constant) -> dict[str, Any]:
    """The row of one constant: parameters as exact strings ('' when the quantity has none such)."""
    row: dict[str, Any] = {"quantity": c.quantity}
    row.update({p: format_number(c.parameters[p]) if p in c.parameters else "" for p in PARAMETERS})
    row.update(
        digits=c.digits,
        value=c.value,
        radius=c.radius,
        correctly_rounded=c.correctly_rounded,
        precision_bits=c.precision_bits,
        note=c.note or "",
    )
    return row


def columns(rows: Sequence[Constant]) -> list[str]:
    """quantity, the parameters used by some row (in a fixed order), then the result columns."""
    used = {p for c in rows for p in c.parameters}
    return ["quantity", *[p for p in PARAMETERS if p in used], *RESULT_COLUMNS]


def render(rows: Sequence[Constant], fmt: str) -> str:
    """The table as text in `fmt`: table (plain aligned text, `plain_table`), csv, json, markdown or latex."""
    records = [record(c) for c in rows]
    cols = columns(rows)
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=cols, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        writer.writerows(records)
        return buffer.getvalue()
    if fmt == "json":
        from headflow.checks import __version__  # here: importlib.metadata costs every other table its start-up

        document = {"headflow": __version__, "command": "constants", "rows": records}
        return json.dumps(document, indent=2) + "\n"
    if fmt == "markdown":
        lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
        lines += ["| " + " | ".join(_cell(r[k]) for k in cols) + " |" for r in records]
        return "\n".join(lines) + "\n"
    if fmt == "latex":
        return _latex(rows)
    return plain_table(rows)


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value).replace("|", "\\|")


#: The columns of the table format, in the rich and the plain rendering alike.
TABLE_HEADER = ("constant", "value", "radius", "rounded", "note")


def _table_cells(rows: Sequence[Constant]) -> tuple[str, list[tuple[str, ...]], list[str]]:
    """The table format's title, its rows of cells (TABLE_HEADER) and its notes, numbered by their mark `[k]`."""
    digits = sorted({c.digits for c in rows})
    notes = list(dict.fromkeys(c.note for c in rows if c.note))
    cells = []
    for c in rows:
        args = ", ".join(f"{p}={format_number(c.parameters[p])}" for p in QUANTITIES[c.quantity].parameters)
        mark = f"[{notes.index(c.note) + 1}]" if c.note else ""
        cells.append((f"{c.quantity}({args})", c.value, c.radius, _cell(c.correctly_rounded), mark))
    return f"headflow constants ({', '.join(map(str, digits))} certified digits)", cells, notes


def rich_table(rows: Sequence[Constant]) -> Any:
    """A rich Table of the rows: long values fold; notes are numbered and spelled out below."""
    from rich.markup import escape
    from rich.table import Table

    title, cells, notes = _table_cells(rows)
    caption = "\n".join(escape(f"[{k}] {text}") for k, text in enumerate(notes, 1)) or None
    table = Table(title=title, caption=caption, caption_justify="left")
    for name in TABLE_HEADER:
        table.add_column(name, overflow="fold") if name == "value" else table.add_column(name, no_wrap=True)
    for row in cells:
        table.add_row(*map(escape, row))
    return table


def plain_table(rows: Sequence[Constant]) -> str:
    """The table format as plain aligned text, one line per constant (for a pipe or a file: no rich import, no
    folding of long values), then the notes."""
    title, cells, notes = _table_cells(rows)
    widths = [max(len(row[k]) for row in [TABLE_HEADER, *cells]) for k in range(len(TABLE_HEADER))]
    lines = [title] + [
        "  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip() for row in [TABLE_HEADER, *cells]
    ]
    return "\n".join(lines + [f"[{k}] {text}" for k, text in enumerate(notes, 1)]) + "\n"


def _latex_number(text: str) -> str:
    if text == "inf":
        return r"+\infty"
    mantissa, _, exponent = text.partition("e")
    return mantissa + (rf"\times 10^{{{int(exponent)}}}" if exponent else "")


def _latex_text(text: str) -> str:
    """Plain note text made safe for LaTeX (notes hold no backslash, tilde or caret)."""
    for char in "&%$#_{}":
        text = text.replace(char, "\\" + char)
    return text.replace("<=", r"$\le$")


def _latex(rows: Sequence[Constant]) -> str:
    lines = [
        r"\begin{tabular}{llllp{5cm}}",
        r"\hline",
        r"constant & value & radius & correctly rounded & note \\",
        r"\hline",
    ]
    for c in rows:
        args = ", ".join(format_number(c.parameters[p]) for p in QUANTITIES[c.quantity].parameters)
        name = QUANTITIES[c.quantity].latex + (f"({args})" if args else "")
        radius = _latex_number(c.radius)
        lines.append(
            f"${name}$ & ${_latex_number(c.value)}$ & ${radius}$ & {'yes' if c.correctly_rounded else 'no'} & "
            f"{_latex_text(c.note or '')} \\\\"
        )
    lines += [r"\hline", r"\end{tabular}"]
    return "\n".join(lines) + "\n"
