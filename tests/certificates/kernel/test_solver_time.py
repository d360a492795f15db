"""`check-cert`'s solver budgets: each problem's resource limit (counted, the same on every run of one solver
version), the wall-clock safety net `--solver-seconds` far above it, and a solver that ran out of either says so.

The busy certificate (AM-GM in 7 variables, `busy_solvers`) is re-checked by z3 in about a second and keeps
cvc5 busy for more than half a minute: with a small resource limit for cvc5, z3 re-checks it and cvc5 runs out
(on every run); with a safety net below z3's start-up neither answers, and the file is not accepted.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from headflow.certificates.kernel import real_statements, solvers, verify
from headflow.certificates.kernel.recheck import Rejected
from headflow.checks.cli import main

from tests.certificates.kernel import busy_solvers
from tests.checking import verify_file

ROOT = Path(__file__).resolve().parents[3]
#: Seconds each solver gets below: z3 needs about one (its start included; several on a loaded machine), cvc5
#: more than thirty.
LIMIT = 6.0
#: A resource limit far below what cvc5 spends on the busy problem.
SMALL = 1000


@pytest.fixture(scope="module")
def busy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return busy_solvers.certificate(tmp_path_factory.mktemp("busy"))


def test_a_solver_that_runs_out_is_named_and_the_file_rests_on_the_other(
    busy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(solvers.RLIMITS, "cvc5", SMALL)
    for _ in range(2):  # counted: the same answer every time (each run solves it: no memo of the first's answers)
        solvers._MEMO.clear()
        ok, line = verify_file(busy)
        assert ok, line
        assert "1 statement(s) unsat in z3 (fresh processes)" in line
        assert "not re-checked by cvc5 (resource limit, 0 of 1 unsat)" in line
        assert "in cvc5 (fresh" not in line


def test_a_file_no_solver_rechecked_is_not_accepted(busy: Path) -> None:
    """On the command line: below z3's start-up time, neither solver answers."""
    result = subprocess.run(
        [sys.executable, "-m", "headflow", "check-cert", "--width=1000", str(busy), "--solver-seconds", "0.1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert "FAIL: not re-checked by z3 (wall-clock safety limit, 0 of 1 unsat)" in result.stderr
    assert "not re-checked by cvc5 (wall-clock safety limit, 0 of 1 unsat)" in result.stderr
    assert "no solver re-checked it" in result.stderr


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "1e9", "soon"])
def test_a_bad_limit_is_a_one_line_error(busy: Path, value: str, capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(["check-cert", str(busy), f"--solver-seconds={value}"])
    except SystemExit as exc:  # argparse's own refusal (not a number), one line through the CLI's parser
        code = exc.code
    error = capsys.readouterr().err
    assert code == 2 and "--solver-seconds" in error, error
    assert len(error.strip().splitlines()) == 1 and "Traceback" not in error


@pytest.mark.slow
def test_answers_before_the_limit_are_kept_and_the_rest_ran_out(busy: Path) -> None:
    """One cvc5 process for two problems: the easy one answered, the busy one cut off by the safety net."""
    easy = "(set-logic QF_NRA)\n(declare-fun x0 () Real)\n(assert (< (* x0 x0) 0))\n(check-sat)\n"
    data = json.loads(busy.read_text())
    hard = real_statements.smt_problem(data["statement"], data["payload"])  # check-cert's text
    started = time.monotonic()
    assert solvers.answers("cvc5", [easy, hard], LIMIT) == ["unsat", solvers.SAFETY_LIMIT]
    assert time.monotonic() - started < LIMIT + 10  # killed at the limit, not waited for


@pytest.mark.parametrize(
    ("z3", "cvc5", "accepted"),
    [
        ("unsat", "unsat", "unsat in z3 and in cvc5"),
        ("unsat", solvers.RESOURCE_LIMIT, "not re-checked by cvc5 (resource limit, 0 of 2 unsat)"),
        ("unsat", solvers.SAFETY_LIMIT, "not re-checked by cvc5 (wall-clock safety limit, 0 of 2 unsat)"),
        (solvers.RESOURCE_LIMIT, "unsat", "not re-checked by z3 (resource limit"),
        (solvers.RESOURCE_LIMIT, solvers.SAFETY_LIMIT, None),
        ("sat", solvers.RESOURCE_LIMIT, None),  # a disagreement is never outweighed by a solver that ran out
        (solvers.SAFETY_LIMIT, "unknown", None),
        ("unsat", "sat", None),
        ("unsat", "error: cvc5 failed (exit code -11)", None),
    ],
)
def test_what_counts_as_rechecked(monkeypatch: pytest.MonkeyPatch, z3: str, cvc5: str, accepted: str | None) -> None:
    said = {"z3": z3, "cvc5": cvc5}
    monkeypatch.setattr(solvers, "answers", lambda solver, texts, seconds: [said[solver]] * len(texts))
    if accepted is None:
        with pytest.raises(Rejected):
            solvers.recheck_unsat(["problem 1", "problem 2"], 1.0)
    else:
        how = solvers.recheck_unsat(["problem 1", "problem 2"], 1.0)
        assert accepted in how
        assert how.solvers == tuple(solver for solver in ("z3", "cvc5") if said[solver] == "unsat")


def test_the_solvers_that_rechecked_are_a_field_of_the_kernel_s_result(
    busy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kernel's result names the solvers that answered (a field, kept through the notes the checker adds to
    the words), so that no caller reads them back from its message."""
    monkeypatch.setattr(solvers, "answers", lambda solver, texts, seconds: ["unsat"] * len(texts))
    assert verify.check_file(busy).solvers == ("z3", "cvc5")
    said = {"z3": solvers.RESOURCE_LIMIT, "cvc5": "unsat"}
    monkeypatch.setattr(solvers, "answers", lambda solver, texts, seconds: [said[solver]] * len(texts))
    result = verify.check_file(busy)
    assert result.ok and result.solvers == ("cvc5",) and "not re-checked by z3" in result.message
    noted = solvers.Unsat("1 statement(s) unsat in cvc5", ("cvc5",)) + "; 2 cut(s) of exp checked"
    assert isinstance(noted, solvers.Unsat) and noted.solvers == ("cvc5",)
