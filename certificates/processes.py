"""Forked worker processes (the SymPy workers of `certificates/claims/symbolic.py`) that never outlive headflow.

A worker runs in a process group of its own, tied to this process (`tie_to_parent`: the parent-death signal, else
polling), and is killed on leaving its block, so also by SIGTERM (`certificates.kernel.processes.sigterm_exits`) and
SIGINT (KeyboardInterrupt) in the parent.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from multiprocessing.context import BaseContext

from headflow.certificates.kernel import processes

#: Seconds between two looks of a worker's polling thread at its parent.
POLL_SECONDS = 0.2


@contextmanager
def forked(context: BaseContext, target: Callable[..., None], *args: object) -> Iterator[multiprocessing.Process]:
    """A started child, forked from `context`, running target(*args) in its own process group and tied to this
    process; on leaving, the child is killed (if still running) and reaped."""
    worker = context.Process(target=_run_tied, args=(os.getpid(), target, args), daemon=True)
    with processes.sigterm_exits():
        _start(worker)
        try:
            yield worker
        finally:
            if worker.exitcode is None:
                processes.kill_group(worker.pid)
            worker.join()


def tie_to_parent(parent: int, death_signal: bool = True) -> None:
    """Make this process, a child of `parent`, die with it: the kernel's parent-death signal
    (`certificates.kernel.processes.tie_to_parent`), else, where prctl is missing (or `death_signal` is False, as a
    test forces), a daemon thread that kills this process's group once its parent id is no longer `parent`."""
    if death_signal and processes.tie_to_parent(parent):
        return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(POLL_SECONDS)
        os.killpg(os.getpgrp(), signal.SIGKILL)

    threading.Thread(target=watch, name="headflow-parent-watch", daemon=True).start()


def _start(worker: multiprocessing.Process) -> None:
    worker.start()
    with suppress(OSError):  # the child makes the group too: whichever runs first does, the other fails
        os.setpgid(worker.pid, worker.pid)


def _run_tied(parent: int, target: Callable[..., None], args: tuple[object, ...]) -> None:
    """The forked child: its own group, the parent's handlers dropped, tied to the parent."""
    with suppress(OSError):  # the parent made the group already
        os.setpgid(0, 0)
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, signal.SIG_DFL)
    tie_to_parent(parent)
    target(*args)
