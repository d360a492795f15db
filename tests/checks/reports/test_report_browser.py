"""The HTML report in a real browser (headless Chromium): formulas laid out as MathML, no LaTeX left as text.

The page is the whole paper's report, as `headflow verify --format html` writes it (the session's
run, figures included); a small report adds a formula that cannot be converted, whose source must
be shown. The page and a screenshot of its first screen are kept as artefacts in HEADFLOW_ARTEFACTS
(a folder), or in the test's temporary folder. Without Chromium the tests are skipped with the reason.
"""

from __future__ import annotations

import html
import os
from pathlib import Path

import pytest
from headflow.checks import api
from headflow.checks.registry import Context, Registry, load_all
from headflow.checks.reports import html as html_report
from headflow.checks.reports.report import Report
from headflow.checks.verdicts import Outcome, Step, Verdict

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


def _sources(report: Report) -> list[str]:
    """The LaTeX of every derivation step of the report."""
    return [s["latex"] for c in report.claims for p in c.procedures for s in p.get("steps", []) if s["latex"]]


@pytest.mark.slow
def test_every_formula_of_the_whole_paper_is_laid_out_as_mathml_and_no_latex_is_visible(
    whole_paper: Report, artefacts: Path, tmp_path: Path
) -> None:
    chromium = require_chromium(tmp_path)
    page = whole_paper.to_html()
    measured = measure(chromium, page, tmp_path)
    sources = _sources(whole_paper)
    assert len(sources) >= 100
    assert layout_problems(measured, formulas=len(sources), fallbacks=0, sources=sources) == []
    assert sum(formula["inline"] for formula in measured["formulas"]) >= len(whole_paper.claims)  # statements typeset
    kept = artefacts / "report.html"
    kept.write_text(page, encoding="utf-8")
    assert screenshot(chromium, kept, artefacts / "report-first-screen.png", tmp_path).stat().st_size > 10_000


def test_a_formula_that_cannot_be_converted_is_shown_as_its_source(report: Report, tmp_path: Path) -> None:
    chromium = require_chromium(tmp_path)
    measured = measure(chromium, report.to_html(figures=False), tmp_path)
    sources = _sources(report)
    assert len(sources) - 1 >= 15
    assert layout_problems(measured, formulas=len(sources) - 1, fallbacks=1, sources=sources) == []
    assert [f["annotation"] for f in measured["formulas"]].count(UNCONVERTIBLE) == 0


def test_a_formula_emitted_as_latex_text_is_caught(
    report: Report, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    chromium = require_chromium(tmp_path)
    monkeypatch.setattr(html_report, "formula_html", lambda latex: f"<pre>{html.escape(latex)}</pre>")
    measured = measure(chromium, report.to_html(figures=False), tmp_path)
    problems = layout_problems(measured, len(_sources(report)) - 1, 1, _sources(report))
    assert any(p.startswith("raw LaTeX visible as text") for p in problems)
    assert any("MathML formulas in the page" in p for p in problems)


def test_mathml_holding_latex_text_is_caught(report: Report, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A renderer that wraps the LaTeX in <math> without converting it is caught too."""
    chromium = require_chromium(tmp_path)
    monkeypatch.setattr(
        html_report, "formula_html", lambda latex: f"<math display='block'><mtext>{html.escape(latex)}</mtext></math>"
    )
    measured = measure(chromium, report.to_html(figures=False), tmp_path)
    problems = layout_problems(measured, len(_sources(report)) - 1, 1, _sources(report))
    assert any(p.startswith("raw LaTeX visible as text") for p in problems)
