"""The HTML report is one self-contained file: no script, nothing fetched, formulas as MathML, written whole."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from headflow.checks import api
from headflow.checks.cli import main
from headflow.checks.registry import Context, Registry
from headflow.checks.verdicts import Outcome, Step, Verdict

#: Elements that run code or load another resource.
FORBIDDEN_ELEMENTS = {"script", "link", "iframe", "frame", "object", "embed", "base", "audio", "video", "source"}
#: Attributes that name a resource to load or a place to go.
LINK_ATTRIBUTES = {"src", "href", "srcset", "action", "poster", "data", "xlink:href", "background", "formaction"}


class _References(HTMLParser):
    """Every element name and every (attribute, value) pair of a page, plus its inline CSS."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: set[str] = set()
        self.links: list[tuple[str, str]] = []
        self.css = ""
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.add(tag)
        self._in_style = tag == "style"
        self.links += [(name, value or "") for name, value in attrs if name in LINK_ATTRIBUTES]
        self.css += " ".join(value or "" for name, value in attrs if name == "style")

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.css += data

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False


def _hostile_steps() -> Registry:
    """A claim whose LaTeX asks for a link and for markup: neither may reach the page as such."""
    registry = Registry()
    registry.declare("demo.hostile", "hostile LaTeX", "steps whose LaTeX tries to link or inject")

    @registry.procedure("demo.hostile", "steps")
    def _steps(ctx: Context) -> Outcome:
        steps = [Step("a link", r"\href{https://example.org/x.png}{x}"), Step("markup", r"\text{<img src=x>}")]
        return Outcome(Verdict.PROVED, "steps", steps=steps)

    return registry


def _references(page: str) -> _References:
    found = _References()
    found.feed(page)
    assert found.elements & FORBIDDEN_ELEMENTS == set()
    for name, value in found.links:
        assert value.startswith(("data:image/png;base64,", "#")), (name, value[:80])
    assert "@import" not in found.css and re.search(r"url\(", found.css) is None
    return found


def test_the_page_references_nothing_outside_itself(tmp_path: Path) -> None:
    page = api.verify(only="T22.superadditivity,T19.golden", certificates=tmp_path, progress=False).to_html()
    found = _references(page)
    assert "img" in found.elements and "math" in found.elements  # a figure and a formula are in the page
    text = re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "", page)
    assert re.search(r"https?:|//|file:|ftp:", text, re.IGNORECASE) is None


def test_latex_asking_for_a_link_or_markup_is_shown_as_source(tmp_path: Path) -> None:
    page = api.decide(_hostile_steps().claims(), certificates=tmp_path, progress=False).to_html()
    found = _references(page)
    assert "img" not in found.elements and "math" not in found.elements
    assert "<code>\\href{https://example.org/x.png}{x}</code>" in page
    assert "<code>\\text{&lt;img src=x&gt;}</code>" in page


def test_verify_writes_the_html_page_whole(tmp_path: Path) -> None:
    out, certs = tmp_path / "report.html", tmp_path / "certs"
    assert (
        main(["verify", "--only", "projection.symmetry", "--format=html", f"--out={out}", f"--certificates={certs}"])
        == 0
    )
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert page.count('<math display="block">') >= 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["certs", "report.html"]  # no temporary file left


class _Anchors(HTMLParser):
    """The ids of the page's elements and the in-page links of its table of contents."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.contents_links: list[str] = []
        self._in_contents = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.append(str(found["id"]))
        self._in_contents = self._in_contents or (tag == "nav" and found.get("id") == "contents")
        if self._in_contents and tag == "a":
            self.contents_links.append(str(found["href"]))

    def handle_endtag(self, tag: str) -> None:
        self._in_contents = self._in_contents and tag != "nav"


def _two_verdicts() -> Registry:
    """Three claims: the first and the third undecided, the second proved."""
    registry = Registry()
    for name, verdict in (("a", Verdict.INCONCLUSIVE), ("b", Verdict.PROVED), ("c", Verdict.INCONCLUSIVE)):
        registry.declare(f"demo.{name}", f"claim {name}", "a claim of the table of contents' test")
        steps = [Step("a step", "x = x")]
        registry.procedure(f"demo.{name}", "fixed")(lambda ctx, v=verdict, s=steps: Outcome(v, "steps", steps=s))
    return registry


def test_the_table_of_contents_links_every_claim_once_grouped_by_verdict(tmp_path: Path) -> None:
    result = api.decide(_two_verdicts().claims(), certificates=tmp_path, progress=False)
    page = result.to_html()
    anchors = _Anchors()
    anchors.feed(page)
    sections = [i for i in anchors.ids if i != "contents"]
    assert sorted(sections) == ["demo.a", "demo.b", "demo.c"]
    assert sorted(anchors.contents_links) == [f"#{i}" for i in sorted(sections)]
    assert page.count("href='#contents'") == len(sections)  # every section links back
    nav = page[page.index("<nav id='contents'>") : page.index("</nav>")]
    # the proved claim first (strongest verdict first), then the two undecided ones in report order
    assert nav.index("#demo.b") < nav.index("#demo.a") < nav.index("#demo.c")
    assert nav.index("v PROVED") < nav.index("#demo.b") < nav.index("v INCONCLUSIVE") < nav.index("#demo.a")
