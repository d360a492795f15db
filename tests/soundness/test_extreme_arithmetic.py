"""Arithmetic at the grammar's limits is an input error or a verdict with a reason, never a crash.

Every built-in function of the claims grammar (`headflow.certificates.claims.names.FUNCTIONS`) is called with extreme
arguments in each of its argument slots: literals of magnitude 1e100 and 1e-100, exact powers up to 20,000 bits,
exponential towers, and symbols ranging up to 1e100 raised to the 1000th power. Each claim goes through every
route of its kind (balls, the witness search, the SMT encodings, the interval engine, SymPy) and must end
either as a claims-file error (exit code 2, one located line) or with a verdict whose procedures did not crash
and, when undecided, say why. The default run takes the sharpest arguments; `-m slow` runs the whole matrix.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.claims.names import FUNCTIONS
from headflow.certificates.claims.problems import ClaimsFileError
from headflow.checks.api import decide
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.cli import main
from headflow.checks.reports.report import DecidedClaim
from headflow.checks.verdicts import Verdict

#: Ordinary arguments of each arity (a valid point of every function), into which one extreme is put.
ORDINARY = {1: ("2",), 2: ("10", "1"), 3: ("2", "10", "1")}
#: The sharpest extremes (default run) and the rest of the matrix (slow run).
SHARP = ("10**400", "-(2**1000)**19", "1/(2**1000)**19", "exp(exp(100))", "exp(-exp(100))", "exp(exp(exp(10)))")
MORE = (
    "-10**400",
    "10**-400",
    "1e100",
    "-1e100",
    "1e-100",
    "(2**1000)**19",
    "exp(1000)",
    "exp(-1000)",
    "exp(10**100)",
    "lambertw(10**400)",
    "10**400/3",
    "sqrt(10**400)",
    "0",
    "-2",
)
#: Symbol forms on a domain of x: (domain, forms put into a slot).
SHARP_FORMS = (("[1e-100, 1]", ("x**1000",)),)
MORE_FORMS = (
    ("[2, 1e100]", ("x", "x**4", "(2**1000)**19*x", "x**1000", "exp(x)", "10**400*x", "1/x", "exp(exp(x))", "exp(-x)")),
    ("[-1e100, 1e100]", ("x", "x**3", "exp(x)")),
    ("[1e-100, 1]", ("1/x", "log(x)", "x**-1000")),
    ("[0, 1]", ("x**1000",)),
)


def calls(argument: str) -> list[str]:
    """Every function called with `argument` in each of its slots and ordinary arguments elsewhere."""
    out = []
    for name, (arity, _) in FUNCTIONS.items():
        for slot in range(arity):
            args = list(ORDINARY[arity])
            args[slot] = argument
            out.append(f"{name}({', '.join(args)})")
    return out


def constant_claim(index: int, call: str) -> str:
    return f'[[claim]]\nid = "c{index}"\nkind = "constant"\nexpr = "{call}"\nvalue = "1"\ndigits = 3\n'


def identity_claim(index: int, call: str, symbolic: bool = False) -> str:
    symbols = 'symbols = { x = "positive" }\n' if symbolic else ""
    return f'[[claim]]\nid = "i{index}"\nkind = "identity"\nlhs = "{call}"\nrhs = "1"\n{symbols}'


def inequality_claim(index: int, call: str, domain: str) -> str:
    head = f'[[claim]]\nid = "q{index}"\nkind = "inequality"\nlhs = "{call}"\nop = ">="\nrhs = "0"\n'
    return head + f'domain = {{ x = "{domain}" }}\n'


def decide_each(texts: list[str], folder: Path) -> tuple[list[DecidedClaim], list[str]]:
    """The decided claims of those texts that parse, and the one-line errors of those that do not."""
    claims, errors = [], []
    for text in texts:
        try:
            claims += parse_claims(text)
        except ClaimsFileError as exc:
            errors.append(str(exc))
    report = decide(register_claims(claims).claims(), progress=False, certificates=folder)
    return report.claims, errors


def assert_no_crash(texts: list[str], folder: Path) -> None:
    decided, errors = decide_each(texts, folder)
    assert all("\n" not in error and error.startswith("<claims>:") for error in errors), errors
    for claim in decided:
        assert not claim.evidence.get("crashed"), (claim.statement, claim.procedures)
        for procedure in claim.procedures:
            assert "crashed" not in str(procedure.get("notes", "")), (claim.statement, procedure)
        assert claim.verdict in Verdict
        if claim.verdict is Verdict.INCONCLUSIVE:
            assert all(procedure.get("notes") for procedure in claim.procedures), (claim.statement, claim.procedures)
    assert len(decided) + len(errors) == len(texts)


@pytest.mark.parametrize("argument", SHARP)
def test_constants_of_every_function_at_sharp_extremes(argument: str, tmp_path: Path) -> None:
    assert_no_crash([constant_claim(i, call) for i, call in enumerate(calls(argument))], tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("argument", MORE)
def test_constants_of_every_function_at_every_extreme(argument: str, tmp_path: Path) -> None:
    assert_no_crash([constant_claim(i, call) for i, call in enumerate(calls(argument))], tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("argument", SHARP + MORE)
def test_identities_of_every_function_at_every_extreme(argument: str, tmp_path: Path) -> None:
    assert_no_crash([identity_claim(i, call) for i, call in enumerate(calls(argument))], tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("form", ["x**1000", "x**-1000", "(2**1000)**19*x", "exp(exp(x))", "exp(-exp(x))", "10**400*x"])
def test_identities_of_every_function_on_symbols_at_extremes(form: str, tmp_path: Path) -> None:
    assert_no_crash([identity_claim(i, call, symbolic=True) for i, call in enumerate(calls(form))], tmp_path)


@pytest.mark.parametrize(("domain", "form"), [(d, f) for d, forms in SHARP_FORMS for f in forms])
def test_inequalities_of_every_function_on_sharp_domains(domain: str, form: str, tmp_path: Path) -> None:
    assert_no_crash([inequality_claim(i, call, domain) for i, call in enumerate(calls(form))], tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize(("domain", "form"), [(d, f) for d, forms in MORE_FORMS for f in forms])
def test_inequalities_of_every_function_on_every_domain(domain: str, form: str, tmp_path: Path) -> None:
    assert_no_crash([inequality_claim(i, call, domain) for i, call in enumerate(calls(form))], tmp_path)


@pytest.mark.slow
def test_the_reported_overflows_end_in_verdicts_with_reasons(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's cases through the command: lambda_c(10**400, 1) is not 1 (REFUTED), and lambda_c(x**4, 1) >= 0
    on [2, 1e100] is decided or undecided with a reason; exit 1 (a claim is refuted), nothing crashed."""
    path = tmp_path / "claims.toml"
    path.write_text(constant_claim(0, "lambda_c(10**400, 1)") + inequality_claim(1, "lambda_c(x**4, 1)", "[2, 1e100]"))
    code = main(["check", str(path), "--format", "json", "--certificates", str(tmp_path / "certs")])
    out = capsys.readouterr().out
    assert code == 1 and "crashed" not in out
    claims = {claim["id"]: claim for claim in json.loads(out)["claims"]}
    assert claims["c0"]["verdict"] == "REFUTED"
    assert claims["q1"]["verdict"] in {"CERTIFIED", "INCONCLUSIVE"}


@pytest.mark.parametrize(
    "text",
    [
        # an integer domain beyond numpy's int64 (the random points are drawn exactly)
        '[[claim]]\nid = "n"\nkind = "inequality"\nlhs = "lambda_c(n, 1)"\nop = ">="\nrhs = "2"\n'
        "domain = { n = { min = 2, max = 1e100, integer = true } }\n",
        # a dependent bound far beyond the floats (the cover describes its boxes without float())
        '[[claim]]\nid = "y"\nkind = "inequality"\nlhs = "lambertw(y)"\nop = "<="\nrhs = "x - 1/1000"\n'
        'domain = { x = "[2, 1000]", y = { min = 0, max = "exp(x)" } }\n',
    ],
)
@pytest.mark.slow
def test_domains_beyond_the_floats(text: str, tmp_path: Path) -> None:
    assert_no_crash([text], tmp_path)
