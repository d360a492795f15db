"""`--format markdown` shows a claims file's title and statement as words: never a link, an image, HTML or a block.

The markdown is rendered with markdown-it (CommonMark, raw HTML allowed, as many viewers do) and the
page it gives must hold no element the user's text asked for, while every word of it is still shown.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

from headflow.checks import api
from headflow.checks.reports.document import markdown_code, markdown_text
from markdown_it import MarkdownIt

TITLE = "<script>alert(1)</script> [click](javascript:alert(1)) [site](https://evil.example/x) *loud* `tick`"
STATEMENT = "c_star(2) ![img](https://evil.example/i.png) <img src=x onerror=alert(1)> | cell\n\n# heading\n<b>bold</b>"
CLAIMS = f'''
[[claim]]
id = "hostile"
kind = "constant"
title = {TITLE!r}
statement = """{STATEMENT}"""
expr = "c_star(2)"
value = "0.618034"
digits = 6
'''


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text += data


def _rendered(markdown: str) -> _Elements:
    found = _Elements()
    found.feed(MarkdownIt("commonmark").render(markdown))
    return found


def test_a_hostile_title_and_statement_stay_words(tmp_path: Path) -> None:
    markdown = api.check(CLAIMS, certificates=tmp_path, progress=False).to_markdown(figures=False)
    assert [raw for raw in ("<script", "<img", "<b>") if raw in markdown] == []
    assert re.search(r"(?<!\\)\]\(", markdown) is None  # no unescaped link or image target
    page = _rendered(markdown)
    tags = {tag for tag, _ in page.tags}
    assert not tags & {"script", "img", "a", "b"}, tags
    headings = [tag for tag, _ in page.tags if tag.startswith("h")]
    assert headings == ["h1", "h2"]  # the report's title and the claim's section: the statement made no heading
    shown = " ".join(page.text.split())  # with its asterisks and backticks: *loud* made no emphasis, `tick` no code
    assert " ".join(TITLE.split()) in shown and " ".join(STATEMENT.split()) in shown


def test_escaped_text_round_trips_through_a_renderer() -> None:
    for text in (TITLE, STATEMENT, "a \\ b & c < d", "x_1 * y_2 ~ z $a$ #"):
        page = _rendered(markdown_text(text))
        assert page.tags == [("p", {})] and html.unescape(page.text).strip() == " ".join(text.split())
    code = _rendered(markdown_code("a``b <script>"))
    assert [tag for tag, _ in code.tags] == ["p", "code"] and code.text.strip() == "a``b <script>"
