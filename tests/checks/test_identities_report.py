"""The symbolic claims through `verify`: PROVED with steps in JSON, LaTeX in the markdown report."""

from __future__ import annotations

import json

import pytest
from headflow.checks import cli
from headflow.checks.registry import load_all
from headflow.checks.reports.report import Report

OWNED = (
    "projection.*,T11.energy-rate.*,T16.*,T17.shadow-decomposition,C8.radial-dominance*,T27.entropy-identity,"
    "T19.c-star,T19.golden,T19.lambert-w*"
)


def test_verify_json_shows_the_symbolic_verdicts(whole_paper: Report) -> None:
    """The symbolic claims in the JSON report of the session's whole-paper `verify`."""
    owned = {claim.id for claim in load_all().select(OWNED)}
    by_id = {c["id"]: c for c in json.loads(whole_paper.to_json())["claims"] if c["id"] in owned}
    refuted = {"T19.lambert-w.reading-a"}
    for claim_id, claim in by_id.items():
        expected = "REFUTED" if claim_id in refuted else "PROVED"
        assert claim["verdict"] == expected, (claim_id, claim["evidence"])
        if expected == "PROVED":
            symbolic = next(p for p in claim["evidence"]["procedures"] if p["name"] == "symbolic")
            assert symbolic["steps"] and all(step["text"] for step in symbolic["steps"])
    assert {"C8.radial-dominance.reading-b", "T19.lambert-w.reading-b", "T16.flat-orthogonal"} <= set(by_id)


def test_markdown_report_renders_latex_steps(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["verify", "--only", "projection.*,T17.shadow-decomposition", "--format", "markdown"]) == 0
    text = capsys.readouterr().out
    assert "**Verdict: PROVED**" in text
    assert r"$$\langle P^\perp_x u, u\rangle" in text
    assert r"T^h_i - a^h_i \sum_{g\ne h} a^g_i" in text
    # step texts are escaped markdown (the brackets make no link); a projection residual that SymPy's arithmetic
    # cancelled while it was formed says so, rather than "checked exactly"
    # (the report wraps its paragraphs at 80 columns: a line break renders as a space)
    assert r"\[residual = 0 as built by SymPy's arithmetic: nothing left for the exact test\]" in " ".join(text.split())
