"""Checking a certificate is the kernel's work alone: every certificate that `headflow certify` and the examples'
claims files write is accepted by `check-cert` in a process that never loads SymPy or mpmath (issue 37)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.checking import FreshCheck, check_in_a_fresh_process

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = sorted((ROOT / "examples").glob("*.toml"))


def _check_in_a_fresh_process(paths: list[Path]) -> dict[str, list[str]]:
    """Each file's rejection (`path: message`) and the SymPy/mpmath modules loaded, checked in one fresh process."""
    found = check_in_a_fresh_process(paths)
    return {"failed": found.failures(), "loaded": found.loaded}


def test_the_certified_files_check_without_sympy_or_mpmath(
    certified: dict[str, list[Path]], certified_fresh_check: FreshCheck
) -> None:
    """`certified_fresh_check` is the fresh process's check of exactly these files (shared with the registry
    statements' test)."""
    paths = [path for group in certified.values() for path in group if path.suffix == ".json"]
    assert len(paths) >= 15
    assert certified_fresh_check.paths == [str(path) for path in paths]
    found = {"failed": certified_fresh_check.failures(), "loaded": certified_fresh_check.loaded}
    assert found == {"failed": [], "loaded": []}


@pytest.mark.slow
def test_every_example_certificate_checks_without_sympy_or_mpmath(tmp_path: Path) -> None:
    """`headflow check examples/X.toml --certificates DIR` for every example, then every file written, at once."""
    for example in EXAMPLES:
        folder = tmp_path / example.stem
        command = [sys.executable, "-m", "headflow", "check", str(example), "--certificates", str(folder)]
        subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
    paths = sorted(tmp_path.glob("*/*.json"))
    assert len(paths) >= 60
    assert _check_in_a_fresh_process(paths) == {"failed": [], "loaded": []}


def test_a_forged_certificate_is_refused_in_the_same_process(certified: dict[str, list[Path]], tmp_path: Path) -> None:
    """The checker above can fail: a certificate whose statement's relation is flipped is refused."""
    from headflow.certificates.kernel.format import content_hash

    path = next(p for group in certified.values() for p in group if p.name.startswith("T19.threshold.smt"))
    data = json.loads(path.read_text())
    data["statement"]["statements"][0]["goal"] = ["not", data["statement"]["statements"][0]["goal"]]
    data["sha256"] = content_hash(data)
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data))
    result = _check_in_a_fresh_process([forged])
    assert len(result["failed"]) == 1 and result["loaded"] == []
