"""Control characters of a claims file's title and statement never reach a terminal or a page as they are.

An ESC sequence in a title could clear the screen, recolour the report or rewrite a verdict on the terminal; a
bidirectional control could show a line in another order than it is read. The table (the command line's and
`to_text`), markdown and HTML write each as its escape ("\\x1b"); JSON keeps the text exactly (JSON escapes it).
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from headflow.checks import api
from headflow.checks.reports.report import Report

#: A verdict forged by cursor movement, a cleared screen, a colour, a carriage return and a right-to-left override.
TITLE = "ok\u001b[1A\u001b[2K\u001b[32mPROVED\u001b[0m\r\u202edesrever"
STATEMENT = "x = x\u001b]0;title\u0007 \u009b31m"
CONTROLS = ("\x1b", "\r", "\u202e", "\x07", "\x9b")
CLAIMS = f"""
[[claim]]
id = "hostile"
kind = "identity"
title = {json.dumps(TITLE)}
statement = {json.dumps(STATEMENT)}
lhs = "x"
rhs = "x"
symbols = {{ x = "real" }}
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Report:
    return api.check(CLAIMS, certificates=tmp_path_factory.mktemp("certs"), progress=False)


@pytest.mark.parametrize("fmt", ["table", "markdown", "html"])
def test_every_printed_format_writes_control_characters_as_escapes(report: Report, fmt: str) -> None:
    text = report.render(fmt)
    assert [c for c in CONTROLS if c in text] == []
    if fmt != "table":  # the table shows ids, not titles
        assert "x1b" in text and "u202e" in text and "x9b" in text  # shown, as escapes


def test_the_table_writes_evidence_text_as_escapes(report: Report) -> None:
    """The table shows ids and evidence, not titles: a note or finding that quotes user text is escaped too."""
    hostile = copy.deepcopy(report)
    hostile.data["claims"][0]["evidence"]["procedures"][0]["notes"] = TITLE
    hostile.data["differences"] = [{"id": "hostile", "verdict": "REFUTED", "finding": STATEMENT}]
    for width in (300, 60):  # the evidence in the table, and below it
        text = hostile.to_text(width)
        assert [c for c in CONTROLS if c in text] == [] and "x1b" in text


def test_json_keeps_the_text_exactly(report: Report) -> None:
    text = report.render("json")
    assert [c for c in CONTROLS if c in text] == []  # JSON escapes them itself
    claim = json.loads(text)["claims"][0]
    assert (claim["title"], claim["statement"]) == (TITLE, STATEMENT)


def test_the_command_line_table_writes_them_as_escapes(tmp_path: Path) -> None:
    path = tmp_path / "hostile.toml"
    path.write_text(CLAIMS)
    command = [sys.executable, "-m", "headflow", "check", str(path), "--certificates", str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, env={"COLUMNS": "300", "PATH": ""})
    assert done.returncode == 0, done.stderr
    assert [c for c in CONTROLS if c in done.stdout + done.stderr] == []
