"""A progress bar on stderr for long runs (silent when stderr is not a terminal)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def progress_bar(description: str, total: int, enabled: bool = True) -> Iterator[Any]:
    """Yield `advance(label)`; the bar draws on stderr and disappears when done (rich is imported only for a bar that
    is `enabled`: a small call starts without it)."""
    if not enabled:
        yield lambda label="": None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    if not console.is_terminal:
        yield lambda label="": None
        return
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[label]}"),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task(description, total=total, label="")

        def advance(label: str = "") -> None:
            progress.update(task, advance=1, label=label)

        yield advance


class ClaimsProgress:
    """What `claims_progress` yields: `begin(claim_id)` before a claim, `budget(unit, done, total)` from within it
    (its counted budget: starts, points), `done()` after it. Display only; every method is a no-op without a bar."""

    def __init__(self, progress: Any = None, total: int = 0) -> None:
        self._progress, self._total, self._done = progress, total, 0
        self._claim, self._spent = "", {}  # unit -> (done, total) of the claim being decided, in first-report order
        self._task = None if progress is None else progress.add_task("", total=total, label="")

    def begin(self, claim_id: str) -> None:
        self._claim, self._spent = claim_id, {}
        self._show()

    def budget(self, unit: str, done: int, total: int) -> None:
        self._spent[unit] = (done, total)
        self._show()

    def done(self) -> None:
        self._done += 1
        if self._progress is not None:
            self._progress.update(self._task, advance=1)

    def _show(self) -> None:
        if self._progress is None:
            return
        spent = ", ".join(f"{unit} {k}/{n}" for unit, (k, n) in self._spent.items())
        where = f"claim {min(self._done + 1, self._total)} of {self._total}: {self._claim}"
        self._progress.update(self._task, description=where, label=spent)


@contextmanager
def claims_progress(description: str, total: int, enabled: bool = True) -> Iterator[ClaimsProgress]:
    """A bar over `total` claims on stderr when it is a terminal and `enabled`: which claim runs (k of N), the claims
    done, and within a long claim its counted budget; a silent `ClaimsProgress` otherwise (a pipe gets nothing)."""
    if not enabled:
        yield ClaimsProgress()
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    if not console.is_terminal:
        yield ClaimsProgress()
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, TextColumn("{task.fields[label]}"), console=console, transient=True) as progress:
        bar = ClaimsProgress(progress, total)
        bar.begin(description)
        yield bar
