"""The module a `from` import names, relative ones resolved: shared by the kernel's import rule and the architecture
tests, so that a relative import (`from . import x`, `from ..y import z`) is checked like an absolute one."""

from __future__ import annotations

import ast


def absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The imported module's full name, from the importing file's own module name (`is_package`: an `__init__`)."""
    if node.level == 0:
        return node.module or ""
    package = module.split(".") if is_package else module.split(".")[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)
