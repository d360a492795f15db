"""No child outlives headflow: `check` and `check-cert` killed inside a solver call leave no process behind.

Real processes: each test starts headflow (or a small program using the same spawning code), waits until the
solver child exists (read from /proc), kills the parent with SIGTERM, SIGINT or SIGKILL, and requires every
descendant it had to be gone one second later (a zombie counts as gone: it runs nothing).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.certificates.kernel import busy_solvers

ROOT = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
#: The exit code of a parent ended by each signal: 128 + signal for the ones headflow handles, -9 for SIGKILL.
EXIT = {signal.SIGTERM: 143, signal.SIGINT: 130, signal.SIGKILL: -signal.SIGKILL}


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent pid, start time) of a process, or None when there is none."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1]), int(fields[19])


def _descendants(root: int) -> dict[int, int]:
    """Every live descendant of `root`: pid -> start time (so that a reused pid is not taken for it)."""
    table = {int(p.name): _stat(int(p.name)) for p in Path("/proc").iterdir() if p.name.isdigit()}
    found: dict[int, int] = {}
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        for pid, stat in table.items():
            if stat is not None and stat[1] == parent and stat[0] != "Z" and pid not in found:
                found[pid] = stat[2]
                frontier.append(pid)
    return found


def _alive(pid: int, start: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[2] == start and stat[0] != "Z"


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except (FileNotFoundError, ProcessLookupError):
        return ""


def _wait_for_child(process: subprocess.Popen, word: str, seconds: float = 90.0) -> dict[int, int]:
    """The descendants of `process` once one whose command line holds `word` exists."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = _descendants(process.pid)
        if any(word in _cmdline(pid) for pid in found):
            return found
        assert process.poll() is None, f"ended before its child started: {process.communicate()}"
        time.sleep(0.05)
    raise AssertionError(f"no child running {word!r} within {seconds} s")


def _kill_and_check(process: subprocess.Popen, children: dict[int, int], signum: int) -> None:
    """Send `signum` to the parent; it must exit with the conventional code, and no child survive 1 s later."""
    os.kill(process.pid, signum)
    assert process.wait(timeout=30) == EXIT[signum], process.communicate()
    time.sleep(1.0)
    alive = {pid: _cmdline(pid)[:200] for pid, start in children.items() if _alive(pid, start)}
    assert not alive, f"children alive 1 s after the parent got signal {signum}: {alive}"


@pytest.fixture
def started() -> Iterator[list[tuple[subprocess.Popen, dict[int, int]]]]:
    """The processes a test starts; whatever is left of them at the end is killed (by pid, ours only)."""
    runs: list[tuple[subprocess.Popen, dict[int, int]]] = []
    yield runs
    for process, children in runs:
        if process.poll() is None:
            process.kill()
            process.wait()
        for pid, start in children.items():
            if _alive(pid, start):
                os.kill(pid, signal.SIGKILL)


def _start(args: list[str], started: list, word: str) -> tuple[subprocess.Popen, dict[int, int]]:
    process = subprocess.Popen(
        [sys.executable, *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    started.append((process, {}))
    children = _wait_for_child(process, word)
    started[-1] = (process, children)
    return process, children


#: SIGINT (Ctrl-C) ends the same way as SIGTERM, through KeyboardInterrupt: run with the slow tests.
SIGNALS = [signal.SIGTERM, signal.SIGKILL, pytest.param(signal.SIGINT, marks=pytest.mark.slow)]


@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_check_cert_killed_inside_cvc5_leaves_no_solver(tmp_path: Path, started: list, signum: int) -> None:
    path = busy_solvers.certificate(tmp_path)
    process, children = _start(
        ["-m", "headflow", "check-cert", str(path), "--solver-seconds", "600"], started, "import json, sys, cvc5"
    )
    solver = next(pid for pid in children if "cvc5" in _cmdline(pid))
    assert os.getpgid(solver) == solver != os.getpgid(process.pid)  # a process group of its own
    _kill_and_check(process, children, signum)


@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_check_killed_inside_cvc5_leaves_no_solver(tmp_path: Path, started: list, signum: int) -> None:
    claims = busy_solvers.claims_file(tmp_path)
    out = ["--format", "json", "--out", str(tmp_path / "report.json"), "--certificates", str(tmp_path)]
    process, children = _start(["-m", "headflow", "check", str(claims), *out], started, "import json, sys, cvc5")
    _kill_and_check(process, children, signum)
    assert not (tmp_path / "report.json").exists()


#: A program that waits on a forked SymPy worker (`isolated`) that sleeps; with `poll`, the worker is tied to
#: it by polling only, as where prctl is missing.
ISOLATED = (
    "import functools, time\n"
    "from headflow.certificates import processes\n"
    "from headflow.certificates.claims.symbolic import isolated\n"
    "if {poll}:\n"
    "    processes.tie_to_parent = functools.partial(processes.tie_to_parent, death_signal=False)\n"
    "isolated(lambda: time.sleep(120), 10**9, 'sleeping')\n"
)


@pytest.mark.parametrize("poll", [False, True], ids=["death-signal", "polling"])
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL], ids=lambda s: signal.Signals(s).name)
def test_forked_worker_dies_with_its_parent(started: list, signum: int, poll: bool) -> None:
    process, children = _start(["-c", ISOLATED.format(poll=poll)], started, "import functools")
    (worker,) = children
    assert os.getpgid(worker) == worker
    _kill_and_check(process, children, signum)


def test_a_child_whose_parent_is_already_gone_ends_at_once() -> None:
    """The race the death signal leaves open (the parent dies before the child arms it) is closed by a check."""
    code = "from headflow.certificates.kernel.processes import tie_to_parent\ntie_to_parent(1)\nprint('survived')"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 3 and "survived" not in result.stdout, result


def test_every_child_process_is_started_by_the_one_module() -> None:
    """No module but `certificates/kernel/processes.py` (the kernel's solvers and coqc) and `certificates/processes.py`
    (the forked SymPy workers, tied by the kernel's `tie_to_parent`) starts a process itself (subprocess, os.fork or
    spawn, a multiprocessing Process): so no child escapes the group and the tie. (The sweeps' dask cluster manages
    its own worker processes.)"""
    starts = re.compile(r"\bsubprocess\b|\bos\.(fork|spawn\w*|posix_spawn\w*|exec\w*)\b|\.Process\(|\bPopen\b")
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for package in ("identities", "certificates", "checks")
        for path in sorted((ROOT / package).rglob("*.py"))
        if path not in (ROOT / "certificates" / "kernel" / "processes.py", ROOT / "certificates" / "processes.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if starts.search(line)
    ]
    assert found == []


def _run_folders(temporary: Path) -> list[Path]:
    return sorted(temporary.glob("headflow-run-*"))


def test_a_run_killed_by_sigkill_leaves_its_folders_to_the_next_run_only(tmp_path: Path, started: list) -> None:
    """SIGKILL gives headflow no chance to remove the solver's temporary folder: it is inside the run's own folder,
    which the next run removes (its process is gone: its lock is free); a live run's folder is never touched. The
    runs use a temporary directory of their own (TMPDIR), so that what is left there is theirs."""
    path = busy_solvers.certificate(tmp_path)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = dict(os.environ, TMPDIR=str(temporary))
    runs = []
    for _ in range(2):
        process = subprocess.Popen(
            [sys.executable, "-m", "headflow", "check-cert", str(path), "--solver-seconds", "600"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        started.append((process, {}))
        started[-1] = (process, _wait_for_child(process, "import json, sys"))
        runs.append(process)
    killed, alive = runs
    folders = _run_folders(temporary)
    assert len(folders) == 2 and all(list(folder.glob("headflow-solver-*")) for folder in folders)
    os.kill(killed.pid, signal.SIGKILL)
    killed.wait(timeout=30)
    assert _run_folders(temporary) == folders  # left behind, for now
    # the next run of a command that starts solvers (here one that only fails on its missing file) sweeps first
    missing = str(tmp_path / "missing.json")
    subprocess.run([sys.executable, "-m", "headflow", "check-cert", missing], cwd=ROOT, env=env, capture_output=True)
    left = _run_folders(temporary)
    assert len(left) == 1 and alive.poll() is None  # the live run's, still in use
    alive.terminate()
    alive.wait(timeout=30)
    assert _run_folders(temporary) == []  # ended by SIGTERM: it removed its own
