"""`headflow verify` and `check` at the terminal: the table, the differences from the summary, the certificates line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checks import api
from checks.cli import main
from checks.registry import Context, Registry
from checks.terminal_report import certificates_notice
from checks.verdicts import Outcome, Verdict

HEADING = "Where the summary, or a reading of it, is not what was found:"


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_verify_prints_the_differences_one_line_each_and_how_to_recheck_the_certificates(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    certs = tmp_path / "my certs"
    code, out, _ = _run(capsys, ["verify", "--only", "T19.threshold,T19.threshold.exact", f"--certificates={certs}"])
    assert code == 0
    lines = out.splitlines()
    start = lines.index(HEADING)
    listed = lines[start + 1 : start + 3]
    assert listed[0].startswith("  T19.threshold (CERTIFIED): beta* is sufficient but not exact")
    assert listed[0].endswith("beta* > 0 iff c*(H)(n-1) > H-1")  # long, and still one line
    assert listed[1].startswith("  T19.threshold.exact (REFUTED): refuted as stated (witness, verified by")
    written = sorted(certs.glob("*.json"))
    assert lines[-1] == (
        f"{len(written)} certificates written to {certs}; re-check them with: headflow check-cert '{certs}'"
    )
    assert _run(capsys, ["check-cert", str(certs)])[0] == 0  # the printed command re-checks them


def test_with_json_on_stdout_the_certificates_line_goes_to_stderr(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = _run(capsys, ["verify", "--only", "T19.threshold", "--format=json", f"--certificates={tmp_path}"])
    assert code == 0
    assert json.loads(out)["claims"][0]["id"] == "T19.threshold"
    assert err.strip().endswith(f"re-check them with: headflow check-cert {tmp_path}")


def test_a_table_written_to_a_file_carries_the_differences(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    report = tmp_path / "report.txt"
    code, out, _ = _run(capsys, ["verify", "--only", "T19.golden", f"--out={report}", f"--certificates={tmp_path}"])
    assert code == 0 and out == ""  # T19.golden writes no certificate: no line about them
    text = report.read_text(encoding="utf-8")
    assert "T19.golden" in text and "No claim was found to differ from the paper's summary." in text


def _registry_with_markup() -> Registry:
    registry = Registry()
    registry.declare("demo.finding", "t", "s")

    @registry.procedure("demo.finding", "f")
    def _finding(ctx: Context) -> Outcome:
        return Outcome(Verdict.CONFIRMED, "f", cases=1, tolerance=0.0, finding="lambdas=[bold]['1/2'][/bold] differ")

    return registry


def test_evidence_text_is_shown_as_written_not_read_as_markup(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(api, "load_all", _registry_with_markup)
    code, out, _ = _run(capsys, ["verify", f"--certificates={tmp_path}"])
    assert code == 0
    assert "  demo.finding (CONFIRMED): lambdas=[bold]['1/2'][/bold] differ" in out.splitlines()


def test_check_lists_a_refuted_claim_under_the_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    claims = tmp_path / "claims.toml"
    claims.write_text('[[claim]]\nid = "wrong"\nkind = "constant"\nexpr = "c_star(2)"\nvalue = "0.618035"\ndigits = 6')
    code, out, _ = _run(capsys, ["check", str(claims), f"--certificates={tmp_path / 'certs'}"])
    assert code == 1
    assert any(line.startswith("  wrong (REFUTED): refuted as stated") for line in out.splitlines())


def test_the_certificates_line_counts_files_once_and_names_each_folder() -> None:
    assert certificates_notice([]) == ""
    assert certificates_notice(["a/x.json", "a/x.json"]) == (
        "1 certificate written to a; re-check them with: headflow check-cert a"
    )
    assert certificates_notice(["a/x.json", "b/y.json"]).endswith("headflow check-cert a b")
