"""Figures of a trajectory (matplotlib, Agg backend), and the axes conventions of every figure headflow draws.

`headflow simulate` saves these figures (atomically, as PNG and SVG); the report embeds the same
builders' output for its trajectory figures (`headflow.checks.reports.figures`), rendered by the same `png_bytes`.
Axes are labelled with the paper's symbols (matplotlib mathtext, no LaTeX installation needed)
and, on log scales, with plain numbers (2, 5, 10, 100) wherever they fit (`log_scale`).

Tokens are drawn on the circle (d = 2) or the sphere (d = 3) directly; for d > 3 every recorded
state is projected on the three leading principal axes of all recorded positions (PCA), which
shows the clustering geometry with the least distortion a linear map allows.

The same figure gives the same bytes in any process: an equilibrium is drawn in coordinates its tokens' inner
products fix (`intrinsic_coordinates`: a search may find any rotation of it, and which one can turn on the last
bits of a float sum), and `png_bytes` writes no date and a fixed salt for SVG ids.
"""

from __future__ import annotations

import io
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np
from headflow.certificates.atomic import write_bytes_atomic
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogFormatterSciNotation, LogLocator, NullFormatter

#: The time axis of every trajectory figure (the model's time is dimensionless).
TIME_LABEL = "time $t$"
#: Decades a log axis may span and still carry plain numbers (beyond, powers of ten).
PLAIN_DECADES = 4
#: A token farther than this from the span of the tokens before it adds an axis of its intrinsic coordinates.
SPAN_TOLERANCE = 1e-6
#: Decimals of the intrinsic coordinates drawn (their rounding errors, about 1e-15, never reach the drawing).
DRAWN_DECIMALS = 9


def png_bytes(fig: Figure, fmt: str = "png") -> bytes:
    """The figure rendered as PNG (or `fmt`), at the one resolution every headflow figure uses; the same bytes in
    every process (no date in an SVG, whose element ids are salted with a fixed text rather than a random one)."""
    buffer = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "headflow"}):
        fig.savefig(buffer, format=fmt, dpi=120, bbox_inches="tight", metadata={"Date": None} if fmt == "svg" else None)
    return buffer.getvalue()


def save(fig: Figure, stem: Path) -> list[Path]:
    """Write stem.png and stem.svg atomically; return the paths."""
    return [write_bytes_atomic(stem.with_suffix(f".{fmt}"), png_bytes(fig, fmt)) for fmt in ("png", "svg")]


def log_scale(ax: Axes, which: str = "y") -> None:
    """Put the x or y axis on a log scale with readable ticks (call after plotting: the span of the data decides).

    Over at most PLAIN_DECADES decades the ticks are plain numbers (1, 2, 5, 10, 20, ... within two
    decades, powers of ten beyond), never matplotlib's overlapping minor labels such as 2x10^0;
    over more decades, majors only, as powers of ten.
    """
    axis = ax.xaxis if which == "x" else ax.yaxis
    (ax.set_xscale if which == "x" else ax.set_yscale)("log")
    low, high = sorted(ax.dataLim.intervalx if which == "x" else ax.dataLim.intervaly)
    decades = math.log10(high / low) if low > 0 else math.inf
    axis.set_minor_formatter(NullFormatter())
    if decades > PLAIN_DECADES:
        axis.set_major_locator(LogLocator(base=10))
        axis.set_major_formatter(LogFormatterSciNotation())
        return
    axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0) if decades <= 2 else (1.0,)))
    axis.set_major_formatter(FuncFormatter(_plain_number))


def _plain_number(value: float, _position: float) -> str:
    """2, 50, 1,000 or 0.001: a tick value as written by hand."""
    return f"{value:,.0f}" if value >= 1 else f"{value:g}"


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
        ax.set_ylabel("token $x_i$")
        ax.set_title("tokens (d = 1)")
        return fig
    names = [f"$x_{{i,{k + 1}}}$" for k in range(3)]
    if d > 3:
        states, explained = pca_projection(states)
        title = f"tokens, PCA projection of $d$ = {d} ({100 * explained.sum():.0f}% of variance)"
        names = [f"principal axis {k + 1} ({100 * share:.0f}%)" for k, share in enumerate(explained)]
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
    ax.set_xlabel(names[0])
    ax.set_ylabel(names[1])
    if states.shape[-1] == 3:
        ax.set_zlabel(names[2])
    ax.set_title(title)
    return fig


def energy_figure(times: np.ndarray, energy: np.ndarray, head_energies: np.ndarray, title: str = "") -> Figure:
    """E and each E_h against time; on a log scale when every value is positive and they span a decade or more."""
    fig = Figure(figsize=(7, 4))
    ax = fig.add_subplot()
    ax.plot(times, energy, color="black", lw=2, label="$E$")
    for h in range(head_energies.shape[1]):
        ax.plot(times, head_energies[:, h], lw=1, label=f"$E_{{{h + 1}}}$")
    ax.set_xlabel(TIME_LABEL)
    ax.set_ylabel("energy $E$, $E_h$ (usa form)")
    values = np.concatenate([np.ravel(energy), np.ravel(head_energies)])
    if np.all(values > 0) and values.max() >= 10 * values.min():
        log_scale(ax)
    ax.legend(fontsize="small", ncol=2)
    ax.set_title(title)
    return fig


def entropy_figure(times: np.ndarray, entropies: np.ndarray, n: int, title: str = "") -> Figure:
    """Mean attention entropy per head (band: min to max over tokens) against time, with log n."""
    fig = Figure(figsize=(7, 4))
    ax = fig.add_subplot()
    for h in range(entropies.shape[1]):
        (line,) = ax.plot(times, entropies[:, h].mean(axis=-1), lw=1.2, label=f"head {h + 1}")
        ax.fill_between(
            times, entropies[:, h].min(axis=-1), entropies[:, h].max(axis=-1), alpha=0.2, color=line.get_color()
        )
    ax.axhline(math.log(n), color="black", ls="--", lw=1, label=r"$\log n$")
    ax.set_xlabel(TIME_LABEL)
    ax.set_ylabel("attention entropy $H^h_i$ (nats)")
    ax.legend(fontsize="small")
    ax.set_title(title)
    return fig


def gap_figure(times: np.ndarray, gap: np.ndarray) -> Figure:
    """The cluster gap max_{i != j}(1 - <x_i, x_j>) on a log scale."""
    fig = Figure(figsize=(7, 4))
    ax = fig.add_subplot()
    positive = gap > 0
    ax.plot(times[positive], gap[positive], color="tab:blue")
    if np.any(positive):
        log_scale(ax)
    ax.set_xlabel(TIME_LABEL)
    ax.set_ylabel(r"cluster gap $\max_{i \neq j}\,(1 - \langle x_i, x_j \rangle)$")
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
    ax.set_xlabel(TIME_LABEL)
    ax.set_ylabel(r"Condition 8 margin $\min_i\,(T^h_i - \sum_{h'} a^h_i a^{h'}_i)$")
    ax.legend(fontsize="small")
    return fig


def intrinsic_coordinates(X: np.ndarray) -> np.ndarray:
    """The tokens' coordinates in the orthonormal frame Gram-Schmidt makes of the tokens themselves, in order (a
    token within SPAN_TOLERANCE of the span before it adds no axis; missing axes are 0), rounded to DRAWN_DECIMALS:
    they depend only on the tokens' inner products, so every rotation or reflection of X has the same ones."""
    frame: list[np.ndarray] = []
    for x in X:
        rest = x - sum((float(x @ axis) * axis for axis in frame), np.zeros_like(x))
        norm = float(np.linalg.norm(rest))
        if norm > SPAN_TOLERANCE:
            frame.append(rest / norm)
    coordinates = np.zeros_like(X, dtype=float)
    coordinates[:, : len(frame)] = X @ np.array(frame).T
    return np.round(coordinates, DRAWN_DECIMALS) + 0.0  # + 0.0: no negative zero


def equilibria_figure(configurations: list[tuple[str, np.ndarray]]) -> Figure:
    """One panel per equilibrium: its tokens (in intrinsic coordinates) on the circle (d = 2) or the sphere (d = 3;
    PCA beyond), a point's size growing with the number of tokens that sit on it."""
    count = max(len(configurations), 1)
    columns = min(count, 3)
    rows = (count + columns - 1) // columns
    fig = Figure(figsize=(4 * columns, 4 * rows), layout="constrained")
    for k, (title, tokens) in enumerate(configurations):
        X = intrinsic_coordinates(tokens)
        d = X.shape[1]
        points = X if d <= 3 else pca_projection(X[None])[0][0]
        if d == 1:
            points = np.column_stack([X[:, 0], np.zeros(len(X))])
        three = points.shape[1] == 3
        ax = fig.add_subplot(rows, columns, k + 1, **({"projection": "3d"} if three else {}))
        if three:
            u, v = np.meshgrid(np.linspace(0, 2 * math.pi, 24), np.linspace(0, math.pi, 12))
            ax.plot_wireframe(np.cos(u) * np.sin(v), np.sin(u) * np.sin(v), np.cos(v), color="0.88", lw=0.4)
        else:
            theta = np.linspace(0, 2 * math.pi, 256)
            ax.plot(np.cos(theta), np.sin(theta), color="0.85", lw=1)
            ax.set_aspect("equal")
        rounded = np.round(points, 6)
        unique, counts = np.unique(rounded, axis=0, return_counts=True)
        ax.scatter(*unique.T, s=40 * counts, color="tab:red", depthshade=False) if three else ax.scatter(
            *unique.T, s=40 * counts, color="tab:red"
        )
        ax.set_title(title, fontsize=8)
    return fig


def enclosure_width_figure(times: np.ndarray, widths: np.ndarray) -> Figure:
    """The largest width of a validated enclosure of the tokens at each step's end, on a log scale."""
    fig = Figure(figsize=(7, 4))
    ax = fig.add_subplot()
    positive = widths > 0
    ax.plot(times[positive], widths[positive], color="tab:purple", marker=".", ms=3, lw=1)
    if np.any(positive):
        log_scale(ax)
    ax.set_xlabel(TIME_LABEL)
    ax.set_ylabel(r"enclosure width $\max_{i,k}\,\mathrm{width}(x_{ik})$")
    return fig
