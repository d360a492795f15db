"""Backend "auto" (the default of `integrate` and `headflow simulate`): what it chooses, that the trajectory and the
simulate output say which engine ran, and that the claim deciders never leave the choice to what is installed."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest
from headflow.checks import cli
from headflow.checks.integrator import backends, integrate, speed_below
from headflow.checks.integrator.controller import FixedStep
from headflow.checks.model import families
from headflow.checks.model.configuration import Configuration

ROOT = Path(__file__).resolve().parents[3]
#: The package code whose `integrate` calls must name the numpy backend: everything but the simulate command, the one
#: place where a user's run may take the engine that is installed.
PACKAGES = ("checks", "certificates", "identities")
USER_FACING = {Path("checks/commands/simulate.py")}


def _configuration(**options: object) -> Configuration:
    rng = np.random.default_rng(5)
    X = families.random_sphere_tokens(5, 3, rng)
    return Configuration.create(X, families.random_symmetric_heads(2, 3, rng), beta=1.0, **options)


def runs_the_integrator(source: str) -> bool:
    """Whether `source` imports headflow's integrator (its `integrate` or the package; SymPy's is another one)."""
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        module, names = node.module or "", {alias.name for alias in node.names}
        if module.startswith("headflow.checks.integrator") and ("integrate" in names or module.endswith("solver")):
            return True
        if module == "headflow.checks" and "integrator" in names:
            return True
    return False


def unnamed_backends(source: str) -> list[int]:
    """The lines of the calls of `integrate` in `source` that do not pass backend="numpy" (SymPy's `sp.integrate`
    and `sympy.integrate` aside)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute):
            name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
            sympy = isinstance(node.func, ast.Attribute) and ast.unparse(node.func.value) in ("sp", "sympy")
            if name != "integrate" or sympy:
                continue
            named = [k.value for k in node.keywords if k.arg == "backend"]
            if not (named and isinstance(named[0], ast.Constant) and named[0].value == "numpy"):
                lines.append(node.lineno)
    return lines


def test_every_run_inside_headflow_but_simulate_names_the_numpy_backend() -> None:
    """The deciders' verdicts never depend on what is installed: each of their runs names numpy (auto would take jax
    where it is installed)."""
    found = {}
    calls = 0
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT)
            source = path.read_text()
            if "integrate(" not in source or not runs_the_integrator(source):
                continue
            calls += source.count("integrate(")
            if relative not in USER_FACING and (lines := unnamed_backends(source)):
                found[str(relative)] = lines
    assert calls > 15 and found == {}


def test_the_scan_flags_a_run_that_leaves_the_backend_to_auto() -> None:
    """The scan of the test above can fail: a default, a variable and another name are all flagged."""
    source = (
        "integrate(cfg, 1.0)\n"
        "integrator.integrate(cfg, 1.0, backend=chosen)\n"
        "integrate(cfg, 1.0, backend='jax')\n"
        "integrate(cfg, 1.0, backend='numpy')\n"
        "sp.integrate(x, s)\n"
    )
    assert unnamed_backends(source) == [1, 2, 3]
    assert runs_the_integrator("from headflow.checks.integrator import Event, integrate\n")
    assert not runs_the_integrator("import sympy as sp\n")


def test_a_run_that_names_numpy_stays_on_numpy_where_auto_takes_jax(monkeypatch: pytest.MonkeyPatch) -> None:
    """With jax taken as usable, a run as the deciders make it (record times, backend="numpy") never reaches the
    jitted engine, while the same call left to auto does: the patch is live."""
    from headflow.checks.integrator import jax_solver

    reached = []

    def jitted(*args: object, **kwargs: object) -> None:
        reached.append(1)
        raise ZeroDivisionError

    monkeypatch.setattr(backends, "jax_usable", lambda cfg: True)
    monkeypatch.setattr(jax_solver, "integrate_jax", jitted)
    cfg = _configuration(attention="softmax")
    grid = [0.0, 0.01]
    traj = integrate(cfg, grid[-1], record_times=grid, observables=(), backend="numpy")
    assert traj.backend == "numpy" and not reached
    with pytest.raises(ZeroDivisionError):
        integrate(cfg, grid[-1], record_times=grid, observables=())
    assert reached == [1]


def test_auto_takes_numpy_for_what_the_jitted_backend_does_not_give_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """Events, no record times (numpy records every step) or more than the start and end (jax ends a step at each),
    another controller or a field jax does not cover."""
    monkeypatch.setattr(backends, "jax_usable", lambda cfg: cfg.mask is None)
    cfg, grid = _configuration(attention="softmax"), [0.0, 1.0]
    assert backends.chosen("auto", cfg, record_times=grid) == "jax"
    assert backends.chosen("numpy", cfg, record_times=grid) == "numpy"
    assert backends.chosen("auto", cfg, record_times=None) == "numpy"
    assert backends.chosen("auto", cfg, record_times=[0.0, 0.5, 1.0]) == "numpy"  # jax would end a step at each
    assert backends.chosen("auto", cfg, record_times=grid, events=[speed_below(1e-9)]) == "numpy"
    assert backends.chosen("auto", cfg, record_times=grid, controller=FixedStep(0.1)) == "numpy"
    masked = _configuration(attention="softmax", mask=np.tril(np.ones((5, 5), dtype=bool)))
    assert backends.chosen("auto", masked, record_times=grid) == "numpy"


def test_auto_without_jax_runs_numpy(monkeypatch: pytest.MonkeyPatch, real_auto_backend: None) -> None:
    """Where jax does not import, auto is numpy (and the trajectory says so)."""
    import sys

    monkeypatch.setitem(sys.modules, "jax", None)  # `import jax` raises ImportError
    traj = integrate(_configuration(attention="softmax"), 0.5, record_times=[0.0, 0.5], observables=())
    assert traj.backend == "numpy"


def test_simulate_help_states_the_default_backend(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["simulate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "auto (the default)" in text and "headflow/jax" in text
