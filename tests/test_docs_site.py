"""The documentation site as a reader's browser shows it: `mkdocs build --strict` passes, and the formulas of its
pages are typeset offline by the bundled KaTeX (headless Chromium, with no network).

Needs the `docs` extra (part of the `test` extra) and Chromium (`tests/browser.py`); without either the test is
skipped with the reason. The built page and a screenshot of its first screen are kept in HEADFLOW_ARTEFACTS (a
folder), or in the test's temporary folder.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser import dump_dom, require_chromium, screenshot

ROOT = Path(__file__).resolve().parents[1]
#: A page whose first screen has formulas, inline and displayed.
PAGE = "tutorial"
#: Pages whose formulas are all checked typeset: the first screen's page and the densest reference pages.
TYPESET_PAGES = (PAGE, "dynamics", "specification")
#: A stylesheet or script the page would fetch from the network.
_REMOTE = re.compile(r"<(?:link|script)\b[^>]*\b(?:href|src)=\"(?:https?:)?//[^\"]+\"")


def _build(site: Path) -> None:
    pytest.importorskip("mkdocs", reason="the docs extra is not installed: pip install -e '.[docs]'")
    environment = os.environ | {"NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=environment, timeout=300, check=False)
    assert run.returncode == 0, f"mkdocs build --strict failed:\n{run.stderr[-3000:]}"


def _assert_typeset(chromium: str, page: Path, scratch: Path) -> None:
    """Every formula arithmatex marked on `page` is laid out by KaTeX, and the page loads nothing remote."""
    built = page.read_text(encoding="utf-8")
    assert not _REMOTE.findall(built), f"{page.parent.name} fetches from the network"
    formulas = built.count('class="arithmatex"')
    assert formulas >= 5, f"only {formulas} formulas marked in {page.parent.name}"
    dom = dump_dom(chromium, page, scratch)
    assert dom.count('class="katex"') == formulas, f"a formula of {page.parent.name} was not typeset"
    assert dom.count('class="katex-display"') == built.count('<div class="arithmatex">')
    assert "katex-error" not in dom
    assert "\\(" not in dom and "\\[" not in dom, f"a formula's delimiters are left as text in {page.parent.name}"


def test_the_site_builds_and_its_formulas_are_typeset_offline(tmp_path: Path) -> None:
    chromium = require_chromium(tmp_path)
    site = tmp_path / "site"
    _build(site)
    for name in TYPESET_PAGES:
        _assert_typeset(chromium, site / name / "index.html", tmp_path)
    page = site / PAGE / "index.html"

    artefacts = Path(os.environ.get("HEADFLOW_ARTEFACTS") or tmp_path)
    artefacts.mkdir(parents=True, exist_ok=True)
    png = screenshot(chromium, page, artefacts / "docs-tutorial-first-screen.png", tmp_path)
    from PIL import Image

    with Image.open(png) as image:
        colours = image.convert("L").getcolors(maxcolors=256)
    assert colours is not None and len(colours) > 16, "the screenshot is blank"
