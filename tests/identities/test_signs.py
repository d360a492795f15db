"""The structural sign prover (identities.signs): true facts proved, false ones never, proofs checked by balls."""

from __future__ import annotations

import random

import pytest
import sympy as sp
from flint import arb
from headflow.certificates.inert import inert
from headflow.certificates.kernel.balls import eval_ball
from headflow.certificates.kernel.exact import precision
from headflow.certificates.sympy_trees import from_sympy
from headflow.identities import signs
from hypothesis import given, settings
from hypothesis import strategies as st

x, y, z = sp.symbols("x y z", real=True)
m = sp.Symbol("m", nonnegative=True)
p = sp.Symbol("p", positive=True)
n = sp.Symbol("n", positive=True)
F = signs.facts(positive=[p], nonnegative=[x, m], real=[y, z])


@pytest.mark.parametrize(
    ("expr", "relation"),
    [
        (x + 1, ">0"),
        (p, ">0"),
        (sp.exp(y) * (x + 1) ** -2, ">0"),
        ((y - 1) ** 2, ">=0"),
        (x**2 - 2 * x + 1, ">=0"),  # only through the factorization (x - 1)^2, checked by expansion
        (-sp.exp(y) - x, "<0"),
        (sp.log(1 + p), ">0"),
        (sp.log(1 / (1 + p)), "<0"),
        (sp.sqrt(x), ">=0"),
        (sp.LambertW(p), ">0"),
        (sp.Abs(y - 3), ">=0"),
        ((p + 1) / (x + 2) - 1 / (x + 2), ">0"),  # common denominator: p / (x + 2)
        (-(y**2) * sp.exp(z), "<=0"),
        (sp.exp(y), "!=0"),
        (p ** (y + 1), ">0"),
        (sp.E - 0, ">0"),
    ],
)
def test_true_facts_are_proved(expr: sp.Expr, relation: str) -> None:
    proof = signs.prove(expr, relation, F)
    assert proof is not None and proof[-1].startswith("hence")


@pytest.mark.parametrize(
    ("expr", "relation"),
    [
        (x - 1, ">0"),  # x >= 0 does not make x - 1 positive
        (x, ">0"),  # x may be 0
        (y, ">=0"),
        ((y - 1) ** 2, ">0"),  # 0 at y = 1
        (1 / x, ">0"),  # undefined at x = 0
        (sp.log(x), ">=0"),  # undefined at x = 0, negative below 1
        (sp.log(1 + x), ">0"),  # 0 at x = 0
        (sp.sqrt(y), ">=0"),  # not real for y < 0
        (sp.Float("0.1"), ">0"),  # a float is not read
        (sp.Symbol("w"), ">0"),  # undeclared
        (sp.sin(p) + 2, ">0"),  # no rule for sin: undecided, not guessed
        (x**2 - 2 * x + 1, ">0"),
        (sp.exp(sp.Symbol("w")), ">0"),  # exp of a possibly complex argument
    ],
)
def test_false_or_unsupported_facts_are_not_proved(expr: sp.Expr, relation: str) -> None:
    assert signs.prove(expr, relation, F) is None


def test_shifts_encode_lower_bounds() -> None:
    tokens = signs.facts(nonnegative=[m], shifts={n: (m, 2)})
    assert signs.prove(n - 1, ">0", tokens) is not None
    assert signs.prove(n - 2, ">=0", tokens) is not None
    assert signs.prove(n - 2, ">0", tokens) is None
    assert signs.prove(n - 3, ">0", tokens) is None


def test_facts_weaker_than_a_declaration_are_refused() -> None:
    """n is declared positive to SymPy, which may rewrite on that basis (sqrt(n**2) -> n): facts allowing n = 0
    would prove things about points where those rewrites are false, so nothing is proved."""
    assert signs.prove(n, ">=0", signs.facts(nonnegative=[n])) is None
    assert signs.prove(n, ">0", signs.facts(positive=[n])) is not None
    shifted_below = signs.facts(nonnegative=[m], shifts={n: (m, -1)})  # n = m - 1 may be <= 0: n is declared > 0
    assert signs.prove(n + 5, ">0", shifted_below) is None


def test_bad_facts_and_relations_are_errors() -> None:
    with pytest.raises(ValueError, match="unknown sign"):
        signs.Facts({x: "big"})
    with pytest.raises(ValueError, match="needs a declared"):
        signs.facts(shifts={n: (m, 2)})
    with pytest.raises(ValueError, match="unknown relation"):
        signs.prove(x, ">", F)


# Random expressions over declared atoms: whatever sign the prover establishes must hold at random points, checked
# with balls (a ball that contains a value of the wrong sign refutes the proof).
_ATOMS = {x: "nonnegative", y: "real", p: "positive"}
_leaf = st.sampled_from([x, y, p, sp.Integer(1), sp.Integer(-2), sp.Rational(1, 3), sp.Integer(0)])


def _node(children: st.SearchStrategy[sp.Expr]) -> st.SearchStrategy[sp.Expr]:
    pair = st.tuples(children, children)
    return st.one_of(
        pair.map(lambda t: t[0] + t[1]),
        pair.map(lambda t: t[0] - t[1]),
        pair.map(lambda t: t[0] * t[1]),
        pair.map(lambda t: t[0] / t[1]),
        children.map(sp.exp),
        children.map(sp.log),
        children.map(sp.sqrt),
        st.tuples(children, st.integers(-3, 3)).map(lambda t: t[0] ** t[1]),
    )


_expressions = st.recursive(_leaf, _node, max_leaves=6)


def _point(rng: random.Random) -> dict[sp.Symbol, arb]:
    values = {x: rng.choice([0, rng.uniform(0, 5)]), y: rng.uniform(-5, 5), p: rng.uniform(1e-3, 5)}
    return {s: arb(v) for s, v in values.items()}


@settings(max_examples=150, deadline=None)
@given(_expressions, st.integers(0, 2**32))
def test_proved_signs_hold_at_random_points(expr: sp.Expr, seed: int) -> None:
    if expr.has(sp.zoo, sp.nan, sp.oo, -sp.oo, sp.I, sp.Abs):  # Abs: no node of the expression trees
        return
    found = signs.sign_of(expr, signs.Facts(_ATOMS))
    if found is None:
        return
    rng = random.Random(seed)
    tree = from_sympy(inert(expr))  # the expression as the one ball evaluator reads it (real powers: rpow)
    for _ in range(5):
        point = _point(rng)
        with precision(200):
            value = eval_ball(tree, {symbol.name: v for symbol, v in point.items()})
        if not value.is_finite() and point[x] == 0:
            continue  # the ball evaluator takes x**q through log x: no enclosure at x = 0
        assert value.is_finite(), f"{expr} proved real but not finite at a point"
        if 1 not in found:
            assert not value > 0, f"{expr}: proved {sorted(found)}, value {value}"
        if -1 not in found:
            assert not value < 0, f"{expr}: proved {sorted(found)}, value {value}"
        if 0 not in found:
            assert not (value.mid() == 0 and value.rad() == 0), f"{expr}: proved non-zero, value 0"


def test_cancelling_numbers_are_not_given_a_sign() -> None:
    """Issue 23's example: SymPy's numerical sign of 1 - c*(10^30)^2 (positive) came out negative. The prover
    reads no numbers but rationals, so it cannot be misled: it proves neither sign."""
    from headflow.identities.closed_forms import c_star

    cancelling = 1 - c_star(sp.Integer(10) ** 30) ** 2
    assert signs.prove(cancelling, "<0", F) is None
    assert signs.prove(sp.sqrt(2) - 1, "<0", F) is None
