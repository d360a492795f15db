"""Statements in the HTML report: their formulas typeset as MathML, their words left as words, nothing injected."""

from __future__ import annotations

import re
from xml.etree import ElementTree

from headflow.checks.reports.mathml import ELEMENTS
from headflow.checks.reports.statement_math import MAX_STATEMENT_CHARS, statement_html
from hypothesis import given, settings
from hypothesis import strategies as st

MATH = re.compile(r"<math\b.*?</math>", re.DOTALL)


def _formulas(page: str) -> list[ElementTree.Element]:
    return [ElementTree.fromstring(found) for found in MATH.findall(page)]


def _annotations(page: str) -> list[str]:
    return [next(f.iter("annotation")).text or "" for f in _formulas(page)]


def _prose(page: str) -> str:
    return MATH.sub(" ", page)


def test_a_relation_is_typeset_and_the_words_around_it_stay_words() -> None:
    page = statement_html("for every head h: dE_h/dt >= 0 along every trajectory")
    assert "along every trajectory" in _prose(page) and "for every head" in _prose(page)
    operators = [mo.text for f in _formulas(page) for mo in f.iter("mo")]
    assert "≥" in operators, page
    assert not re.search(r">=|dE_h", _prose(page))


def test_sub_and_superscripts_nest_as_written() -> None:
    (formula,) = _formulas(statement_html("sum_{h' != h} a^h_i a^h'_i <= T^h_i"))
    scripts = list(formula.iter("msubsup")) + list(formula.iter("msup")) + list(formula.iter("msub"))
    assert len(scripts) >= 4  # the sum's range, a^h_i, a^h'_i, T^h_i
    assert "≠" in [mo.text for mo in formula.iter("mo")]


def test_an_inner_product_is_not_read_as_two_comparisons() -> None:
    formula, _ = _formulas(statement_html("unit tokens with <x_i, x_j> = -1/(n-1) for i != j"))
    symbols = [element.text for element in formula.iter() if element.tag in ("mi", "mo")]
    assert "⟨" in symbols and "⟩" in symbols and "<" not in symbols


def test_greek_names_become_letters_and_claim_ids_stay_text() -> None:
    page = statement_html("Under the hypotheses of T17.shadow-decomposition, beta > 0 and lambda_bar > lambda_c")
    letters = "".join(mi.text or "" for f in _formulas(page) for mi in f.iter("mi"))
    assert "β" in letters and "λ" in letters
    assert "T17.shadow-decomposition" in _prose(page)
    assert [mo.text for f in _formulas(page) for mo in f.iter("mo") if mo.text == "¯"] or "bar" not in letters


def test_the_ascii_source_of_each_formula_stays_in_its_annotation() -> None:
    page = statement_html("c*(2) = 1/phi with phi = (1 + sqrt 5)/2.")
    sources = _annotations(page)
    assert any("\\phi" in s for s in sources) and any("\\sqrt{5}" in s for s in sources), sources


def test_hostile_statements_are_escaped_never_markup() -> None:
    page = statement_html("<script>alert(1)</script> x_i <img src=x onerror=y> beta > 0 </math><b>")
    assert "<script" not in page and "<img" not in page and "<b>" not in page
    ElementTree.fromstring(f"<p>{page}</p>")  # the page's own markup only, well formed
    assert "script" in page and "alert" in page  # the words are kept, as text or as letters


def test_brackets_that_do_not_close_leave_the_text_readable() -> None:
    text = "sum_{h' != h a^h_i ((( beta > 0 ] and x_i"
    page = statement_html(text)
    visible = re.sub(r"<[^>]+>", "", _prose(page))
    assert "and" in visible and _formulas(page)  # nothing lost, something typeset


def test_a_huge_statement_is_shown_as_text() -> None:
    text = "beta > 0 " * (MAX_STATEMENT_CHARS // 9 + 1)
    assert statement_html(text) == text.replace(">", "&gt;")


_PIECES = st.sampled_from([*"ab_^{}()[]<>=!|,/*-+ '~.xyzhi0123", "beta", "sqrt", " in ", "<=", "!="])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join))
def test_any_text_gives_well_formed_html(text: str) -> None:
    page = statement_html(text)
    ElementTree.fromstring(f"<p>{page}</p>")  # escaped text and well-formed MathML only
    tags = set(re.findall(r"<(\w+)", page))
    assert tags <= {"math", "semantics", "annotation", *ELEMENTS}


def test_an_escaped_control_character_stays_text() -> None:
    """The report writes a control character as its escape (`\\x1b`): it is shown as written, never read as x_1 b."""
    page = statement_html("x = x\\x1b]0;title\\x07 \\x9b31m \\u202e y >= 0")
    prose = _prose(page)
    assert "\\x1b" in prose and "\\x9b" in prose and "\\u202e" in prose
    assert not any("x1b" in a or "x9b" in a for a in _annotations(page))
    assert "y \\geq 0" in _annotations(page)
