"""Issue 28 item 4: a compiled tree (`certificates.provers.programs`) is the one ball evaluator's arithmetic, its balls
those of `exprtree.evaluate` bit for bit; what does not compile is refused, and the quick narrow test of
`endpoints.wide` answers as its comparison does."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from flint import arb, ctx
from headflow.certificates.kernel import endpoints, stored_forms
from headflow.certificates.kernel.exact import ball_of
from headflow.certificates.kernel.exprtree import TreeError, count_nodes, evaluate
from headflow.certificates.kernel.lambda_c import EQUATION
from headflow.certificates.provers.lambda_c_roots import SLOPE
from headflow.certificates.provers.programs import compile_trees, program

#: A point of each stored tree's symbols inside its domain (u right of 2 for lambda_c's equation).
POINTS = {
    "H": Fraction(3),
    "n": Fraction(10),
    "alpha": Fraction(1, 3),
    "beta": Fraction(7, 4),
    "lambda": Fraction(5, 7),
    "x": Fraction(-1, 5),
    "u": Fraction(7, 2),
}
NAMES = ["golden", "c_star", "beta_star", "rate", "lambda_max", "lambertw", stored_forms.LAMBDA_C_EQUATION]


def _same(a: arb, b: arb) -> bool:
    return bool(a.mid() == b.mid() and a.rad() == b.rad()) or (not a.is_finite() and not b.is_finite())


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("prec", [53, 300, 3400])
@pytest.mark.parametrize("width", [0, 2**-60, 2**-18, 2**-3])
def test_a_program_gives_the_balls_of_the_evaluator(name: str, prec: int, width: float) -> None:
    """Narrow points and wide boxes (past endpoints.WIDE, where products and functions use end points)."""
    tree = stored_forms.tree(name)
    with ctx.workprec(prec):
        env = {k: arb(ball_of(v).mid(), abs(float(v)) * width) for k, v in POINTS.items()}
        (found,) = compile_trees(tree).run(env)
        expected = evaluate(tree, env)
    assert _same(found, expected), (name, found, expected)


def test_several_trees_share_their_common_subtrees() -> None:
    """g and g' in one program: e^u and (u - 2) e^u once, and each ball still the evaluator's."""
    both = compile_trees(EQUATION, SLOPE)
    alone = compile_trees(EQUATION), compile_trees(SLOPE)
    assert len(both._steps) < len(alone[0]._steps) + len(alone[1]._steps)
    beta_star = compile_trees(stored_forms.tree("beta_star"))
    c_star = count_nodes(stored_forms.tree("c_star"), 10_000)  # written twice in beta*, computed once
    assert len(beta_star._steps) <= count_nodes(stored_forms.tree("beta_star"), 10_000) - c_star
    with ctx.workprec(200):
        env = {"u": arb(3.5), "n": arb(10)}
        trees = (EQUATION, SLOPE)
        assert all(_same(f, evaluate(t, env)) for f, t in zip(both.run(env), trees, strict=True))


@pytest.mark.parametrize(
    "tree",
    [
        ["pi"],
        ["lambda_c", ["sym", "n"], ["sym", "beta"]],
        ["rpow", ["sym", "x"], ["rat", "1/3"]],
        ["pow", ["sym", "x"], 1001],
        ["pow", ["sym", "x"], True],
        ["add"],
        ["rat", "0.5"],
        ["exp", ["sym", "x"], ["sym", "x"]],
        "x",
    ],
)
def test_what_does_not_compile_is_refused(tree: object) -> None:
    with pytest.raises(TreeError):
        compile_trees(tree)  # type: ignore[arg-type]


def test_a_deep_tree_and_a_missing_symbol_are_refused() -> None:
    deep: list[object] = ["sym", "x"]
    for _ in range(300):
        deep = ["exp", deep]
    with pytest.raises(TreeError, match="too deep"):
        compile_trees(deep)
    with pytest.raises(TreeError, match="no value for symbol 'H'"):
        program("c_star").run({"n": arb(2)})


def test_a_wrong_program_is_told_apart() -> None:
    """The comparison above can fail: c* with the sign inside the root flipped gives another ball."""
    wrong = ["add", ["rat", "1/2"], ["mul", ["rat", "1/2"], ["sqrt", ["add", ["rat", "-4"], ["pow", ["sym", "H"], 2]]]]]
    with ctx.workprec(100):
        env = {"H": arb(3)}
        (bad,) = compile_trees(wrong).run(env)
        assert not _same(bad, evaluate(stored_forms.tree("c_star"), env))


def test_wide_is_a_relative_accuracy_below_wide_bits() -> None:
    """endpoints.wide is python-flint's relative accuracy below WIDE_BITS: over radii around it (from 2^-30 to 2^-12
    of the midpoint), zero and non-finite balls, a wide ball is finite with a radius above 2^-(WIDE_BITS + 2) of its
    midpoint (any radius around 0), a narrow finite one has a radius at most 2^-(WIDE_BITS - 2) of it."""
    rng = random.Random(28)
    balls = [arb(0), arb(0, 1), arb(5), arb("nan"), arb("inf"), arb(1, float("inf"))]
    for _ in range(2000):
        mid = rng.choice([1, -1]) * rng.uniform(0.5, 2) * 2.0 ** rng.randint(-40, 40)
        balls.append(arb(mid, abs(mid) * rng.uniform(0.5, 2) * 2.0 ** rng.randint(-30, -12)))
    bits = endpoints.WIDE_BITS
    for ball in balls:
        if endpoints.wide(ball):
            assert ball.is_finite() and ball.rad() > 2.0 ** -(bits + 2) * abs(ball.mid()), ball
        else:
            assert not ball.is_finite() or ball.rad() <= 2.0 ** -(bits - 2) * abs(ball.mid()), ball
    assert not endpoints.wide(arb(0)) and endpoints.wide(arb(0, 1))
    assert sum(endpoints.wide(b) for b in balls) > 100 and sum(not endpoints.wide(b) for b in balls) > 100


def test_the_balls_kept_per_precision_are_those_of_that_precision() -> None:
    """A program keeps its rationals' balls per precision, and exact.rational_ball the parameters' balls: run one
    program at precisions in turn (back to earlier ones, past the number kept) and each ball is still the
    evaluator's at that precision (1/3, 2/7 and x = 5/3 round differently at each)."""
    from headflow.certificates.kernel.exact import precision, rational_ball

    tree = ["add", ["mul", ["rat", "1/3"], ["exp", ["sym", "x"]]], ["pow", ["rat", "2/7"], 3]]
    program = compile_trees(tree)
    precisions = [53, 300, 3400, 300, 53, *range(60, 60 + 2 * program.KEPT_PRECISIONS, 2), 3400, 53]
    for prec in precisions:
        with precision(prec):
            env = {"x": rational_ball(5, 3, prec)}
            assert _same(env["x"], ball_of(Fraction(5, 3)))
            (found,) = program.run(env)
            assert _same(found, evaluate(tree, env)), prec
    assert len(program._kept) <= program.KEPT_PRECISIONS
    assert not _same(rational_ball(1, 3, 53), rational_ball(1, 3, 300))


def test_the_precision_is_restored_after_an_error_and_when_nested() -> None:
    from headflow.certificates.kernel.exact import precision

    before = ctx.prec
    with precision(100):
        with precision(400):
            assert ctx.prec == 400
        assert ctx.prec == 100
        with pytest.raises(ZeroDivisionError), precision(900):
            assert ctx.prec == 900
            raise ZeroDivisionError
        assert ctx.prec == 100
    assert ctx.prec == before
