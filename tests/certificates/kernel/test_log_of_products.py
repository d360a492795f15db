"""The logarithm of a product as a power cut between logarithm atoms (`real_encoding.cut_fact`, kind `power` over 2 to 4
atoms with signed exponents): log(rho1 sqrt d) = log rho1 + (1/2) log d for rho1, d > 0, which the encoding (each log
an atom l with exp(l) = its argument) cannot derive alone; the prover proposes it (`smt_refinement.log_relations`,
from `log_products.factors`) and T25's first-order relu time n log(rho1 sqrt d)/(2 lam^2 beta) ~ n log(d)/(4 lam^2
beta) as d -> oo gets a `limit` certificate at the log scale (error C/log d, C = -log(rho1)/(2 lam^2 beta): the
difference is log(rho1)/(2 lam^2 beta log d), worked by hand). The attacks: a relation with a wrong exponent (log x y
= log x + log y^2 is false) proves nothing, and the claim with the constant 1/2 in place of 1/4 gets no proof.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel import limits, real_statements
from headflow.certificates.kernel.real_encoding import Encoding
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.log_products import factors, split
from headflow.certificates.provers.limits import search
from headflow.certificates.provers.smt_refinement import log_relations

RHO1, D = ["sym", "rho1"], ["sym", "d"]
VARIABLES = [
    {"name": "rho1", "low": ["rat", "0"], "low_open": True, "high": ["rat", "1"], "high_open": True, "integer": False},
    {"name": "d", "low": ["rat", "2"], "low_open": False, "high": None, "high_open": False, "integer": False},
]
RELU_TIME = """
[[claim]]
id = "relu-time"
kind = "asymptotic"
quantity = "expression"
expr = "n * log(rho1 * sqrt(d)) / (2 * lam**2 * beta)"
domain = { lam = "positive", beta = "positive", rho1 = "(0, 1)", n = "integer>=2", d = { min = "1 / rho1**2" } }
as = "d -> oo"
order = "~ n * log(d) / ({k} * lam**2 * beta)"
"""


def _relation(rhs: list[Any], op: str = "<=") -> dict[str, Any]:
    """log(rho1 sqrt d) op rhs over 0 < rho1 < 1, d >= 2."""
    lhs = ["log", ["mul", RHO1, ["sqrt", D]]]
    return {
        "form": "real",
        "claim": "split",
        "variables": VARIABLES,
        "conditions": [],
        "point": {"rho1": "1/2", "d": "2"},
    } | {
        "lhs": lhs,
        "op": op,
        "rhs": rhs,
    }


HALF_LOG_D = ["add", ["log", RHO1], ["mul", ["rat", "1/2"], ["log", D]]]


def test_factors_of_products_quotients_roots_and_powers() -> None:
    x, y = json.dumps(["sym", "x"]), json.dumps(["sym", "y"])
    assert factors(["mul", ["sym", "x"], ["sqrt", ["sym", "y"]]]) == {x: 1, y: Fraction(1, 2)}
    assert factors(["div", ["pow", ["sym", "x"], 3], ["rpow", ["sym", "y"], ["rat", "2/3"]]]) == {
        x: 3,
        y: Fraction(-2, 3),
    }
    assert factors(["div", ["sym", "x"], ["sym", "x"]]) == {}  # cancelled: log 1 = 0 is no relation between atoms
    assert factors(["mul", ["rat", "2"], ["sym", "x"]]) == {}  # log 2 is no atom
    assert split(["sym", "x"]) is None and split(["add", ["sym", "x"], ["rat", "1"]]) is None
    assert split(["pow", ["sym", "x"], 2]) == {x: 2}


def test_the_prover_proposes_the_split_both_ways() -> None:
    encoding = Encoding(_relation(HALF_LOG_D, "="))
    found = log_relations(encoding)
    assert [c["exponents"] for c in found] == [[2, -2, -1], [-2, 2, 1]]
    atoms = [encoding.meaning()[a[1]] for _, a in encoding.exponentials]
    assert [atoms[i] for i in found[0]["atoms"]] == [["log", ["mul", RHO1, ["sqrt", D]]], ["log", RHO1], ["log", D]]


@pytest.mark.parametrize("op", ["<=", ">="])
def test_the_kernel_proves_the_split_with_the_cuts_and_not_without(op: str) -> None:
    statement = _relation(HALF_LOG_D, op)
    cuts = log_relations(Encoding(statement))
    assert "log(rho1*sqrt(d))" in real_statements.check(statement, "split", "smt", {"cuts": cuts}, 20)[0]
    with pytest.raises(Rejected, match="'sat'"):
        real_statements.check(statement, "split", "smt", {"cuts": []}, 20)


def test_a_wrong_split_is_not_proved_with_any_power_cut() -> None:
    """log(rho1 sqrt d) >= log rho1 + log d is false (rho1 sqrt d < rho1 d for d > 1): the true split's cuts and a cut
    with the exponents of the false split (a true fact too: every power cut is one) leave it unproved."""
    statement = _relation(["add", ["log", RHO1], ["log", D]], ">=")
    cuts = [*log_relations(Encoding(statement)), {"kind": "power", "atoms": [0, 1, 2], "exponents": [1, -1, -1]}]
    with pytest.raises(Rejected, match="'sat'"):
        real_statements.check(statement, "split", "smt", {"cuts": cuts}, 20)


def test_t25_relu_time_gets_a_log_scale_certificate_and_a_wrong_constant_none() -> None:
    (claim,) = parse_claims(RELU_TIME.replace("{k}", "4"))
    found = search(claim, True, "1", None)
    assert found is not None
    statement, payload = found
    assert statement["error"]["scale"] == "log" and any(
        len(c["atoms"]) == 3 for c in payload["cuts"][0] if "atoms" in c
    )
    assert "-> 1 as d -> oo" in limits.check(statement, claim.id, "smt", payload, 20)[0]
    (wrong,) = parse_claims(RELU_TIME.replace("{k}", "2"))
    assert search(wrong, True, "1", None) is None
