"""The pieces of the interval engine: derivatives of trees, end-point arithmetic, lambda_c over boxes, regions."""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from flint import arb
from headflow.certificates.kernel import covers, endpoints, lambda_c
from headflow.certificates.kernel.balls import eval_ball
from headflow.certificates.kernel.derivatives import derivative
from headflow.certificates.kernel.exact import ball_of, interval_ball, precision
from headflow.certificates.kernel.exprtree import substitute
from headflow.certificates.kernel.regions import Region, Side
from headflow.certificates.provers.intervals import prove
from headflow.certificates.sympy_trees import from_sympy
from headflow.identities.closed_forms import LambdaC, eliminate_exp_lambertw
from headflow.identities.scalar_regime import prove_lambda_c_monotone

x, y = sp.symbols("x y", positive=True)
EXPRESSIONS = [
    sp.sqrt((x - 1) ** 2 + 4) * y - x / (2 * y),
    sp.exp(x * y) * sp.log(x + y),
    sp.LambertW(x * y) / (1 + x**3),
    (x * y - 2) * sp.exp(x * y) - (x + 1) * (x * y + 2),
    LambdaC(x + 2, y) ** 2 - x,
]


def _value(expr: sp.Expr, point: dict[sp.Symbol, Fraction]) -> float:
    """A reference value with mpmath (lambda_c by its own root finder), never the ball code under test."""
    mpmath.mp.dps = 40

    def lam(tokens: float, beta: float) -> float:
        root = mpmath.findroot(lambda t: (t - 2) * mpmath.exp(t) - (tokens - 1) * (t + 2), 2 + mpmath.log(tokens) + 1)
        return root / beta

    numeric = sp.lambdify((x, y), expr, modules=[{"LambdaC": lam}, "mpmath"])
    return float(numeric(*(mpmath.mpf(point[s].numerator) / point[s].denominator for s in (x, y))))


@pytest.mark.parametrize("expr", EXPRESSIONS, ids=range(len(EXPRESSIONS)))
def test_tree_derivatives_match_finite_differences(expr: sp.Expr) -> None:
    rng = random.Random(5)
    for name, symbol in (("x", x), ("y", y)):
        tree = derivative(from_sympy(expr), name)
        for _ in range(3):
            point = {x: Fraction(rng.randint(30, 300), 100), y: Fraction(rng.randint(30, 300), 100)}
            h = Fraction(1, 10**8)
            up, down = dict(point), dict(point)
            up[symbol] += h
            down[symbol] -= h
            slope = (_value(expr, up) - _value(expr, down)) / float(2 * h)
            with precision(128):
                value = eval_ball(tree, {s.name: ball_of(v) for s, v in point.items()})
            assert abs(float(value.mid()) - slope) < 1e-5 * (1 + abs(slope)), (expr, name, point)


def test_substitution_and_constant_subtrees() -> None:
    tree = from_sympy(x**2 + y)
    assert derivative(tree, "z") == ["rat", "0"]
    assert eval_ball(substitute(tree, {"x": ["rat", "3"]}), {"y": arb(1)}) == 10


@pytest.mark.parametrize("seed", range(20))
def test_end_point_arithmetic_holds_every_value_and_is_tighter(seed: int) -> None:
    rng = random.Random(seed)
    lo = Fraction(rng.randint(-500, 500), 100)
    hi = lo + Fraction(rng.randint(1, 400), 100)
    other_lo = Fraction(rng.randint(1, 500), 100)
    other = interval_ball(other_lo, other_lo + Fraction(rng.randint(1, 300), 100))
    box = interval_ball(lo, hi)
    k = rng.randint(-3, 5)
    samples = [lo + (hi - lo) * Fraction(i, 20) for i in range(21)]
    product = endpoints.times(box, other)
    powered = endpoints.power(box, k) if k >= 0 or not box.contains(0) else None
    exponential = endpoints.increasing(arb.exp, box)
    for t in samples:
        for s in (other.lower(), other.upper()):
            assert product.contains(ball_of(t) * s)
        if powered is not None and not (k < 0 and t == 0):
            assert powered.contains(ball_of(t) ** k if k >= 0 else 1 / ball_of(t) ** (-k))
        assert exponential.contains(ball_of(t).exp())
    assert product.rad() <= (box * other).rad() * (1 + 1e-6)
    assert exponential.rad() <= box.exp().rad() * (1 + 1e-6)


def test_products_of_one_signed_intervals_keep_their_sign() -> None:
    """Midpoint-radius balls reach across 0 here, intervals do not (the case `certificates.kernel.endpoints` names)."""
    negative, positive = interval_ball(Fraction(-5), Fraction(-65, 1000)), interval_ball(Fraction(29, 10), 403)
    assert not (negative * positive) < 0
    assert endpoints.times(negative, positive) < 0


def test_lambda_c_is_monotone_and_its_box_enclosure_holds_interior_values() -> None:
    assert prove_lambda_c_monotone().proved
    box = lambda_c.enclose(interval_ball(3, 7), interval_ball(Fraction(1, 2), 2))
    for tokens in (3, 4, 5.5, 7):
        for beta in (0.5, 1, 1.7, 2):
            mpmath.mp.dps = 30
            root = mpmath.findroot(lambda t, m=tokens: (t - 2) * mpmath.exp(t) - (m - 1) * (t + 2), 3.5)
            assert box.contains(arb(str(root / beta)))
    narrow = lambda_c.enclose(arb(5), arb(1))
    assert box.lower() >= lambda_c.enclose(arb(3), arb(2)).lower() - 1e-6 and narrow.rad() < 1e-12
    with pytest.raises(lambda_c.RootError):
        lambda_c.enclose(interval_ball(Fraction(1, 2), 3), arb(1))


def test_exp_of_lambertw_is_rewritten_with_its_defining_identity() -> None:
    n, beta, strength = sp.symbols("n beta l", positive=True)
    bound = (1 + sp.LambertW((n - 1) / sp.E)) / beta
    vanishing = ((1 - beta * strength) * sp.exp(beta * strength) + n - 1).xreplace({strength: bound})
    rewritten, arguments = eliminate_exp_lambertw(vanishing)
    assert sp.simplify(rewritten) == 0 and len(arguments) == 1
    assert sp.simplify(arguments[0] - (n - 1) / sp.E) == 0
    assert sp.simplify(eliminate_exp_lambertw(vanishing + 1 / sp.Integer(1000))[0]) != 0


def test_clipping_keeps_every_point_of_the_region() -> None:
    """Points of the region inside a box stay inside its clipped box; an integer side is rounded inwards."""
    region = Region(
        (
            Side("n", True, Fraction(2), Fraction(6)),
            Side("b", False, Fraction(1, 2), Fraction(2)),
            Side("l", False, from_sympy(LambdaC(sp.Symbol("n"), sp.Symbol("b")) + sp.Rational(1, 100)), Fraction(10)),
        )
    )
    rng = random.Random(1)
    with precision(64):
        for _ in range(30):
            b_lo = Fraction(rng.randint(50, 190), 100)
            box = {"n": (Fraction(5, 2), Fraction(9, 2)), "b": (b_lo, b_lo + Fraction(1, 10)), "l": (Fraction(0), 10)}
            clipped = region.clip(box)
            assert clipped is not None and clipped["n"] == (3, 4)
            for tokens in (3, 4):
                beta = b_lo + Fraction(rng.randint(0, 10), 100)
                low = lambda_c.enclose(arb(tokens), ball_of(beta)) + ball_of(Fraction(1, 100))
                assert clipped["l"][0] <= float(low.lower())
                assert region.contains({"n": Fraction(tokens), "b": beta, "l": Fraction(10)}) is not None
        assert (
            region.clip({"n": (Fraction(5, 2), Fraction(5, 2)), "b": (Fraction(1), 2), "l": (Fraction(0), 10)}) is None
        )
        assert region.clip({"n": (Fraction(2), 3), "b": (Fraction(1, 2), 1), "l": (Fraction(0), Fraction(1))}) is None


def test_centred_form_beats_cancellation_and_natural_form_does_not() -> None:
    h = sp.Symbol("H", positive=True)
    expr = (sp.sqrt((h - 1) ** 2 + 4) - (h - 1)) / 2 - 1 / (2 * h)
    tree = from_sympy(expr)
    box = {"H": (Fraction(999), Fraction(1000))}
    with precision(64):
        whole = covers.natural(tree, box)
        slopes = {"H": covers.natural(derivative(tree, "H"), box)}
        centred = covers.centred(tree, slopes, box, whole)
    assert not whole > 0 and centred is not None and centred > 0


def test_monotone_steps_and_centred_leaves_appear_in_plain_covers() -> None:
    h = sp.Symbol("H", positive=True)
    result = prove((sp.sqrt((h - 1) ** 2 + 4) - (h - 1)) / 2 - 1 / (2 * h), ">", {h: (Fraction(2), Fraction(1000))})
    assert result.status == "proved"
    assert '"form": "centred"' in str(result.tree).replace("'", '"')
