"""The HTML report in a real browser (headless Chromium): formulas laid out as MathML, no LaTeX left as text.

The page and a screenshot of its first screen are kept as artefacts in HEADFLOW_ARTEFACTS (a
folder), or in the test's temporary folder. Without Chromium the tests are skipped with the reason.
"""

from __future__ import annotations

import html
import os
from pathlib import Path

import pytest

from checks import api, html_report
from checks.registry import Context, Registry, load_all
from checks.report_object import Report
from checks.verdicts import Outcome, Step, Verdict
from tests.browser import layout_problems, measure, require_chromium, screenshot

#: Claims whose derivations carry LaTeX steps and decide in well under a second.
WITH_FORMULAS = "projection.*,T19.golden,T27.entropy-identity"
#: A step whose LaTeX latex2mathml rejects: the page must show it as source, with a note.
UNCONVERTIBLE = r"x^{"


def _unconvertible_claim() -> Registry:
    registry = Registry()
    registry.declare("demo.unconvertible", "a formula that cannot be converted", "the fallback is shown as source")

    @registry.procedure("demo.unconvertible", "steps")
    def _steps(ctx: Context) -> Outcome:
        return Outcome(Verdict.PROVED, "steps", steps=[Step("a step whose LaTeX is malformed", UNCONVERTIBLE)])

    return registry


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Report:
    claims = load_all().select(WITH_FORMULAS) + _unconvertible_claim().claims()
    return api.decide(claims, certificates=tmp_path_factory.mktemp("certs"), progress=False)


@pytest.fixture
def artefacts(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("HEADFLOW_ARTEFACTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _latex_steps(report: Report) -> int:
    return sum(1 for c in report.claims for p in c.procedures for s in p.get("steps", []) if s["latex"])


def test_every_formula_is_laid_out_as_mathml_and_no_latex_is_visible(
    report: Report, artefacts: Path, tmp_path: Path
) -> None:
    chromium = require_chromium(tmp_path)
    page = report.to_html()
    measured = measure(chromium, page, tmp_path)
    formulas = _latex_steps(report) - 1
    assert formulas >= 15
    assert layout_problems(measured, formulas=formulas, fallbacks=1) == []
    assert [f["annotation"] for f in measured["formulas"]].count(UNCONVERTIBLE) == 0
    kept = artefacts / "report.html"
    kept.write_text(page, encoding="utf-8")
    assert screenshot(chromium, kept, artefacts / "report-first-screen.png", tmp_path).stat().st_size > 10_000


def test_a_formula_emitted_as_latex_text_is_caught(
    report: Report, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    chromium = require_chromium(tmp_path)
    monkeypatch.setattr(html_report, "formula_html", lambda latex: f"<pre>{html.escape(latex)}</pre>")
    problems = layout_problems(measure(chromium, report.to_html(figures=False), tmp_path), _latex_steps(report) - 1, 1)
    assert any(p.startswith("raw LaTeX visible as text") for p in problems)
    assert any("MathML formulas in the page" in p for p in problems)


def test_mathml_holding_latex_text_is_caught(report: Report, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A renderer that wraps the LaTeX in <math> without converting it is caught too."""
    chromium = require_chromium(tmp_path)
    monkeypatch.setattr(
        html_report, "formula_html", lambda latex: f"<math display='block'><mtext>{html.escape(latex)}</mtext></math>"
    )
    problems = layout_problems(measure(chromium, report.to_html(figures=False), tmp_path), _latex_steps(report) - 1, 1)
    assert any(p.startswith("raw LaTeX visible as text") for p in problems)
