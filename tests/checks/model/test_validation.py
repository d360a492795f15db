"""Invalid input produces InputError naming the field; the CLI exits 2 with one line, no traceback."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from headflow.certificates.errors import InputError
from headflow.checks.model.configuration import Configuration

from tests.command import headflow

X = np.eye(3)[:2]
M = np.eye(3)[None]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"tokens": np.eye(3)[:1]}, "n"),
        ({"score_matrices": np.zeros((0, 3, 3))}, "score_matrices.shape"),
        ({"score_matrices": np.eye(2)[None]}, "score_matrices.shape"),
        ({"values": np.eye(2)[None]}, "values.shape"),
        ({"beta": float("nan")}, "beta"),
        ({"beta": True}, "beta"),
        ({"mask": "lower"}, "mask"),
        ({"mask": [[1, 0], [1, 0]]}, "mask[1][1]"),
        ({"mask": [[1, 0, 0], [1, 1, 0], [1, 1, 1]]}, "mask"),
        ({"mask": [[1, 0], [2, 1]]}, "mask[1]"),
        ({"mask": [[1, 0], [0.5, 1]]}, "mask[1]"),
        ({"queries": np.eye(3)[None]}, "keys"),
        ({"score_matrices": M, "queries": np.eye(3)[None], "keys": np.eye(3)[None]}, "score_matrices"),
        ({"score_matrices": None, "queries": np.ones((1, 2, 3)), "keys": np.ones((1, 1, 3))}, "keys.shape"),
        ({"beta": float("inf")}, "beta"),
        ({"beta": "hot"}, "beta"),
        ({"attention": "linear"}, "attention"),
        ({"geometry": "torus"}, "geometry"),
        ({"tokens": [[1.0, 0, 0], [0, 2.0, 0]]}, "tokens[1]"),
        ({"tokens": [[1.0, 0, 0], [0, float("nan"), 0]]}, "tokens"),
        ({"tokens": [[1.0, "a", 0], [0, 1, 0]]}, "tokens"),
        ({"tokens": [1.0, 0.0]}, "tokens.ndim"),
        ({"score_matrices": np.full((1, 3, 3), np.inf)}, "score_matrices"),
    ],
)
def test_invalid_configurations_name_the_field(kwargs: dict, field: str) -> None:
    args = {"tokens": X, "score_matrices": M} | kwargs
    with pytest.raises(InputError) as info:
        Configuration.create(**args)
    assert info.value.field == field
    assert str(info.value).startswith(field)


def test_normalize_rescales_instead_of_rejecting() -> None:
    cfg = Configuration.create([[2.0, 0, 0], [0, 3.0, 0]], M, normalize=True)
    assert np.allclose(np.linalg.norm(cfg.tokens, axis=1), 1.0)


def test_flat_geometry_accepts_tokens_off_the_sphere() -> None:
    cfg = Configuration.create([[2.0, 0, 0], [0, 3.0, 0]], M, geometry="flat")
    assert cfg.tokens[1, 1] == 3.0


def test_configuration_arrays_are_read_only() -> None:
    cfg = Configuration.create(X, M)
    with pytest.raises(ValueError):
        cfg.tokens[0, 0] = 5.0


def _headflow(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "headflow", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    "args",
    [
        ["verify", "--only", "no-such-claim"],
        ["verify", "--profile", "huge"],
        ["verify", "--seed", "abc"],
        ["verify", "--format", "pdf"],
        ["frobnicate"],
    ],
)
def test_cli_rejects_bad_input_in_one_line(args: list[str]) -> None:
    """In this process (`tests.command.headflow`: an escaped exception's traceback lands on stderr, as the interpreter
    prints it), except the unknown command, run as a real process: the entry point's own one line."""
    result = _headflow(*args) if args == ["frobnicate"] else headflow(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "error" in result.stderr
