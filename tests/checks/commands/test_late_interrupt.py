"""A Ctrl-C that arrives after the command has finished (the interpreter shutting down) does not change its exit
code: `headflow` exits with main's code, never by the signal itself (rc -2, no message)."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

#: main returns 7 at once; a thread left running sends SIGINT to the process while it shuts down (sys.exit waits for
#: the thread), as a user's Ctrl-C just after the report was printed would.
PROGRAM = """
import os, signal, threading, time
from headflow.checks import cli

def late():
    time.sleep(0.3)
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.3)

cli.main = lambda argv=None: (threading.Thread(target=late).start(), 7)[1]
cli.entry()
"""


@pytest.mark.skipif(not hasattr(signal, "SIGINT"), reason="needs POSIX signals")
def test_an_interrupt_after_main_returned_keeps_its_exit_code() -> None:
    finished = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=60)
    assert finished.returncode == 7, (finished.returncode, finished.stderr)
    assert finished.stderr == ""  # no traceback of the interrupt
