"""Determinism: the same seed gives the same report (apart from `seconds`) and byte-identical certificates.

Runs are compared in process and across processes with different PYTHONHASHSEED values (hash
randomization changes set and dict iteration orders of strings, a classic source of differences in
SymPy printing and SMT text). Claims with random searches are included on purpose.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from checks.cli import main

#: Claims whose procedures draw random numbers, search witnesses, or write every kind of certificate.
RANDOMIZED = (
    "T11.energy-rate.*,T17.*,T19.threshold*,T22.superadditivity,T27.entropy-identity,T11.hypotheses.no-symmetry"
)
CERTIFYING = "T19.threshold*,T22.superadditivity*,T17.shadow-obstruction"


def _verify(tmp: Path, name: str, seed: int, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    out = tmp / f"{name}.json"
    code = main(["verify", f"--only={RANDOMIZED}", "--format=json", f"--out={out}", f"--seed={seed}",
                 f"--certificates={tmp / name}"])  # fmt: skip
    capsys.readouterr()
    assert code == 0
    return _without_timings(json.loads(out.read_text()), tmp / name)


def _without_timings(report: dict[str, Any], certificates: Path) -> dict[str, Any]:
    """The report with `seconds` removed and the certificate folder replaced by a placeholder."""
    for claim in report["claims"]:
        claim.pop("seconds")
    return json.loads(json.dumps(report).replace(str(certificates), "<certs>"))


def test_the_same_seed_gives_the_same_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = _verify(tmp_path, "a", 11, capsys), _verify(tmp_path, "b", 11, capsys)
    assert first == second
    other = _verify(tmp_path, "c", 12, capsys)
    assert other != first, "the seed has no effect: the randomized procedures ignore it"


def _certify_in_process(out: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, bytes]:
    assert main(["certify", f"--only={CERTIFYING}", f"--certificates={out}", "--seed=3"]) == 0
    capsys.readouterr()
    return {path.name: path.read_bytes() for path in sorted(out.iterdir())}


def _certify_in_subprocess(out: Path, hash_seed: str) -> dict[str, bytes]:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    command = [sys.executable, "-m", "checks", "certify", f"--only={CERTIFYING}", f"--certificates={out}", "--seed=3"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env, check=False)
    assert result.returncode == 0, result.stderr
    return {path.name: path.read_bytes() for path in sorted(out.iterdir())}


def test_certificates_are_byte_identical_across_runs_and_processes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """This process (random hash seed, warm caches) against a fresh one with PYTHONHASHSEED=0."""
    first = _certify_in_process(tmp_path / "one", capsys)
    second = _certify_in_subprocess(tmp_path / "two", "0")
    assert len(first) >= 5
    assert first.keys() == second.keys()
    differing = [name for name in first if first[name] != second[name]]
    assert not differing, f"certificates differ between runs: {differing}"
    assert any(name.endswith(".v") for name in first), "certify writes the Coq files next to the certificates"
    for name, data in first.items():
        if not name.endswith(".json"):
            continue  # the Coq files, compared byte for byte above
        certificate = json.loads(data)
        assert not {"time", "date", "timestamp", "created"} & set(certificate), "a certificate carries a timestamp"


def test_report_figures_are_byte_identical() -> None:
    """The html and markdown reports embed PNG figures: they must not carry a timestamp either."""
    from checks.reports.figures import figures_for

    ids = ["T19.threshold", "T22.early-rate"]
    assert figures_for(ids) == figures_for(ids)
