"""The SMT certificates of T19's closed forms (c*(H), c*(2) = 1/phi, c* algebraic): z3 proves the statements, wrong
neighbours get a model, and check-cert refuses a certificate whose statement was edited."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
import sympy as sp
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.smt import certify, decide
from headflow.certificates.statements import registry as obligations
from headflow.certificates.sympy_trees import formula_from_sympy
from headflow.identities import closed_forms

from tests.forging import forged_file

CLAIMS = ("T19.c-star", "T19.golden", "T19.lambert-w.reading-a")


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_every_statement_is_unsat(claim_id: str) -> None:
    for statement in obligations.SMT[claim_id].statements():
        assert decide(statement).status == "unsat", statement.name


def test_the_closed_form_with_the_wrong_sign_is_no_root() -> None:
    """c = (s + (H-1))/2 is not a positive root of c^2 + (H-1)c - 1: z3 finds the model."""
    root = obligations.c_star_statements()[0]
    s, H, c = root.symbols
    hypotheses = (*root.hypotheses[:-1], sp.Eq(c, (s + (H - 1)) / 2))
    result = decide(replace(root, hypotheses=hypotheses))
    assert result.status == "sat"


def test_increasing_and_above_one_are_refuted() -> None:
    _, unique, decreasing = obligations.c_star_statements()
    c_1, c_2 = decreasing.symbols[2:]
    assert decide(replace(decreasing, goal=c_1 < c_2)).status == "sat"
    c_1 = unique.symbols[1]
    assert decide(replace(unique, goal=c_1 <= sp.Rational(1, 2))).status == "sat"  # c*(1) = 1


def test_c_star_of_two_is_not_phi() -> None:
    (golden,) = obligations.golden_statements()
    s, c = golden.symbols
    assert decide(replace(golden, goal=sp.Eq(c, (1 + s) / 2))).status == "sat"
    assert closed_forms.golden.has(sp.sqrt(5))


@pytest.fixture(scope="module")
def c_star_certificate(tmp_path_factory: pytest.TempPathFactory) -> Path:
    results, path = certify(obligations.c_star_statements(), "T19.c-star", tmp_path_factory.mktemp("cstar"))
    assert path is not None, results
    return path


def test_the_genuine_certificate_rechecks(c_star_certificate: Path) -> None:
    checked = check_file(c_star_certificate)
    assert checked.ok, checked.message
    assert "decreases in H" in checked.proved


def _reverse_decreasing(data: dict) -> None:
    statement = data["statement"]["statements"][2]
    statement["goal"] = formula_from_sympy(sp.Symbol("c_1", real=True) < sp.Symbol("c_2", real=True))


def _relabel(data: dict) -> None:
    data["claim_id"] = "T19.golden"
    data["statement"]["claim"] = "T19.golden"


def _drop_statement(data: dict) -> None:
    data["statement"]["statements"].pop(1)


@pytest.mark.parametrize("edit", [_reverse_decreasing, _relabel, _drop_statement])
def test_an_edited_certificate_is_rejected(c_star_certificate: Path, tmp_path: Path, edit) -> None:
    forged = forged_file(c_star_certificate, tmp_path, edit)
    checked = check_file(forged)
    assert not checked.ok, json.dumps(json.loads(forged.read_text())["statement"])[:300]
