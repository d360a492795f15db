"""Sweeps: dask gives the serial numbers, an interrupted sweep resumes without recomputing."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from headflow.checks.sweeps.runner import KEY, partial_path, point_key, run_sweep
from headflow.checks.sweeps.tasks import superadditivity_point, threshold_point


@pytest.mark.slow
def test_local_cluster_gives_the_serial_numbers(tmp_path: Path) -> None:
    points = [{"H": H, "n": n, "alpha": 1.0} for H in (2, 3) for n in (4, 10)]
    serial = run_sweep(threshold_point, points, tmp_path / "serial.csv", workers=0, show_progress=False)
    parallel = run_sweep(threshold_point, points, tmp_path / "dask.csv", workers=2, show_progress=False)
    assert serial == parallel
    assert (tmp_path / "dask.csv").exists() and not partial_path(tmp_path / "dask.csv").exists()


class _Interrupting:
    """A task that records its calls and fails once `fail_after` calls have been made."""

    def __init__(self, fail_after: int | None) -> None:
        self.calls: list[float] = []
        self.fail_after = fail_after

    def __call__(self, mean: float) -> dict[str, float]:
        if self.fail_after is not None and len(self.calls) >= self.fail_after:
            raise KeyboardInterrupt
        self.calls.append(mean)
        return superadditivity_point(10, 1.0, mean, 0.5)


def test_an_interrupted_sweep_resumes_with_only_the_missing_points(tmp_path: Path) -> None:
    out = tmp_path / "sweep.csv"
    points = [{"mean": 1.0 + k / 4} for k in range(8)]
    first = _Interrupting(fail_after=3)
    with pytest.raises(KeyboardInterrupt):
        run_sweep(first, points, out, workers=0, show_progress=False)
    assert not out.exists() and partial_path(out).exists()
    second = _Interrupting(fail_after=None)
    rows = run_sweep(second, points, out, workers=0, show_progress=False)
    assert sorted(second.calls) == sorted(p["mean"] for p in points[3:])
    assert [r["mean"] for r in rows] == [p["mean"] for p in points]
    assert rows == [superadditivity_point(10, 1.0, p["mean"], 0.5) for p in points]
    third = _Interrupting(fail_after=0)
    assert run_sweep(third, points, out, workers=0, show_progress=False) == rows


def _means(count: int) -> list[dict[str, float]]:
    return [{"mean": 1.0 + k / 4} for k in range(count)]


def _final_rows(out: Path) -> list[dict[str, str]]:
    """The rows of the complete CSV; the partial file must be gone."""
    assert not partial_path(out).exists()
    with out.open(newline="") as handle:
        return list(csv.DictReader(handle))


def _assert_one_row_per_point(out: Path, points: list[dict[str, float]]) -> None:
    """Exactly one row per grid point, in grid order, each with the task's own numbers."""
    rows = _final_rows(out)
    assert [row[KEY] for row in rows] == [point_key(p) for p in points]
    for row, point in zip(rows, points, strict=True):
        expected = superadditivity_point(10, 1.0, point["mean"], 0.5)
        assert float(row["margin"]) == expected["margin"] and float(row["mean"]) == point["mean"]


def test_a_resumed_sweep_reads_its_partial_file_even_next_to_an_older_complete_csv(tmp_path: Path) -> None:
    """A complete run of 3 points, then a run of 8 killed after 2 new points: the rerun computes only the 3 others."""
    out = tmp_path / "sweep.csv"
    run_sweep(_Interrupting(None), _means(3), out, workers=0, show_progress=False)
    with pytest.raises(KeyboardInterrupt):
        run_sweep(_Interrupting(fail_after=2), _means(8), out, workers=0, show_progress=False)
    assert out.exists() and partial_path(out).exists()
    rerun = _Interrupting(None)
    run_sweep(rerun, _means(8), out, workers=0, show_progress=False)
    assert sorted(rerun.calls) == [p["mean"] for p in _means(8)[5:]]
    _assert_one_row_per_point(out, _means(8))


def _partial_by_hand(out: Path, points: list[dict[str, float]], tail: str) -> None:
    """A partial file of `points` (as an interrupted run writes it) followed by the raw text `tail`."""
    fields = [KEY, "n", "beta", "mean", "spread", "margin"]
    with partial_path(out).open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        for point in points:
            writer.writerow({KEY: point_key(point), **superadditivity_point(10, 1.0, point["mean"], 0.5)})
        handle.write(tail)


@pytest.mark.parametrize(
    ("done", "tail"),
    [
        ([0, 1, 2], '"{""mean"": 1.75}",10,1.0,1.75,0.5,0.0012'),  # a torn last line: no newline, margin cut short
        ([0, 1, 2, 1, 2, 0], ""),  # the same points twice (two runs appended to one partial file)
        ([0, 1], '"{""mean"": 1.5}",10,1.0\r\n'),  # a row with too few fields
    ],
)
def test_a_resumed_sweep_ends_with_one_row_per_point_whatever_the_partial_file_holds(
    tmp_path: Path, done: list[int], tail: str
) -> None:
    out = tmp_path / "sweep.csv"
    points = _means(6)
    _partial_by_hand(out, [points[k] for k in done], tail)
    rerun = _Interrupting(None)
    rows = run_sweep(rerun, points, out, workers=0, show_progress=False)
    assert sorted(rerun.calls) == [p["mean"] for k, p in enumerate(points) if k not in done]
    assert rows == [superadditivity_point(10, 1.0, p["mean"], 0.5) for p in points]
    _assert_one_row_per_point(out, points)


def test_a_sweep_killed_again_while_resuming_still_ends_with_one_row_per_point(tmp_path: Path) -> None:
    """Torn partial file, resumed and interrupted once more, then resumed to the end."""
    out = tmp_path / "sweep.csv"
    points = _means(8)
    _partial_by_hand(out, points[:2], '"{""mean"": 1.5}",10,1.0,1.5')
    with pytest.raises(KeyboardInterrupt):
        run_sweep(_Interrupting(fail_after=3), points, out, workers=0, show_progress=False)
    run_sweep(_Interrupting(None), points, out, workers=0, show_progress=False)
    _assert_one_row_per_point(out, points)


def test_threshold_point_finds_the_model_threshold_above_beta_star() -> None:
    import math

    row = threshold_point(2, 10, 1.0)
    assert math.isclose(row["beta_condition8_model"], 0.5 * math.log(9), rel_tol=1e-9)
    assert row["beta_star"] < row["beta_condition8_model"]


def test_sweep_command_writes_csv_and_plot_and_resumes(tmp_path: Path, capsys) -> None:
    import json

    from headflow.checks import cli

    args = ["sweep", "superadditivity", "--n", "10", "--mean", "1..3", "--workers", "0", "--no-progress"]
    assert cli.main([*args, "--out", str(tmp_path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["points"] == 3
    assert (tmp_path / "superadditivity.csv").exists() and (tmp_path / "superadditivity.png").exists()
    assert cli.main([*args, "--mean", "1..4", "--out", str(tmp_path)]) == 0
    lines = (tmp_path / "superadditivity.csv").read_text().strip().splitlines()
    assert len(lines) == 1 + 4


@pytest.mark.parametrize(
    "args",
    [
        ["sweep", "threshold", "--H", "1"],
        ["sweep", "threshold", "--n", "2.5"],
        ["sweep", "threshold", "--alpha", "0"],
        ["sweep", "threshold", "--mean", "1"],
        ["sweep", "threshold", "--n", "2..10000000"],
        ["sweep", "threshold", "--workers", "-1"],
        ["sweep", "superadditivity", "--beta", "abc"],
    ],
)
def test_sweep_rejects_bad_parameters(args: list[str], capsys) -> None:
    from headflow.checks import cli

    assert cli.main([*args, "--workers", "0"] if "--workers" not in args else args) == 2
    err = capsys.readouterr().err
    assert err.startswith("headflow: error:") and len(err.strip().splitlines()) == 1


def test_c8_exit_point_agrees_with_the_model_and_its_bound(tmp_path: Path) -> None:
    import math

    from headflow.checks.cli import main
    from headflow.checks.sweeps.tasks import c8_exit_point

    row = c8_exit_point(2, 3, 0.5, 1.0)
    assert math.isclose(row["exit_gap"], row["exit_gap_model"], abs_tol=1e-9)
    assert row["lower_bound"] == 0.75 < row["exit_gap"] < 1
    assert math.isnan(c8_exit_point(3, 3, 0.5, 1.0)["exit_gap"])  # beta* < 0: the regime is empty
    assert (
        main(
            [
                "sweep",
                "c8-exit",
                "--H",
                "2",
                "--n",
                "3,200",
                "--ratio",
                "0.5,1",
                "--workers",
                "0",
                "--out",
                str(tmp_path),
            ]
        )
        == 0
    )
    assert (tmp_path / "c8-exit.csv").exists() and (tmp_path / "c8-exit.png").exists()
