"""Which engine runs `integrate` when the caller leaves the choice to headflow: backend "auto", the default of the
`integrate()` API and of `headflow simulate --backend`.

"auto" is the jitted backend (`jax_solver`, the extra headflow[jit]; a user who has diffrax has jax) when jax imports
and the run is one that backend gives with the same meaning as the numpy one: its field covers the configuration
(`jax_field.require_supported`), no events are asked (a `simulate` run on the sphere asks for the settle stop unless
`--no-settle-stop`), the controller is the PI one, and the run records at most its start and end (None records every
accepted step on numpy, the start and the end only on jax; and the jitted engine ends a step at each record time where
the numpy one interpolates: at `simulate`'s 201 samples, n = 64, it took 2401 evaluations against numpy's 482, 3.6
times numpy's CPU time, while with the start and end only it took the same 385 at 0.56 of numpy's CPU time). Anything
else runs on numpy, the deterministic engine. The jitted engine's first run in a process also pays the jax import
(about 1 s of CPU) and the compilation (about 3 s at n = 64; `headflow simulate` keeps the compiled loops in the
user's cache folder, `compilation_cache`, after which a new process loads them in about 0.4 s), against about 0.04 s
for the whole numpy run of that problem: it pays off over long runs and repeated calls in one process.

The claim deciders (`headflow verify`, `headflow check`) never ask for "auto": each of their runs names "numpy", so a
verdict never depends on what is installed (tests/checks/integrator/test_backends.py holds every call of
`integrate` inside headflow to a named backend).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from headflow.certificates.errors import InputError
from headflow.checks.integrator.controller import Controller, PIController
from headflow.checks.model.configuration import Configuration

#: The backend that lets headflow choose (`chosen`).
AUTO = "auto"
#: The most record times with which "auto" takes the jitted engine: the start and the end.
MOST_RECORDS = 2


def chosen(
    backend: str,
    cfg: Configuration,
    *,
    events: Sequence[Any] = (),
    controller: Controller | None = None,
    record_times: Sequence[float] | Any | None = None,
) -> str:
    """The engine that runs: `backend` itself unless it is "auto", which gives "jax" or "numpy" by the rule of the
    module docstring (jax is imported only when every other condition holds)."""
    if backend != AUTO:
        return backend
    if events or record_times is None or len(record_times) > MOST_RECORDS:
        return "numpy"
    if not isinstance(controller, PIController | None):
        return "numpy"
    return "jax" if jax_usable(cfg) else "numpy"


def jax_usable(cfg: Configuration) -> bool:
    """Whether the jitted field covers cfg and jax imports (imported here: the caller is about to run it)."""
    from headflow.checks.model import jax_field

    try:
        jax_field.require_supported(cfg)
        jax_field.jax_module()
    except InputError:
        return False
    return True


def cache_folder() -> Path:
    """Where `headflow simulate` keeps jax's compiled loops: $XDG_CACHE_HOME/headflow/jax, by default
    ~/.cache/headflow/jax (the user's cache folder)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "headflow" / "jax"


def compilation_cache() -> Path | None:
    """Keep jax's compilations in `cache_folder()` (jax's persistent compilation cache) unless the user has set a
    cache folder of jax's already; return the folder in use (None when jax is not installed). A later run in a new
    process then loads the jitted loops instead of compiling them (about 3 s of CPU down to about 0.4 s at n = 64)."""
    try:
        import jax
    except ImportError:
        return None
    folder = jax.config.jax_compilation_cache_dir
    if folder:
        return Path(folder)
    folder = cache_folder()
    jax.config.update("jax_compilation_cache_dir", str(folder))
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.5)
    return folder
