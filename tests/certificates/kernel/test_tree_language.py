"""The tree language's walkers (`exprtree.fold` and its rules): named nodes mean their stored closed forms at their
own arguments, the readable text reads back as the same value, and every walker refuses what is not its language."""

from __future__ import annotations

from fractions import Fraction
from functools import reduce

import pytest
import sympy as sp
from flint import arb
from headflow.certificates.claims.expressions import parse_tree
from headflow.certificates.errors import InputError
from headflow.certificates.kernel import smtlib, stored_forms
from headflow.certificates.kernel.balls import eval_ball
from headflow.certificates.kernel.derivatives import derivative
from headflow.certificates.kernel.exact import precision
from headflow.certificates.kernel.exprtree import TreeError, evaluate, exact_rational, expand
from headflow.certificates.kernel.tree_text import term_text
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

SYMBOLS = {name: sp.Symbol(name) for name in ("x", "y", "n", "H", "lambda", "beta")}
X, N = ["sym", "x"], ["sym", "n"]


def test_a_named_node_reads_only_its_arguments() -> None:
    """c_star(n) with H = 100 in the environment is c*(2) at n = 2: the closed form's parameter H is not the
    caller's H; rate(n, lambda, beta), its parameters' names swapped, is 2 n / (lambda - 1 + e^(n beta))."""
    with precision(128):
        env = {"n": arb(2), "H": arb(100), "lambda": arb(5), "beta": arb(1) / 3}
        c_star = evaluate(["c_star", N], env)
        assert c_star.overlaps(evaluate(stored_forms.tree("c_star"), {"H": arb(2)}))
        assert not c_star.overlaps(evaluate(stored_forms.tree("c_star"), {"H": arb(100)}))
        swapped = ["rate", N, ["sym", "lambda"], ["sym", "beta"]]
        expected = 4 / (arb(4) + (arb(2) / 3).exp())
        assert evaluate(swapped, env).overlaps(expected)
        assert evaluate(expand(swapped), env).overlaps(expected)
        assert not evaluate(swapped, env).overlaps(evaluate(["rate", ["sym", "lambda"], N, ["sym", "beta"]], env))


def test_the_derivative_of_a_named_node_is_that_of_its_closed_form_at_its_arguments() -> None:
    """d/dx c_star(x**2) = 2x c*'(x**2), against a difference quotient of balls."""
    tree = ["c_star", ["pow", X, 2]]
    with precision(200):
        slope = eval_ball(derivative(tree, "x"), {"x": arb(3)})
        h = arb(10) ** -30
        quotient = (eval_ball(tree, {"x": 3 + h}) - eval_ball(tree, {"x": 3 - h})) / (2 * h)
    assert abs(float((slope - quotient).mid())) < 1e-20


def _texts() -> st.SearchStrategy[str]:
    """Formulas as written: minus signs, differences, quotients, real powers and named calls over x and y."""
    leaves = st.sampled_from(["x", "y", "2", "1/3", "7/2", "golden", "pi", "e"])

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "**"]), inner).map(
                lambda t: f"({t[0]}){t[1]}({t[2]})"
            ),
            st.tuples(inner, st.sampled_from(["2", "3", "-1", "-2"])).map(lambda t: f"({t[0]})**{t[1]}"),
            st.tuples(st.sampled_from(["exp", "sqrt", "log", "c_star"]), inner).map(lambda t: f"{t[0]}({t[1]})"),
            st.tuples(inner, inner).map(lambda t: f"rate({t[0]}, {t[1]}, 1/2)"),
            inner.map(lambda t: f"-({t})"),
        )

    return st.recursive(leaves, extend, max_leaves=6)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_texts())
@example("x + -y")
@example("x*(-y)/(-2)")
@example("-x/2 + y*(-1/3)")
@example("x - -1/3")
@example("(x**-2)**(1/3) - 1/(2*y)")
def test_the_text_of_a_tree_as_written_reads_back_as_that_tree(text: str) -> None:
    """The rendering of a claims-file formula's own tree (neg, sub, div, rpow, named nodes) parses back to a tree
    of the same value."""
    try:
        tree = parse_tree(text, SYMBOLS)
    except InputError:  # an exact undefined value, refused when read
        return
    again = parse_tree(term_text(tree), SYMBOLS)
    with precision(128):
        env = {"x": arb(3) / 7, "y": arb(5) / 11}
        first, second = eval_ball(tree, env), eval_ball(again, env)
    if first.is_finite():
        assert second.is_finite() and first.overlaps(second), (text, term_text(tree))


@pytest.mark.parametrize(
    "tree",
    [["sub", X], ["neg", X, X], ["pow", X, True], ["pow", X, 2.0], ["exp"], ["frobnicate", X], ["rat"], ["sym", 1]],
)
def test_every_walker_refuses_a_malformed_node(tree: list) -> None:
    assert exact_rational(tree, {"x": Fraction(1)}) is None
    with pytest.raises(TreeError):
        term_text(tree)
    with pytest.raises(TreeError):
        eval_ball(tree, {"x": arb(1)})


@pytest.mark.parametrize(
    ("hypotheses", "goal"),
    [
        ([], ["+", X, X]),  # a term as a formula
        ([], [">", [">", X, X], X]),  # a formula as a term
        ([], ["and"]),  # a connective without arguments
        ([["not", [">", X, X], [">", X, X]]], ["true"]),
        ([], [">", ["pow", X, 0], X]),  # powers 1..MAX_POWER only
        ([], [">", ["sub", X, X], X]),  # the SMT text has + and * only
        ([[">", X, X]] * (smtlib.MAX_STATEMENT_NODES // 3), [">", X, X]),  # more nodes than MAX_STATEMENT_NODES
        ([], [">", reduce(lambda tree, _: ["add", tree, X], range(300), X), X]),  # deeper than MAX_DEPTH
    ],
)
def test_the_smt_printer_refuses_what_is_not_a_formula_of_polynomials(hypotheses: list, goal: list) -> None:
    with pytest.raises((smtlib.SmtTextError, TreeError)):
        smtlib.problem_text(["x"], hypotheses, goal)


@pytest.mark.parametrize("exponent", [1001, -1001, 10**9])
def test_a_real_power_has_the_exponent_bound_of_an_integer_power(exponent: int) -> None:
    """`rpow` with an integer exponent is held to the |k| <= 1000 of `pow`, as a fractional one is."""
    for tree in (["rpow", ["sym", "x"], ["rat", str(exponent)]], ["pow", ["sym", "x"], exponent]):
        with pytest.raises(TreeError, match="exponent too large"):
            evaluate(tree, {"x": arb(2)})
    assert evaluate(["rpow", ["sym", "x"], ["rat", "1000"]], {"x": arb(1)}) == 1
