"""Figures of a trajectory (matplotlib, Agg backend), each saved atomically as PNG and SVG.

Tokens are drawn on the circle (d = 2) or the sphere (d = 3) directly; for d > 3 every recorded
state is projected on the three leading principal axes of all recorded positions (PCA), which
shows the clustering geometry with the least distortion a linear map allows.
"""

from __future__ import annotations

import io
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np
from matplotlib.figure import Figure

from certificates.atomic import write_bytes_atomic


def save(fig: Figure, stem: Path) -> list[Path]:
    """Write stem.png and stem.svg atomically; return the paths."""
    written = []
    for fmt in ("png", "svg"):
        buffer = io.BytesIO()
        fig.savefig(buffer, format=fmt, dpi=120, bbox_inches="tight")
        written.append(write_bytes_atomic(stem.with_suffix(f".{fmt}"), buffer.getvalue()))
    return written


def pca_projection(states: np.ndarray, dims: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """(states projected on the leading `dims` principal axes, explained variance fractions)."""
    points = states.reshape(-1, states.shape[-1])
    centered = points - points.mean(axis=0)
    _, singular, axes = np.linalg.svd(centered, full_matrices=False)
    variance = singular**2 / max(float(np.sum(singular**2)), 1e-300)
    return (states - points.mean(axis=0)) @ axes[:dims].T, variance[:dims]


def tokens_figure(states: np.ndarray, geometry: str) -> Figure:
    """Token paths from hollow (start) to filled (end) markers; sphere drawn when d is 2 or 3."""
    d = states.shape[-1]
    fig = Figure(figsize=(6, 6))
    title = "tokens"
    if d == 1:
        ax = fig.add_subplot()
        ax.plot(states[..., 0], lw=0.8)
        ax.set_xlabel("record")
        ax.set_ylabel("x")
        ax.set_title("tokens (d = 1)")
        return fig
    if d > 3:
        states, explained = pca_projection(states)
        title = f"tokens, PCA projection of d={d} ({100 * explained.sum():.0f}% of variance)"
    if states.shape[-1] == 2:
        ax = fig.add_subplot()
        if geometry == "sphere" and d == 2:
            theta = np.linspace(0, 2 * math.pi, 256)
            ax.plot(np.cos(theta), np.sin(theta), color="0.85", lw=1)
        ax.set_aspect("equal")
    else:
        ax = fig.add_subplot(projection="3d")
        if geometry == "sphere" and d == 3:
            u, v = np.meshgrid(np.linspace(0, 2 * math.pi, 24), np.linspace(0, math.pi, 12))
            ax.plot_wireframe(np.cos(u) * np.sin(v), np.sin(u) * np.sin(v), np.cos(v), color="0.88", lw=0.4)
    for i in range(states.shape[1]):
        path = states[:, i, :]
        (line,) = ax.plot(*path.T, lw=0.8, alpha=0.7)
        ax.scatter(*path[0], facecolors="none", edgecolors=line.get_color(), s=18)
        ax.scatter(*path[-1], color=line.get_color(), s=18)
    ax.set_title(title)
    return fig


def energy_figure(times: np.ndarray, energy: np.ndarray, head_energies: np.ndarray) -> Figure:
    """E and each E_h against time."""
    fig = Figure(figsize=(7, 4))
    ax = fig.add_subplot()
    ax.plot(times, energy, color="black", lw=2, label="E")
    for h in range(head_energies.shape[1]):
        ax.plot(times, head_energies[:, h], lw=1, label=f"E_{h + 1}")
    ax.set_xlabel("t")
    ax.set_ylabel("energy (usa form)")
    ax.legend(fontsize="small", ncol=2)
    return fig


def entropy_figure(times: np.ndarray, entropies: np.ndarray, n: int) -> Figure:
    """Mean attention entropy per head (band: min to max over tokens) against time, with log n."""
    fig = Figure(figsize=(7, 4))
    ax = fig.add_subplot()
    for h in range(entropies.shape[1]):
        (line,) = ax.plot(times, entropies[:, h].mean(axis=-1), lw=1.2, label=f"head {h + 1}")
        ax.fill_between(
            times, entropies[:, h].min(axis=-1), entropies[:, h].max(axis=-1), alpha=0.2, color=line.get_color()
        )
    ax.axhline(math.log(n), color="black", ls="--", lw=1, label="log n")
    ax.set_xlabel("t")
    ax.set_ylabel("attention entropy")
    ax.legend(fontsize="small")
    return fig


def gap_figure(times: np.ndarray, gap: np.ndarray) -> Figure:
    """The cluster gap max_{i != j}(1 - <x_i, x_j>) on a log scale."""
    fig = Figure(figsize=(7, 4))
    ax = fig.add_subplot()
    positive = gap > 0
    ax.semilogy(times[positive], gap[positive], color="tab:blue")
    ax.set_xlabel("t")
    ax.set_ylabel("cluster gap")
    return fig


def condition8_figure(times: np.ndarray, margins: np.ndarray) -> Figure:
    """Per head, the worst token's Condition 8 margin T^h_i - sum_h' a^h_i a^h'_i (holds where >= 0)."""
    fig = Figure(figsize=(7, 4))
    ax = fig.add_subplot()
    for h in range(margins.shape[1]):
        ax.plot(times, margins[:, h], lw=1.2, label=f"head {h + 1}")
    ax.axhline(0.0, color="black", lw=0.8)
    scale = float(np.nanmax(np.abs(margins))) if np.any(np.isfinite(margins)) else 1.0
    ax.set_yscale("symlog", linthresh=max(scale * 1e-3, 1e-300))
    ax.set_xlabel("t")
    ax.set_ylabel("min_i Condition 8 margin")
    ax.legend(fontsize="small")
    return fig
