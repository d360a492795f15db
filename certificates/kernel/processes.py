"""Child processes that never outlive headflow: z3, cvc5 and coqc (`run_program`).

Every child runs in a process group of its own and is tied to the process that started it:
- on Linux the kernel sends it SIGKILL when its parent dies, however the parent dies, SIGKILL included
  (`prctl(PR_SET_PDEATHSIG)`, armed by `tie_to_parent` between fork and exec, kept across exec; the child then
  checks that its parent is still the process that started it, because the parent may have died before the signal
  was armed);
- leaving `run_program` while the child runs (an exception: KeyboardInterrupt on SIGINT, or SystemExit(143) on
  SIGTERM, `sigterm_exits`) kills the child's group, and `finally` blocks of headflow still run. The SIGTERM handler
  is installed only while a child runs: the parent is then waiting on the child, so the handler runs at once. While
  no child runs (the parent inside z3 or SymPy in-process, where a Python handler would wait for the C call to
  return), the default action applies and SIGTERM ends the process at once.

The kernel sends the death signal when the *thread* that started the child ends; each child here is started and
waited for by one call of one thread, which therefore outlives it. The forked SymPy workers (`certificates/
processes.py`, outside the kernel) use `tie_to_parent`, `kill_group` and `sigterm_exits` too.
"""

import ctypes
import os
import signal
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from functools import partial

#: What a child printed, and its exit code (None: killed at its time limit).
Finished = subprocess.CompletedProcess
_PIPES = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE}


def tie_to_parent(parent: int) -> bool:
    """Arm the parent-death signal of this process, a child of `parent` (Linux only: elsewhere the C library has no
    `prctl`): whether it is armed.

    Exits at once (status 3) when `parent` is no longer its parent (it died before the signal was armed)."""
    armed = False
    with suppress(OSError, AttributeError):  # AttributeError: no prctl
        armed = ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0) == 0  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # reparented already
        os._exit(3)
    return armed


def kill_group(pid: int) -> None:
    """SIGKILL the process group of the child `pid` (the leader of a group of its own, not reaped yet)."""
    with suppress(ProcessLookupError, PermissionError):  # gone already, or not ours any more
        os.killpg(pid, signal.SIGKILL)


def _exit(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


@contextmanager
def sigterm_exits() -> Iterator[None]:
    """While the block runs (in the main thread, where SIGTERM has its default action), SIGTERM raises
    SystemExit(143): the block's `finally` kills its child, and headflow ends with the conventional code."""
    main = threading.current_thread() is threading.main_thread()  # the one thread that may set handlers
    default = main and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    if default:
        signal.signal(signal.SIGTERM, _exit)
    try:
        yield
    finally:
        if default:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


def run_program(argv: list[str], stdin: str, seconds: float, folder: str) -> Finished:
    """Run the program `argv` (an argument list, never a shell line) in `folder` with `stdin` as input, in its own
    process group, tied to this process by the death signal armed between fork and exec (it survives exec); at
    `seconds` of wall time (its start included), or when an exception (a signal) leaves while it runs, its group is
    killed; the result holds what it printed."""
    tie = partial(tie_to_parent, os.getpid())
    start = partial(subprocess.Popen, argv, **_PIPES, text=True, cwd=folder, process_group=0, preexec_fn=tie)
    with sigterm_exits(), start() as process:
        try:
            stdout, stderr = process.communicate(stdin, timeout=seconds)
            return Finished(argv, process.returncode, stdout, stderr)
        except subprocess.TimeoutExpired:
            kill_group(process.pid)
            return Finished(argv, None, *process.communicate())
        finally:
            if process.poll() is None:  # left by an exception
                kill_group(process.pid)
