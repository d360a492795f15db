"""`headflow constants` end to end: every format parses back or shows the values; bad input exits 2."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from headflow.checks.cli import main
from mpmath import mp, mpf

ROOT = Path(__file__).resolve().parents[3]


def _headflow(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "headflow", "constants", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_the_csv_table_of_the_issue_parses_back() -> None:
    done = _headflow("--quantity", "c_star", "--H", "2..8", "--digits", "50", "--format", "csv")
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert [r["H"] for r in rows] == [str(h) for h in range(2, 9)]
    with mp.workdps(70):
        for r in rows:
            h = int(r["H"])
            exact = (mp.sqrt((h - 1) ** 2 + 4) - (h - 1)) / 2
            assert abs(mpf(r["value"]) - exact) <= mpf(10) ** -50
            assert len(r["value"].replace("0.", "", 1).lstrip("0")) == 50
            assert r["correctly_rounded"] == "True"


def test_json_parses_back_with_notes(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["constants", "--quantity", "beta_star", "--quantity", "lambda_c", "--H", "1,2,64", "--n", "10"]
    assert main([*argv, "--digits", "25", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    rows = document["rows"]
    assert [(r["quantity"], r["H"]) for r in rows] == [
        ("beta_star", "1"),
        ("beta_star", "2"),
        ("beta_star", "64"),
        ("lambda_c", ""),
    ]
    assert rows[0]["value"] == "inf" and "H = 1" in rows[0]["note"]
    assert rows[1]["note"] == "" and not rows[1]["value"].startswith("-")
    assert rows[2]["value"].startswith("-") and "beta* < 0" in rows[2]["note"]
    assert rows[3]["value"].startswith("3.49764871626486621862174")
    assert all(r["correctly_rounded"] is True for r in rows)


def test_markdown_latex_and_table_contain_the_values(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    base = [
        "constants",
        "--quantity",
        "golden,rate",
        "--lam",
        "0.5,1000",
        "--n",
        "10",
        "--beta",
        "1/3",
        "--digits",
        "20",
    ]
    assert main([*base, "--format", "markdown"]) == 0
    markdown = capsys.readouterr().out
    assert "| 1.6180339887498948482 |" in markdown
    assert "3.4371833121124630807e-142" in markdown
    assert main([*base, "--format", "latex"]) == 0
    latex = capsys.readouterr().out
    assert r"\begin{tabular}" in latex and r"\end{tabular}" in latex
    assert r"$\phi(1000, 10, 1/3)$ & $3.4371833121124630807\times 10^{-142}$" in latex
    assert main([*base, "--format", "table", "--out", str(tmp_path / "table.txt")]) == 0
    assert "1.6180339887498948482" in (tmp_path / "table.txt").read_text()


def test_out_writes_the_file(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "lambertw.csv"
    argv = ["constants", "--quantity", "lambertw", "--x=-0.2,0,1,1e6", "--digits", "15", "--format", "csv"]
    assert main([*argv, "--out", str(target)]) == 0
    rows = list(csv.DictReader(target.open()))
    assert [r["value"] for r in rows][1] == "0"
    with mp.workdps(30):
        for r in rows:
            w, x = mpf(r["value"]), mpf(r["x"])
            assert abs(w * mp.exp(w) - x) <= mpf(10) ** -13 * max(1, abs(x))
    assert not [p for p in target.parent.iterdir() if p.name.endswith(".part")]


@pytest.mark.parametrize(
    "args",
    [
        ["--quantity", "c_star", "--H", "0"],
        ["--quantity", "beta_star", "--H", "2", "--n", "1"],
        ["--quantity", "beta_star", "--H", "2", "--n", "10", "--alpha", "0"],
        ["--quantity", "c_star", "--H", "2", "--digits", "100001"],
        ["--quantity", "lambda_c", "--n", "10", "--digits", "100001"],
        ["--quantity", "c8_exit_gap", "--H", "2", "--n", "10", "--digits", "10001"],
        ["--quantity", "c_star", "--H", "2..x"],
        ["--quantity", "c_star", "--H", "1..2000", "--digits", "2000"],
        ["--quantity", "c_star,beta_star", "--H", "1..5000", "--n", "2..10"],
        ["--quantity", "nope"],
        ["--quantity", "c_star"],
        ["--quantity", "c_star", "--H", "2", "--format", "xml"],
    ],
)
def test_bad_parameters_exit_2_with_one_line(args: list[str]) -> None:
    done = _headflow(*args)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert done.stdout == ""


def test_the_table_into_a_pipe_is_plain_text_and_loads_neither_mpmath_nor_rich() -> None:
    """Into a pipe the default format is aligned plain text; without --cross-check neither mpmath nor rich (nor
    importlib.metadata) is imported: the start-up of a 50-digit constant is python-flint's."""
    probe = (
        "import sys; from headflow.checks.cli import main; code = main(sys.argv[1:]); "
        "print(code, sorted(m for m in ('mpmath', 'rich', 'importlib.metadata', 'sympy') if m in sys.modules))"
    )
    argv = ["constants", "--quantity", "c_star,lambda_c", "--H", "2", "--n", "10", "--digits", "30"]
    done = subprocess.run([sys.executable, "-c", probe, *argv], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "headflow constants (30 certified digits)"
    assert lines[1].split() == ["constant", "value", "radius", "rounded", "note"]
    assert lines[2].split()[:2] == ["c_star(H=2)", "0.618033988749894848204586834366"]
    assert lines[3].split()[:3] == ["lambda_c(n=10,", "beta=1)", "3.49764871626486621862174642245"]
    assert lines[2].index("0.6180") == lines[3].index("3.4976")  # the value column is aligned
    assert lines[-1] == "0 []"


def test_cross_check_runs_mpmath_only_when_asked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """A wrong mpmath value (the formula of another constant) stops --cross-check with an internal error; without
    the option the mpmath side is not computed at all."""
    from headflow.checks.constants import certified

    calls: list[str] = []

    def wrong(quantity: str, params: object, bits: int) -> object:
        calls.append(quantity)
        return mpf("0.5")

    monkeypatch.setattr(certified, "mpmath_value", wrong)
    argv = ["constants", "--quantity", "c_star", "--H", "2", "--digits", "20", "--format", "csv"]
    assert main(argv) == 0 and calls == []
    assert main([*argv, "--cross-check"]) == 1 and calls == ["c_star"]
    assert "the two computations disagree" in capsys.readouterr().err
