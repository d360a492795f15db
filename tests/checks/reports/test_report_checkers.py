"""Each verdict lists the independent checkers that re-checked its certificates, in every report format.

Coq is listed only where coqc accepted the certificate's file in that run: a constant whose Coq file cannot be
written (Lambert W is implicit, with no root binding in Coq yet) lists check-cert alone; a lambda_c constant (its root
bound by its equation) lists Coq; the exit gap's order ~ (H - 1)/H, proved with no certificate (the `exit-gap` form
states its limit only), lists none.
Skipped, with the reason, when coqc is missing.
"""

from __future__ import annotations

import json
from pathlib import Path

import headflow.checks as checks
import pytest
from headflow.certificates.kernel.coq import run

from tests.coq_tier import module_needs_coqc
from tests.sample_claims import POINT_AND_SMT, claims_of

pytestmark = module_needs_coqc("checker tests")

CLAIMS = (
    POINT_AND_SMT
    + """
[[claim]]
id = "omega"
kind = "constant"
expr = "lambertw(1)"
value = "0.5671432904"
digits = 10

[[claim]]
id = "lambda-c.n10"
kind = "constant"
expr = "lambda_c(10, 1)"
value = "3.4976"
digits = 5

[[claim]]
id = "golden.square"
kind = "identity"
lhs = "golden**2"
rhs = "golden + 1"

[[claim]]
id = "rate.at-lambda-max"
kind = "identity"
lhs = "rate(lambda_max(n, beta), n, beta)"
rhs = "2 * lambertw((n - 1) / e) / (beta * (n - 1))"
symbols = { n = "integer>=2", beta = "positive" }

[[claim]]
id = "norm-of-sum"
kind = "model"
lhs = "norm2(sum_i(x_i))"
op = "="
rhs = "sum_i(sum_j(inner(x_i, x_j)))"

[[claim]]
id = "exit-gap.similar"
kind = "asymptotic"
quantity = "exit_gap"
as = "n -> oo"
order = "~ (H - 1) / H"
"""
)

EXPECTED = {
    "golden.inverse": "check-cert (balls), Coq",
    "c-star.at-most-one": "check-cert, z3, cvc5, Coq",
    "omega": "check-cert (balls)",
    "lambda-c.n10": "check-cert (balls), Coq",
    "golden.square": "check-cert, z3, cvc5, Coq",  # proved by exact algebra, with the SMT route's certificate
    # z3 and cvc5 over the reals (cvc5 does not close it with n an integer), Coq with one W of equal arguments
    "rate.at-lambda-max": "check-cert, z3, cvc5, Coq",
    # proved for every n by the kernel's normal form of sums; Coq proves the claim over every inner-product space
    "norm-of-sum": "check-cert (exact algebra), Coq",
    # proved by the exit gap's bracket and checked limits: no certificate (the `exit-gap` form states limits only)
    "exit-gap.similar": "none (no certificate)",
}

#: The claim with no certificate.
NONE = "exit-gap.similar"

#: Claims whose Coq files take coqc seconds each (a point witness's enclosures, a lambda_c root bound by its
#: equation, the rate at lambda_max's two Lambert W values): their checkers are listed in the slow test. The default
#: report has a certificate that Coq accepts (smt), one whose Coq file cannot be written (lambertw) and a claim with
#: no certificate.
COSTLY = ("golden.inverse", "lambda-c.n10", "rate.at-lambda-max")


def checked(claims: str, folder: Path) -> checks.Report:
    return checks.check(claims, certificates=folder, progress=False, coq=True)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> checks.Report:
    return checked(claims_of(CLAIMS, *COSTLY, keep=False), tmp_path_factory.mktemp("rechecked"))


def assert_checkers_listed(report: checks.Report, ids: set[str]) -> None:
    """The report of the claims `ids` lists, for each, the checkers of EXPECTED, in JSON and every format; a claim
    whose certificate Coq did not accept says why."""
    data = json.loads(report.render("json"))
    found = {c["id"]: ", ".join(c["evidence"]["independent_checkers"]) for c in data["claims"]}
    assert set(found) == ids
    if NONE in found:
        assert found.pop(NONE) == ""  # no certificate: no checker
    assert found == {k: v for k, v in EXPECTED.items() if k in ids and k != NONE}
    for claim in data["claims"]:
        evidence = claim["evidence"]
        without = {path for path, names in evidence.get("rechecked_by", {}).items() if "Coq" not in names}
        assert set(evidence.get("coq_missing", {})) == without, claim["id"]
        assert all(reason.split(":")[0] for reason in evidence.get("coq_missing", {}).values())
    for fmt in ("markdown", "html", "table"):
        text = " ".join(report.render(fmt).replace("\u2502", " ").split())  # the table's wrapped cells joined
        for claim_id in ids:
            assert EXPECTED[claim_id] in text, (fmt, claim_id)


def test_json_lists_the_checkers_of_each_verdict(report: checks.Report) -> None:
    data = json.loads(report.render("json"))
    found = {c["id"]: ", ".join(c["evidence"]["independent_checkers"]) for c in data["claims"]}
    assert found.pop(NONE) == ""  # no certificate: no checker
    assert found == {k: v for k, v in EXPECTED.items() if k != NONE and k not in COSTLY}
    (omega,) = (c for c in data["claims"] if c["id"] == "omega")
    coq_of = omega["evidence"]["rechecked_by"]
    assert all("Coq" not in names for names in coq_of.values()), "lambertw has no Coq file: Coq is not listed"


def test_each_certificate_coq_did_not_accept_says_why(report: checks.Report) -> None:
    for claim in json.loads(report.render("json"))["claims"]:
        evidence = claim["evidence"]
        without = {path for path, names in evidence.get("rechecked_by", {}).items() if "Coq" not in names}
        assert set(evidence.get("coq_missing", {})) == without, claim["id"]
        assert all(reason.split(":")[0] for reason in evidence.get("coq_missing", {}).values())


@pytest.mark.parametrize("fmt", ["markdown", "html", "table"])
def test_every_format_lists_the_checkers(report: checks.Report, fmt: str) -> None:
    text = " ".join(report.render(fmt).replace("\u2502", " ").split())  # the table's wrapped cells joined
    for claim_id, checkers in EXPECTED.items():
        if claim_id not in COSTLY:
            assert checkers in text, (fmt, checkers)


@pytest.mark.slow
def test_the_costly_claims_list_their_checkers(tmp_path: Path) -> None:
    """The point witness and the lambda_c constant: check-cert (balls) and Coq, in JSON and every format."""
    assert_checkers_listed(checked(claims_of(CLAIMS, *COSTLY), tmp_path), set(COSTLY))


def test_without_recheck_no_checker_is_claimed(tmp_path: Path) -> None:
    plain = checks.check(CLAIMS.split('[[claim]]\nid = "c-star')[0], certificates=tmp_path, progress=False)
    assert "independent_checkers" not in plain.claims[0].evidence
    assert "Coq" not in plain.render("markdown")


def test_coq_option_implies_recheck_and_needs_coqc(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import argparse

    from headflow.certificates.errors import InputError
    from headflow.checks.commands.options.decision import add_decision_arguments, decision_options

    parser = argparse.ArgumentParser()
    add_decision_arguments(parser)
    options = decision_options(parser.parse_args(["--coq"]))
    assert options["recheck"] is True and options["coq"] is True
    assert decision_options(parser.parse_args([]))["recheck"] is False
    monkeypatch.setattr(run, "coqc", lambda: None)
    with pytest.raises(InputError, match="Coq is not installed"):
        checks.check(CLAIMS, certificates=tmp_path, progress=False, coq=True)
