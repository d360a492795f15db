"""Domains are shown non-empty before a claim is decided, and again by check-cert (issue 23, item 3).

A universal claim over an empty domain is vacuously true: `n = n + 1` for integer n in [0.3, 0.6], or any claim
over l in [lambda_c(n, beta), lambda_max(n, beta)] (lambda_c > lambda_max). A domain proved empty is an input
error naming the conflicting bounds; one shown non-empty has a verified exact point (a single point is not
empty); one neither proved empty nor shown non-empty leaves the claim INCONCLUSIVE.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp
from headflow.certificates import nonempty
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.claims.names import LambdaC
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.regions import Region, Side
from headflow.certificates.statements.real import relation_statement
from headflow.certificates.sympy_trees import from_sympy
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.registry import Context
from headflow.checks.runner import run_claims
from headflow.checks.verdicts import Verdict
from headflow.identities.closed_forms import lambda_max

from tests.checking import verify_file

ROOT = Path(__file__).resolve().parents[3]
DEPENDENT = (
    '{ n = { min = 2, max = 10, integer = true }, beta = "[1/2, 2]", l = { min = "lambda_c(n, beta)", max = "%s" } }'
)
EMPTY = {
    "integer range": ("identity", "n", "=", "n + 1", "{ n = { min = 0.3, max = 0.6, integer = true } }"),
    "dependent bounds": ("inequality", "l", ">=", "0", DEPENDENT % "lambda_max(n, beta)"),
    "dependent bounds of an identity": ("identity", "l", "=", "l + 1", DEPENDENT % "lambda_max(n, beta)"),
    "integer between dependent bounds": (
        "inequality",
        "k",
        ">",
        "k",
        '{ x = "[1/4, 2/5]", k = { min = "x", max = "2*x", integer = true } }',
    ),
}
#: The bounds each empty domain's error must name.
NAMED = {
    "integer range": ("n", "3/10", "3/5"),
    "dependent bounds": ("l", "lambda_c(n, beta)", "lambertw"),
    "dependent bounds of an identity": ("l", "lambda_c(n, beta)", "lambertw"),
    "integer between dependent bounds": ("k", "integer"),
}


def claim_text(kind: str, lhs: str, op: str, rhs: str, domain: str, claim_id: str = "c") -> str:
    key = "symbols" if kind == "identity" else "domain"
    relation = "" if kind == "identity" else f'op = "{op}"\n'
    return f'[[claim]]\nid = "{claim_id}"\nkind = "{kind}"\nlhs = "{lhs}"\n{relation}rhs = "{rhs}"\n{key} = {domain}\n'


def headflow(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "headflow", *args], capture_output=True, text=True, cwd=ROOT, timeout=300, check=False
    )


@pytest.mark.slow
@pytest.mark.parametrize("case", list(EMPTY))
def test_an_empty_domain_is_an_input_error_naming_its_bounds(tmp_path: Path, case: str) -> None:
    claims = tmp_path / "claims.toml"
    claims.write_text(claim_text(*EMPTY[case]))
    result = headflow("check", str(claims), "--certificates", str(tmp_path / "certs"))
    assert result.returncode == 2, result.stdout
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr, result.stderr
    assert "empty domain" in result.stderr and all(word in result.stderr for word in NAMED[case]), result.stderr
    assert not (tmp_path / "certs").exists()


def decide(text: str, directory: Path) -> dict[str, Verdict]:
    registry = register_claims(parse_claims(textwrap.dedent(text), "t.toml"))
    results = run_claims(registry.claims(), Context("quick", seed=3, certificate_dir=directory))
    return {r.claim.id: r.verdict for r in results}


NON_EMPTY = "\n".join(
    [
        claim_text("identity", "x", "=", "1/3", '{ x = "[1/3, 1/3]" }', "one-point"),
        claim_text("inequality", "x", ">", "1/2", '{ x = "[1/3, 1/3]" }', "one-point-false"),
        claim_text("inequality", "y", ">=", "x", '{ x = "[1/3, 1/3]", y = { min = "x", max = "3*x - 2/3" } }', "tied"),
        claim_text(
            "inequality", "u", ">", "1", '{ n = { min = 2, max = 5, integer = true }, u = { min = "lambda_c(n, 1)", '
            'max = "lambda_c(n, 1)" } }', "irrational-point",
        ),
        claim_text("inequality", "l", ">=", "lambda_c(n, beta)", DEPENDENT % "lambda_c(n, beta) + 1", "dependent"),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def non_empty(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Verdict], Path]:
    folder = tmp_path_factory.mktemp("nonempty")
    return decide(NON_EMPTY, folder), folder


def test_single_points_and_dependent_domains_are_not_empty(non_empty: tuple[dict[str, Verdict], Path]) -> None:
    verdicts, _ = non_empty
    assert verdicts["one-point"] in (Verdict.PROVED, Verdict.CERTIFIED)
    assert verdicts["one-point-false"] is Verdict.REFUTED  # decided at its one point, not vacuously true
    assert verdicts["tied"] is Verdict.CERTIFIED
    assert verdicts["irrational-point"] is Verdict.CERTIFIED
    assert verdicts["dependent"] is Verdict.CERTIFIED


def test_check_cert_shows_the_point_it_verified(non_empty: tuple[dict[str, Verdict], Path]) -> None:
    _, folder = non_empty
    paths = sorted(folder.glob("*.json"))
    assert paths
    for path in paths:
        ok, line = verify_file(path)
        assert ok and "domain non-empty: " in line and " verified" in line, line


def test_check_cert_rejects_a_certificate_whose_domain_is_empty(
    non_empty: tuple[dict[str, Verdict], Path], tmp_path: Path
) -> None:
    """A genuine certificate with its statement's domain made empty (and its checksum recomputed) is rejected:
    l between lambda_c(n, beta) and lambda_max(n, beta) < lambda_c(n, beta), at the statement's point."""
    from tests.forging import forged_file

    _, folder = non_empty
    source = next(p for p in sorted(folder.glob("dependent.*.json")))

    def emptied(d: dict) -> None:
        (l_variable,) = [v for v in d["statement"]["variables"] if v["name"] == "l"]
        l_variable["high"] = ["lambda_max", ["sym", "n"], ["sym", "beta"]]

    ok, reason = verify_file(forged_file(source, tmp_path, emptied))
    assert not ok and "empty domain" in reason, reason


UNSETTLED = claim_text("inequality", "x", ">=", "0", '{ x = { min = "log(6)", max = "log(2) + log(3)" } }', "log-six")


def test_a_domain_not_shown_non_empty_leaves_the_claim_inconclusive(tmp_path: Path) -> None:
    """[log 6, log 2 + log 3] is one point that balls cannot place inside both bounds, nor prove empty."""
    (claim,) = parse_claims(UNSETTLED)
    assert "could not be shown non-empty" in claim.domain_unsettled
    assert decide(UNSETTLED, tmp_path) == {"log-six": Verdict.INCONCLUSIVE}
    assert not list(tmp_path.glob("*.json"))
    with pytest.raises(Rejected, match="could not be shown non-empty"):
        relation_statement(claim)  # the statement (whose point check-cert verifies) is refused too


n, b, x, y = sp.symbols("n b x y")


def region(*sides: Side) -> Region:
    return Region(tuple(sides))


def tree(expr: sp.Expr) -> list:
    return from_sympy(expr)


def test_the_points_found_are_verified_and_the_empty_proofs_are_sound() -> None:
    integer_range = region(Side("n", True, Fraction(3, 10), Fraction(3, 5)))
    assert nonempty.settle(integer_range).empty
    one_integer = region(Side("n", True, Fraction(1, 2), Fraction(3, 2)))
    assert nonempty.settle(one_integer).point == {"n": 1}
    crossing = region(
        Side("n", True, Fraction(2), Fraction(10)),
        Side("b", False, Fraction(1, 2), Fraction(2)),
        Side("l", False, tree(LambdaC(n, b)), tree(lambda_max(n, b))),
    )
    settled = nonempty.settle(crossing)
    assert settled.empty and settled.sides == ("l",), settled
    open_end = region(Side("x", False, Fraction(0), Fraction(1), low_open=True), Side("y", False, tree(x), Fraction(0)))
    assert nonempty.settle(open_end).point is None  # empty (x > 0 puts y in [x, 0]): never a point at x = 0
    closed = region(Side("x", False, Fraction(0), Fraction(1)), Side("y", False, tree(x), Fraction(0)))
    assert nonempty.settle(closed).point == {"x": 0, "y": 0}
    below_one = region(Side("x", False, Fraction(0), Fraction(1), high_open=True), Side("k", True, tree(x), tree(x)))
    assert nonempty.settle(below_one).point == {"x": 0, "k": 0}
