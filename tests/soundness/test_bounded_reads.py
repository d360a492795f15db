"""Every user file is read with a bound: a FIFO, a device or a huge sparse file is refused in one line (exit 2).

The cases that hang or exhaust memory when the bound is missing run in a subprocess with a time limit and
an address-space limit, so a regression fails the test instead of taking the test run down.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from headflow.certificates.kernel.loading import RefusedFile, read_bounded
from headflow.checks.cli import main

ROOT = Path(__file__).resolve().parents[2]
CLAIM = '[[claim]]\nid = "a"\nkind = "identity"\nlhs = "1"\nrhs = "1"\n'


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


def headflow(*argv: str) -> subprocess.CompletedProcess[str]:
    """`python -m headflow argv` with 60 s and 3 GB: a hang or an unbounded read fails instead of stalling."""
    return subprocess.run(
        [sys.executable, "-m", "headflow", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        preexec_fn=_limit_memory,
    )


def assert_one_line_error(run: subprocess.CompletedProcess[str], fragment: str) -> None:
    assert run.returncode == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("headflow: error: ") and fragment in lines[0], run.stderr


def fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def sparse(path: Path, size: int) -> Path:
    with path.open("wb") as handle:
        handle.truncate(size)
    return path


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["check", "/dev/zero"], "not a regular file (a character device)"),
        (["check-cert", "/dev/zero"], "not a regular file (a character device)"),
    ],
)
def test_devices_are_refused_unread(argv: list[str], fragment: str) -> None:
    assert_one_line_error(headflow(*argv), fragment)


def test_check_refuses_a_fifo_without_waiting(tmp_path: Path) -> None:
    assert_one_line_error(headflow("check", str(fifo(tmp_path / "claims.toml"))), "not a regular file (a FIFO)")


def test_check_cert_refuses_a_fifo_in_a_certificate_folder(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text("{}")
    fifo(tmp_path / "x.json")
    assert_one_line_error(headflow("check-cert", str(tmp_path)), "x.json")


def test_a_huge_sparse_claims_file_is_refused_by_its_size(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = sparse(tmp_path / "huge.toml", 4 << 30)
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "larger than 1000000 bytes" in err


def test_a_huge_sparse_certificate_is_rejected_by_its_size(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sparse(tmp_path / "huge.json", 4 << 30)
    assert main(["check-cert", str(tmp_path)]) == 1
    assert "larger than 20000000 bytes" in capsys.readouterr().err


def test_folders_are_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(tmp_path)]) == 2
    assert "not a regular file (a folder)" in capsys.readouterr().err
    (tmp_path / "folder.json").mkdir()
    assert main(["check-cert", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a regular file (a folder)" in err


def test_the_reader_stops_one_byte_past_the_limit(tmp_path: Path) -> None:
    """Exactly `limit` bytes are read; one more is refused; a device is refused before it is opened."""
    path = tmp_path / "claims.toml"
    path.write_text(CLAIM)
    assert read_bounded(path, len(CLAIM)) == CLAIM.encode()
    with pytest.raises(RefusedFile, match=f"larger than {len(CLAIM) - 1} bytes"):
        read_bounded(path, len(CLAIM) - 1)
    with pytest.raises(RefusedFile, match="a character device"):
        read_bounded("/dev/zero", 10)
