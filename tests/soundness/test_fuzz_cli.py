"""Fuzzing the options of every subcommand (verify, constants, certify, check-cert), in process.

The contract: exit code 0 (done), 1 (a procedure crashed, or check-cert rejected a file) or 2 (bad
input, one line on stderr); never a traceback; an `--out` file exists only after success, and is
then complete. A few subprocess runs at the end prove that no traceback reaches the real stderr.
"""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from headflow.certificates.constant_specs import QUANTITIES
from headflow.checks.cli import main
from hypothesis import given
from hypothesis import strategies as st

from tests.soundness.fuzzing import fuzz_settings

FUZZ = fuzz_settings(40)

#: Claim globs that decide in well under a second (fuzzing must not run the whole catalogue each time).
CHEAP = ["projection.*", "T19.golden", "T19.c-star", "T19.threshold.cauchy-schwarz", "T12.value-misalignment"]
plain_text = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="*?[\x00"), max_size=12
).filter(lambda s: not s.startswith("-"))
numbers = st.sampled_from(["0", "1", "2", "-1", "1e6", "1e999", "nan", "inf", "-inf", "1/3", "1/0", "0.5", "", " "])
option_values = st.one_of(numbers, plain_text)


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    """`headflow argv` in process: (exit code, stdout, stderr); argparse's SystemExit becomes the code."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def assert_clean(code: int, err: str, allowed: tuple[int, ...] = (0, 1, 2)) -> None:
    assert code in allowed, err
    assert "Traceback" not in err
    if code == 2:
        lines = [line for line in err.strip().splitlines() if line.strip()]
        assert len(lines) == 1 and "error" in lines[0], err


def fresh(tmp: Path, name: str) -> Path:
    return tmp / f"{uuid.uuid4().hex}-{name}"


def options(valid: dict[str, st.SearchStrategy[str]]) -> st.SearchStrategy[dict[str, str]]:
    """Plausible values for every option except at most one, which gets junk (so most runs get past argparse)."""

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, str]:
        chosen = {name: draw(strategy) for name, strategy in valid.items()}
        for name in draw(st.lists(st.sampled_from(sorted(valid)), max_size=1)):
            chosen[name] = draw(option_values)
        return chosen

    return build()


def argv_of(command: str, chosen: dict[str, str]) -> list[str]:
    return [command, *[f"--{name}={value}" for name, value in chosen.items() if value is not None]]


@FUZZ
@given(
    chosen=options(
        {
            "only": st.sampled_from(CHEAP),
            "profile": st.just("quick"),
            "format": st.sampled_from(["json", "markdown", "html", "table"]),
            "seed": st.sampled_from(["0", "7", "18446744073709551615", "18446744073709551616", "-1"]),
            "timeout": st.sampled_from(["100", "0", "1e-9", "-1", "nan", "inf"]),
        }
    ),
    to_file=st.booleans(),
)
def test_verify_options(capsys, tmp_path, chosen, to_file) -> None:
    out = fresh(tmp_path, "report.txt")
    argv = [*argv_of("verify", chosen), f"--certificates={tmp_path / 'certs'}"]
    argv += [f"--out={out}"] if to_file else []
    code, _stdout, err = run(capsys, argv)
    assert_clean(code, err, (0, 2))  # 1 would mean a procedure crashed: a bug
    if code != 0:
        assert not out.exists(), "a failed run left an output file"
    elif to_file and chosen["format"] == "json":
        report = json.loads(out.read_text())
        assert report["claims"] and set(report["summary"]) >= {"PROVED", "REFUTED", "INCONCLUSIVE"}


def test_verify_out_into_an_existing_folder_fails_cleanly(capsys, tmp_path) -> None:
    code, _, err = run(capsys, ["verify", "--only=T19.golden", "--format=json", f"--out={tmp_path}"])
    assert_clean(code, err, (2,))
    assert sorted(p.name for p in tmp_path.iterdir()) == [], "a temporary file was left behind"


def test_verify_out_below_a_file_fails_cleanly(capsys, tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = run(capsys, ["verify", "--only=T19.golden", "--format=json", f"--out={blocker / 'report.json'}"])
    assert_clean(code, err, (2,))


lists = st.sampled_from(["2", "3", "2,3", "2..4", "1..2:1/4", "1/3", "0.5", "1e6", "10000000000"]) | st.sampled_from(
    ["0", "-1", "2..1", "1..2:0", "1..2:-1", "2,,3", "1e101", "nan", "2.5", "1/0"]
)


@FUZZ
@given(
    chosen=options(
        {
            "quantity": st.sampled_from([*sorted(QUANTITIES), "c_star,rate", "golden,lambda_c"]),
            "H": lists,
            "n": lists,
            "alpha": lists,
            "beta": lists,
            "lam": lists,
            "x": st.one_of(lists, st.sampled_from(["-0.36787944117144233", "-1/3", "-0.4"])),
            "digits": st.sampled_from(["1", "5", "30", "0", "-3", "100001", "1e3"]),
            "format": st.sampled_from(["table", "csv", "json", "markdown", "latex"]),
        }
    ),
    to_file=st.booleans(),
)
def test_constants_options(capsys, tmp_path, chosen, to_file) -> None:
    out = fresh(tmp_path, "table.txt")
    argv = argv_of("constants", chosen) + ([f"--out={out}"] if to_file else [])
    code, _, err = run(capsys, argv)
    assert_clean(code, err, (0, 2))
    if code != 0:
        assert not out.exists()
    elif to_file:
        assert out.read_text().strip()


@FUZZ
@given(
    chosen=options(
        {
            "only": st.sampled_from(["T19.golden", "T19.threshold.cauchy-schwarz", "T19.threshold.exact", "T1*"]),
            "profile": st.just("quick"),
            "seed": st.sampled_from(["0", "3", "-1", "99999999999999999999999"]),
        }
    )
)
@pytest.mark.slow
def test_certify_options(capsys, tmp_path, chosen) -> None:
    out = fresh(tmp_path, "certs")
    code, _stdout, err = run(capsys, [*argv_of("certify", chosen), f"--certificates={out}"])
    assert_clean(code, err, (0, 2))
    if code != 0:
        assert not out.exists(), "a failed certify run created its output folder"
    else:
        for path in out.glob("*.json"):
            assert json.loads(path.read_text())["sha256"]


@FUZZ
@given(names=st.lists(st.one_of(plain_text, st.sampled_from([".", "/", "/dev/null", "/proc/self"])), max_size=3))
def test_check_cert_arguments(capsys, tmp_path, names) -> None:
    code, _, err = run(capsys, ["check-cert", *[f"{tmp_path}/{name}" for name in names]])
    assert_clean(code, err, (1, 2))


@pytest.mark.parametrize(
    "argv",
    [
        ["verify", "--only", "T19.golden", "--timeout", "nan"],
        ["constants", "--quantity", "c_star", "--H", "1..2:0"],
    ],
)
def test_no_traceback_reaches_stderr(argv: list[str]) -> None:
    result = subprocess.run([sys.executable, "-m", "headflow", *argv], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_verify_refuses_a_certificate_folder_below_a_file_before_deciding(capsys, tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, out, err = run(capsys, ["verify", "--only=T19.threshold", f"--certificates={blocker / 'certs'}"])
    assert_clean(code, err, (2,))
    assert "--certificates" in err and not out


#: Values that once meant "run until killed" or a crash: huge, infinite, not a number, tiny, negative.
extreme = st.sampled_from(["1e308", "inf", "nan", "-1", "0", "99999999999999999999999", "1e-300", "abc", ""])


@fuzz_settings(12)
@given(
    chosen=options(
        {
            "n": st.sampled_from(["2", "3", "5"]),
            "d": st.sampled_from(["2", "3"]),
            "heads": st.sampled_from(["1", "2"]),
            "scale": st.sampled_from(["1", "0.5", "-1"]),
            "beta": st.sampled_from(["1", "0.5", "2"]),
            "T": st.sampled_from(["0.5", "1", "1e6"]),
            "samples": st.sampled_from(["2", "5"]),
            "rtol": st.sampled_from(["1e-6", "1e-8"]),
            "max-steps": st.sampled_from(["50", "100000"]),
            "seed": st.sampled_from(["0", "18446744073709551615"]),
        }
    ).map(lambda chosen: chosen | ({"T": "1e308"} if chosen["T"] == "1e6" and chosen["n"] == "5" else {})),
    junk=st.sampled_from(["n", "d", "heads", "scale", "beta", "rho", "T", "samples", "rtol", "stop-gap", "max-steps"]),
    value=st.one_of(extreme, st.none()),
)
@pytest.mark.slow
def test_simulate_options(capsys, tmp_path, chosen, junk, value) -> None:
    """Every numeric option of simulate is bounded: a clean run (0) or one error line (2), never a hang."""
    out = fresh(tmp_path, "run")
    code, _stdout, err = run(capsys, [*argv_of("simulate", chosen | {junk: value}), f"--out={out}"])
    assert_clean(code, err, (0, 2))
    if code != 0:
        assert not (out / "trajectory.npz").exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--T", "1e308"],
        ["simulate", "--samples", "100000000000"],
        ["simulate", "--samples", "100000", "--n", "2000"],
        ["simulate", "--rtol", "1e-300"],
        ["simulate", "--scale", "1e308"],
        ["simulate", "--lambdas", "1,1e308"],
        ["simulate", "--beta", "inf"],
        ["simulate", "--rho", "nan"],
        ["simulate", "--stop-gap", "1e308"],
        ["simulate", "--max-steps", "99999999999999999999"],
        ["simulate", "--seed", "99999999999999999999999"],
        ["verify", "--only", "T19.golden", "--timeout", "1e308"],
        ["check", "examples/user.toml", "--timeout", "inf"],
        ["check", "examples/user.toml", "--seed", "99999999999999999999999"],
        ["certify", "--only", "T19.golden", "--seed", "99999999999999999999999"],
        ["sweep", "threshold", "--n", "1e100", "--workers", "0"],
        ["sweep", "threshold", "--alpha", "1e100", "--workers", "0"],
        ["sweep", "superadditivity", "--beta", "1e100", "--workers", "0"],
        ["sweep", "superadditivity", "--beta", "100", "--mean", "10", "--workers", "0"],
        ["sweep", "clustering", "--seed", "1e30", "--workers", "0"],
        ["sweep", "threshold", "--workers", "1000000000"],
        ["constants", "--quantity", "c_star", "--H", "2", "--digits", "1e308"],
        ["constants", "--quantity", "c_star", "--H", "2", "--digits", "99999999999999999999"],
    ],
)
def test_extreme_numbers_are_one_line_errors(capsys, tmp_path, argv: list[str]) -> None:
    """Huge, infinite or not-a-number options of every command end at once with exit code 2."""
    outputs = {"simulate": [f"--out={tmp_path / 'run'}"], "certify": [f"--certificates={tmp_path / 'certs'}"]}
    outputs["sweep"] = [f"--out={tmp_path / 'sweeps'}", "--no-progress"]
    code, _, err = run(capsys, [*argv, *outputs.get(argv[0], [])])
    assert_clean(code, err, (2,))
    assert not (tmp_path / "run").exists() and not (tmp_path / "certs").exists()


def test_simulate_refuses_a_huge_head_count(tmp_path) -> None:
    """Found by hypothesis: `--heads=10^22` overflowed while drawing the heads."""
    from headflow.checks.cli import main

    assert main(["simulate", "--heads=99999999999999999999999", "--out", str(tmp_path / "r.json")]) == 2
