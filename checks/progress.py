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
