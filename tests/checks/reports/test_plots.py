"""Readable figures: plain numbers on log axes where they fit, the paper's symbols in the axis labels."""

from __future__ import annotations

import numpy as np
import pytest
from headflow.checks.reports import plots
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure


def _tick_labels(fig: Figure, axis: str) -> tuple[list[str], list[str]]:
    """(major, minor) tick labels of the first axes' x or y axis, as drawn, within the view."""
    FigureCanvasAgg(fig).draw()
    ax = fig.axes[0]
    chosen = ax.xaxis if axis == "x" else ax.yaxis
    low, high = sorted(ax.get_xlim() if axis == "x" else ax.get_ylim())

    def shown(ticks: list) -> list[str]:
        return [t.label1.get_text() for t in ticks if low <= t.get_loc() <= high and t.label1.get_text()]

    return shown(chosen.get_major_ticks()), shown(chosen.get_minor_ticks())


@pytest.mark.parametrize(
    ("span", "expected"),
    [((2, 64), ["2", "5", "10", "20", "50"]), ((2, 10_000), ["10", "100", "1,000", "10,000"])],
)
def test_log_axes_over_few_decades_carry_plain_numbers(span: tuple[int, int], expected: list[str]) -> None:
    fig = Figure()
    ax = fig.add_subplot()
    ax.plot(span, [0, 1])
    plots.log_scale(ax, "x")
    major, minor = _tick_labels(fig, "x")
    assert major == expected and minor == []


def test_log_axes_over_many_decades_carry_powers_of_ten() -> None:
    fig = plots.gap_figure(np.linspace(0, 1, 9), np.geomspace(1, 1e-12, 9))
    major, minor = _tick_labels(fig, "y")
    assert minor == [] and len(major) >= 4
    assert all(label.startswith("$\\mathdefault{10^{") for label in major)


def test_trajectory_figures_label_their_axes_with_symbols() -> None:
    times = np.linspace(0, 1, 5)
    figures = [
        plots.energy_figure(times, np.linspace(1, 2, 5), np.ones((5, 2))),
        plots.entropy_figure(times, np.ones((5, 2, 3)), 3),
        plots.gap_figure(times, np.geomspace(1, 1e-3, 5)),
        plots.condition8_figure(times, np.ones((5, 2))),
    ]
    for fig in figures:
        ax = fig.axes[0]
        assert ax.get_xlabel() == plots.TIME_LABEL
        assert "$" in ax.get_ylabel()
        FigureCanvasAgg(fig).draw()  # the mathtext of every label parses


def test_energy_is_drawn_on_a_log_scale_only_when_it_spans_a_decade() -> None:
    times = np.linspace(0, 1, 5)
    assert plots.energy_figure(times, np.linspace(1, 2, 5), np.ones((5, 1))).axes[0].get_yscale() == "linear"
    assert plots.energy_figure(times, np.geomspace(1, 50, 5), np.ones((5, 1))).axes[0].get_yscale() == "log"
