"""LaTeX to MathML for the HTML report: converted formulas keep their source; anything else falls back visibly."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest
from headflow.checks.reports.mathml import MAX_LATEX_CHARS, Unconvertible, formula_html, to_mathml
from hypothesis import given
from hypothesis import strategies as st

from tests.soundness.fuzzing import fuzz_settings


def test_a_formula_becomes_mathml_with_its_latex_as_annotation() -> None:
    latex = r"\frac{dE_h}{dt} = \sum_j \langle \dot x_j, f^h_j \rangle < 1"
    root = ElementTree.fromstring(to_mathml(latex))
    assert root.tag == "math" and root.get("display") == "block"
    semantics = root.find("semantics")
    assert semantics is not None and len(semantics) == 2
    presentation, annotation = semantics
    assert presentation.find(".//mfrac") is not None
    assert annotation.tag == "annotation" and annotation.get("encoding") == "application/x-tex"
    assert annotation.text == latex
    assert "xmlns" not in to_mathml(latex) and "http" not in to_mathml(latex)


@pytest.mark.parametrize(
    ("latex", "reason"),
    [
        (r"x^{", "rejected"),
        (r"\frac{a", "needs 2 arguments"),
        (r"\notacommand{x}", "does not know \\notacommand"),
        (r"\href{https://example.org}{x}", "'href'"),
        (r"\text{<b>y</b>}", "element the report does not show"),
        (r"\text{<b>}", "not well-formed"),
        (r"\style{color:red}{x}", "'style'"),
        ("x" * (MAX_LATEX_CHARS + 1), "longer than"),
    ],
)
def test_what_cannot_be_shown_as_mathml_is_refused_with_the_reason(latex: str, reason: str) -> None:
    with pytest.raises(Unconvertible, match=re.escape(reason)):
        to_mathml(latex)


def test_the_fallback_shows_the_escaped_source_in_code_with_a_note() -> None:
    shown = formula_html(r"\href{https://example.org}{<x>}")
    assert shown.startswith("<div class='tex-source'><code>\\href{https://example.org}{&lt;x&gt;}</code>")
    assert "shown as LaTeX source" in shown and "<x>" not in shown


#: Pieces of LaTeX, well-formed or not, that random formulas are made of.
PIECES = [*"\\{}^_&<>'\"x1 ", "\\frac", "\\text", "\\href", "\\sqrt", "<b>"]


@fuzz_settings(200)
@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_any_latex_gives_checked_mathml_or_the_fallback_never_an_exception(latex: str) -> None:
    shown = formula_html(latex)
    if shown.startswith("<math"):
        elements = list(ElementTree.fromstring(shown).iter())  # well-formed
        # no link, script or style as markup (the words may appear as escaped text, e.g. `\text{{\href}`)
        assert not any({"href", "style"} & set(e.attrib) or e.tag in {"script", "a", "style"} for e in elements)
    else:
        assert shown.startswith("<div class='tex-source'><code>")
