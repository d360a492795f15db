"""The kernel is a place: everything `check-cert` trusts lives in `certificates/kernel`, and the kernel imports
only itself, the standard library, the exact-arithmetic libraries and the `identities` modules it names."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from certificates.kernel import MATHEMATICS

ROOT = Path(__file__).resolve().parents[3]
KERNEL = ROOT / "certificates" / "kernel"
#: The libraries the kernel may import: exact algebra (SymPy, used only for value-independent algebra), mpmath
#: (SymPy's own dependency), python-flint's balls. z3 and cvc5 run in separate processes, never in-process.
LIBRARIES = {"sympy", "mpmath", "flint"}
PROJECT = ("certificates", "checks", "identities")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module a file imports (at any depth of the file: lazy imports count too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def _project_module(name: str) -> bool:
    return name.split(".")[0] in PROJECT


def _existing(name: str) -> bool:
    """Whether a dotted project name is a module (a `from X import y` of a function names X.y, not a module)."""
    path = ROOT / Path(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _allowed(name: str, mathematics: set[str]) -> bool:
    top = name.split(".")[0]
    if _project_module(name):
        return (
            not _existing(name)
            or name.startswith("certificates.kernel")
            or name in mathematics
            or name
            in (
                "certificates",
                "identities",
            )
        )
    return top in LIBRARIES or top in sys.stdlib_module_names or top == "__future__"


def test_the_kernel_imports_only_the_kernel_its_mathematics_and_exact_libraries() -> None:
    mathematics = set(MATHEMATICS)
    offending = {
        f"{_module_name(path)} imports {name}"
        for path in KERNEL.rglob("*.py")
        for name in _imports(path)
        if not _allowed(name, mathematics)
    }
    assert offending == set()


def test_the_kernels_mathematics_imports_only_itself() -> None:
    mathematics = set(MATHEMATICS)
    assert all(_existing(name) for name in mathematics)
    offending = {
        f"{name} imports {imported}"
        for name in mathematics
        for imported in _imports(ROOT / Path(*name.split(".")).with_suffix(".py"))
        if not _allowed(imported, mathematics) or imported.startswith("certificates")
    }
    assert offending == set()


_SHOWN = "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in {})))".format(
    repr(("certificates", "checks", "identities", "z3", "cvc5"))
)


def _loaded(code: str) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-c", f"import sys\n{code}\n{_SHOWN}"], capture_output=True, text=True, cwd=ROOT, check=True
    )
    return set(result.stdout.split())


def test_checking_a_certificate_loads_the_kernel_and_nothing_else() -> None:
    """What check-cert loads (its entry point, and the statements of its Coq re-check) is the kernel (all of it:
    nothing in the folder is untrusted baggage) and its mathematics; no deciding code, no solver in-process."""
    loaded = _loaded(
        "from certificates.kernel.verify import check_file\n"  # check-cert
        "from certificates.kernel.coq import certificate, claims, run"  # check-cert --coq: the statements, coqc
    )
    kernel = {_module_name(path) for path in KERNEL.rglob("*.py")}
    assert loaded - kernel - set(MATHEMATICS) == {"certificates", "identities"}
    assert kernel - loaded == set()


def test_a_module_outside_the_kernel_is_caught() -> None:
    """The rule bites: a deciding module or a checks module is not allowed in the kernel."""
    assert not _allowed("certificates.provers.intervals", set(MATHEMATICS))
    assert not _allowed("checks.model.field", set(MATHEMATICS))
    assert not _allowed("identities.energy", set(MATHEMATICS))
    assert not _allowed("numpy", set(MATHEMATICS))
    assert not _allowed("z3", set(MATHEMATICS))
