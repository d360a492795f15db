"""The layers: identities <- certificates <- checks, and no import cycle between modules.

The graph is read from the source (every `import` statement, at any depth, including those inside
functions), so a lazy import cannot hide a cycle or a layer breach.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from headflow.certificates import families, family_names

from tests.import_resolution import absolute

if TYPE_CHECKING:
    from headflow.checks.reports.report import Report

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("identities", "certificates", "checks")
#: What each layer may import from the project.
ALLOWED = {"identities": {"identities"}, "certificates": {"identities", "certificates"}, "checks": set(PACKAGES)}
#: Libraries the identities may not import: they are SymPy mathematics, with no floats, balls or solvers.
NOT_IN_IDENTITIES = {"flint", "numpy", "scipy", "z3", "cvc5"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


@cache
def _imported_names(path: Path) -> frozenset[str]:
    """Every name the file imports (a `from module import name` gives both the module and module.name); each file is
    parsed once per test process."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and (module := _absolute(path, node)):
            found |= {module} | {f"{module}.{alias.name}" for alias in node.names}
    return frozenset(name.removeprefix("headflow.") for name in found)  # the project's parts by their folders' names


def _absolute(path: Path, node: ast.ImportFrom) -> str:
    """The module a `from` import names, relative ones resolved from the file's package."""
    return absolute(_module_name(path), path.name == "__init__.py", node)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """Project modules imported by the file (a `from package import name` counts the submodule if it is one)."""
    return _imported_names(path) & modules


def _libraries(path: Path) -> set[str]:
    """The top-level packages the file imports (standard library, third party and ours)."""
    return {name.split(".")[0] for name in _imported_names(path)}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(path, set(modules)) - {name} for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return components


def _parent_packages(name: str) -> set[str]:
    parts = name.split(".")
    return {".".join(parts[:k]) for k in range(1, len(parts))}


def test_no_import_cycle_between_modules() -> None:
    graph = _graph()
    # a package's __init__ importing its own submodules is not a cycle of modules
    graph = {v: {w for w in ws if w not in _parent_packages(v)} for v, ws in graph.items()}
    assert _cycles(graph) == []


def _room(module: str) -> str:
    """The room of a module: its folder below the layer (`headflow.checks.reports`), or the module itself at the top."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 or (ROOT / Path(*parts)).is_dir() else module


def _rooms() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, imported in _graph().items():
        graph.setdefault(_room(module), set()).update(_room(name) for name in imported)
    return {room: targets - {room} - _parent_packages(room) - {room.split(".")[0]} for room, targets in graph.items()}


def test_no_import_cycle_between_rooms() -> None:
    """Rooms (the folders of a layer, and its top modules) import one way too: none reaches back into one that
    imports it, so each room can be read knowing only the rooms below it."""
    assert _cycles(_rooms()) == []


def test_relative_imports_are_edges_of_the_graph() -> None:
    """The kernel imports its own modules relatively: those imports are edges too, so a cycle through them is seen."""
    graph = _graph()
    assert {"certificates.kernel.recheck", "certificates.kernel.format"} <= graph["certificates.kernel.covers"]
    assert "certificates.kernel.model_chain" in graph["certificates.kernel.coq.model_tree"]


def test_the_room_cycle_finder_sees_folders() -> None:
    assert _room("checks.reports.html") == "checks.reports"
    assert _room("checks.model") == "checks.model"
    assert _room("checks.api") == "checks.api"
    assert _room("certificates.claims.schema") == "certificates.claims"
    assert _room("certificates.kernel.coq.run") == "certificates.kernel"


@pytest.mark.parametrize("package", PACKAGES)
def test_layers_import_one_way(package: str) -> None:
    breaches = {
        (module, imported)
        for module, imported_modules in _graph().items()
        if module.split(".")[0] == package
        for imported in imported_modules
        if imported.split(".")[0] not in ALLOWED[package]
    }
    assert breaches == set()


def test_the_identities_are_sympy_only() -> None:
    libraries = {name: _libraries(path) & NOT_IN_IDENTITIES for name, path in _modules().items()}
    assert {name: found for name, found in libraries.items() if name.startswith("identities") and found} == {}


def test_the_family_table_is_pure_and_the_claims_file_reads_only_it() -> None:
    """certificates.families holds records of names, sizes, option domains and hypotheses only (no numpy; exact
    ends in fractions), over the facts of certificates.family_names, whose names it shares;
    in the claims-file code only the dynamics starts (`dynamics_starts`, which draw the decider's configurations)
    import the numpy draws of checks.model.families."""
    modules = _modules()
    assert set(families.TOKEN_FAMILIES) == set(family_names.TOKEN_FAMILIES)
    assert set(families.HEAD_FAMILIES) == set(family_names.HEAD_FAMILIES)
    assert _libraries(modules["certificates.families"]) <= {
        "certificates",
        "__future__",
        "collections",
        "dataclasses",
        "fractions",
        "typing",
    }
    drawing = {name for name, imports in _graph().items() if "checks.model.families" in imports}
    assert {name for name in drawing if name.startswith("checks.claimsfile")} == {"checks.claimsfile.dynamics_starts"}


def test_the_cycle_finder_finds_a_cycle() -> None:
    """The checker itself can fail: a two-module cycle and a self-consistent chain."""
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_theorems_are_listed_explicitly() -> None:
    """Every module of checks/theorems is in the registry's list, and nothing registers by import side effect."""
    from headflow.checks.registry import THEOREMS

    on_disk = {p.stem for p in (ROOT / "checks" / "theorems").glob("*.py") if p.stem != "__init__"}
    assert set(THEOREMS) == on_disk
    outside = [
        name
        for name, path in _modules().items()
        if not name.startswith("checks.theorems") and "REGISTRY.procedure(" in path.read_text(encoding="utf-8")
    ]
    assert outside == []


def _theorem_importers(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """(module, theorem module) for every module outside checks.theorems that imports a theorem module."""
    return {
        (module, imported)
        for module, imported_modules in graph.items()
        if not module.startswith("checks.theorems")
        for imported in imported_modules
        if imported.startswith("checks.theorems.")
    }


def test_no_code_outside_the_theorem_modules_imports_one() -> None:
    """Theorem modules hold statements and registrations only: what other code uses lives with the evidence, the
    provers or the identities, so no module of the packages outside checks/theorems imports a theorem module (the
    registry loads them by name)."""
    assert _theorem_importers(_graph()) == set()


def test_the_theorem_rule_finds_an_importer() -> None:
    """The rule can fail: a module importing a theorem module is found."""
    graph = {"checks.sweeps.tasks": {"checks.theorems.t25_clustering_time"}, "checks.theorems.t11_energy": set()}
    assert _theorem_importers(graph) == {("checks.sweeps.tasks", "checks.theorems.t25_clustering_time")}


def _theorem_of(claim_id: str) -> str:
    """The theorem a claim belongs to: the id's first part (two parts for Condition 8's two questions)."""
    parts = claim_id.split(".")
    return ".".join(parts[:2]) if parts[0] == "C8" else parts[0]


def test_each_theorem_module_is_one_theorem() -> None:
    """One module per theorem: the claims whose procedures live in a theorem module all belong to one theorem."""
    from headflow.checks.registry import load_all

    theorems: dict[str, set[str]] = {}
    for claim in load_all().claims():
        for _, function in claim.procedures:
            theorems.setdefault(function.__module__, set()).add(_theorem_of(claim.id))
    assert {home: found for home, found in theorems.items() if len(found) != 1} == {}
    assert _theorem_of("C8.invariance.exit-gap") != _theorem_of("C8.radial-dominance.reading-b")


def test_figures_hold_no_claim_ids() -> None:
    """Which claim a figure illustrates is declared next to the claim: the drawing module names none."""
    from headflow.checks.registry import load_all

    text = (ROOT / "checks" / "reports" / "figures.py").read_text(encoding="utf-8")
    assert [c.id for c in load_all().claims() if c.id in text] == []
    assert "T19" not in text and "T22" not in text


def test_each_claim_is_declared_in_one_theorem_module() -> None:
    """Every registered claim and all its procedures live in one module of checks.theorems."""
    from headflow.checks.registry import load_all

    for claim in load_all().claims():
        homes = {function.__module__ for _, function in claim.procedures}
        assert len(homes) == 1 and next(iter(homes)).startswith("headflow.checks.theorems."), (claim.id, homes)


def test_verify_gives_the_recorded_verdicts(whole_paper: Report) -> None:
    """Moving code changes no verdict: the JSON report of `verify` on the whole paper (quick, seed 0, the session's
    run) against the verdicts recorded before the redesign; a verdict that changes on purpose updates the file
    with a reason."""
    import json

    recorded = json.loads((ROOT / "tests" / "data" / "verify_quick_verdicts.json").read_text())
    verdicts = {claim["id"]: claim["verdict"] for claim in json.loads(whole_paper.to_json())["claims"]}
    assert verdicts == recorded["verdicts"]


def test_every_data_file_of_the_packages_is_installed() -> None:
    """A non-editable install (the README's first command) carries every data file the code reads: each non-Python
    file under certificates/ matches a package-data pattern of pyproject.toml (the kernel's registry table was once
    left out, so check-cert failed on an installed headflow)."""
    import fnmatch
    import tomllib

    root = Path(__file__).resolve().parents[1]
    patterns = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    data = [
        path.relative_to(root / "certificates").as_posix()
        for path in (root / "certificates").rglob("*")
        if path.is_file()
        and path.suffix not in (".py", ".pyc")
        and "__pycache__" not in path.parts
        and path.name != "ruff.toml"  # the kernel's lint layout (certificates/kernel/ruff.toml): no data the code reads
    ]
    assert data
    assert [name for name in data if not any(fnmatch.fnmatch(name, p) for p in patterns["headflow.certificates"])] == []


def test_the_project_is_imported_by_its_one_installed_name() -> None:
    """Issue 41: `headflow` is the only top-level name the project installs, so every import of the project's own
    code, in the packages, the tests, the benchmarks and the docs' scripts, goes through it (a bare `checks`,
    `certificates` or `identities` would load a second copy of a module, or nothing on an installed headflow)."""
    sources = [
        p for folder in (*PACKAGES, "headflow", "tests", "benchmarks", "docs") for p in (ROOT / folder).rglob("*.py")
    ]
    bare = sorted(
        f"{path.relative_to(ROOT)}: {name}"
        for path in sources
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Import | ast.ImportFrom) and getattr(node, "level", 0) == 0
        for name in ([alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""])
        if name.split(".")[0] in PACKAGES
    )
    assert len(sources) > 500
    assert bare == []


def test_the_packages_install_under_headflow_only() -> None:
    """setup.py maps the three folders under `headflow`: every package it installs is `headflow` or inside it."""
    import runpy
    from unittest import mock

    with mock.patch("setuptools.setup") as setup:
        runpy.run_path(str(ROOT / "setup.py"))
    packages, folders = setup.call_args.kwargs["packages"], setup.call_args.kwargs["package_dir"]
    assert {"headflow", "headflow.checks.reports", "headflow.certificates.kernel.coq", "headflow.identities"} <= set(
        packages
    )
    assert all(name == "headflow" or name.startswith("headflow.") for name in packages)
    assert folders == {"headflow": "headflow", **{f"headflow.{part}": part for part in PACKAGES}}


@pytest.mark.parametrize("module", sorted(p.stem for p in (ROOT / "benchmarks").glob("*.py") if p.stem != "__main__"))
def test_every_benchmark_imports(module: str) -> None:
    """A benchmark is run by hand, not by the suite: its imports are held here (a name moved elsewhere breaks one)."""
    import importlib

    assert importlib.import_module(f"benchmarks.{module}").__name__ == f"benchmarks.{module}"
