"""The progress display of `headflow check` / `verify`: which claim runs (k of N) and, within a long claim, its
counted budget; nothing at all on a pipe, and the report the same with or without it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from headflow.checks import api
from headflow.checks.progress import ClaimsProgress, claims_progress
from headflow.checks.registry import Context

from tests.command import headflow

#: One fast dynamics claim decided over random starts (3 starts) and one refuted at its exact start.
CLAIMS = """
[[claim]]
id = "few.starts"
kind = "dynamics"
quantity = "least_inner_product"
property = "at-least"
bound = "-1"
heads = "scalar"
lambdas = [1.0]
tokens = "random-sphere"
samples = 3
time = 0.5
n = 3
d = 2
beta = 1.0

[[claim]]
id = "start.wrong"
kind = "dynamics"
quantity = "least_inner_product"
property = "non-negative"
heads = "scalar"
lambdas = [1.0]
tokens = "given"
points = [[1, 0], [-1, 0], [0, 1]]
n = 3
d = 2
beta = 1.0
"""


class _Recorder:
    """A stand-in for rich's Progress that records what the bar would show."""

    def __init__(self) -> None:
        self.shown: list[dict[str, Any]] = []

    def add_task(self, description: str, total: int, label: str) -> int:
        return 0

    def update(self, task: int, **fields: Any) -> None:
        self.shown.append(fields)


def test_the_bar_names_the_claim_k_of_n_and_its_counted_budget() -> None:
    recorder = _Recorder()
    bar = ClaimsProgress(recorder, total=2)
    bar.begin("first")
    bar.budget("starts", 3, 29)
    bar.done()
    bar.begin("second")
    bar.budget("points", 1, 8)
    bar.budget("starts", 0, 29)
    descriptions = [f["description"] for f in recorder.shown if "description" in f]
    assert descriptions[0] == "claim 1 of 2: first"
    assert descriptions[-1] == "claim 2 of 2: second"
    assert recorder.shown[1]["label"] == "starts 3/29"
    assert recorder.shown[-1]["label"] == "points 1/8, starts 0/29"  # the sweep's points, then the point's starts
    assert {"advance": 1} in recorder.shown


def test_a_procedure_reports_its_budget_through_the_context() -> None:
    seen: list[tuple[str, int, int]] = []
    Context(progress=lambda unit, done, total: seen.append((unit, done, total))).report("starts", 2, 29)
    Context().report("starts", 2, 29)  # no display: nothing happens
    assert seen == [("starts", 2, 29)]


def test_a_pipe_gets_no_progress_and_the_same_report(tmp_path: Path) -> None:
    claims = tmp_path / "claims.toml"
    claims.write_text(CLAIMS)
    with claims_progress("checking", 2) as bar:  # stderr is not a terminal under pytest: a silent bar
        assert bar._progress is None
    out = tmp_path / "report.json"
    run = headflow("check", str(claims), "--format", "json", "--out", str(out), "--certificates", str(tmp_path))
    assert run.returncode == 1  # start.wrong is REFUTED
    assert "claim 1 of 2" not in run.stderr and "starts" not in run.stderr and "\r" not in run.stderr
    piped = json.loads(out.read_text())["claims"]
    quiet = api.check(claims, progress=False, certificates=tmp_path).to_dict()["claims"]
    strip = ("seconds",)
    assert [{k: v for k, v in c.items() if k not in strip} for c in piped] == [
        {k: v for k, v in c.items() if k not in strip} for c in quiet
    ]
    assert [c["verdict"] for c in piped] == ["CONFIRMED", "REFUTED"]
