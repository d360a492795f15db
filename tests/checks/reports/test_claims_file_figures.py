"""A claims file's report draws no figure of the paper: its claims are the user's, even under a registry id."""

from __future__ import annotations

from pathlib import Path

import headflow.checks as checks

#: A user's claim filed under an id the registry draws a figure for (T22.superadditivity), and one it does not know.
CLAIMS = """
[[claim]]
id = "T22.superadditivity"
kind = "constant"
expr = "1/golden"
value = "0.6180339887"
digits = 10

[[claim]]
id = "mine.unknown-to-the-registry"
kind = "constant"
expr = "golden"
value = "1.618033988"
digits = 10
"""


def test_a_claims_file_report_renders_without_the_registrys_figures(tmp_path: Path) -> None:
    report = checks.check(CLAIMS, certificates=tmp_path, progress=False)
    assert report.figures == {}
    text = report.render("markdown")
    assert "early-rate function phi" not in text  # the registry's T22 figure is not the user's claim's
    assert "mine.unknown-to-the-registry" in report.render("html")


def test_the_papers_report_still_has_its_figures(tmp_path: Path) -> None:
    report = checks.verify(only="T22.superadditivity", certificates=tmp_path, progress=False)
    assert list(report.figures) == ["T22.superadditivity"]
