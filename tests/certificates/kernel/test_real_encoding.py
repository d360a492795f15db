"""The polynomial encoding of real claims: Taylor cuts validated with balls, guarded facts, z3 models as points."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
import sympy as sp

from certificates.kernel import smtlib
from certificates.kernel.real_encoding import MAX_CUT_POINT, Cut, CutError, Encoder, NotEncodable
from certificates.provers.smt import decide
from certificates.provers.smt_refinement import model_cuts, refine
from certificates.statements.registry import SmtStatement

x = sp.Symbol("x", real=True)


def _exp_claim(rhs: sp.Expr, low: int | None) -> tuple[Encoder, sp.Basic, list[sp.Basic]]:
    """exp(x) >= rhs (for x >= low when low is given)."""
    encoder = Encoder([x])
    goal = sp.And(*encoder.encoding.guards, encoder.relation(sp.exp(x), ">=", rhs))
    hypotheses = [] if low is None else [encoder.term(x) >= low]
    return encoder, goal, hypotheses


@pytest.mark.parametrize(
    "cut",
    [
        Cut("lower", 0, 1, Fraction(0), Fraction(1)),  # exp(x) >= 1 + x
        Cut("lower", 0, 15, Fraction(3, 2), Fraction(448168907033806, 10**14)),  # exp(3/2) = 4.4816890703380645...
        Cut("upper", 0, 3, Fraction(1), Fraction(2719, 1000), Fraction(1, 4), Fraction(1, 18)),  # e^(1/4)/24 < 1/18
    ],
)
def test_true_cuts_are_accepted_and_round_trip_as_data(cut: Cut) -> None:
    cut.validate(1)
    assert Cut.from_data(cut.data()) == cut


@pytest.mark.parametrize(
    ("cut", "why"),
    [
        (Cut("lower", 0, 1, Fraction(0), Fraction(1001, 1000)), "not in "),  # above exp(0) = 1
        (Cut("lower", 0, 1, Fraction(1), Fraction(2719, 1000)), "not in "),  # e = 2.71828... < 2.719
        (Cut("lower", 0, 1, Fraction(-1), Fraction(1)), "not in "),  # the right factor at the wrong point
        (Cut("lower", 0, 1, Fraction(0), Fraction(0)), "not in "),
        (Cut("lower", 0, 2, Fraction(0), Fraction(1)), "degree"),  # even: T_2 is not below exp for x < 0
        (Cut("lower", 1, 1, Fraction(0), Fraction(1)), "atom"),
        (Cut("lower", 0, 1, MAX_CUT_POINT + 1, Fraction(1)), "point"),
        (Cut("upper", 0, 3, Fraction(1), Fraction(2718, 1000), Fraction(1, 4), Fraction(1, 18)), "not at least"),
        (Cut("upper", 0, 3, Fraction(1), Fraction(2719, 1000), Fraction(1, 4), Fraction(1, 100)), "remainder"),
        (Cut("upper", 0, 3, Fraction(1), Fraction(2719, 1000), Fraction(2), Fraction(10)), "radius"),
    ],
)
def test_false_or_malformed_cuts_are_rejected(cut: Cut, why: str) -> None:
    with pytest.raises(CutError, match=re.escape(why)):
        cut.validate(1)


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "lower", "atom": 0, "degree": 1, "at": "0", "factor": "1", "radius": "1"},
        {"kind": "upper", "atom": 0, "degree": 1, "at": "0", "factor": "1"},
        {"kind": "sideways", "atom": 0, "degree": 1, "at": "0", "factor": "1"},
        {"kind": "lower", "atom": True, "degree": 1, "at": "0", "factor": "1"},
        {"kind": "lower", "atom": 0, "degree": 1, "at": 0.5, "factor": "1"},
        {"kind": "lower", "atom": 0, "degree": 1, "at": "1/0", "factor": "1"},
        {"kind": "lower", "atom": 0, "degree": 1, "at": "0", "factor": "9" * 300},
        ["lower", 0, 1, "0", "1"],
    ],
)
def test_malformed_cut_data_is_refused(data: object) -> None:
    with pytest.raises(CutError):
        Cut.from_data(data)


def test_the_statement_refuses_an_invalid_cut() -> None:
    encoder, goal, hypotheses = _exp_claim(1 + x, None)
    with pytest.raises(CutError):
        encoder.encoding.statement("s", "s", hypotheses, goal, [Cut("lower", 0, 1, Fraction(0), Fraction(2))])


def test_facts_of_partial_operations_hold_only_under_their_guards() -> None:
    """1/x, sqrt(x) and log(x): their facts are implications from where they are defined, and a goal proved
    with their guards is proved with its sides defined (so sqrt(x) >= 0 over all reals is not provable)."""
    encoder = Encoder([x])
    encoder.relation(sp.sqrt(x) + sp.log(x + 2) + 1 / (x - 1), ">=", sp.Integer(-100))
    assert len(encoder.encoding.guards) == 3
    assert len(encoder.encoding.facts) == 3 and all(isinstance(f, sp.Implies) for f in encoder.encoding.facts)
    sqrt_encoder = Encoder([x])
    goal = sp.And(sqrt_encoder.relation(sp.sqrt(x), ">=", sp.Integer(0)), *sqrt_encoder.encoding.guards)
    assert decide(sqrt_encoder.encoding.statement("sqrt", "", [], goal)).status == "sat"  # x < 0
    nonnegative = [sqrt_encoder.term(x) >= 0]
    assert decide(sqrt_encoder.encoding.statement("sqrt", "", nonnegative, goal)).status == "unsat"


def test_variables_are_plain_so_the_domain_is_stated_to_the_solver() -> None:
    """A nonnegative SymPy symbol would turn `x >= 0` into True; the encoding keeps it as a hypothesis."""
    y = sp.Symbol("y", nonnegative=True)
    encoder = Encoder([y])
    assert (encoder.term(y) >= 0) is not sp.true
    assert not encoder.term(y).is_nonnegative


def test_unencodable_nodes_are_refused() -> None:
    y = sp.Symbol("y", real=True)
    for expr in (x**y, sp.sin(x), x ** sp.Rational(1, 100), sp.Symbol("z")):
        with pytest.raises(NotEncodable):
            Encoder([x, y]).term(expr)


def test_integer_constants_are_declared_int_and_listed_in_the_tree() -> None:
    n = sp.Symbol("n", integer=True)
    encoder = Encoder([n], [n])
    goal = encoder.relation(n**2, ">=", n)
    statement = encoder.encoding.statement("ints", "n^2 >= n", [], goal)
    tree = statement.tree()
    assert tree["integers"] == ["n"]
    text = smtlib.problem_text(tree["constants"], tree["hypotheses"], tree["goal"], tree["integers"])
    assert "(set-logic QF_NIRA)" in text and "() Int)" in text
    assert decide(statement).status == "unsat"  # false over the reals (n = 1/2), true over the integers
    reals = Encoder([n])
    assert decide(reals.encoding.statement("reals", "", [], reals.relation(n**2, ">=", n))).status == "sat"
    with pytest.raises(smtlib.SmtTextError):
        smtlib.problem_text(tree["constants"], tree["hypotheses"], tree["goal"], ["m"])


def test_a_model_gives_rational_points_also_for_algebraic_values() -> None:
    """z3 answers sqrt(2) as an algebraic number: the point holds a close rational, marked in the model text."""
    statement = SmtStatement("root", "x^2 = 2 implies x < 0", (x,), (sp.Eq(x**2, 2),), x < 0)
    result = decide(statement)
    assert result.status == "sat"
    assert abs(result.point["x"] - Fraction(14142135623730950488, 10**19)) < Fraction(1, 10**18)


def test_exp_tight_at_zero_to_second_order_needs_and_gets_a_cut_at_zero() -> None:
    """exp(x) >= 1 + x + x^2/2 for x >= 0: tangents elsewhere never suffice; the refinement raises the
    degree of the cut at 0, where exp is exactly 1."""
    encoder, goal, hypotheses = _exp_claim(1 + x + x**2 / 2, 0)
    build = lambda cuts: encoder.encoding.statement("e2", "", hypotheses, goal, cuts)  # noqa: E731
    result = refine(encoder.encoding, build, lambda values: None, seconds=20)
    assert result.status == "proved", result.reason
    assert any(c.kind == "lower" and c.at == 0 and c.degree >= 3 for c in result.cuts)


def test_a_false_exp_claim_is_never_proved_and_its_model_is_offered() -> None:
    """exp(x) >= 1 + x + x^2/2 over all reals is false (x = -1): refinement returns the caller's witness."""
    encoder, goal, hypotheses = _exp_claim(1 + x + x**2 / 2, None)
    build = lambda cuts: encoder.encoding.statement("e2", "", hypotheses, goal, cuts)  # noqa: E731

    def falsifies(values: dict[str, Fraction]) -> dict | None:
        value = values["x"]
        return {"x": str(value)} if value < 0 and sp.exp(value) < 1 + value + value**2 / 2 else None

    result = refine(encoder.encoding, build, falsifies, seconds=20)
    assert result.status == "counterexample" and Fraction(result.witness["x"]) < 0


def test_model_cuts_remove_the_model() -> None:
    """At a model where the atom is below exp of its argument, the new lower cuts are violated by the model."""
    encoder, _, _ = _exp_claim(1 + x, None)
    atom = encoder.encoding.exponentials[0]
    values = {encoder.term(x): Fraction(2), atom.symbol: Fraction(3)}  # exp(2) = 7.39 > 3
    cuts = model_cuts(encoder.encoding, values, [])
    assert cuts and all(c.kind == "lower" for c in cuts)
    for cut in cuts:
        cut.validate(1)
        assert cut.fact(atom).xreplace({s: sp.Rational(v) for s, v in values.items()}) is sp.false
    too_large = {encoder.term(x): Fraction(2), atom.symbol: Fraction(8)}
    (upper,) = model_cuts(encoder.encoding, too_large, [])
    upper.validate(1)
    assert (
        upper.kind == "upper"
        and upper.fact(atom).xreplace({s: sp.Rational(v) for s, v in too_large.items()}) is sp.false
    )
