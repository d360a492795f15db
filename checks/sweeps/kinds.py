"""The sweeps `headflow sweep` offers: each a task, its grid parameters and its plot (named here, defined in
`headflow.checks.sweeps.tasks` and `headflow.checks.sweeps.plots`)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from headflow.certificates.errors import InputError
from headflow.certificates.vocabulary import MAX_DIMENSION, MAX_HEADS, MAX_TOKENS
from headflow.checks.choices import MAX_SEED
from headflow.checks.constants.exact_numbers import parse_values

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
    """A sweep: the per-point task, its parameters and a plot of its rows. The task and the plot are named, not
    imported, so that declaring the sweeps (for --help) loads neither the model nor matplotlib."""

    name: str
    help: str
    task_name: str
    parameters: tuple[Parameter, ...]
    plot_name: str
    #: A bound that involves several parameters of one point (InputError when violated).
    point_check: Callable[[dict[str, Any]], None] = lambda point: None

    @property
    def task(self) -> Callable[..., dict[str, Any]]:
        """The per-point task, from `headflow.checks.sweeps.tasks`."""
        from headflow.checks.sweeps import tasks

        return getattr(tasks, self.task_name)

    @property
    def plot(self) -> Callable[[list[dict[str, Any]]], Any]:
        """The plot of the rows (a matplotlib figure), from `headflow.checks.sweeps.plots`."""
        from headflow.checks.sweeps import plots

        return getattr(plots, self.plot_name)

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


SWEEPS: dict[str, SweepKind] = {
    "threshold": SweepKind(
        "threshold",
        "the model's Condition 8 threshold (scalar heads, orthogonal tokens) against beta*, over (H, n, alpha)",
        "threshold_point",
        (
            Parameter("H", int, "2,3,4,8", Fraction(2), maximum=Fraction(MAX_HEADS)),
            Parameter("n", int, "2,4,8,16,32,64", Fraction(2), maximum=Fraction(MAX_TOKENS)),
            Parameter("alpha", float, "1", Fraction(0), strict=True, maximum=Fraction(100)),
        ),
        "threshold",
    ),
    "superadditivity": SweepKind(
        "superadditivity",
        "the two-head super-additivity margin of phi over (n, beta, mean, spread)",
        "superadditivity_point",
        (
            Parameter("n", int, "2,10,100", Fraction(2), maximum=Fraction(10**12)),
            Parameter("beta", float, "1", Fraction(0), strict=True, maximum=Fraction(MAX_RATE_EXPONENT)),
            Parameter("mean", float, "0.5..8:1/2", Fraction(0), strict=True, maximum=Fraction(MAX_RATE_EXPONENT)),
            Parameter("spread", float, "0.25", Fraction(0), maximum=Fraction(MAX_RATE_EXPONENT)),
        ),
        "superadditivity",
        _check_rate_exponent,
    ),
    "c8-exit": SweepKind(
        "c8-exit",
        "the certified cluster gap at which Condition 8 is lost (T19's regime, orthonormal start) over "
        "(H, n, beta/beta*)",
        "c8_exit_point",
        (
            Parameter("H", int, "2,3,4", Fraction(2), maximum=Fraction(1000)),
            Parameter("n", int, "8,16,64,1000", Fraction(2), maximum=Fraction(10**9)),
            Parameter("ratio", float, "0.1..1:0.1", Fraction(0), strict=True, maximum=Fraction(1)),
            Parameter("alpha", float, "1", Fraction(0), strict=True, maximum=Fraction(100)),
        ),
        "c8_exit",
    ),
    "clustering": SweepKind(
        "clustering",
        "clustering times from random initializations over (attention, n, d, seed), T25's setting",
        "clustering_point",
        (
            Parameter("attention", str, "softmax,relu", choices=("softmax", "relu", "usa")),
            Parameter("n", int, "8,16,32", Fraction(2), maximum=Fraction(MAX_TOKENS)),
            Parameter("d", int, "4,16,64", Fraction(2), maximum=Fraction(MAX_DIMENSION)),
            Parameter("seed", int, "0,1", Fraction(0), maximum=Fraction(MAX_SEED)),
        ),
        "clustering",
    ),
}
