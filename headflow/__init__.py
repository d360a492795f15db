"""headflow: a theorem checker for the dynamics of multi-head self-attention.

`import headflow` is the public API: `headflow.verify(...)` and `headflow.check(...)` decide the paper's claims or a
claims file and return a `headflow.Report` (`headflow.checks.api`). The project's three parts are the subpackages
`headflow.identities` (the mathematics in SymPy), `headflow.certificates` (provers and the checking kernel) and
`headflow.checks` (model, claims, CLI, reports): installed, they live inside this package, so headflow puts no other
name at the top of site-packages; in a source tree they are the folders `identities/`, `certificates/` and
`checks/` beside this one. Nothing heavy loads until it is used.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
if not (_HERE / "checks").is_dir() and (_HERE.parent / "checks" / "__init__.py").is_file():
    # a source tree (or an editable install): the parts are the folders beside this package
    __path__.append(str(_HERE.parent))

__all__ = ["Report", "__version__", "check", "verify"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from headflow import checks

        return getattr(checks, name)
    raise AttributeError(f"module 'headflow' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
