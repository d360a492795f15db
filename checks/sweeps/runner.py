"""Run a per-point task over a grid on dask.distributed (or serially), resumable from disk.

Finished rows are appended to `<name>.partial.csv` as they arrive, so an interrupted sweep
loses no finished point; on completion the file is renamed to `<name>.csv`, which therefore
only ever exists complete. A rerun reads the partial file and computes only missing points.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from checks.errors import InputError
from checks.progress import progress_bar

Task = Callable[..., dict[str, Any]]
KEY = "point_key"
#: Most points one sweep may have, and most local worker processes (beyond, the grid is a typo).
MAX_GRID_POINTS = 100_000
MAX_WORKERS = 64


def point_key(point: dict[str, Any]) -> str:
    """A stable text key of a grid point (its parameters, sorted)."""
    return json.dumps(point, sort_keys=True)


def partial_path(out_csv: Path) -> Path:
    return out_csv.with_suffix(".partial.csv")


def load_finished(out_csv: Path) -> dict[str, dict[str, str]]:
    """Rows already computed (from a complete or a partial run), by point key."""
    for path in (out_csv, partial_path(out_csv)):
        if path.exists():
            with path.open(newline="") as handle:
                return {row[KEY]: row for row in csv.DictReader(handle)}
    return {}


@contextmanager
def dask_client(workers: int, scheduler: str | None) -> Iterator[Any]:
    """A client of an existing scheduler, or of a local cluster of `workers` processes."""
    from dask.distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            client = Client(scheduler, timeout="10s")
        except OSError as exc:
            raise InputError("--scheduler", scheduler, f"cannot connect ({exc})") from None
        with client:
            yield client
        return
    with (
        LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        yield client


def run_sweep(
    task: Task,
    points: list[dict[str, Any]],
    out_csv: Path,
    *,
    workers: int = 2,
    scheduler: str | None = None,
    show_progress: bool = True,
) -> list[dict[str, Any]]:
    """Compute `task(**point)` for every point not finished yet; return rows in grid order.

    `workers=0` without a scheduler runs serially in this process (same numbers, no cluster).
    """
    if len(points) > MAX_GRID_POINTS:
        raise InputError("grid points", len(points), f"at most {MAX_GRID_POINTS} points per sweep")
    if isinstance(workers, bool) or not isinstance(workers, int) or not 0 <= workers <= MAX_WORKERS:
        raise InputError("workers", workers, f"must be an integer from 0 to {MAX_WORKERS}")
    finished = load_finished(out_csv)
    todo = [p for p in points if point_key(p) not in finished]
    new_rows: dict[str, dict[str, Any]] = {}
    if todo:
        writer = _PartialWriter(partial_path(out_csv), finished)
        with writer, progress_bar("sweep", len(todo), show_progress) as advance:
            for point, row in _compute(task, todo, workers, scheduler):
                key = point_key(point)
                new_rows[key] = row
                writer.append(key, row)
                advance()
    rows = [new_rows.get(point_key(p)) or _typed(finished[point_key(p)]) for p in points]
    if partial_path(out_csv).exists():
        os.replace(partial_path(out_csv), out_csv)
    return rows


def _compute(task: Task, todo: list[dict[str, Any]], workers: int, scheduler: str | None):
    if workers == 0 and scheduler is None:
        for point in todo:
            yield point, task(**point)
        return
    from dask.distributed import as_completed

    with dask_client(workers, scheduler) as client:
        futures = {client.submit(task, pure=False, **point): point for point in todo}
        for future in as_completed(futures):
            yield futures[future], future.result()


class _PartialWriter:
    """Appends finished rows to the partial CSV, flushing each one."""

    def __init__(self, path: Path, finished: dict[str, dict[str, str]]) -> None:
        self.path = path
        self.finished = finished
        self.handle: Any = None
        self.writer: csv.DictWriter | None = None

    def __enter__(self) -> _PartialWriter:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        return self

    def append(self, key: str, row: dict[str, Any]) -> None:
        if self.writer is None:
            fields = [KEY, *row]
            fresh = not self.path.exists()
            self.handle = self.path.open("a", newline="")
            self.writer = csv.DictWriter(self.handle, fieldnames=fields)
            if fresh:
                self.writer.writeheader()
                for old_key, old_row in self.finished.items():
                    self.writer.writerow({**old_row, KEY: old_key})
        self.writer.writerow({KEY: key, **row})
        self.handle.flush()

    def __exit__(self, *exc: object) -> None:
        if self.handle is not None:
            self.handle.close()


def _typed(row: dict[str, str]) -> dict[str, Any]:
    """A CSV row back to numbers (the key column dropped)."""
    out: dict[str, Any] = {}
    for name, text in row.items():
        if name == KEY:
            continue
        try:
            number = float(text)
            out[name] = int(number) if number.is_integer() and "." not in text and "e" not in text else number
        except ValueError:
            out[name] = text
    return out
