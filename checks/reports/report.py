"""A decided run as a Python object: claims, verdicts and evidence as attributes, every report format as a method.

`headflow.checks.verify` and `headflow.checks.check` return it, and the command line prints or writes what it
renders, so the terminal, the files and a notebook show one report. In Jupyter it displays as
the HTML report's overview (verdict counts, differences from the summary, the table of claims).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from headflow.certificates.atomic import write_text_atomic
from headflow.certificates.errors import InputError
from headflow.checks.choices import FORMATS
from headflow.checks.reports.document import (
    Subject,
    build_report,
    render_json,
    render_markdown,
    render_markdown_overview,
)
from headflow.checks.runner import ClaimResult
from headflow.checks.verdicts import Verdict

#: The format `Report.save` writes for each file suffix.
_SUFFIX_FORMATS = {".html": "html", ".htm": "html", ".md": "markdown", ".json": "json", ".txt": "table"}


@dataclass(frozen=True)
class DecidedClaim:
    """One claim as decided: its statement, verdict, the method and evidence of each procedure, and the time taken."""

    id: str
    title: str
    statement: str
    verdict: Verdict
    method: str
    evidence: dict[str, Any]
    seconds: float

    @property
    def procedures(self) -> list[dict[str, Any]]:
        """Each procedure's evidence (name, verdict, method, cases, witness, steps, ...)."""
        return self.evidence["procedures"]

    @property
    def certificates(self) -> list[str]:
        """Paths of the certificate files written while deciding this claim."""
        return list(self.evidence.get("certificates", []))


class Report:
    """The claims of one run, decided with `profile` and `seed`; `data` is the JSON report.

    `subject` says whose claims they are, the paper's or a claims file's: it names the block of claims
    that need attention (differences from the paper's summary, or claims refuted or left undecided).
    """

    def __init__(self, results: list[ClaimResult], profile: str, seed: int, subject: Subject = "paper") -> None:
        self.data = build_report(results, profile, seed, subject)
        # Plain data only (the results hold procedures, functions): a Report pickles, e.g. to share one run.
        self._certificates = list(dict.fromkeys(path for r in results for path in r.certificates))
        self._crashed = [r.claim.id for r in results if r.crashed]

    @property
    def claims(self) -> list[DecidedClaim]:
        """The decided claims, in report order."""
        return [
            DecidedClaim(
                c["id"], c["title"], c["statement"], Verdict(c["verdict"]), c["method"], c["evidence"], c["seconds"]
            )
            for c in self.data["claims"]
        ]

    @property
    def verdicts(self) -> dict[str, Verdict]:
        """The verdict of each claim, by id."""
        return {c["id"]: Verdict(c["verdict"]) for c in self.data["claims"]}

    @property
    def evidence(self) -> dict[str, dict[str, Any]]:
        """The evidence of each claim, by id (procedures, certificates, conflicts)."""
        return {c["id"]: c["evidence"] for c in self.data["claims"]}

    @property
    def summary(self) -> dict[str, int]:
        """How many claims got each verdict."""
        return dict(self.data["summary"])

    @property
    def differences(self) -> list[dict[str, str]]:
        """The claims that need attention (id, verdict, finding): for the paper, where what was found is not what
        its summary says; for a claims file, those refuted or left undecided, with the reasons."""
        return list(self.data["differences"])

    @property
    def certificates(self) -> list[str]:
        """Every certificate file the run wrote, once each, in report order."""
        return list(self._certificates)

    @property
    def crashed(self) -> list[str]:
        """Ids of the claims a procedure of which crashed (they are INCONCLUSIVE with the error)."""
        return list(self._crashed)

    def claim(self, claim_id: str) -> DecidedClaim:
        """The decided claim with this id (KeyError when the run did not decide it)."""
        for claim in self.claims:
            if claim.id == claim_id:
                return claim
        raise KeyError(claim_id)

    @cached_property
    def figures(self) -> dict[str, list[dict[str, str]]]:
        """The figures illustrating the decided claims (computed once, on first use). Only the paper's claims have
        figures: a claims file's claim is not the registry's, even under the same id."""
        if self.data.get("subject", "paper") != "paper":
            return {}
        from headflow.checks.reports.figures import (
            figures_for,
        )  # matplotlib and the integrator only when figures are wanted

        return figures_for([c["id"] for c in self.data["claims"]])

    def to_dict(self, figures: bool = False) -> dict[str, Any]:
        """The JSON-ready report; with `figures`, the embedded PNG figures under "figures"."""
        return (self.data | {"figures": self.figures}) if figures else dict(self.data)

    def to_json(self) -> str:
        """The JSON report (no figures)."""
        return render_json(self.data)

    def to_markdown(self, figures: bool = True) -> str:
        """The markdown report, figures embedded as PNG data unless `figures` is False."""
        return render_markdown(self.to_dict(figures))

    def to_html(self, figures: bool = True) -> str:
        """The self-contained HTML page (MathML formulas, figures embedded unless `figures` is False)."""
        from headflow.checks.reports.html import render_html

        return render_html(self.to_dict(figures))

    def to_text(self, width: int | None = None) -> str:
        """The terminal table and the claims that need attention, as plain text `width` columns wide
        (by default `headflow.checks.reports.terminal.PLAIN_WIDTH`, as printed to a file)."""
        from headflow.checks.reports.terminal import PLAIN_WIDTH, print_terminal
        from rich.console import Console

        buffer = io.StringIO()
        print_terminal(self.data, Console(file=buffer, width=width or PLAIN_WIDTH, force_terminal=False))
        return buffer.getvalue()

    def render(self, fmt: str) -> str:
        """The report in one of the formats of `headflow.checks.choices.FORMATS` (table is `to_text`)."""
        renderers = {"json": self.to_json, "markdown": self.to_markdown, "html": self.to_html, "table": self.to_text}
        if fmt not in renderers:
            raise InputError("format", fmt, f"expected one of {', '.join(FORMATS)}")
        return renderers[fmt]()

    def save(self, path: str | Path, fmt: str | None = None) -> Path:
        """Write the report to `path` so that it appears complete or not at all; the format from the suffix by default.

        .html, .md, .json and .txt (the terminal table) are understood; another suffix needs `fmt`.
        """
        chosen = fmt or _SUFFIX_FORMATS.get(Path(path).suffix.lower())
        if chosen is None:
            raise InputError("path", str(path), f"give the format, or a path ending in {', '.join(_SUFFIX_FORMATS)}")
        return write_text_atomic(path, self.render(chosen))

    def _repr_html_(self) -> str:
        from headflow.checks.reports.html import render_notebook

        return render_notebook(self.data)

    def _repr_markdown_(self) -> str:
        return render_markdown_overview(self.data)

    def __repr__(self) -> str:
        counts = ", ".join(f"{count} {verdict}" for verdict, count in self.summary.items() if count)
        return f"<headflow Report: {len(self.data['claims'])} claims ({counts or 'none'})>"
