"""`headflow verify` and `check` at the terminal: the table, the differences from the summary, the certificates line."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from headflow.checks import api
from headflow.checks.cli import main
from headflow.checks.registry import Context, Registry
from headflow.checks.reports.document import attention_words
from headflow.checks.reports.report import Report
from headflow.checks.reports.terminal import certificates_notice, print_terminal
from headflow.checks.verdicts import Outcome, Verdict
from rich.console import Console

HEADING = "Where the summary, or a reading of it, is not what was found:"


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def too_wide(lines: list[str], width: int) -> list[str]:
    """The lines wider than `width` columns, but for one that holds one word alone (a path, a number: never cut)."""
    return [line for line in lines if len(line) > width and len(line.split()) > 1]


def test_verify_prints_the_differences_wrapped_and_how_to_recheck_the_certificates(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    certs = tmp_path / "my certs"
    code, out, _ = _run(capsys, ["verify", "--only", "T19.threshold,T19.threshold.exact", f"--certificates={certs}"])
    assert code == 0
    lines = out.splitlines()
    assert not too_wide(lines[:-1], 80)  # piped: 80 columns (the command to copy is one line, however long)
    start = lines.index(HEADING)
    assert lines[start + 1].startswith("  T19.threshold (CERTIFIED): beta* is sufficient but not exact")
    findings = " ".join(line.strip() for line in lines[start + 1 :])  # the findings, wrapped at words
    assert "beta* > 0 iff c*(H)(n-1) > H-1 T19.threshold.exact (REFUTED): refuted as stated (witness" in findings
    assert any(line.startswith("  T19.threshold.exact (REFUTED)") for line in lines)  # each finding starts a line
    written = sorted(certs.glob("*.json"))
    assert f"{len(written)} certificates written to {certs}; re-check them with:" in findings
    assert lines[-1] == f"  headflow check-cert '{certs}'"  # on a line of its own: copied whole
    assert _run(capsys, ["check-cert", str(certs)])[0] == 0  # the printed command re-checks them
    code, wide, _ = _run(capsys, ["verify", "--only", "T19.threshold", "--width=300", f"--certificates={certs}"])
    assert any(line.endswith("beta* > 0 iff c*(H)(n-1) > H-1") and len(line) > 80 for line in wide.splitlines())


@pytest.mark.parametrize("command", [["check-cert", "nothing.json"], ["verify", "--only", "nothing"]])
@pytest.mark.parametrize("width", ["39", "1001"])
def test_a_width_out_of_range_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], command: list[str], width: str
) -> None:
    code, _, err = _run(capsys, [*command, "--width", width])
    assert code == 2 and err.count("\n") == 1 and "--width" in err


def test_with_json_on_stdout_the_certificates_line_goes_to_stderr(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = _run(capsys, ["verify", "--only", "T19.threshold", "--format=json", f"--certificates={tmp_path}"])
    assert code == 0
    assert json.loads(out)["claims"][0]["id"] == "T19.threshold"
    assert err.strip().endswith(f"\n  headflow check-cert {tmp_path}")  # the command on a line of its own


def test_a_table_written_to_a_file_carries_the_differences(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    report = tmp_path / "report.txt"
    code, out, _ = _run(
        capsys, ["verify", "--only", "projection.symmetry", f"--out={report}", f"--certificates={tmp_path}"]
    )
    assert code == 0 and "1 certificate written to" in out  # its gram certificate: the table itself is in the file
    assert "PROVED" not in out
    text = report.read_text(encoding="utf-8")
    assert "projection.symmetry" in text and "No claim was found to differ from the paper's summary." in text


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
    assert "  demo.finding (CONFIRMED): lambdas=[bold]['1/2'][/bold] differ" in out.splitlines()  # not read as markup


def test_check_lists_a_refuted_claim_under_the_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    claims = tmp_path / "claims.toml"
    claims.write_text('[[claim]]\nid = "wrong"\nkind = "constant"\nexpr = "c_star(2)"\nvalue = "0.618035"\ndigits = 6')
    code, out, _ = _run(capsys, ["check", str(claims), f"--certificates={tmp_path / 'certs'}"])
    assert code == 1
    assert any(line.startswith("  wrong (REFUTED): refuted as stated") for line in out.splitlines())


def test_the_certificates_line_counts_files_once_and_names_each_folder() -> None:
    assert certificates_notice([]) == []
    assert certificates_notice(["a/x.json", "a/x.json"]) == [
        "1 certificate written to a; re-check them with:",
        "  headflow check-cert a",
    ]
    assert certificates_notice(["a/x.json", "b/y.json"])[-1] == "  headflow check-cert a b"


CLAIMS_FILE = """
[[claim]]
id = "right"
kind = "constant"
expr = "c_star(2)"
value = "0.618034"
digits = 6
"""
#: A value on an end of the interval of "0.12 to 2 digits": the ball never settles it.
UNDECIDED = """
[[claim]]
id = "undecided"
kind = "constant"
expr = "(golden**2 - golden) / 8"
value = "0.12"
digits = 2
"""
WRONG = '[[claim]]\nid = "wrong"\nkind = "constant"\nexpr = "c_star(2)"\nvalue = "0.618035"\ndigits = 6\n'


def test_a_claims_file_is_not_compared_with_the_papers_summary(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    claims = tmp_path / "claims.toml"
    claims.write_text(CLAIMS_FILE + UNDECIDED + WRONG)
    code, out, _ = _run(capsys, ["check", str(claims), f"--certificates={tmp_path / 'certs'}"])
    assert code == 1 and "summary" not in out
    lines = out.splitlines()
    start = lines.index("Refuted or undecided claims, with their reasons:")
    assert lines[start + 1].startswith("  undecided (INCONCLUSIVE): not decided: the ball still straddles an end")
    assert any(line.startswith("  wrong (REFUTED): refuted as stated (witness, verified by") for line in lines[start:])
    for fmt in ("markdown", "html"):
        report = tmp_path / f"report.{fmt}"
        _run(capsys, ["check", str(claims), f"--format={fmt}", f"--out={report}", f"--certificates={tmp_path}"])
        text = re.sub(r"</?summary>", "", report.read_text(encoding="utf-8"))  # HTML's <details><summary>
        assert "Refuted or undecided claims, with their reasons" in text and "summary" not in text


def test_a_claims_file_decided_in_full_says_so(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    claims = tmp_path / "claims.toml"
    claims.write_text(CLAIMS_FILE)
    code, out, _ = _run(capsys, ["check", str(claims), f"--certificates={tmp_path / 'certs'}"])
    assert code == 0 and "summary" not in out
    assert "No claim was refuted or left undecided." in out.splitlines()


def test_the_papers_claims_are_still_compared_with_its_summary(capsys: pytest.CaptureFixture[str]) -> None:
    """`verify` keeps the paper's words."""
    report = api.verify(only="T19.golden", progress=False)
    assert report.data["subject"] == "paper"
    assert report.to_text().splitlines()[-1] == "No claim was found to differ from the paper's summary."


#: Characters of the table's rules, and punctuation that ends a word in the procedures and evidence.
_RULES = str.maketrans({c: " " for c in "│┃┏┓┗┛┡┩┣┫━─┳┻╇╋└┘┴┬├┤┼"})
_PUNCTUATION = ",;:…()"


def _printed(data: dict, width: int) -> str:
    buffer = io.StringIO()
    print_terminal(data, Console(file=buffer, width=width, force_terminal=False))
    return buffer.getvalue()


def _words(text: str) -> set[str]:
    return {word.strip(_PUNCTUATION) for word in text.translate(_RULES).split()} - {""}


def _expected_words(claim: dict, width: int) -> set[str]:
    """Words the reader must find whole: each procedure's name and verdict, its case count, its notes' first words."""
    words = set()
    for proc in claim["evidence"]["procedures"]:
        words |= {proc["name"], proc["verdict"].lower()} | ({"cases", str(proc["cases"])} if "cases" in proc else set())
        words |= set(proc.get("notes", "").split()[:4])
    return {w.strip(_PUNCTUATION) for w in words if len(w) < width - 10} - {""}


def _assert_readable(data: dict, width: int) -> None:
    text = _printed(data, width)
    lines = text.splitlines()
    heading, none = attention_words(data)
    laid_out = lines[: next(i for i, line in enumerate(lines) if line[:20] in (heading[:20], none[:20]))]
    assert max(len(line) for line in laid_out) <= width
    assert not too_wide(lines, width)  # the findings too, but for a word longer than a line (kept whole)
    found = _words(text)
    for claim in data["claims"]:
        head = claim["id"][: width - 24]
        row = next((line for line in lines if head in line and claim["verdict"] in line), None)
        assert row is not None and f"{claim['seconds']:.2f}" in row, (width, claim["id"])  # claim, verdict, s
        missing = _expected_words(claim, width) - found
        assert not missing, (width, claim["id"], missing)  # no word broken into fragments


@pytest.mark.parametrize("width", [60, 80, 200])
def test_the_whole_papers_table_is_readable_at_any_width(whole_paper: Report, width: int) -> None:
    _assert_readable(whole_paper.data, width)


def _long_registry() -> Registry:
    registry = Registry()
    registry.declare("a." + "very-long-claim-id." * 5, "t", "s")
    registry.declare("short", "t", "s")

    @registry.procedure("a." + "very-long-claim-id." * 5, "float-evidence-with-a-long-name")
    def _long(ctx: Context) -> Outcome:
        notes = "measured clustering times scale as n^0.11 (fit), not as the claimed n^1, " * 3
        return Outcome(Verdict.INCONCLUSIVE, "f", notes=notes)

    @registry.procedure("short", "exact")
    def _short(ctx: Context) -> Outcome:
        return Outcome(Verdict.CONFIRMED, "e", cases=123456, tolerance=0.0, worst_margin=-1.5e-15)

    return registry


@pytest.mark.parametrize("width", [60, 80, 200])
def test_a_long_id_and_long_evidence_stay_readable(width: int, tmp_path: Path) -> None:
    report = api.decide(_long_registry().claims(), certificates=tmp_path, progress=False)
    _assert_readable(report.data, width)


def test_a_table_printed_to_a_pipe_is_80_columns_wide_unless_asked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Not a terminal: laid out 80 columns wide, or --width wide (procedures and evidence in the table), or $COLUMNS."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr(api, "load_all", _long_registry)
    code, out, _ = _run(capsys, ["verify", f"--certificates={tmp_path}"])
    assert code == 0 and not too_wide(out.splitlines(), 80)
    code, out, _ = _run(capsys, ["verify", "--width=200", f"--certificates={tmp_path}"])
    header = next(line for line in out.splitlines() if "claim" in line and "verdict" in line)
    assert "procedures" in header and "evidence" in header and len(header) > 80
    monkeypatch.setenv("COLUMNS", "60")  # a width the user asks for is kept
    _, out, _ = _run(capsys, ["verify", f"--certificates={tmp_path}"])
    lines = out.splitlines()
    table = lines[: lines.index("Procedures and evidence:")]  # the procedures and evidence went under the table
    assert max(len(line) for line in table) <= 60
