"""The sweeps `headflow sweep` offers: each a task, its grid parameters and its plot."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from certificates.errors import InputError
from certificates.kernel.vocabulary import MAX_DIMENSION, MAX_HEADS, MAX_TOKENS
from checks.choices import MAX_SEED
from checks.constants.exact_numbers import parse_values
from checks.sweeps import tasks

#: Most points one sweep may have (keeps a typo from queueing millions of tasks).
MAX_POINTS = 100_000


@dataclass(frozen=True)
class Parameter:
    """A grid parameter: its name, its type, its default list, its lower bound or its choices."""

    name: str
    kind: type
    default: str
    minimum: Fraction = Fraction(0)
    strict: bool = False
    choices: tuple[str, ...] = ()
    maximum: Fraction | None = None

    def bounds(self) -> str:
        """The accepted values, for --help."""
        if self.choices:
            return "|".join(self.choices)
        low = f"{'>' if self.strict else '>='} {self.minimum}"
        return low if self.maximum is None else f"{low}, <= {self.maximum}"

    def parse(self, text: str) -> list[Any]:
        """The typed values of a comma-separated list (numbers and ranges, or choices)."""
        if self.choices:
            values = [item.strip() for item in text.split(",")]
            for value in values:
                if value not in self.choices:
                    raise InputError(f"--{self.name}", value, f"expected one of {', '.join(self.choices)}")
            return values
        return [self._typed(v) for v in parse_values(f"--{self.name}", text)]

    def _typed(self, value: Fraction) -> int | float:
        if value < self.minimum or (self.strict and value == self.minimum):
            relation = ">" if self.strict else ">="
            raise InputError(f"--{self.name}", str(value), f"must be {relation} {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise InputError(f"--{self.name}", str(value), f"must be <= {self.maximum}")
        if self.kind is int:
            if value.denominator != 1:
                raise InputError(f"--{self.name}", str(value), "must be an integer")
            return int(value)
        return float(value)


@dataclass(frozen=True)
class SweepKind:
    """A sweep: the per-point task, its parameters and a plot of its rows."""

    name: str
    help: str
    task: Callable[..., dict[str, Any]]
    parameters: tuple[Parameter, ...]
    plot: Callable[[list[dict[str, Any]]], plt.Figure]
    #: A bound that involves several parameters of one point (InputError when violated).
    point_check: Callable[[dict[str, Any]], None] = lambda point: None

    def grid(self, texts: dict[str, str | None]) -> list[dict[str, Any]]:
        """The Cartesian product of the parameter lists (given as text; None for the default)."""
        typed = {p.name: p.parse(texts.get(p.name) or p.default) for p in self.parameters}
        size = 1
        for column in typed.values():
            size *= len(column)
        if size > MAX_POINTS:
            raise InputError("grid", size, f"at most {MAX_POINTS} points per sweep")
        names = [p.name for p in self.parameters]
        points = [dict(zip(names, combo, strict=True)) for combo in itertools.product(*(typed[n] for n in names))]
        for point in points:
            self.point_check(point)
        return points


#: Largest beta * (mean + spread) of a superadditivity point: exp of it must stay within float64.
MAX_RATE_EXPONENT = 700


def _check_rate_exponent(point: dict[str, Any]) -> None:
    exponent = point["beta"] * (point["mean"] + point["spread"])
    if exponent > MAX_RATE_EXPONENT:
        raise InputError("beta*(mean+spread)", exponent, f"must be at most {MAX_RATE_EXPONENT} (exp overflows)")


def _plot_threshold(rows: list[dict[str, Any]]) -> plt.Figure:
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


def _plot_superadditivity(rows: list[dict[str, Any]]) -> plt.Figure:
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


def _plot_clustering(rows: list[dict[str, Any]]) -> plt.Figure:
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


def _plot_c8_exit(rows: list[dict[str, Any]]) -> plt.Figure:
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


SWEEPS: dict[str, SweepKind] = {
    "threshold": SweepKind(
        "threshold",
        "the model's Condition 8 threshold (scalar heads, orthogonal tokens) against beta*, over (H, n, alpha)",
        tasks.threshold_point,
        (
            Parameter("H", int, "2,3,4,8", Fraction(2), maximum=Fraction(MAX_HEADS)),
            Parameter("n", int, "2,4,8,16,32,64", Fraction(2), maximum=Fraction(MAX_TOKENS)),
            Parameter("alpha", float, "1", Fraction(0), strict=True, maximum=Fraction(100)),
        ),
        _plot_threshold,
    ),
    "superadditivity": SweepKind(
        "superadditivity",
        "the two-head super-additivity margin of phi over (n, beta, mean, spread)",
        tasks.superadditivity_point,
        (
            Parameter("n", int, "2,10,100", Fraction(2), maximum=Fraction(10**12)),
            Parameter("beta", float, "1", Fraction(0), strict=True, maximum=Fraction(MAX_RATE_EXPONENT)),
            Parameter("mean", float, "0.5..8:1/2", Fraction(0), strict=True, maximum=Fraction(MAX_RATE_EXPONENT)),
            Parameter("spread", float, "0.25", Fraction(0), maximum=Fraction(MAX_RATE_EXPONENT)),
        ),
        _plot_superadditivity,
        _check_rate_exponent,
    ),
    "c8-exit": SweepKind(
        "c8-exit",
        "the certified cluster gap at which Condition 8 is lost (T19's regime, orthonormal start) over "
        "(H, n, beta/beta*)",
        tasks.c8_exit_point,
        (
            Parameter("H", int, "2,3,4", Fraction(2), maximum=Fraction(1000)),
            Parameter("n", int, "8,16,64,1000", Fraction(2), maximum=Fraction(10**9)),
            Parameter("ratio", float, "0.1..1:0.1", Fraction(0), strict=True, maximum=Fraction(1)),
            Parameter("alpha", float, "1", Fraction(0), strict=True, maximum=Fraction(100)),
        ),
        _plot_c8_exit,
    ),
    "clustering": SweepKind(
        "clustering",
        "clustering times from random initializations over (attention, n, d, seed), T25's setting",
        tasks.clustering_point,
        (
            Parameter("attention", str, "softmax,relu", choices=("softmax", "relu", "usa")),
            Parameter("n", int, "8,16,32", Fraction(2), maximum=Fraction(MAX_TOKENS)),
            Parameter("d", int, "4,16,64", Fraction(2), maximum=Fraction(MAX_DIMENSION)),
            Parameter("seed", int, "0,1", Fraction(0), maximum=Fraction(MAX_SEED)),
        ),
        _plot_clustering,
    ),
}
