"""The Python API: `checks.verify` and `checks.check` return a Report: every format, and a notebook display."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import headflow.checks as checks
import pytest
from headflow.certificates.errors import InputError
from headflow.checks import cli
from headflow.checks.reports.report import Report
from headflow.checks.verdicts import Verdict

from tests.checks.commands.test_check_command import FALSE_CLAIM, TRUE_CLAIMS

ROOT = Path(__file__).resolve().parents[2]

CLAIMS = TRUE_CLAIMS + FALSE_CLAIM


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Report:
    return checks.verify(only="T19.golden,T19.threshold.exact", certificates=tmp_path_factory.mktemp("certs"))


def test_verify_returns_claims_verdicts_and_evidence_as_attributes(report: Report) -> None:
    assert [c.id for c in report.claims] == ["T19.golden", "T19.threshold.exact"]
    assert report.verdicts == {"T19.golden": Verdict.PROVED, "T19.threshold.exact": Verdict.REFUTED}
    assert report.summary["PROVED"] == 1 and report.summary["REFUTED"] == 1 and sum(report.summary.values()) == 2
    golden = report.claim("T19.golden")
    assert golden.verdict is Verdict.PROVED and golden.procedures[0]["steps"]
    assert report.evidence["T19.threshold.exact"]["procedures"][0]["witness"]["verified_by"] in ("exact", "ball")
    assert [d["id"] for d in report.differences] == ["T19.threshold.exact"]
    assert report.certificates and all(Path(path).exists() for path in report.certificates)
    assert report.crashed == []
    with pytest.raises(KeyError):
        report.claim("T99.none")


def test_the_formats_are_the_report_the_command_line_writes(report: Report) -> None:
    data = json.loads(report.to_json())
    assert data == json.loads(json.dumps(report.data)) and "figures" not in data
    assert "`T19.golden`" in report.to_markdown(figures=False)
    page = report.to_html(figures=False)
    assert page.startswith("<!DOCTYPE html>") and "<math" in page
    text = report.to_text()
    assert "T19.threshold.exact (REFUTED): refuted as stated" in text


def test_repr_html_is_the_report_overview_with_scoped_styles(report: Report) -> None:
    shown = report._repr_html_()
    assert shown.startswith("<div class='headflow'><style>") and shown.endswith("</div>")
    assert "Where the summary, or a reading of it, is not what was found" in shown
    assert "<code>T19.golden</code>" in shown and "<span class='v REFUTED'>REFUTED</span>" in shown
    assert "<section" not in shown and "<math" not in shown  # the overview, not the whole page
    assert all(rule.startswith(".headflow") for rule in _css_selectors(shown))
    assert "| `T19.threshold.exact` | **REFUTED** |" in report._repr_markdown_()
    assert repr(report) == "<headflow Report: 2 claims (1 PROVED, 1 REFUTED)>"


def _css_selectors(page: str) -> list[str]:
    css = page.split("<style>", 1)[1].split("</style>", 1)[0]
    return [rule.split("{", 1)[0].strip() for rule in css.split("}") if "{" in rule]


def test_check_takes_a_claims_file_or_its_text(tmp_path: Path) -> None:
    path = tmp_path / "claims.toml"
    path.write_text(CLAIMS, encoding="utf-8")
    from_text = checks.check(CLAIMS, certificates=tmp_path / "certs")
    from_file = checks.check(path, certificates=tmp_path / "certs")
    for report in (from_text, from_file):
        assert report.verdicts == {"golden": Verdict.PROVED, "digits": Verdict.CERTIFIED, "wrong": Verdict.REFUTED}


@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda: checks.verify(only="T19.golden", seed=-1), "--seed"),
        (lambda: checks.verify(only="T19.golden", profile="slow"), "--profile"),
        (lambda: checks.verify(only="T19.golden", timeout=float("nan")), "--timeout"),
        (lambda: checks.verify(only="no-such-claim"), "--only"),
        (lambda: checks.verify(only="T19.golden", certificates=3), "--certificates"),
        (lambda: checks.check(5), "claims"),
        (lambda: checks.check("[[claim]]\nid = 1\n"), "<claims>"),
        (lambda: checks.check("missing.toml"), "missing.toml"),
    ],
)
def test_bad_arguments_raise_an_input_error_naming_them(call, named: str) -> None:
    with pytest.raises(InputError, match=named):
        call()


def _python(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        check=False,
    )


def test_the_readme_one_liner_prints_the_summary(tmp_path: Path) -> None:
    run = _python("import headflow; r = headflow.verify(only='T19.*'); print(r.summary)", tmp_path)
    assert run.returncode == 0, run.stderr
    summary = ast.literal_eval(run.stdout.strip())
    assert set(summary) == {v.value for v in Verdict} and summary["PROVED"] >= 3 and summary["REFUTED"] >= 1


def test_import_checks_loads_nothing_heavy(tmp_path: Path) -> None:
    code = (
        "import sys, checks; "
        "heavy = ('numpy', 'sympy', 'rich', 'matplotlib', 'z3', 'flint', 'latex2mathml', 'checks.'); "
        "print(sorted(m for m in sys.modules if m.startswith(heavy)))"
    )
    run = _python(code, tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_a_command_imports_only_its_own_module(tmp_path: Path) -> None:
    """`headflow check-cert` builds the parser of check-cert alone: the plotting and equilibria modules of other
    commands (matplotlib, scipy) are not imported; `check_cert` (the module's name, not the command's) is not a
    command, so it gets the list of commands, like help and unknown names."""
    code = (
        "import sys; from headflow.checks import cli; parser = cli.build_parser(['check-cert', 'x']); "
        "print(sorted(m for m in ('matplotlib', 'scipy', 'headflow.checks.commands.verify') if m in sys.modules)); "
        "print(parser.parse_args(['check-cert', 'x']).handler.__module__); "
        "print(getattr(cli.build_parser(['check_cert']).parse_args(['verify']), 'handler', None))"
    )
    run = _python(code, tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[:3] == ["[]", "headflow.checks.commands.check_cert", "None"]


@pytest.mark.parametrize("word", ["__init__", "options", "../verify", "verify.py", "check_cert", "constants/.."])
def test_a_word_that_is_no_command_name_gets_the_list(word: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Only a command's own name builds that command alone: the package's __init__, a folder of shared options, a
    path or a module's file name are not commands and fail with the list of commands (exit 2, one line)."""
    with pytest.raises(SystemExit) as exit_info:
        cli.build_parser([word]).parse_args([word])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert "invalid choice" in error and "'check-cert', 'constants'" in error and error.count("\n") == 1


#: What start-up must not import: the solvers, SymPy, plotting, dask, and for the list of commands numpy and
#: python-flint too (issue 28: `headflow --help` and `headflow constants --help` in well under 0.3 s).
_HEAVY = ("sympy", "z3", "cvc5", "matplotlib", "dask", "scipy", "latex2mathml")
#: Every command: its `--help` (issue 41: under 0.3 s) imports what decides only when the command runs.
_COMMANDS = [cli._summary(name)[0] for name in cli._command_names()]


@pytest.mark.parametrize(
    ("argv", "also_absent"),
    [
        (["--help"], ("numpy", "flint", "rich", "headflow.checks.commands.", "importlib.metadata")),
        ([], ("numpy", "flint", "headflow.checks.commands.")),
        (["--version"], ("numpy", "flint", "headflow.checks.commands.")),
        *[([command, "--help"], ("numpy", "flint", "mpmath", "identities")) for command in _COMMANDS],
    ],
)
def test_start_up_imports_nothing_heavy(tmp_path: Path, argv: list[str], also_absent: tuple[str, ...]) -> None:
    code = (
        f"import sys\nfrom headflow.checks import cli\ntry:\n    cli.main({argv!r})\nexcept SystemExit:\n    pass\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules if m.startswith({(*_HEAVY, *also_absent)!r})}}))"
    )
    run = _python(code, tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == "[]", (argv, run.stdout[-500:])


#: One small call of every constant (closed forms, lambda_c's root and c8_exit_gap's bracket, all from stored trees).
_SMALL_CALLS = [
    ["c8_exit_gap", "--H", "2", "--n", "10", "--beta", "1/10"],
    ["c_star", "--H", "2"],
    ["beta_star", "--H", "2", "--n", "10"],
    ["rate", "--lam", "1", "--n", "10"],
    ["lambda_max", "--n", "10"],
    ["lambda_c", "--n", "10", "--beta", "1/2"],
    ["lambertw", "--x", "1"],
    ["golden"],
]


def test_small_constants_calls_import_no_sympy(tmp_path: Path) -> None:
    """Issue 28: `headflow constants --quantity c_star --digits 50` and its siblings compute the certified digits from
    the stored trees (python-flint balls) and cross-check them with mpmath, importing neither SymPy (nor the
    identities, which are SymPy) nor a solver or numpy; every call still prints its digits."""
    calls = [["constants", "--quantity", *call, "--digits", "50", "--format", "csv"] for call in _SMALL_CALLS]
    code = (
        "import sys, io, contextlib\nfrom headflow.checks import cli\nout = io.StringIO()\n"
        f"with contextlib.redirect_stdout(out):\n    codes = [cli.main(argv) for argv in {calls!r}]\n"
        "print(codes, out.getvalue().count('\\n'))\n"
        f"print(sorted(m for m in sys.modules if m.startswith({(*_HEAVY, 'numpy', 'identities')!r})))"
    )
    run = _python(code, tmp_path)
    assert run.returncode == 0, run.stderr
    status, modules = run.stdout.strip().splitlines()[-2:]
    assert status == f"{[0] * len(calls)} {2 * len(calls)}", run.stdout[-500:]  # a header and a row each
    assert modules == "[]"


def test_the_list_of_commands_shows_each_command_s_own_help() -> None:
    """The one-line help read from a command's source (no import) is the module's HELP, for every command."""
    import importlib

    from headflow.checks import cli

    for module_name in cli._command_names():
        module = importlib.import_module(f"headflow.checks.commands.{module_name}")
        assert cli._summary(module_name) == (getattr(module, "NAME", module_name.replace("_", "-")), module.HELP)


@pytest.mark.parametrize(("given", "expected"), [(None, "1"), ("3", "3")])
def test_blas_runs_on_one_thread_unless_the_user_set_it(tmp_path: Path, given: str | None, expected: str) -> None:
    setting = "" if given is None else f"os.environ['OPENBLAS_NUM_THREADS'] = '{given}'; "
    run = _python(f"import os; {setting}import headflow.checks; print(os.environ['OPENBLAS_NUM_THREADS'])", tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == expected


def test_save_picks_the_format_from_the_suffix_and_writes_whole(report: Report, tmp_path: Path) -> None:
    assert report.save(tmp_path / "r.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert json.loads(report.save(tmp_path / "r.json").read_text(encoding="utf-8"))["seed"] == 0
    assert "T19.golden" in report.save(tmp_path / "r.report", "markdown").read_text(encoding="utf-8")
    with pytest.raises(InputError, match="path ending in"):
        report.save(tmp_path / "r.pdf")
    with pytest.raises(InputError, match="expected one of"):
        report.save(tmp_path / "r.txt", "pdf")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html", "r.json", "r.report"]
