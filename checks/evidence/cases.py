"""The float-evidence loop of the numeric procedures: a case count per profile, the time budget, the worst case.

Every numeric check runs `quick` or `thorough` cases (`cases`, whose iteration checks the context's
budget before each), draws each case from the context's generator for its own salt (so that the same
seed gives the same draws), keeps the case that comes closest to violating the claim (`Worst`)
and turns it into a float verdict: floats can at most CONFIRM (`headflow.checks.evidence.sampling.float_verdict`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from headflow.checks.evidence.sampling import configuration_record, float_verdict
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome


@dataclass(frozen=True)
class Cases:
    """A number of cases, iterated as 0, 1, ... with the context's budget checked before each."""

    ctx: Context
    count: int

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[int]:
        for case in range(self.count):
            self.ctx.check_budget()
            yield case


def cases(ctx: Context, quick: int, thorough: int) -> Cases:
    """The profile's number of cases: `quick` or `thorough`."""
    return Cases(ctx, thorough if ctx.thorough else quick)


@dataclass
class Worst:
    """The worst value seen over the cases, the configuration that showed it first, and how many were seen.

    Checks measure a case either by a discrepancy (`Worst.largest`: larger is worse, the margin is
    minus it) or by a margin (`Worst.least`: smaller is worse). `start` is the value before any case:
    0 counts only violations; an infinite start keeps the closest case even when every case holds.
    """

    value: float
    larger_is_worse: bool
    candidate: dict[str, Any] | None = None
    cases: int = 0

    @classmethod
    def largest(cls, start: float = 0.0) -> Worst:
        """The largest discrepancy, from `start`."""
        return cls(start, True)

    @classmethod
    def least(cls, start: float = 0.0) -> Worst:
        """The least margin, from `start`."""
        return cls(start, False)

    def _worse(self, value: float) -> bool:
        return value > self.value if self.larger_is_worse else value < self.value

    def update(self, value: float, cfg: Configuration) -> None:
        """Count one case; keep it (and its configuration) when it is strictly worse than every earlier one."""
        self.cases += 1
        if self._worse(value):
            self.value, self.candidate = value, configuration_record(cfg)

    def bound(self, value: float) -> None:
        """Take in a violation that has no configuration of its own (it moves the worst value, not the candidate)."""
        if self._worse(value):
            self.value = value

    @property
    def margin(self) -> float:
        """The worst margin: >= 0 when every case holds."""
        return -self.value if self.larger_is_worse else self.value

    def verdict(
        self, method: str, tolerance: float, details: dict[str, Any] | None = None, margin: float | None = None
    ) -> Outcome:
        """The float verdict of the cases seen, at `margin` when a check combines several (default: this one's)."""
        worst = self.margin if margin is None else margin
        return float_verdict(method, self.cases, worst, tolerance, self.candidate, details)
