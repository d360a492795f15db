"""Budgets and limits: `verify --timeout` turns leftover work into INCONCLUSIVE with the reason, and every
documented size limit (docs/guarantees.md) ends in a clear InputError, not in a long run.

The time budget is tested on a fake clock that advances one second each time it is read, so which
claims fit in a budget depends on the code, never on the speed of the machine; no test measures seconds.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from headflow.certificates.errors import InputError
from headflow.certificates.kernel import format as certificate_format
from headflow.certificates.kernel.balls import eval_ball
from headflow.certificates.kernel.exprtree import MAX_DEPTH, TreeError
from headflow.certificates.vocabulary import MAX_DIMENSION, MAX_HEADS, MAX_TOKENS
from headflow.checks import api, registry
from headflow.checks import runner as claim_runner
from headflow.checks.choices import MAX_SEED
from headflow.checks.cli import main
from headflow.checks.constants import certified as constants
from headflow.checks.constants.exact_numbers import MAX_EXPONENT, MAX_VALUES, parse_values
from headflow.checks.constants.mpmath_reference import max_digits
from headflow.checks.model import families
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context, load_all
from headflow.checks.runner import TIMED_OUT, run_claim
from headflow.checks.sweeps.runner import MAX_GRID_POINTS, run_sweep

from tests.checking import verify_file


class FakeClock:
    """A monotonic clock that advances one second each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """The fake clock in place of `time` where deadlines are set and read (verify, the claim runner, Context)."""
    fake = FakeClock()
    for module in (api, claim_runner, registry):
        monkeypatch.setattr(module, "time", fake)
    return fake


def _report(tmp: Path, capsys: pytest.CaptureFixture[str], *options: str) -> dict:
    out = tmp / "report.json"
    assert main(["verify", "--format=json", f"--out={out}", f"--certificates={tmp / 'certs'}", *options]) == 0
    capsys.readouterr()
    return json.loads(out.read_text())


def test_a_zero_timeout_leaves_every_claim_inconclusive_with_the_reason(tmp_path, capsys, clock) -> None:
    report = _report(tmp_path, capsys, "--only=T1*,T27.*", "--timeout=0")
    assert {c["verdict"] for c in report["claims"]} == {"INCONCLUSIVE"}
    for claim in report["claims"]:
        notes = [p["notes"] for p in claim["evidence"]["procedures"]]
        assert all(TIMED_OUT in note or note == "no decision procedure yet" for note in notes), notes


def test_a_small_timeout_decides_what_fits_and_marks_the_rest(tmp_path, capsys, clock) -> None:
    """Ten readings of the clock: the first claim is decided, then the deadline passes for good."""
    report = _report(tmp_path, capsys, "--timeout=10")
    notes = [p.get("notes", "") for c in report["claims"] for p in c["evidence"]["procedures"] if p["name"] != "none"]
    timed_out = [TIMED_OUT in note for note in notes]
    assert any(timed_out), "a 10-reading budget was enough for every claim"
    first = timed_out.index(True)
    assert all(timed_out[first:]), "a procedure started after the deadline had passed"
    assert report["claims"][0]["verdict"] == "PROVED", "the first proof did not fit in the budget"


def test_a_deadline_reached_inside_a_procedure_is_inconclusive_not_a_crash(clock: FakeClock) -> None:
    """The reading-b cover loops over n and calls ctx.check_budget(); a deadline mid-way stops it cleanly."""
    claim = load_all().get("T22.superadditivity.reading-b.listed-n")
    result = run_claim(claim, Context("thorough", 0), budget_seconds=2.5)
    assert result.verdict.value == "INCONCLUSIVE" and not result.crashed
    assert result.outcomes[0][1].notes.startswith("budget:")


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["verify", "--timeout=-1"], "--timeout"),
        (["verify", "--timeout=nan"], "--timeout"),
        (["verify", "--only=T19.golden", f"--seed={MAX_SEED + 1}"], "seed"),
        (["certify", "--only=T19.golden", "--seed=-1"], "seed"),
        (["constants", "--quantity=c_star", "--H=2", f"--digits={max_digits('c_star') + 1}"], "--digits"),
        (["constants", "--quantity=lambda_c", "--n=2", f"--digits={max_digits('lambda_c') + 1}"], "--digits"),
        (["constants", "--quantity=c_star", "--H=1..20000"], "--H"),
        (["constants", "--quantity=c_star", "--H=1..10000", "--digits=300"], "rows x digits"),
        (["constants", "--quantity=beta_star", "--H=1..100", "--n=2..101", "--alpha=1,2"], "rows"),
        (["constants", "--quantity=c_star", f"--H=1e{MAX_EXPONENT + 1}"], "--H"),
    ],
)
def test_command_line_limits_are_one_line_errors(capsys, tmp_path, argv: list[str], fragment: str) -> None:
    output = {"verify": [], "certify": [f"--certificates={tmp_path / 'x'}"]}.get(argv[0], [f"--out={tmp_path / 'x'}"])
    code = main([*argv, *output])
    err = capsys.readouterr().err
    assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize(
    ("shape", "field"),
    [
        ((MAX_TOKENS + 1, 1, 1), "n"),
        ((2, MAX_DIMENSION + 1, 1), "d"),
        ((2, 1, MAX_HEADS + 1), "H"),
        ((4097, 1, 4), "memory_budget"),
    ],
)
def test_configuration_size_limits(shape: tuple[int, int, int], field: str) -> None:
    n, d, H = shape
    tokens = np.zeros((n, d))
    tokens[:, 0] = 1.0
    scores = np.broadcast_to(np.eye(d), (H, d, d))
    with pytest.raises(InputError) as info:
        Configuration.create(tokens, scores, memory_budget="1MiB")
    assert info.value.field == field


@pytest.mark.parametrize(
    "call",
    [
        lambda: families.random_sphere_tokens(10**6, 3, np.random.default_rng(0)),
        lambda: families.random_symmetric_heads(MAX_HEADS, MAX_DIMENSION, np.random.default_rng(0)),
        lambda: families.orthogonal_tokens(3, MAX_DIMENSION + 1),
        lambda: constants.c_star(2, digits=max_digits("c_star") + 1),
        lambda: parse_values("--n", f"1..{MAX_VALUES + 1}"),
    ],
)
def test_api_limits_raise_input_error(call) -> None:
    with pytest.raises(InputError):
        call()


def test_expression_trees_deeper_than_the_limit_are_refused() -> None:
    tree: list = ["sym", "u"]
    for _ in range(MAX_DEPTH + 1):
        tree = ["exp", tree]
    with pytest.raises(TreeError, match="too deep"):
        eval_ball(tree, {})


def test_oversized_certificate_files_are_rejected_unread(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(certificate_format, "MAX_FILE_BYTES", 10)
    path = tmp_path / "big.json"
    path.write_text("{" + " " * 100 + "}")
    ok, reason = verify_file(path)
    assert not ok and "larger than 10 bytes" in reason


@pytest.mark.parametrize(("points", "workers"), [([{"n": 2}] * (MAX_GRID_POINTS + 1), 0), ([{"n": 2}], -1)])
def test_sweep_limits(tmp_path, points, workers) -> None:
    with pytest.raises(InputError):
        run_sweep(lambda n: {"n": n}, points, tmp_path / "out.csv", workers=workers, show_progress=False)
    assert not list(tmp_path.iterdir())
