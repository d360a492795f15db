"""`headflow simulate`: the files it writes, and one-line errors with exit code 2 on bad options."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from headflow.checks import cli

PLOTS = ("tokens", "energy", "entropy", "cluster_gap", "condition8")


@pytest.mark.parametrize(
    "options",
    [
        ["--n", "6", "--d", "3", "--heads", "2", "--head-family", "symmetric"],
        ["--n", "5", "--d", "7", "--lambdas", "1,0.5", "--tokens", "orthogonal", "--attention", "usa"],
        ["--n", "4", "--d", "2", "--heads", "1", "--geometry", "flat", "--attention", "relu", "--scale", "0.3"],
    ],
)
def test_simulate_writes_the_trajectory_and_plots(tmp_path: Path, options: list[str]) -> None:
    out = tmp_path / "run"
    assert cli.main(["simulate", *options, "--T", "1", "--samples", "11", "--out", str(out)]) == 0
    data = np.load(out / "trajectory.npz")
    n, d = int(options[1]), int(options[3])
    assert data["times"].shape == (11,) and str(data["backend"]) == "numpy"
    assert data["tokens"].shape == (11, n, d)
    assert data["entropies"].shape[0] == 11
    for stem in PLOTS:
        for suffix in (".png", ".svg"):
            assert (out / f"{stem}{suffix}").stat().st_size > 1000
    assert (out / "tokens.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in (out / "energy.svg").read_bytes()[:2000]
    assert not list(out.glob("*.part"))


@pytest.mark.parametrize(
    "options",
    [
        ["--n", "1"],
        ["--lambdas", "1,abc"],
        ["--lambdas", "1,nan"],
        ["--T", "-1"],
        ["--samples", "1"],
        ["--beta", "0"],
        ["--tokens", "orthogonal", "--n", "5", "--d", "3"],
        ["--tokens", "equiangular", "--n", "3", "--d", "3", "--rho", "-0.9"],
        ["--attention", "nope"],
        ["--heads", "2", "--lambdas", "1,2"],
        ["--stop-gap", "0"],
        ["--T", "1e308"],
        ["--T", "inf"],
        ["--samples", "100000000000"],
        ["--rtol", "1e-300"],
        ["--scale", "1e308"],
        ["--max-steps", "0"],
        ["--method", "rk4"],
    ],
)
def test_simulate_rejects_bad_options_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str]
) -> None:
    try:
        code = cli.main(["simulate", *options, "--out", str(tmp_path / "x")])
    except SystemExit as exc:  # argparse usage errors
        code = int(exc.code)
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err
    assert not (tmp_path / "x" / "trajectory.npz").exists()


def test_simulate_stops_at_the_cluster_gap_event(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    options = ["--n", "4", "--d", "4", "--tokens", "equiangular", "--rho", "0.5", "--stop-gap", "1e-3"]
    assert cli.main(["simulate", *options, "--T", "100", "--no-plots", "--out", str(tmp_path)]) == 0
    data = np.load(tmp_path / "trajectory.npz")
    assert [path.name for path in tmp_path.iterdir()] == ["trajectory.npz"]  # --no-plots: the data only
    assert str(data["status"]).startswith("event:")
    assert data["cluster_gap"][-1] == pytest.approx(1e-3, rel=1e-6)
    assert data["times"][-1] < 100


def test_simulate_stops_when_the_motion_has_stopped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--T 1e6 on the sphere: the tokens collapse, the speed falls below the threshold, the run stops and says so,
    in lines wrapped to the width ($COLUMNS; a written file's path, one word, stays whole)."""
    monkeypatch.setenv("COLUMNS", "40")
    options = ["--n", "4", "--d", "3", "--T", "1e6", "--samples", "3", "--no-plots"]
    assert cli.main(["simulate", *options, "--out", str(tmp_path)]) == 0
    data = np.load(tmp_path / "trajectory.npz")
    assert str(data["status"]).startswith("event:speed")
    assert data["times"][-1] < 1e3
    out = capsys.readouterr().out
    assert "the motion has stopped" in " ".join(out.split())
    assert all(len(line) <= 40 or " " not in line for line in out.splitlines())


def test_simulate_no_settle_stop_runs_to_T(tmp_path: Path) -> None:
    options = ["--n", "4", "--d", "3", "--T", "60", "--samples", "3", "--no-settle-stop", "--no-plots"]
    assert cli.main(["simulate", *options, "--out", str(tmp_path)]) == 0
    data = np.load(tmp_path / "trajectory.npz")
    assert str(data["status"]) == "completed" and data["times"][-1] == 60


def test_simulate_max_steps_is_a_stop(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    options = ["--n", "4", "--T", "1e6", "--no-settle-stop", "--max-steps", "20", "--samples", "2", "--no-plots"]
    assert cli.main(["simulate", *options, "--out", str(tmp_path)]) == 0
    assert str(np.load(tmp_path / "trajectory.npz")["status"]) == "max_steps"
    assert "--max-steps" in capsys.readouterr().out


@pytest.mark.parametrize(("options", "pair"), [([], "DOP853"), (["--method", "dp54"], "DP5(4)")])
def test_simulate_says_which_pair_stepped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], pair: str
) -> None:
    """The default (auto at rtol 1e-8) steps with DOP853; --method overrides it."""
    options += ["--no-plots", "--out", str(tmp_path)]
    assert cli.main(["simulate", "--n", "4", "--T", "1", "--samples", "2", *options]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f" {pair} steps" in out
    assert "backend: numpy (chosen by --backend auto)" in out  # which engine ran (numpy in tests: conftest)


def test_simulate_certified_draws_the_enclosure_width(tmp_path: Path) -> None:
    out = tmp_path / "run"
    options = ["--n", "3", "--d", "2", "--heads", "2", "--head-family", "symmetric", "--attention", "usa"]
    assert cli.main(["simulate", *options, "--T", "0.25", "--certified", "--out", str(out)]) == 0
    data = np.load(out / "enclosure.npz")
    assert data["times"][0] == 0 and data["times"][-1] == 0.25
    assert data["lower"].shape == data["upper"].shape == (len(data["times"]), 6)
    assert np.all(data["lower"] <= data["upper"]) and 0 < data["widths"][-1] < 1e-6
    assert (out / "enclosure_width.png").stat().st_size > 1000


@pytest.mark.parametrize(
    "options",
    [
        ["--attention", "relu"],
        ["--geometry", "ngpt"],
        ["--n", "22", "--d", "3"],
        ["--method", "dp54"],
        ["--stop-gap", "0.1"],
    ],
)
def test_simulate_certified_refuses_what_it_does_not_cover(
    tmp_path: Path, options: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["simulate", *options, "--certified", "--out", str(tmp_path / "run")]) == 2
    assert "--certified" in capsys.readouterr().err
