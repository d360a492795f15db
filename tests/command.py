"""`headflow ARGS` run inside the test's process, as the command line runs it, for the tests of what a command prints
and returns that are not about the process itself (a fresh interpreter costs a `check` a second of imports).

`headflow` returns what `subprocess.run([sys.executable, "-m", "headflow", *args], capture_output=True, text=True)`
would: `checks.cli.main`'s exit code (argparse's SystemExit code), what it wrote on stdout and on stderr, and, for an
exception that escaped it, the traceback on stderr with exit code 1, as the interpreter prints one.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import traceback

from headflow.checks import cli


def headflow(*argv: str) -> subprocess.CompletedProcess[str]:
    """`python -m headflow ARGV`, run by `cli.main` in this process, its output captured."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(list(argv))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except Exception:  # the interpreter prints an escaped exception's traceback and exits 1
            traceback.print_exc(file=err)
            code = 1
    return subprocess.CompletedProcess(["headflow", *argv], code, out.getvalue(), err.getvalue())
