"""The plot of each sweep's rows (`headflow sweep` writes it beside the CSV), kept apart from the sweeps'
declarations so that `headflow sweep --help` loads no matplotlib."""

from __future__ import annotations

import itertools
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np


def threshold(rows: list[dict[str, Any]]) -> plt.Figure:
    fig, ax = plt.subplots(figsize=(7, 4))
    for (H, alpha), group in itertools.groupby(
        sorted(rows, key=lambda r: (r["H"], r["alpha"], r["n"])), key=lambda r: (r["H"], r["alpha"])
    ):
        group = list(group)
        line = ax.plot([r["n"] for r in group], [r["beta_star"] for r in group], label=f"beta*, H={H}, a={alpha}")
        ax.plot(
            [r["n"] for r in group],
            [r["beta_condition8_model"] for r in group],
            "--",
            color=line[0].get_color(),
            label=f"model C8, H={H}, a={alpha}",
        )
    ax.axhline(0, color="k", lw=0.6)
    ax.set(xscale="log", xlabel="n", ylabel="beta", title="beta* (solid) vs the model's Condition 8 threshold")
    ax.legend(fontsize=7)
    return fig


def superadditivity(rows: list[dict[str, Any]]) -> plt.Figure:
    fig, ax = plt.subplots(figsize=(7, 4))
    for (n, beta, spread), group in itertools.groupby(
        sorted(rows, key=lambda r: (r["n"], r["beta"], r["spread"], r["mean"])),
        key=lambda r: (r["n"], r["beta"], r["spread"]),
    ):
        group = list(group)
        ax.plot([r["mean"] for r in group], [r["margin"] for r in group], label=f"n={n}, beta={beta}, s={spread}")
    ax.axhline(0, color="k", lw=0.6)
    ax.set(
        xlabel="mean head strength",
        ylabel="phi(m-s) + phi(m+s) - 2 phi(m)",
        title="super-additivity margin of two heads (> 0: heterogeneity is faster)",
    )
    ax.legend(fontsize=7)
    return fig


def clustering(rows: list[dict[str, Any]]) -> plt.Figure:
    fig, ax = plt.subplots(figsize=(7, 4))
    key = lambda r: (r["attention"], r["d"])  # noqa: E731
    for (attention, d), group in itertools.groupby(sorted(rows, key=lambda r: (*key(r), r["n"])), key=key):
        group = [r for r in group if np.isfinite(r["time"])]
        ax.plot([r["n"] for r in group], [r["time"] for r in group], "o", label=f"{attention}, d={d}")
    ax.set(
        xscale="log",
        yscale="log",
        xlabel="n",
        ylabel="time to cluster gap < 1e-2",
        title="clustering times from random initializations (unclustered runs omitted)",
    )
    ax.legend(fontsize=7)
    return fig


def c8_exit(rows: list[dict[str, Any]]) -> plt.Figure:
    fig, ax = plt.subplots(figsize=(7, 4))
    key = lambda r: (r["H"], r["n"], r["alpha"])  # noqa: E731
    for (H, n, _), group in itertools.groupby(sorted(rows, key=lambda r: (*key(r), r["ratio"])), key=key):
        group = [r for r in group if np.isfinite(r["exit_gap"])]
        if not group:
            continue
        line = ax.plot([r["ratio"] for r in group], [r["exit_gap"] for r in group], "o-", label=f"H={H}, n={n}")
        ax.axhline(group[0]["lower_bound"], color=line[0].get_color(), ls=":", lw=0.8)
    ax.set(
        xlabel=r"$\beta/\beta^*$",
        ylabel=r"exit cluster gap $\varepsilon_{\mathrm{exit}}$",
        title=r"where Condition 8 is lost (dotted: $n(H-1)/(H(n-1))$, the $\alpha\beta \to 0$ limit)",
    )
    ax.legend(fontsize=7)
    return fig
