"""`headflow simulate`: the files it writes, and one-line errors with exit code 2 on bad options."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from checks import cli

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
    assert data["times"].shape == (11,)
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
    assert cli.main(["simulate", *options, "--T", "100", "--out", str(tmp_path)]) == 0
    data = np.load(tmp_path / "trajectory.npz")
    assert str(data["status"]).startswith("event:")
    assert data["cluster_gap"][-1] == pytest.approx(1e-3, rel=1e-6)
    assert data["times"][-1] < 100
