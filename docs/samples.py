"""The sample outputs the README and the tutorial show, rendered from committed runs: none is written by hand.

A page marks each sample with `<!-- sample: NAME -->` before its ```text block. `run_samples` runs each sample's
command in a fresh folder, as a reader would (quick profile, seed 0, certificates to `certs`), and stores the reports
in `docs/data/samples.json`; `sample_pages` renders each block from that data with the code that prints a report at
an 80-column terminal (`checks.reports.terminal`), so a sample follows the command's output as it is today. A sample
with `keep` shows an excerpt: the rows and entries of those claims, each run of the others in a table or a block
folded into one `…` line.

`python docs/generate.py --samples` runs the commands (under a minute) and rewrites the pages; `tests/test_docs.py`
checks that the pages are what the data gives and that the data holds the verdicts of a run today.
"""

from __future__ import annotations

import io
import json
import os
import re
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import headflow.checks as checks
from headflow.checks.reports.terminal import certificates_notice, print_terminal
from rich.console import Console

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
TUTORIAL = ROOT / "docs" / "tutorial.md"
SAMPLES_DATA = ROOT / "docs" / "data" / "samples.json"
#: The width of the printed samples: what a report is laid out at when piped (`headflow.checks.reports.terminal`).
WIDTH = 80
#: Fields of a claim, and of a procedure's evidence, that no printed line shows: left out of the data.
UNSHOWN_CLAIM = ("title", "statement", "method")
UNSHOWN_PROCEDURE = ("method", "steps", "details", "witness")
#: Where certificate files go in the folder a sample runs in (the notice names it as a reader would see it).
CERTIFICATES = "certs"
#: The line that stands for the rows (in the table) or the entries (in a block) an excerpt leaves out.
FOLDED = ("│ …", "  …")
_BLOCK = re.compile(r"(<!-- sample: (?P<name>[\w-]+) -->\n```text\n)(.*?)(```)", re.DOTALL)
#: The first line of a claim's row in the table, or of its entry in a block under it; and their continuations.
_ENTRY = re.compile(r"^(?:│ (?P<row>\S+) |  (?P<entry>[^\s:]+)(?::| \())")
_CONTINUED = re.compile(r"^(?:│ {2,}|      )")


@dataclass(frozen=True)
class Sample:
    """One sample output: the page that shows it, the command as a reader types it, the claims file it reads (None:
    the paper's claims), and the ids of the claims an excerpt keeps (empty: the whole output)."""

    name: str
    page: Path
    command: str
    claims_file: Callable[[], str] | None = None
    keep: tuple[str, ...] = ()


def readme_claims() -> str:
    """The claims file the README shows (its one ```toml block), which its sample runs as `mine.toml`."""
    return README.read_text(encoding="utf-8").split("```toml\n", 1)[1].split("```", 1)[0]


def tutorial_claims() -> str:
    """The tutorial's claims file, `examples/tutorial.toml`."""
    return (ROOT / "examples" / "tutorial.toml").read_text(encoding="utf-8")


SAMPLES = (
    Sample(
        "verify",
        README,
        "headflow verify",
        keep=("T19.threshold", "T19.threshold.exact", "T19.monotonicity-regime", "T22.superadditivity"),
    ),
    Sample("check", README, "headflow check mine.toml", readme_claims),
    Sample("tutorial", TUTORIAL, "headflow check examples/tutorial.toml", tutorial_claims),
)


def run_samples() -> dict[str, Any]:
    """Run every sample's command (quick profile, seed 0) in a fresh folder; its report as the data keeps it."""
    data = {}
    for sample in SAMPLES:
        with _fresh_folder():
            if sample.claims_file is None:
                report = checks.verify(certificates=CERTIFICATES, progress=False)
            else:
                Path("claims.toml").write_text(sample.claims_file(), encoding="utf-8")
                report = checks.check("claims.toml", certificates=CERTIFICATES, progress=False)
        data[sample.name] = _trimmed(report.data)
    return data


def sample_pages(data: dict[str, Any]) -> dict[Path, str]:
    """Each page with a sample, its sample blocks rendered from `data` (the pages' other text as it is)."""
    by_name = {sample.name: sample for sample in SAMPLES}

    def block(found: re.Match[str]) -> str:
        sample = by_name[found["name"]]
        return found[1] + render_sample(sample, data[sample.name]) + found[4]

    return {page: _BLOCK.sub(block, page.read_text(encoding="utf-8")) for page in {s.page: None for s in SAMPLES}}


def render_sample(sample: Sample, report: dict[str, Any]) -> str:
    """The command and what it prints, as at an 80-column terminal (an excerpt when the sample keeps some claims)."""
    printed = io.StringIO()
    print_terminal(report, Console(file=printed, width=WIDTH, force_terminal=False))
    lines = [line.rstrip() for line in printed.getvalue().splitlines()]
    if sample.keep:
        lines = excerpt(lines, sample.keep)
    certificates = [path for claim in report["claims"] for path in claim["evidence"].get("certificates", [])]
    lines += certificates_notice(certificates, WIDTH)
    return "\n".join([f"$ {sample.command}", *lines, ""])


def excerpt(lines: list[str], keep: tuple[str, ...]) -> list[str]:
    """`lines` with the rows and entries of the claims `keep` names; each run of the others becomes one `…` line
    (`│ …` in the table)."""
    kept: list[str] = []
    showing = True
    for line in lines:
        entry = _ENTRY.match(line)
        if entry:
            claim = entry["row"] or entry["entry"]
            showing = claim in keep
            if not showing and not (kept and kept[-1] in FOLDED):
                kept.append(FOLDED[0] if entry["row"] else FOLDED[1])
        elif not _CONTINUED.match(line):
            showing = True
        if showing:
            kept.append(line)
    return kept


def load_data() -> dict[str, Any]:
    """The committed runs of the samples."""
    return json.loads(SAMPLES_DATA.read_text(encoding="utf-8"))


def _trimmed(report: dict[str, Any]) -> dict[str, Any]:
    """The report less what no printed line shows (`UNSHOWN_CLAIM`, `UNSHOWN_PROCEDURE`)."""
    claims = []
    for claim in report["claims"]:
        evidence = claim["evidence"]
        procedures = [_without(p, UNSHOWN_PROCEDURE) for p in evidence["procedures"]]
        claims.append(_without(claim, UNSHOWN_CLAIM) | {"evidence": evidence | {"procedures": procedures}})
    return report | {"claims": claims}


def _without(record: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key not in fields}


@contextmanager
def _fresh_folder() -> Iterator[None]:
    """Run in a new empty folder, as a reader in their own folder would; back to the working folder after."""
    here = Path.cwd()
    with tempfile.TemporaryDirectory(prefix="headflow-sample-") as folder:
        os.chdir(folder)
        try:
            yield
        finally:
            os.chdir(here)
