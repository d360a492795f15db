"""Counterexample certificates of claims-file inequalities and identities (form `real`, kind `witness`).

A REFUTED inequality or identity writes the point where both sides are defined and the relation fails; check-cert
re-checks the point (in the domain, every variable given) and its conditions (exactly the kernel's: the
definedness conditions, then `rhs - lhs` with the failing sign) with balls, and Coq proves the conditions at the
point. A true claim gets no such certificate, even at a boundary where the two sides are equal, and a forged one
(moved point, changed sign, dropped condition, a point outside the domain) is rejected.
"""

from __future__ import annotations

import tempfile
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel.exp_field import exactly_zero
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.counterexamples import certify_counterexample
from headflow.checks import coq_files
from headflow.checks.claimsfile.identity_decider import decide_identity
from headflow.checks.claimsfile.inequality_decider import decide_inequality
from headflow.checks.registry import Context
from headflow.checks.verdicts import Verdict

from tests.coq_tier import needs_coqc
from tests.forging import forged_file


def _claim(lhs: str, op: str, rhs: str, domain: str, kind: str = "inequality") -> Any:
    fields = f'lhs = "{lhs}"\nrhs = "{rhs}"\n' + (f'op = "{op}"\n' if kind == "inequality" else "")
    where = "domain" if kind == "inequality" else "symbols"
    text = f'[[claim]]\nid = "c"\nkind = "{kind}"\n{fields}{where} = {domain}\n'
    (claim,) = parse_claims(textwrap.dedent(text), "t.toml")
    return claim


def _decide(claim: Any) -> Any:
    ctx = Context("quick", seed=1, certificate_dir=Path(tempfile.mkdtemp()))
    return (decide_identity if claim.kind == "identity" else decide_inequality)(claim, ctx)


@pytest.fixture(scope="module")
def refuted() -> Path:
    """exp(x) >= 1 + x + x^2/2 over the reals, refuted at a negative x."""
    outcome = _decide(_claim("exp(x)", ">=", "1 + x + x**2/2", '{ x = "real" }'))
    assert outcome.verdict is Verdict.REFUTED
    (path,) = outcome.certificates
    return Path(path)


def test_a_refuted_inequality_writes_a_counterexample_that_rechecks(refuted: Path) -> None:
    result = check_file(refuted)
    assert result.ok, result.message
    assert "is false: exp(x) >= 1 + x + x**2/2 fails at x = " in result.proved


def test_refuted_identities_and_strict_relations_carry_certificates() -> None:
    cases = [
        _claim("c_star(H)", "<", "1", "{ H = { min = 1 } }"),  # fails exactly at H = 1, where the two sides are equal
        _claim("sqrt(x**2)", "=", "x", '{ x = "real" }', kind="identity"),  # fails for every x < 0
        _claim("lambda_c(n, 1)", "<", "4", "{ n = { min = 2, max = 20, integer = true } }"),
    ]
    for claim in cases:
        outcome = _decide(claim)
        assert outcome.verdict is Verdict.REFUTED, claim
        (path,) = outcome.certificates
        assert check_file(Path(path)).ok, claim


def test_a_refutation_too_large_to_write_exactly_stays_refuted_without_a_certificate() -> None:
    """rate(10**400, 10, 1) = 2 10^400/(e^(10^400) + 9) is a ball near 2^(-10^400): REFUTED by the balls, but its
    enclosure has no exact rational text that fits in memory, so no certificate (it crashed the writer once)."""
    outcome = _decide(_claim("rate(10**400, 10, 1)", "=", "1", "{}", kind="identity"))
    assert outcome.verdict is Verdict.REFUTED, outcome.notes
    assert outcome.certificates == []


@pytest.mark.parametrize(
    ("lhs", "op", "rhs", "domain", "point"),
    [
        ("c_star(H)", "<=", "1", "{ H = { min = 1 } }", {"H": "1"}),  # true, and equal at the boundary
        ("exp(x)", ">=", "1 + x", '{ x = "real" }', {"x": "0"}),  # true, equal at 0
        ("x", "<", "2", '{ x = "[0, 1]" }', {"x": "3"}),  # fails at 3, which is outside the domain
        ("1/x", ">", "0", '{ x = "positive" }', {"x": "0"}),  # a side undefined there, and outside
    ],
)
def test_no_certificate_where_the_claim_does_not_fail(lhs: str, op: str, rhs: str, domain: str, point: Any) -> None:
    claim = _claim(lhs, op, rhs, domain)
    assert certify_counterexample(claim, point, Path(tempfile.mkdtemp())) is None


def _move(data: dict[str, Any]) -> None:
    data["payload"]["point"]["x"] = "0"  # exp(0) >= 1: the failing condition is false there


def _sign(data: dict[str, Any]) -> None:
    data["payload"]["conditions"][-1]["relation"] = "<="


def _drop(data: dict[str, Any]) -> None:
    data["payload"]["conditions"].pop()


def _outside(data: dict[str, Any]) -> None:
    data["statement"]["variables"][0] |= {"low": ["rat", "0"], "low_open": False}
    data["statement"]["point"] = {"x": "1"}


@pytest.mark.parametrize("edit", [_move, _sign, _drop, _outside])
def test_a_forged_counterexample_is_rejected(refuted: Path, tmp_path: Path, edit: Any) -> None:
    result = check_file(forged_file(refuted, tmp_path, edit))
    assert not result.ok, edit.__name__


@pytest.mark.slow
@needs_coqc
def test_coq_proves_the_counterexample(refuted: Path) -> None:
    verdict = coq_files.check(refuted)
    assert verdict.status == coq_files.RECHECKED, verdict.message


@pytest.mark.parametrize(
    "junk", [None, -1, 10**6, "x", "1/0", [], {}, ["rat"], 0.5, True, "1" * 3000, {"x": "1", "y": "2"}]
)
def test_junk_in_a_counterexample_is_rejected_cleanly(refuted: Path, tmp_path: Path, junk: Any) -> None:
    """Each field of the payload and the point replaced by junk (checksum recomputed): a clean rejection, never an
    exception."""
    edits = {
        "point": lambda d: d["payload"].update(point=junk),
        "x": lambda d: d["payload"]["point"].update(x=junk),
        "prec": lambda d: d["payload"].update(prec=junk),
        "conditions": lambda d: d["payload"].update(conditions=junk),
        "enclosure": lambda d: d["payload"]["conditions"][-1].update(enclosure=junk),
        "parameters": lambda d: d["payload"].update(parameters=junk),
    }
    for name, edit in edits.items():
        if name == "parameters" and junk == {}:
            continue  # the genuine value
        result = check_file(forged_file(refuted, tmp_path, edit, name=f"{name}.json"))
        assert not result.ok and "\n" not in result.message, (name, junk)


# ---------------------------------------------------------------- sides exactly equal (an exact zero, not a ball)


@pytest.fixture(scope="module")
def equal_sides() -> Path:
    """exp(2 x) > exp(x + x) fails everywhere: the sides are exactly equal, a difference no ball settles as >= 0."""
    claim = _claim("exp(2*x)", ">", "exp(x + x)", '{ x = "real" }')
    path = certify_counterexample(claim, {"x": "1/3"}, Path(tempfile.mkdtemp()))
    assert path is not None
    return Path(path)


def test_equal_sides_refute_a_strict_claim_by_the_exact_zero_test(equal_sides: Path) -> None:
    result = check_file(equal_sides)
    assert result.ok, result.message
    assert "exp(2*x) > exp(x + x) fails at x = 1/3" in result.proved, result.proved


def test_a_difference_just_past_the_balls_is_not_an_exact_zero(equal_sides: Path, tmp_path: Path) -> None:
    """The same certificate with 10^-200 added to the left side, its balls at 64 bits (they straddle 0): the kernel's
    exact test finds the difference not 0, so the condition is not met; nor does the prover write one."""

    def perturb(data: dict[str, Any]) -> None:
        tiny = ["pow", ["rat", "10"], -200]
        data["statement"]["lhs"] = ["add", data["statement"]["lhs"], tiny]
        data["payload"]["conditions"][-1]["expression"][2] = data["statement"]["lhs"]
        data["payload"]["prec"] = 64

    assert not check_file(forged_file(equal_sides, tmp_path, perturb)).ok
    claim = _claim("exp(2*x) + 10**(-200)", ">", "exp(x + x)", '{ x = "real" }')
    assert certify_counterexample(claim, {"x": "1/3"}, tmp_path) is None


@pytest.mark.parametrize("relation", [">", "!="])
def test_an_exact_zero_meets_no_strict_or_nonzero_condition(equal_sides: Path, tmp_path: Path, relation: str) -> None:
    def edit(data: dict[str, Any]) -> None:
        data["payload"]["conditions"][-1]["relation"] = relation

    assert not check_file(forged_file(equal_sides, tmp_path, edit)).ok


def test_the_exact_zero_test_values_named_nodes_and_refuses_what_has_no_exact_value() -> None:
    third, point = Fraction(1, 3), {"l": Fraction(1, 3), "n": Fraction(3), "b": Fraction(2)}
    rate = ["rate", ["sym", "l"], ["sym", "n"], ["sym", "b"]]
    same = ["rate", ["div", ["mul", ["rat", "2"], ["sym", "l"]], ["rat", "2"]], ["sym", "n"], ["sym", "b"]]
    assert exactly_zero(["sub", rate, same], point)
    assert not exactly_zero(["sub", rate, ["rate", ["rat", "1/2"], ["sym", "n"], ["sym", "b"]]], point)
    assert not exactly_zero(["sub", ["log", ["rat", "2"]], ["log", ["rat", "2"]]], {})  # no exact log: never 0 here
    assert not exactly_zero(["sub", ["pow", ["sqrt", ["rat", "2"]], 2], ["rat", "2"]], {})  # nor sqrt(2)
    assert exactly_zero(["sub", ["pow", ["sqrt", ["rat", "1/9"]], -1], ["rat", "3"]], {"x": third})


@pytest.mark.slow
@needs_coqc
def test_coq_proves_the_exact_zero(equal_sides: Path) -> None:
    """exp(x + x) rewritten as exp(2 x) where `field` shows the arguments equal, then the difference by `field`."""
    assert coq_files.check(equal_sides).status == coq_files.RECHECKED
