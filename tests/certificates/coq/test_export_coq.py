"""`headflow export coq DIR`: every written file compiles in coqc; a file whose statement is changed does not.

Skipped, with the reason printed, when coqc is not installed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from headflow.certificates.coq import general
from headflow.certificates.kernel.coq import run

from tests.coq_tier import module_needs_coqc

pytestmark = module_needs_coqc("Coq export tests")


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("coq-export")
    result = subprocess.run(
        [sys.executable, "-m", "headflow", "export", "coq", str(folder)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert "C8.radial-dominance: inner_product.v" in result.stdout
    return folder


@pytest.mark.parametrize("name", sorted(general.files()))
def test_coqc_accepts_every_exported_file(exported: Path, name: str) -> None:
    answer = run.compile_source((exported / name).read_text(), name=name)
    assert answer.status == "accepted", answer.message


@pytest.mark.parametrize(
    ("name", "true", "false"),
    [
        ("inner_product.v", "inner (proj x u) x = 0.", "inner (proj x u) x = 1."),
        ("inner_product.v", "inner (proj x f) (proj x f) - inner f x * shadows gs", "inner (proj x f) (proj x f)"),
        ("threshold.v", "(c < 1 /\\", "(c < 1/2 /\\"),
    ],
)
def test_a_changed_statement_is_rejected(exported: Path, name: str, true: str, false: str) -> None:
    text = (exported / name).read_text()
    assert true in text
    answer = run.compile_source(text.replace(true, false, 1), name=name)
    assert answer.status == "rejected"


def test_export_refuses_a_file_as_folder(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("")
    result = subprocess.run(
        [sys.executable, "-m", "headflow", "export", "coq", str(target)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2 and "not a folder" in result.stderr and "Traceback" not in result.stderr
