"""Child processes that never outlive headflow: the solver processes and the forked SymPy workers.

Every child runs in a process group of its own and is tied to the process that started it:
- on Linux the kernel sends it SIGKILL when its parent dies, however the parent dies, SIGKILL included
  (`prctl(PR_SET_PDEATHSIG)`, armed by the child as it starts; the child then checks that its parent is still
  the process that started it, because the parent may have died before the signal was armed);
- where prctl is not available, a daemon thread of the child polls its parent id (every 0.2 s) and kills
  the child's group once the parent is gone;
- while a child lives, SIGTERM and SIGINT in the parent first kill every live child's group, then end the
  parent as the signal would have: SIGTERM by SystemExit(143) (so `finally` blocks still run), SIGINT by the
  handler that was there before (Python's raises KeyboardInterrupt; the CLI exits 130 on it). The handlers are
  installed only while a child runs: the parent is then waiting on the child, so a handler runs at once. While
  no child runs (the parent inside z3 or SymPy in-process, where a Python handler would wait for the C call to
  return), the default actions apply and SIGTERM ends the process at once.

A subprocess child is `python -I -c SCRIPT` in an empty folder, which cannot import headflow: it runs the source
of `tie_to_parent` ahead of its script, so both kinds of child run the same code. The kernel sends the death
signal when the *thread* that started the child ends; each child here is started and waited for by one call of
one thread, which therefore outlives it.
"""

from __future__ import annotations

import inspect
import multiprocessing
import os
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from multiprocessing.context import BaseContext
from typing import Any

_SIGNALS = (signal.SIGTERM, signal.SIGINT)
#: The live children (each leads its own process group, so a pid is also its group id).
_LIVE: set[int] = set()
#: The handlers ours replaced, while any child is being started or lives.
_PREVIOUS: dict[int, Any] = {}
#: How many guards (`_guarded`) are open.
_DEPTH = [0]


def tie_to_parent(parent: int, death_signal: bool = True, poll_seconds: float = 0.2) -> None:
    """Make this process, a child of `parent`, die with it: the parent-death signal, else a polling thread.

    Exits at once (status 3) when `parent` is no longer its parent. Self-contained (its imports inside): a
    solver process runs its source. `death_signal=False` forces the polling fallback (what runs where prctl
    is missing)."""
    import ctypes
    import os
    import signal
    import sys
    import threading
    import time

    armed = False
    if death_signal and sys.platform.startswith("linux"):
        try:
            armed = ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0) == 0  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            armed = False
    if os.getppid() != parent:  # the parent died before the signal was armed: reparented already
        os._exit(3)
    if armed:
        return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(poll_seconds)
        os.killpg(os.getpgrp(), signal.SIGKILL)

    threading.Thread(target=watch, name="headflow-parent-watch", daemon=True).start()


#: What a subprocess child runs first (it cannot import this module).
_TIE_SOURCE = inspect.getsource(tie_to_parent)


def _kill_children() -> None:
    """SIGKILL every live child's process group (what the parent's SIGTERM and SIGINT handlers do first)."""
    for pid in list(_LIVE):
        _kill_group(pid)


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:  # the group is gone, or the child has not made it yet: the child alone
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    except PermissionError:  # not ours any more
        pass


def _on_signal(signum: int, frame: Any) -> None:
    _kill_children()
    previous = _PREVIOUS.get(signum)
    if callable(previous):
        previous(signum, frame)
        return
    raise SystemExit(128 + signum)


@contextmanager
def _guarded() -> Iterator[None]:
    """SIGTERM and SIGINT handlers that kill every live child, installed (main thread only) before a child is
    started and restored after the outermost guard: a signal that arrives while the child starts still ends
    headflow with the conventional code, and the parent-death signal takes the child it could not see yet."""
    install = _DEPTH[0] == 0 and threading.current_thread() is threading.main_thread()
    if install:
        for signum in _SIGNALS:
            previous = signal.getsignal(signum)
            if previous is not None and previous is not signal.SIG_IGN:  # None: a handler not set from Python
                _PREVIOUS[signum] = previous
                signal.signal(signum, _on_signal)
    _DEPTH[0] += 1
    try:
        yield
    finally:
        _DEPTH[0] -= 1
        if install:
            for signum, previous in _PREVIOUS.items():
                signal.signal(signum, previous)
            _PREVIOUS.clear()


@contextmanager
def _live(pid: int) -> Iterator[None]:
    """Count the started child `pid` as live while the block runs (the handlers kill it). Killing it when the
    block ends is the caller's: only the caller knows whether it was reaped (after which its pid may be reused)."""
    _LIVE.add(pid)
    try:
        yield
    finally:
        _LIVE.discard(pid)


@dataclass(frozen=True)
class Finished:
    """What a subprocess child printed, and its exit code (None: killed at its time limit)."""

    returncode: int | None
    stdout: str
    stderr: str


def run_python(script: str, stdin: str, seconds: float) -> Finished:
    """Run `python -I -c script` with `stdin` as input, in an empty temporary folder, in its own process group
    and tied to this process; at `seconds` of wall time (its start included) its group is killed, and the
    result holds what it printed until then."""
    code = f"{_TIE_SOURCE}\ntie_to_parent({os.getpid()})\n{script}"
    with tempfile.TemporaryDirectory(prefix="headflow-solver-") as folder:
        return run_program([sys.executable, "-I", "-c", code], stdin, seconds, folder)


def run_program(argv: list[str], stdin: str, seconds: float, folder: str) -> Finished:
    """Run the program `argv` (an argument list, never a shell line) in `folder`, in its own process group and
    tied to this process: the parent-death signal is armed between fork and exec, where prctl exists (it
    survives exec); at `seconds` of wall time its group is killed, and the result holds what it printed."""
    parent = os.getpid()
    with _guarded():
        process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=folder,
            process_group=0,
            preexec_fn=lambda: _arm_death_signal(parent),
        )
        with process, _live(process.pid):
            try:
                stdout, stderr = process.communicate(stdin, timeout=seconds)
                return Finished(process.returncode, stdout, stderr)
            except subprocess.TimeoutExpired:
                _kill_group(process.pid)
                stdout, stderr = process.communicate()
                return Finished(None, stdout, stderr)
            finally:
                if process.poll() is None:  # not reaped yet, so the pid is still this child's
                    _kill_group(process.pid)


def _arm_death_signal(parent: int) -> None:
    """In the forked child before exec: the parent-death signal only (a polling thread would not survive exec)."""
    import ctypes

    if sys.platform.startswith("linux"):
        with suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(3)


@contextmanager
def forked(context: BaseContext, target: Callable[..., None], *args: object) -> Iterator[multiprocessing.Process]:
    """A started child, forked from `context`, running target(*args) in its own process group and tied to this
    process; on leaving, the child is killed (if still running) and reaped."""
    child = context.Process(target=_run_tied, args=(os.getpid(), target, args), daemon=True)
    with _guarded():
        child.start()
        assert child.pid is not None  # started
        with suppress(OSError):  # the child makes the group too: whichever runs first does, the other fails
            os.setpgid(child.pid, child.pid)
        with _live(child.pid):
            try:
                yield child
            finally:
                if child.exitcode is None:
                    _kill_group(child.pid)
                child.join()


def _run_tied(parent: int, target: Callable[..., None], args: tuple[object, ...]) -> None:
    """The forked child: its own group, the parent's handlers and children dropped, tied to the parent."""
    with suppress(OSError):  # the parent made the group already
        os.setpgid(0, 0)
    for signum in _SIGNALS:
        signal.signal(signum, signal.SIG_DFL)
    _LIVE.clear()
    _PREVIOUS.clear()
    _DEPTH[0] = 0
    tie_to_parent(parent)
    target(*args)
