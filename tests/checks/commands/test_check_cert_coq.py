"""`headflow check-cert --coq` runs the kernel's check once per certificate: the Coq statement is written from that
one check (`certificates.kernel.coq.certificate.problem` takes its result), never from a second run of it (which
ran z3 and cvc5 again on an smt certificate)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import headflow.checks as checks
import pytest
from headflow.certificates.kernel import loading, verify
from headflow.certificates.kernel.format import content_hash
from headflow.checks import coq_files, rechecks
from headflow.checks.cli import main

from tests.sample_claims import POINT_AND_SMT

CLAIMS = POINT_AND_SMT


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A constant's point witness and an inequality's smt certificate, by claim id."""
    report = checks.check(CLAIMS, certificates=tmp_path_factory.mktemp("once"), progress=False)
    return {json.loads(Path(p).read_text())["claim_id"]: Path(p) for p in report.certificates}


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every run of the kernel's check (its claim id), with coqc stubbed: only the number of checks is under test."""
    calls: list[str] = []
    check = verify.check

    def counting(certificate: dict[str, Any], *rest: Any) -> tuple[str, str]:
        calls.append(certificate["claim_id"])
        return check(certificate, *rest)

    monkeypatch.setattr(verify, "check", counting)
    monkeypatch.setattr(coq_files.run, "coqc", lambda: "coqc")
    answer = coq_files.run.CoqAnswer("accepted", "stub", 0.0)
    monkeypatch.setattr(coq_files.run, "compile_source", lambda *args, **kwargs: answer)
    return calls


def test_check_cert_coq_checks_each_certificate_once(
    written: dict[str, Path], counted: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    smt, point = written["c-star.at-most-one"], written["golden.inverse"]
    assert main(["check-cert", "--coq", "--width=1000", str(smt), str(point)]) == 0  # one line per entry
    assert counted == ["c-star.at-most-one", "golden.inverse"]
    out = capsys.readouterr().out
    assert f"{smt}: coq: {coq_files.RECHECKED}" in out and f"{point}: coq: {coq_files.RECHECKED}" in out
    counted.clear()
    assert rechecks.recheck(smt, coq=True).coq == coq_files.CoqCheck(coq_files.RECHECKED, "stub", 0.0)
    assert counted == ["c-star.at-most-one"]


def test_a_certificate_the_kernel_rejects_is_rejected_on_the_coq_side_without_a_second_check(
    written: dict[str, Path], counted: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(written["golden.inverse"].read_text())
    data["payload"]["conditions"][-1]["relation"] = ">"  # high - expr > 0 where the statement has >=
    data["sha256"] = content_hash(data)
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data))
    assert main(["check-cert", "--coq", "--width=1000", str(forged)]) == 1
    assert f"{forged}: FAIL: coq: {coq_files.REJECTED}" in capsys.readouterr().err
    assert counted == ["golden.inverse"]


def test_check_cert_claims_coq_loads_each_certificate_once(
    written: dict[str, Path], counted: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With --claims and --coq too, each certificate file is read and checked once: the embedded claim, the
    comparison with the claims file and the Coq file all take the kernel's one result (`rechecks.recheck`)."""
    claims = tmp_path / "claims.toml"
    claims.write_text(CLAIMS)
    reads: list[str] = []
    read = loading.read_bounded

    def reading(path: Any, *rest: Any, **named: Any) -> bytes:
        reads.append(str(path))
        return read(path, *rest, **named)

    monkeypatch.setattr(loading, "read_bounded", reading)
    smt, point = written["c-star.at-most-one"], written["golden.inverse"]
    assert main(["check-cert", "--coq", f"--claims={claims}", "--width=1000", str(smt), str(point)]) == 0
    assert counted == ["c-star.at-most-one", "golden.inverse"]
    assert [r for r in reads if r in (str(smt), str(point))] == [str(smt), str(point)]


def test_the_reports_and_check_cert_name_the_same_checkers(
    written: dict[str, Path], counted: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """check-cert's line of independent checkers is the reports' list: one function re-checks for both, and the smt
    solvers come from the kernel's result (`CheckResult.solvers`), not from its words."""
    smt = written["c-star.at-most-one"]
    check = rechecks.recheck(smt, coq=True)
    assert check.ok and check.checkers == ["check-cert", "z3", "cvc5", "Coq"]
    assert main(["check-cert", "--coq", "--width=1000", str(smt)]) == 0
    assert f"{smt}: independent checkers: check-cert, z3, cvc5, Coq" in capsys.readouterr().out
    words = verify.CheckResult(True, "not re-checked by z3 nor by cvc5", {"kind": "smt"}, "", ("cvc5",))
    assert rechecks.accepting(words) == ["check-cert", "cvc5"]
