"""`headflow check`: exit codes 0/1/2, the verify report format, and hostile files refused unexecuted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from headflow.checks.cli import main

if TYPE_CHECKING:
    from tests.conftest import ExampleRun

ROOT = Path(__file__).resolve().parents[3]

TRUE_CLAIMS = """
[[claim]]
id = "golden"
kind = "identity"
lhs = "c_star(2)"
rhs = "1 / golden"

[[claim]]
id = "digits"
kind = "constant"
expr = "c_star(2)"
value = "0.618034"
digits = 6
"""

FALSE_CLAIM = """
[[claim]]
id = "wrong"
kind = "constant"
expr = "c_star(2)"
value = "0.618035"
digits = 6
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "claims.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_true_claims_exit_0_and_report_has_the_verify_shape(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    path = write(tmp_path, TRUE_CLAIMS)
    code = main(
        ["check", str(path), "--format", "json", "--out", str(out), "--seed", "5", "--certificates", str(tmp_path)]
    )
    assert code == 0
    report = json.loads(out.read_text())
    assert set(report) >= {"headflow", "profile", "seed", "claims", "summary"}
    assert report["seed"] == 5
    assert [(c["id"], c["verdict"]) for c in report["claims"]] == [("golden", "PROVED"), ("digits", "CERTIFIED")]
    assert set(report["claims"][0]) == {"id", "title", "statement", "verdict", "method", "evidence", "seconds"}


def test_a_refuted_claim_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "check",
            str(write(tmp_path, TRUE_CLAIMS + FALSE_CLAIM)),
            "--format",
            "markdown",
            "--certificates",
            str(tmp_path),
        ]
    )
    assert code == 1
    assert "**REFUTED**" in capsys.readouterr().out


def _payload(target: Path) -> list[str]:
    touch = f"__import__('os').system('touch {target}')"
    return [
        touch,
        f"open('{target}', 'w').write('x')",
        f"().__class__.__base__.__subclasses__()[0]('{target}')",
        "exp.__globals__",
        "x.real.imag",
        f"(lambda: open('{target}', 'w'))()",
        f"[open('{target}', 'w') for _ in (1,)]",
        f'f\'{{open("{target}", "w")}}\'',
        "9**9**9",
        "10**100000",
        "(" * 1000 + "1" + ")" * 1000,
        "(" * 100 + "1" + ")" * 100,
        "1" * 150,
        "x < 1",
        "exp(x=1)",
        "unknown_name + 1",
        "c_star(1, 2)",
    ]


@pytest.mark.parametrize("index", range(len(_payload(Path("unused")))))
def test_hostile_expressions_exit_2_unexecuted(tmp_path: Path, capsys: pytest.CaptureFixture[str], index: int) -> None:
    target = tmp_path / "pwned"
    expression = _payload(target)[index]
    text = f"[[claim]]\nid = \"evil\"\nkind = \"identity\"\nlhs = '''{expression}'''\nrhs = \"1\"\n"
    text += 'symbols = { x = "real" }\n'
    code = main(["check", str(write(tmp_path, text))])
    err = capsys.readouterr().err
    assert code == 2
    assert not target.exists()
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "claim 'evil'" in err and "lhs" in err


@pytest.mark.parametrize(
    "text",
    [
        '[[claim]]\nid = "a"\nkind = "identity"\nlhs = 1\nrhs = "1"\n',
        '[[claim]]\nid = "a"\nkind = "identity"\nlhs = "1"\n',
        '[[claim]]\nid = "a"\nkind = "conjecture"\n',
        '[[claim]]\nid = "a"\nkind = "constant"\nexpr = "pi"\nvalue = 3.14\ndigits = 3\n',
        '[[claim]]\nid = "a"\nkind = "constant"\nexpr = "pi"\nvalue = "3.14"\ndigits = true\n',
        "[[claim]\n",
        "",
    ],
)
def test_bad_files_exit_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert main(["check", str(write(tmp_path, text))]) == 2
    err = capsys.readouterr().err
    assert err.startswith("headflow: error: ") and err.count("\n") == 1


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(tmp_path / "nope.toml")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_command_line_process_exit_codes(tmp_path: Path, user_example: ExampleRun) -> None:
    """The real entry point, as a user runs it: 1 for the example file (it holds false claims), 2 for bad input."""
    run = [sys.executable, "-m", "headflow", "check"]
    assert user_example.returncode == 1, user_example.stderr
    verdicts = {c["id"]: c["verdict"] for c in user_example.report["claims"]}
    assert verdicts["golden.reciprocal"] == "PROVED" and verdicts["golden.wrong-digits"] == "REFUTED"
    target = tmp_path / "pwned"
    bad = write(
        tmp_path, f'[[claim]]\nid = "x"\nkind = "constant"\nexpr = "__import__(\'os\').system(\'touch {target}\')"\n'
    )
    hostile = subprocess.run([*run, str(bad)], cwd=ROOT, capture_output=True, text=True)
    assert hostile.returncode == 2 and "Traceback" not in hostile.stderr
    assert not target.exists()


def test_only_decides_the_matching_claims_and_a_glob_matching_none_is_an_input_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--only keeps the claims whose id matches: the false claim left out, the exit code is 0 (nothing refuted);
    chosen, it is 1; a glob that matches no id is bad input (2), before anything is decided."""
    path = tmp_path / "claims.toml"
    path.write_text(TRUE_CLAIMS + FALSE_CLAIM)
    common = ["--certificates", str(tmp_path / "certs"), "--format", "json"]
    assert main(["check", str(path), "--only", "gold*,digits", *common]) == 0
    assert [c["id"] for c in json.loads(capsys.readouterr().out)["claims"]] == ["golden", "digits"]
    assert main(["check", str(path), "--only", "wrong", *common]) == 1
    assert [c["id"] for c in json.loads(capsys.readouterr().out)["claims"]] == ["wrong"]
    assert main(["check", str(path), "--only", "nothing*", *common]) == 2
    assert "matches no claim id" in capsys.readouterr().err
