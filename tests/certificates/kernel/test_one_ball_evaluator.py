"""One ball evaluator on one tree type, and one home for the exact ends of a ball.

Every ball of a formula is `certificates.kernel.exprtree.evaluate` on a tree (`certificates.kernel.balls.eval_ball`
with lambda_c's enclosure); SymPy expressions are written as trees once, at the boundary. A ball's end, midpoint
or radius becomes an exact number only through `headflow.certificates.kernel.exact.exact_value`.
"""

from __future__ import annotations

import ast
import importlib.util
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp
from flint import arb
from headflow.certificates.claims import evaluation
from headflow.certificates.kernel import exprtree, lambda_c
from headflow.certificates.kernel.balls import eval_ball
from headflow.certificates.kernel.exact import ExponentTooLarge, ball_of, exact_value, interval_ball, precision
from headflow.certificates.kernel.tree_text import term_text
from headflow.certificates.sympy_trees import from_sympy
from headflow.identities import closed_forms

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = ("identities", "certificates", "checks", "benchmarks")


def _sources() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text()) for package in PACKAGES for path in (ROOT / package).rglob("*.py")}


def test_only_exact_reads_the_exact_value_of_a_ball() -> None:
    """`arb.man_exp()` (a ball end as mantissa and exponent) is called in certificates/kernel/exact.py only."""
    callers = {
        str(path.relative_to(ROOT))
        for path, tree in _sources().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == "man_exp"
    }
    assert callers == {"certificates/kernel/exact.py"}


@pytest.mark.slow
def test_the_sympy_ball_walker_is_gone() -> None:
    """No module evaluates SymPy as balls beside the trees: expression_balls is removed and imported nowhere."""
    assert importlib.util.find_spec("headflow.certificates.kernel.expression_balls") is None
    importers = {
        str(path.relative_to(ROOT))
        for path, tree in _sources().items()
        for node in ast.walk(tree)
        if (isinstance(node, ast.ImportFrom) and "expression_balls" in (node.module or ""))
        or (isinstance(node, ast.Import) and any("expression_balls" in alias.name for alias in node.names))
    }
    assert importers == set()


def test_the_dead_code_stays_gone() -> None:
    assert not hasattr(exprtree, "BINARY") and not hasattr(exprtree, "eval_ball")
    assert not hasattr(lambda_c, "sign_function")
    assert not hasattr(evaluation, "ball_over") and not hasattr(evaluation, "exact_ends")


def test_the_exact_ends_hold_the_ball() -> None:
    with precision(64):
        third = ball_of(Fraction(1, 3))
        low, high = exact_value(third.lower()), exact_value(third.upper())
        assert low < Fraction(1, 3) < high and high - low < Fraction(1, 2**60)
        assert exact_value(ball_of(Fraction(-3, 8))) == Fraction(-3, 8)
        assert exact_value(arb(0)) == 0
        wide = interval_ball(-5, Fraction(1, 10))
        assert exact_value(wide.lower()) <= -5 and exact_value(wide.upper()) >= Fraction(1, 10)


def test_an_inexact_or_huge_ball_has_no_exact_value() -> None:
    with precision(64):
        with pytest.raises(ValueError):
            exact_value(ball_of(Fraction(1, 3)))  # not a point: only its ends, midpoint and radius are exact
        with pytest.raises(ValueError):
            exact_value(arb("nan"))
        huge = arb(2) ** (2**20)
        assert exact_value(huge) == 2 ** (2**20)
        with pytest.raises(ExponentTooLarge):
            exact_value(huge, max_exponent=2**16)
        with pytest.raises(ExponentTooLarge, match="beyond 2"):
            lambda_c.enclose(huge, arb(1))  # n = 2^(2^20): no exact end of n is rooted
        assert not eval_ball(["lambda_c", ["sym", "n"], ["rat", "1"]], {"n": huge}).is_finite()  # undefined there


def test_lambda_c_is_enclosed_by_the_caller_of_the_evaluator() -> None:
    """The evaluator knows lambda_c as an implicit node: with its enclosure (`eval_ball`) it is a tight ball,
    without one (`exprtree.evaluate`) a TreeError, never a value; where it is undefined, nan."""
    tree = ["lambda_c", ["sym", "n"], ["rat", "1"]]
    with precision(128):
        value = eval_ball(tree, {"n": ball_of(10)})
        assert ball_of(Fraction(3497648716, 10**9)) < value < ball_of(Fraction(3497648717, 10**9))
        with pytest.raises(exprtree.TreeError, match="'lambda_c'"):
            exprtree.evaluate(tree, {"n": ball_of(10)})
        assert not eval_ball(tree, {"n": ball_of(1)}).is_finite()
    assert term_text(tree) == "lambda_c(n, 1)"
    with pytest.raises(exprtree.TreeError):
        term_text(["lambda_c", ["sym", "n"]])
    with pytest.raises(exprtree.TreeError):
        term_text(["frobnicate"])  # an unknown node without arguments is no call


def test_a_wrong_value_is_refuted_by_the_tree_evaluator() -> None:
    """c*(2) = (sqrt 5 - 1)/2 = 0.61803398874989...: the closed form written as a tree once (and the named node
    c_star, its template) settles that it is not 0.6180339888, a slip in the tenth digit."""
    with precision(128):
        closed_form = eval_ball(from_sympy(closed_forms.c_star()), {"H": ball_of(2)})
        named = eval_ball(["c_star", ["rat", "2"]], {})
        for value in (closed_form, named):
            assert ball_of(Fraction(6180339887, 10**10)) < value < ball_of(Fraction(6180339888, 10**10))


@pytest.mark.parametrize("text", ["x + 1", "__import__('os').system('true')"])
def test_text_is_never_parsed_at_the_sympy_boundary(text: str) -> None:
    """The one place SymPy becomes a tree takes SymPy objects only: a string (user text) is refused, never parsed."""
    from headflow.certificates.claims.evaluation import EvaluationError, ball
    from headflow.certificates.sympy_trees import from_sympy

    with pytest.raises(sp.SympifyError):
        from_sympy(text)
    with pytest.raises(EvaluationError):
        ball(text, {}, 64)  # type: ignore[arg-type]
    with pytest.raises(EvaluationError):
        ball("1 + 1", {}, 64)  # type: ignore[arg-type]  # parsed, it would be the ball of 2
