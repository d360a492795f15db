"""Operator norms in Coq: a model witness whose claim names delta_op or misalignment_h binds each norm by its
definition (the least b >= 0 with |P v| <= b |v| for every v), and the proof bounds it by rationals (an LDL^T
factorization above, a vector below). The bounds hold (no Coq needed); coqc re-checks a refutation and rejects a true
claim stated refuted, a forged factorization and a lower bound past the norm."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.coq import norms
from headflow.certificates.coq.source import source
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.model_tree import witness_problem
from headflow.certificates.kernel.coq.statements import statements
from headflow.certificates.kernel.exact import exact_value, precision
from headflow.certificates.kernel.exprtree import symbols
from headflow.certificates.kernel.operator_norm import operator_norm

from tests.coq_tier import needs_coqc

F = Fraction
A = [[F(1), F(1, 2)], [F(1, 2), F(1)]]
B = [[F(1), F(0)], [F(0), F(-1)]]
TOKENS = [[F(1), F(0)], [F(3, 5), F(4, 5)]]


def _claim(lhs: str, op: str, rhs: str) -> Any:
    return parse_claims(f'[[claim]]\nid = "norm"\nkind = "model"\nlhs = "{lhs}"\nop = "{op}"\nrhs = "{rhs}"\n')[0]


def _payload(scores: list[Any], values: list[Any]) -> dict[str, Any]:
    def text(rows: list[list[Fraction]]) -> list[list[str]]:
        return [[str(v) for v in row] for row in rows]

    record = {"tokens": text(TOKENS), "scores": [text(M) for M in scores], "values": [text(W) for W in values]}
    return {"configuration": record | {"beta": "1", "attention": "usa", "geometry": "sphere"}, "at": {"h": 0}}


def _product(P: list[list[Fraction]], Q: list[list[Fraction]]) -> list[list[Fraction]]:
    return [[sum((P[i][k] * Q[k][j] for k in range(len(Q))), F(0)) for j in range(len(Q[0]))] for i in range(len(P))]


def test_ldl_factors_a_semi_definite_matrix_and_refuses_an_indefinite_one() -> None:
    lower, pivots = norms.ldl([[F(4), F(2)], [F(2), F(1)]])  # rank 1: a zero pivot with a zero column below it
    assert pivots == [F(4), F(0)] and lower == [[F(1), F(0)], [F(1, 2), F(1)]]
    assert norms.ldl([[F(1), F(2)], [F(2), F(1)]]) is None
    assert norms.ldl([[F(0), F(1)], [F(1), F(0)]]) is None


@pytest.mark.parametrize("seed", range(4))
def test_the_rational_bounds_enclose_the_norm(seed: int) -> None:
    rng = np.random.default_rng(seed)
    P = [[F(int(x), 64) for x in row] for row in rng.integers(-128, 128, size=(3, 3))]
    b, L, D = norms._upper(P)
    a, u = norms._lower(P)
    with precision(256):
        ball = operator_norm(P)
        assert a <= exact_value(ball.lower()) and exact_value(ball.upper()) <= b and b - a < F(1, 2**50)
    assert all(d >= 0 for d in D)
    gram = [[sum((P[k][i] * P[k][j] for k in range(3)), F(0)) for j in range(3)] for i in range(3)]
    for i in range(3):  # b^2 I - P^T P = L diag(D) L^T, exactly
        for j in range(3):
            rebuilt = sum((L[i][k] * D[k] * L[j][k] for k in range(3)), F(0))
            assert rebuilt == b * b * (i == j) - gram[i][j]
    image = sum((sum((p * x for p, x in zip(row, u, strict=True)), F(0)) ** 2 for row in P), F(0))
    assert a * a * sum((x * x for x in u), F(0)) <= image


def test_a_zero_matrix_has_norm_zero_bounds() -> None:
    zero = [[F(0), F(0)], [F(0), F(0)]]
    assert norms._upper(zero)[0] == 0 and norms._lower(zero)[0] == 0


def test_the_witness_problem_binds_delta_op_by_its_definition() -> None:
    problem = witness_problem(_claim("delta_op", "<=", "0"), _payload([A, B], [A, B]))
    ((name, matrices),) = problem.norms
    assert name == "delta_op" and [list(map(list, P)) for P in matrices] == [_product(A, B), _product(B, A)]
    assert not any("delta_op" in symbols(tree) for _, tree in problem.definitions)  # written into the rows
    theorem = statements("norm", problem)[-1][1]
    assert "forall delta_op'0 : R, 0 <= delta_op'0 /\\ (forall v0 v1 : R," in theorem
    assert "(forall b : R, 0 <= b -> (forall v0 v1 : R," in theorem and "-> delta_op'1 <= b) ->" in theorem
    assert "forall delta_op : R, delta_op = (Rmax delta_op'0 delta_op'1) ->" in theorem


def test_the_witness_problem_binds_a_misalignment() -> None:
    problem = witness_problem(_claim("misalignment_h", "<=", "0"), _payload([A], [B]))
    assert [(name, [list(map(list, P)) for P in ms]) for name, ms in problem.norms] == [
        ("mis_0", [[[b - a for a, b in zip(ra, rb, strict=True)] for ra, rb in zip(A, B, strict=True)]])
    ]
    assert "forall mis_0 : R, mis_0 = mis_0'0 ->" in statements("norm", problem)[-1][1]


def _compiled(claim: Any, payload: dict[str, Any]) -> str:
    return run.compile_source(source("t", claim.id, "s", witness_problem(claim, payload))).status


@needs_coqc
def test_coq_rechecks_a_refuted_bound_on_delta_op() -> None:
    # |A B|_op is about 1.58 > 1: delta_op <= 1 fails
    assert _compiled(_claim("delta_op", "<=", "1"), _payload([A, B], [A, B])) == "accepted"


@needs_coqc
def test_coq_refuses_a_true_bound_stated_refuted() -> None:
    assert _compiled(_claim("delta_op", "<=", "2"), _payload([A, B], [A, B])) == "rejected"


@needs_coqc
def test_coq_refuses_a_forged_factorization(monkeypatch: pytest.MonkeyPatch) -> None:
    true_ldl = norms.ldl

    def forged(matrix: Any) -> Any:
        found = true_ldl(matrix)
        return None if found is None else (found[0], [d * 2 for d in found[1]])

    monkeypatch.setattr(norms, "ldl", forged)
    assert _compiled(_claim("delta_op", "<=", "1"), _payload([A, B], [A, B])) == "rejected"


@needs_coqc
def test_coq_refuses_a_lower_bound_past_the_norm(monkeypatch: pytest.MonkeyPatch) -> None:
    true_lower = norms._lower
    monkeypatch.setattr(norms, "_lower", lambda P: (true_lower(P)[0] + F(1, 10**6), true_lower(P)[1]))
    assert _compiled(_claim("delta_op", "<=", "1"), _payload([A, B], [A, B])) == "rejected"
