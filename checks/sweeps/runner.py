"""Run a per-point task over a grid on dask.distributed (or serially), resumable from disk.

Finished rows are appended to `<name>.partial.csv` as they arrive, so an interrupted sweep
loses no finished point. A rerun reads the rows of both files a previous run may have left (an older
complete `<name>.csv` and the partial file; a torn last line or a malformed row is dropped, a point
met twice counts once), rewrites the partial file with them before appending, and computes only the
missing points. On completion `<name>.csv` is written atomically with exactly one row per point of the
grid, in grid order, and the partial file is removed: the complete file only ever exists complete.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from headflow.certificates.atomic import write_text_atomic
from headflow.certificates.errors import InputError
from headflow.certificates.kernel.loading import read_bounded
from headflow.checks.progress import progress_bar

Task = Callable[..., dict[str, Any]]
KEY = "point_key"
#: Most points one sweep may have, and most local worker processes (beyond, the grid is a typo).
MAX_GRID_POINTS = 100_000
MAX_WORKERS = 64
#: Largest CSV file a sweep reads back (far above MAX_GRID_POINTS rows of any sweep).
MAX_CSV_BYTES = 256 << 20


def point_key(point: dict[str, Any]) -> str:
    """A stable text key of a grid point (its parameters, sorted)."""
    return json.dumps(point, sort_keys=True)


def partial_path(out_csv: Path) -> Path:
    return out_csv.with_suffix(".partial.csv")


def load_finished(out_csv: Path) -> dict[str, dict[str, str]]:
    """Rows already computed, by point key: those of the complete CSV, then of the partial one (which is newer)."""
    return _rows(out_csv) | _rows(partial_path(out_csv))


def _rows(path: Path) -> dict[str, dict[str, str]]:
    """The well-formed rows of one CSV file, by point key ({} when it does not exist).

    A line without its newline is the torn end of an interrupted write and is dropped, as is a row whose
    number of fields differs from the header's or whose key is empty; a later row of a key replaces an earlier one.
    """
    try:
        data = read_bounded(path, MAX_CSV_BYTES)
    except FileNotFoundError:
        return {}
    text = data.decode("utf-8", errors="replace")
    complete = text[: text.rfind("\n") + 1]
    rows = {}
    for row in csv.DictReader(io.StringIO(complete, newline="")):
        if None not in row and None not in row.values() and row.get(KEY):
            rows[row[KEY]] = row
    return rows


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
    todo = list({point_key(p): p for p in points if point_key(p) not in finished}.values())
    new_rows: dict[str, dict[str, Any]] = {}
    if todo:
        writer = _PartialWriter(partial_path(out_csv), finished)
        with writer, progress_bar("sweep", len(todo), show_progress) as advance:
            for point, row in _compute(task, todo, workers, scheduler):
                key = point_key(point)
                new_rows[key] = row
                writer.append(key, row)
                advance()
    keys = list(dict.fromkeys(point_key(p) for p in points))
    write_text_atomic(out_csv, _csv_text({key: new_rows[key] if key in new_rows else finished[key] for key in keys}))
    partial_path(out_csv).unlink(missing_ok=True)
    return [new_rows[key] if key in new_rows else _typed(finished[key]) for key in map(point_key, points)]


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


def _fields(rows: Iterable[dict[str, Any]]) -> list[str]:
    """The key column, then every other column in order of first appearance."""
    return list(dict.fromkeys([KEY, *(name for row in rows for name in row)]))


def _csv_text(rows: dict[str, dict[str, Any]]) -> str:
    """A CSV of the rows by point key (header included; a column a row lacks is left empty)."""
    buffer = io.StringIO(newline="")
    writer = csv.DictWriter(buffer, fieldnames=_fields(rows.values()), restval="")
    writer.writeheader()
    writer.writerows({**row, KEY: key} for key, row in rows.items())
    return buffer.getvalue()


class _PartialWriter:
    """Rewrites the partial CSV with the finished rows (deduplicated, no torn line) at its first row, then appends
    each new row, flushing it."""

    def __init__(self, path: Path, finished: dict[str, dict[str, str]]) -> None:
        self.path = path
        self.finished = finished
        self.handle: Any = None
        self.writer: csv.DictWriter | None = None

    def __enter__(self) -> _PartialWriter:
        return self

    def append(self, key: str, row: dict[str, Any]) -> None:
        if self.writer is None:
            write_text_atomic(self.path, _csv_text(self.finished | {key: row}))
            self.handle = self.path.open("a", newline="")
            fields = _fields([*self.finished.values(), row])
            self.writer = csv.DictWriter(self.handle, fieldnames=fields, restval="")
            return
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
