"""Headless Chromium for the report and documentation tests: lay a page out, measure it with a probe script, read
its DOM after its scripts ran, keep a screenshot.

Chromium is Debian's `chromium` on PATH (`.ci/run` installs it when apt can) or the binary named
by HEADFLOW_CHROMIUM. A test calls `require_chromium()`, which skips the test with the reason when
there is none, or when it cannot start here; a browser that starts is always used, never bypassed.

The probe runs in a copy of the page (the report itself carries no script) after the layout and
writes what it measured as JSON into the DOM, which `--dump-dom` hands back: per formula, how it
is displayed and the size of its laid-out presentation; every text that looks like LaTeX and is
visible (outside the deliberate `.tex-source` fallbacks; `layout_problems` keeps those that are
LaTeX rather than words); and whether each fallback is visible.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

#: Names Debian and other distributions give the browser.
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
#: Seconds one browser run may take.
TIMEOUT = 120
#: The first screen of the screenshot.
WINDOW = "1280,900"
#: What of a text that looks like LaTeX the probe hands back.
PROBED_CHARS = 160

PROBE = r"""
(function () {
  const TEX = /\\[A-Za-z]+|\$\$|[_^]\{/;
  const visible = (node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    return Array.from(range.getClientRects()).some((r) => r.width > 0 && r.height > 0);
  };
  const out = {formulas: [], raw: [], fallbacks: []};
  for (const m of document.getElementsByTagNameNS("http://www.w3.org/1998/Math/MathML", "math")) {
    const shown = m.querySelector("semantics > :first-child") || m;
    const box = shown.getBoundingClientRect();
    const note = m.querySelector("annotation");
    out.formulas.push({
      display: getComputedStyle(m).display,
      inline: m.getAttribute("display") === "inline",
      width: box.width,
      height: box.height,
      annotation: note ? note.textContent : null,
      annotationVisible: note ? visible(note) : false,
    });
  }
  for (const f of document.querySelectorAll(".tex-source")) out.fallbacks.push(visible(f));
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!TEX.test(node.data) || node.parentElement.closest(".tex-source, annotation")) continue;
    if (visible(node)) out.raw.push(node.data.trim().slice(0, PROBED_CHARS));
  }
  const pre = document.createElement("pre");
  pre.id = "headflow-probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
""".replace("PROBED_CHARS", str(PROBED_CHARS))
#: A LaTeX command or display delimiters: never in the report's words.
_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+|\$\$")
_RESULT = re.compile(r'<pre id="headflow-probe">(.*?)</pre>', re.DOTALL)


def find_chromium() -> str | None:
    """The browser binary: HEADFLOW_CHROMIUM, else the first of CHROMIUM_NAMES on PATH."""
    named = os.environ.get("HEADFLOW_CHROMIUM")
    if named:
        return shutil.which(named)
    return next((found for name in CHROMIUM_NAMES if (found := shutil.which(name))), None)


def require_chromium(scratch: Path) -> str:
    """The browser binary, after checking it starts; otherwise the test is skipped with the reason."""
    chromium = find_chromium()
    if chromium is None:
        pytest.skip(
            "no headless Chromium: install Debian's chromium (apt-get install -y chromium; .ci/run does when apt "
            "is available) or name a binary in HEADFLOW_CHROMIUM"
        )
    page = scratch / "start.html"
    page.write_text("<!DOCTYPE html><title>start</title><p>started</p>", encoding="utf-8")
    run = _run(chromium, scratch, ["--dump-dom", page.as_uri()])
    if run.returncode != 0 or "started" not in run.stdout:
        pytest.skip(f"{chromium} does not start here: {_tail(run.stderr)}")
    return chromium


def measure(chromium: str, page: str, scratch: Path) -> dict[str, Any]:
    """What the probe measured in `page` (HTML text) as laid out by the browser."""
    probed = scratch / "probed.html"
    probed.write_text(page.replace("</body>", f"<script>{PROBE}</script></body>"), encoding="utf-8")
    run = _run(chromium, scratch, ["--dump-dom", probed.as_uri()])
    found = _RESULT.search(run.stdout)
    assert found, f"the probe wrote no result (exit code {run.returncode}): {_tail(run.stderr)}"
    return json.loads(html.unescape(found.group(1)))


def dump_dom(chromium: str, page: Path, scratch: Path) -> str:
    """The DOM of `page` (a file) after its scripts ran, as HTML text."""
    run = _run(chromium, scratch, ["--dump-dom", page.resolve().as_uri()])
    assert run.returncode == 0 and "<body" in run.stdout, f"no DOM (exit code {run.returncode}): {_tail(run.stderr)}"
    return run.stdout


def screenshot(chromium: str, page: Path, png: Path, scratch: Path) -> Path:
    """A PNG of the first screen of `page` (a file), as a reader first sees it."""
    run = _run(chromium, scratch, [f"--window-size={WINDOW}", f"--screenshot={png}", page.resolve().as_uri()])
    assert png.exists() and png.stat().st_size > 0, f"no screenshot written: {_tail(run.stderr)}"
    return png


def layout_problems(measured: dict[str, Any], formulas: int, fallbacks: int, sources: Iterable[str] = ()) -> list[str]:
    """Everything wrong with the measured page: each is a sentence; none means the mathematics is laid out.

    `formulas` counts the derivations' display formulas; the statements' inline formulas are checked the same way
    but not counted. Visible text is raw LaTeX when it has a LaTeX command or `$$`, or when it is one of the
    formulas' `sources`: step texts are words with ASCII mathematics such as `S^{d-1}`, and stay so.
    """
    shown_sources = {source.strip()[:PROBED_CHARS] for source in sources}
    problems = []
    shown = measured["formulas"]
    displayed = [formula for formula in shown if not formula["inline"]]
    if len(displayed) != formulas:
        problems.append(f"{len(displayed)} MathML formulas in the page, expected {formulas}")
    for index, formula in enumerate(shown):
        if formula["display"] not in ("math", "block math"):
            problems.append(f"formula {index} is not laid out as MathML (display: {formula['display']})")
        if not (formula["width"] > 0 and formula["height"] > 0):
            problems.append(f"formula {index} has no size ({formula['width']} x {formula['height']})")
        if not formula["annotation"]:
            problems.append(f"formula {index} lost its LaTeX source annotation")
        if formula["annotationVisible"]:
            problems.append(f"formula {index} shows its annotation as text")
    leaked = [text for text in measured["raw"] if _LATEX_COMMAND.search(text) or text in shown_sources]
    problems += [f"raw LaTeX visible as text: {text!r}" for text in leaked]
    if len(measured["fallbacks"]) != fallbacks:
        problems.append(f"{len(measured['fallbacks'])} LaTeX-source fallbacks, expected {fallbacks}")
    problems += ["a LaTeX-source fallback is not visible" for seen in measured["fallbacks"] if not seen]
    return problems


def _run(chromium: str, scratch: Path, arguments: list[str]) -> subprocess.CompletedProcess[str]:
    profile = scratch / "chromium-profile"
    command = [
        chromium,
        "--headless",
        "--no-sandbox",  # tests run as root in CI, where Chromium's sandbox refuses to start
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--no-first-run",
        f"--user-data-dir={profile}",
        *arguments,
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, check=False)


def _tail(text: str, lines: int = 3) -> str:
    kept = [line for line in text.strip().splitlines() if "dbus" not in line.lower()]
    return " | ".join(kept[-lines:]) or "no message"
