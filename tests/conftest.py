"""Test-wide settings and the session's shared runs.

Under CI, property tests draw the same examples on every run: a fuzz test that explores new inputs
on every run is how bugs are found locally; in CI a run must be reproducible, so the `ci` profile
derandomizes hypothesis (set HEADFLOW_FUZZ_RANDOM=1 to explore there too).

The expensive runs are done once per session and shared: `whole_paper` is `headflow verify` on the
whole paper (quick profile, seed 0), which the pinned verdicts, every report format and the browser
test read; `certified` is `headflow certify`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

if TYPE_CHECKING:
    from checks.reports.report import Report

settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI") and not os.environ.get("HEADFLOW_FUZZ_RANDOM"):
    settings.load_profile("ci")


@pytest.fixture(scope="session")
def certified(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    """`headflow certify --certificates DIR` once per session: the written files grouped by claim id."""
    from checks import cli

    out = tmp_path_factory.mktemp("certified")
    assert cli.main(["certify", "--certificates", str(out)]) == 0
    groups: dict[str, list[Path]] = {}
    for path in sorted(out.glob("*.json")):
        groups.setdefault(json.loads(path.read_text())["claim_id"], []).append(path)
    return groups


@pytest.fixture(scope="session")
def whole_paper(tmp_path_factory: pytest.TempPathFactory) -> Report:
    """`headflow verify` on every claim of the paper (quick profile, seed 0) once per session, as the `Report`
    the command prints: the pinned verdicts and every report format are read from this one run."""
    from checks import api

    return api.verify(certificates=tmp_path_factory.mktemp("whole-paper-certs"), progress=False)
