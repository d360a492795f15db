"""headflow's temporary folder: one per process, so that a run killed by SIGKILL leaves nothing behind for long.

The solvers and coqc each run in a fresh temporary folder (`certificates.kernel.processes`, `certificates.kernel.coq.
run`) that the run removes when the child is done. SIGKILL gives headflow no chance to: it would leave
`headflow-solver-*` and `headflow-coq-*` folders in the system's temporary directory. `own_folder` makes a folder
of this process, `headflow-run-*`, the default temporary directory of the process (`tempfile.tempdir`), so those
folders are made inside it; it is removed at exit. While the process lives it holds a lock (flock) on the folder's
`.lock` file, and the system drops the lock when the process ends, however it ends: each new run first removes
the run folders whose lock is free. Another user's folder cannot be opened or removed, and a link is not followed.
"""

from __future__ import annotations

import atexit
import fcntl
import os
import shutil
import tempfile
from contextlib import suppress
from pathlib import Path

PREFIX = "headflow-run-"
#: A folder being made: its name is outside the sweep's until it is locked.
_NEW = "headflow-new-"


def own_folder() -> None:
    """Remove the run folders of ended processes, then make this process's own the default temporary directory
    (once per process, and a forked child shares its parent's; the module docstring)."""
    system = Path(tempfile.gettempdir())
    if system.name.startswith(PREFIX):
        return
    for stale in system.glob(PREFIX + "*"):
        with suppress(OSError), open(stale / ".lock") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # OSError while its process lives
            shutil.rmtree(stale)
    folder = Path(tempfile.mkdtemp(prefix=_NEW, dir=system))
    fcntl.flock(os.open(folder / ".lock", os.O_CREAT | os.O_WRONLY, 0o600), fcntl.LOCK_EX)  # held until exit
    run = folder.rename(folder.with_name(folder.name.replace(_NEW, PREFIX)))
    atexit.register(shutil.rmtree, run, True)
    tempfile.tempdir = str(run)
