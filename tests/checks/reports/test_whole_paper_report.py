"""`headflow verify` on the whole paper writes a complete report in every format (the session's one run).

Each format is written the way the command writes it (`headflow.checks.reports.delivery.deliver` with `--out`), then
read back: every claim is in it, and the file is whole (the JSON parses as strict JSON, the page
closes). This is the run of the README's first command that once ended in a traceback for HTML.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from headflow.checks.choices import FORMATS
from headflow.checks.reports import document
from headflow.checks.reports.delivery import deliver
from headflow.checks.reports.report import Report

SUFFIXES = {"table": "txt", "json": "json", "markdown": "md", "html": "html"}
#: Markdown lines that have no continuation: a heading, a table row, a figure.
_WHOLE = re.compile(r"#|\||!\[")
#: A formula: one word of markdown, never broken (a path is another).
_FORMULA = re.compile(r"\$\$.*?\$\$")


def _strict(constant: str) -> None:
    raise ValueError(f"{constant} is not JSON")


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_writes_the_whole_paper(whole_paper: Report, fmt: str, tmp_path: Path) -> None:
    out = tmp_path / f"report.{SUFFIXES[fmt]}"
    deliver(whole_paper, fmt, str(out))
    text = out.read_text(encoding="utf-8")
    ids = [claim.id for claim in whole_paper.claims]
    assert len(ids) >= 50
    if fmt == "json":
        assert [c["id"] for c in json.loads(text, parse_constant=_strict)["claims"]] == ids
    elif fmt == "html":
        assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</body></html>")
        assert re.findall(r"<section id='([^']+)'>", text) == ids
    elif fmt == "markdown":
        assert re.findall(r"^## `([^`]+)`: ", text, re.MULTILINE) == ids
        assert text.count("![") >= 1  # the figures are embedded
        long = [line for line in text.splitlines() if len(line) > 80 and not _WHOLE.match(line.lstrip())]
        assert [line for line in long if len(_FORMULA.sub("$$", line).split()) > 1] == []  # but for one word alone
    else:
        lines = text.splitlines()
        for claim in whole_paper.claims:  # each claim's id, verdict and seconds on one line of the table
            assert any(claim.id in line and claim.verdict.value in line for line in lines), claim.id
    assert list(tmp_path.iterdir()) == [out]  # no temporary file left beside it


def test_the_wrapped_markdown_renders_as_the_unwrapped(whole_paper: Report, monkeypatch: pytest.MonkeyPatch) -> None:
    """Wrapping the markdown at 80 columns changes no rendered word or block: no continuation opens a list, a
    heading or a quote (rendered as CommonMark, as in `test_markdown_escaping.py`)."""
    markdown_it = pytest.importorskip("markdown_it")
    wrapped = whole_paper.to_markdown(figures=False)
    monkeypatch.setattr(document, "markdown_wrapped", lambda text: text)
    unwrapped = whole_paper.to_markdown(figures=False)
    assert wrapped != unwrapped

    def rendered(text: str) -> str:
        return " ".join(markdown_it.MarkdownIt("commonmark").render(text).split())

    assert rendered(wrapped) == rendered(unwrapped)
