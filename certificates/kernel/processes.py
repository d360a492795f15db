"""Child processes that never outlive headflow: z3, cvc5 and coqc (`run_program`).

Every child runs in a process group of its own and is tied to the process that started it:
- on Linux the kernel sends it SIGKILL when its parent dies, however the parent dies, SIGKILL included
  (`prctl(PR_SET_PDEATHSIG)`, armed by `tie_to_parent` between fork and exec, kept across exec; the child then
  checks that its parent is still the process that started it, because the parent may have died before the signal
  was armed);
- while a child lives, SIGTERM and SIGINT in the parent first kill every live child's group, then end the
  parent as the signal would have: SIGTERM by SystemExit(143) (so `finally` blocks still run), SIGINT by the
  handler that was there before (Python's raises KeyboardInterrupt; the CLI exits 130 on it). The handlers are
  installed only while a child runs: the parent is then waiting on the child, so a handler runs at once. While
  no child runs (the parent inside z3 or SymPy in-process, where a Python handler would wait for the C call to
  return), the default actions apply and SIGTERM ends the process at once.

The kernel sends the death signal when the *thread* that started the child ends; each child here is started and
waited for by one call of one thread, which therefore outlives it. The forked SymPy workers (`certificates/
processes.py`, outside the kernel) are `child`ren too, tied by `tie_to_parent` and, where prctl is missing, by a
thread of their own that polls their parent.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from functools import partial
from typing import Any

_SIGNALS = (signal.SIGTERM, signal.SIGINT)
#: The live children (each leads its own process group, so a pid is also its group id).
LIVE: set[int] = set()
#: The handlers ours replaced (what a signal does after the children are killed).
_PREVIOUS: dict[int, Any] = {}
#: What a child printed, and its exit code (None: killed at its time limit).
Finished = subprocess.CompletedProcess
_PIPES = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE}


def tie_to_parent(parent: int) -> bool:
    """Arm the parent-death signal of this process, a child of `parent` (Linux only): whether it is armed.

    Exits at once (status 3) when `parent` is no longer its parent (it died before the signal was armed)."""
    armed = False
    if sys.platform.startswith("linux"):
        with suppress(OSError, AttributeError):
            armed = ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0) == 0  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # reparented already
        os._exit(3)
    return armed


def kill_group(pid: int) -> None:
    """SIGKILL the process group of the child `pid` (made before `child` counts it as live)."""
    with suppress(ProcessLookupError, PermissionError):  # gone already, or not ours any more
        os.killpg(pid, signal.SIGKILL)


def _on_signal(signum: int, frame: Any) -> None:
    for pid in list(LIVE):
        kill_group(pid)
    previous = _PREVIOUS[signum]
    if not callable(previous):
        raise SystemExit(128 + signum)
    previous(signum, frame)


@contextmanager
def child(start: Callable[[], Any], running: Callable[[Any], bool], reap: Callable[[Any], object]) -> Iterator[Any]:
    """The child `start()` starts, live while the block runs: its group is killed by SIGTERM and SIGINT (handlers
    installed in the main thread before the start, so that a signal during the start still ends headflow with the
    conventional code, and restored by the outermost block), and on leaving while still `running` (once reaped,
    its pid may be another process's); it is then reaped."""
    installed = {}
    if threading.current_thread() is threading.main_thread():
        for signum in _SIGNALS:
            previous = signal.getsignal(signum)
            if previous not in (None, signal.SIG_IGN, _on_signal):  # None: a handler not set from Python
                installed[signum] = _PREVIOUS[signum] = previous
                signal.signal(signum, _on_signal)
    try:
        process = start()
        LIVE.add(process.pid)
        try:
            yield process
        finally:
            if running(process):
                kill_group(process.pid)
            LIVE.discard(process.pid)
            reap(process)
    finally:
        for signum, previous in installed.items():
            signal.signal(signum, previous)


def run_program(argv: list[str], stdin: str, seconds: float, folder: str) -> Finished:
    """Run the program `argv` (an argument list, never a shell line) in `folder` with `stdin` as input, a `child` in
    its own process group, tied to this process by the death signal armed between fork and exec (it survives exec);
    at `seconds` of wall time (its start included) its group is killed, and the result holds what it printed."""
    tie = partial(tie_to_parent, os.getpid())
    start = partial(subprocess.Popen, argv, **_PIPES, text=True, cwd=folder, process_group=0, preexec_fn=tie)
    with child(start, lambda process: process.poll() is None, subprocess.Popen.wait) as process:
        try:
            stdout, stderr = process.communicate(stdin, timeout=seconds)
            return Finished(argv, process.returncode, stdout, stderr)
        except subprocess.TimeoutExpired:
            kill_group(process.pid)
            return Finished(argv, None, *process.communicate())
