"""A figure is the same bytes in any process: the equilibria figure as PNG and SVG from two fresh processes, and
an equilibrium drawn the same whichever rotation or reflection of it a search found."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import numpy as np
import pytest
from headflow.checks.reports import plots

RENDER = """
import hashlib
from headflow.checks.reports import figures, plots
fig = figures.equilibria_gallery()
print(*(hashlib.sha256(plots.png_bytes(fig, fmt)).hexdigest() for fmt in ("png", "svg")))
"""


@pytest.mark.slow
def test_two_processes_draw_the_same_equilibria_figure() -> None:
    runs = [subprocess.run([sys.executable, "-c", RENDER], capture_output=True, text=True, check=True) for _ in "ab"]
    assert runs[0].stdout == runs[1].stdout and len(runs[0].stdout.split()) == 2


def test_an_equilibrium_is_drawn_in_coordinates_its_inner_products_fix() -> None:
    rng = np.random.default_rng(3)
    a, b = np.array([0.1, -0.6, 0.8]), np.array([-0.75, 0.12, -0.65])
    X = np.array([a, a, b, -(a + b)])  # three distinct points in a plane, as the search finds them
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    rotation, _ = np.linalg.qr(rng.standard_normal((3, 3)))
    mirrored = X * np.array([1.0, 1.0, -1.0])
    drawn = [plots.png_bytes(plots.equilibria_figure([("a panel", Y)])) for Y in (X, X @ rotation, mirrored)]
    assert len({hashlib.sha256(png).digest() for png in drawn}) == 1
    coordinates = plots.intrinsic_coordinates(X @ rotation)
    assert np.allclose(coordinates @ coordinates.T, X @ X.T) and np.all(coordinates[:, 2:] == 0)  # 3 points: a plane
