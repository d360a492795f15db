"""Logarithms of numbers pinned by Taylor cuts (`smt_refinement.constant_cuts`): the encoding knows log q only as an
atom l with exp(l) = q (so l <= q - 1, no lower bound); a cut below and one above at l's rounded value bound it on both
sides. The kernel then proves log 397 - log 2 > 4 (DA > 1/2 in the equiangular bracket, what log T/sqrt(beta) -> +oo
needs), and still refuses a false neighbour (log 397 - log 2 > 27/5: it is 5.2908) and a forged cut."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from headflow.certificates.kernel import real_statements
from headflow.certificates.kernel.real_encoding import Encoding
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.provers.smt_refinement import constant_cuts

X = {"name": "x", "low": ["rat", "0"], "low_open": False, "high": ["rat", "1"], "high_open": False, "integer": False}


def logs_statement(bound: str) -> dict[str, Any]:
    """log 397 - log 2 + x > bound + x over x in [0, 1] (a variable, so that the problem has one)."""
    lhs = ["add", ["log", ["rat", "397"]], ["mul", ["rat", "-1"], ["log", ["rat", "2"]]], ["sym", "x"]]
    rhs = ["add", ["rat", bound], ["sym", "x"]]
    return {"form": "real", "claim": "logs", "variables": [X], "conditions": [], "point": {"x": "0"}} | {
        "lhs": lhs,
        "op": ">",
        "rhs": rhs,
    }


def _check(statement: dict[str, Any], cuts: list[dict[str, object]]) -> None:
    real_statements.check(statement, "logs", "smt", {"cuts": cuts}, 30)


def test_pinned_logarithms_prove_a_relation_between_them() -> None:
    statement = logs_statement("4")
    cuts = constant_cuts(Encoding(statement))
    assert sorted(c["kind"] for c in cuts) == ["lower", "lower", "upper", "upper"]
    with pytest.raises(Rejected):
        _check(statement, [])
    _check(statement, cuts)


def test_a_false_neighbour_is_not_proved_with_the_same_cuts() -> None:
    statement = logs_statement("27/5")
    with pytest.raises(Rejected):
        _check(statement, constant_cuts(Encoding(statement)))


def test_a_forged_factor_is_refused() -> None:
    """A lower cut's factor above exp(at) would make exp(l) larger than it is: the kernel checks it with balls."""
    statement = logs_statement("4")
    cuts = constant_cuts(Encoding(statement))
    forged = [c | {"factor": str(2 * Fraction(str(c["factor"])))} if c["kind"] == "lower" else c for c in cuts]
    with pytest.raises(Rejected):
        _check(statement, forged)
