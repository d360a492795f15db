"""Test-wide settings: under CI, property tests draw the same examples on every run.

A fuzz test that explores new inputs on every run is how bugs are found locally; in CI a run
must be reproducible, so the `ci` profile derandomizes hypothesis (set HEADFLOW_FUZZ_RANDOM=1 to
explore there too).
"""

import json
import os
from pathlib import Path

import pytest
from hypothesis import settings

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
