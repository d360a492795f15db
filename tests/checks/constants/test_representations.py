"""Each scalar constant and the tangent projection agree across their representations.

The reference is the SymPy closed form of `identities/closed_forms.py` evaluated by mpmath at
60 digits (lambda_c: mpmath's bracketing root finder on the SymPy equation). Against it: the
floats of `headflow.checks.constants.floats` (and `headflow.checks.model.field.project`) to a few ulps, and the balls of
`certificates.provers.constant_balls` and `certificates.kernel.lambda_c` (and `certificates.kernel.ball_model`), which
must be tight and overlap the reference. A deliberately wrong formula in any representation is
rejected by the same comparison.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from flint import arb, ctx
from headflow.certificates.kernel import lambda_c
from headflow.certificates.kernel.balls import eval_ball
from headflow.certificates.kernel.exact import ball_of
from headflow.certificates.kernel.exact_data import ExactConfiguration
from headflow.certificates.kernel.model_chain import Chain
from headflow.certificates.provers import constant_balls
from headflow.certificates.statements import stored_forms as source
from headflow.certificates.sympy_trees import from_sympy
from headflow.checks.constants import floats as scalar_constants
from headflow.checks.model import field as model
from headflow.identities import closed_forms as cf
from headflow.identities.gram import Pairing
from headflow.identities.projection import SPACE, U, X, u_name, x_name

DIGITS = 60
BITS = 160
#: Relative distance allowed between a float and the reference (a few ulps after rounding).
FLOAT_TOLERANCE = 1e-13

POINTS: dict[str, list[dict[str, Fraction]]] = {
    "c_star": [{"H": Fraction(h)} for h in (1, 2, 3, 7, 64, 10**6)],
    "beta_star": [
        {"H": Fraction(2), "n": Fraction(10), "alpha": Fraction(1)},
        {"H": Fraction(3), "n": Fraction(5), "alpha": Fraction(1, 2)},
        {"H": Fraction(8), "n": Fraction(1000), "alpha": Fraction(2)},
        {"H": Fraction(64), "n": Fraction(10), "alpha": Fraction(1, 2)},
    ],
    "rate": [
        {"lam": Fraction(7, 10), "n": Fraction(10), "beta": Fraction(2)},
        {"lam": Fraction(3), "n": Fraction(2), "beta": Fraction(1)},
        {"lam": Fraction(1, 3), "n": Fraction(100), "beta": Fraction(1, 2)},
        {"lam": Fraction(10), "n": Fraction(5), "beta": Fraction(3)},
    ],
    "lambda_max": [
        {"n": Fraction(n), "beta": beta}
        for n, beta in ((2, Fraction(1)), (10, Fraction(1)), (1000, Fraction(1, 2)), (10**6, Fraction(3)))
    ],
    "lambda_c": [
        {"n": Fraction(n), "beta": beta}
        for n, beta in (
            (2, Fraction(1)),
            (3, Fraction(1, 2)),
            (10, Fraction(1)),
            (1000, Fraction(2)),
            (10**6, Fraction(3)),
        )
    ],
}
FORMS, SYMBOLS = source.forms()


def _mp(value: Fraction) -> mpmath.mpf:
    return mpmath.mpf(value.numerator) / value.denominator


def _closed_form_reference(expr: sp.Expr, params: dict[str, Fraction]) -> mpmath.mpf:
    """The SymPy expression at the exact point, evaluated by mpmath at DIGITS digits."""
    names = sorted(params)
    function = sp.lambdify([SYMBOLS[k] for k in names], expr, "mpmath")
    with mpmath.workdps(DIGITS):
        return mpmath.re(function(*(_mp(params[k]) for k in names)))


def _root_reference(equation: sp.Expr, params: dict[str, Fraction]) -> mpmath.mpf:
    """u_c / beta with u_c the root in (2, b) of the SymPy equation, by mpmath's Anderson bracketing.

    b = max(6, ln(2 (n - 1)) + 2) is right of the root (e^b > 2 (n - 1) and (b - 2)/(b + 2) >= 1/2)."""
    tokens = int(params["n"])
    g = sp.lambdify(cf.u, equation.subs(cf.n, tokens), "mpmath")
    with mpmath.workdps(DIGITS):
        end = max(mpmath.mpf(6), mpmath.log(2 * (tokens - 1)) + 2)
        return mpmath.findroot(g, (mpmath.mpf(2), end), solver="anderson") / _mp(params["beta"])


def reference(quantity: str, params: dict[str, Fraction]) -> mpmath.mpf:
    if quantity == "lambda_c":
        return _root_reference(cf.lambda_c_equation(), params)
    return _closed_form_reference(FORMS[quantity], params)


def float_value(quantity: str, params: dict[str, Fraction]) -> float:
    args = {k: float(v) if k in ("alpha", "beta", "lam") else int(v) for k, v in params.items()}
    return float(getattr(scalar_constants, quantity)(**args))


def _reference_ball(value: mpmath.mpf) -> arb:
    """The reference as a ball: exact binary value widened by its 60-digit rounding error."""
    with ctx.workprec(BITS + 64):
        man, exp = value.man_exp  # |mantissa|: the sign is applied below
        exact = arb((int(man), int(exp))) * (-1 if value < 0 else 1)
        return arb(exact, abs(exact) * arb(10) ** (5 - DIGITS))


def float_agrees(value: float, expected: mpmath.mpf, cancellation: float = 1.0) -> bool:
    """Within FLOAT_TOLERANCE relative, times the `cancellation` factor the formula is known to lose."""
    return abs(mpmath.mpf(value) - expected) <= cancellation * FLOAT_TOLERANCE * max(abs(expected), 1e-3)


def cancellation(params: dict[str, Fraction]) -> float:
    """c* = (sqrt((H-1)^2 + 4) - (H-1))/2 loses about H^2 ulps in floats (see scalar_constants.c_star)."""
    return float(max(1, params.get("H", 1)) ** 2)


def ball_agrees(ball: arb, expected: mpmath.mpf) -> bool:
    """The ball is tight (relative radius < 2^-100) and overlaps the reference."""
    with ctx.workprec(BITS + 64):
        tight = ball.rad() <= abs(ball.mid()) * arb(2) ** -100
        return bool(tight and ball.overlaps(_reference_ball(expected)))


CASES = [(quantity, params) for quantity, points in POINTS.items() for params in points]


@pytest.mark.parametrize(("quantity", "params"), CASES)
def test_float_and_ball_agree_with_the_closed_form(quantity: str, params: dict[str, Fraction]) -> None:
    expected = reference(quantity, params)
    assert float_agrees(float_value(quantity, params), expected, cancellation(params))
    assert ball_agrees(constant_balls.ball(quantity, params, BITS), expected)


@pytest.mark.parametrize("params", POINTS["lambda_c"])
def test_lambda_c_ball_over_boxes_agrees(params: dict[str, Fraction]) -> None:
    """The claims files' enclosure of lambda_c (bisection over balls of n and beta) at exact points."""
    expected = reference("lambda_c", params)
    with ctx.workprec(BITS):
        enclosure = lambda_c.enclose(arb(int(params["n"])), ball_of(params["beta"]))
    assert ball_agrees(enclosure, expected)


def _wrong_forms() -> dict[str, sp.Expr]:
    """Plausible slips in each closed form."""
    return {
        "c_star": (sp.sqrt((cf.H + 1) ** 2 + 4) - (cf.H - 1)) / 2,
        "beta_star": sp.log(cf.c_star() ** 2 * cf.n / (1 - cf.c_star() ** 2)) / (2 * cf.alpha),
        "rate": 2 * cf.lam / (sp.exp(cf.lam * cf.beta) + cf.n),
        "lambda_max": (1 + sp.LambertW(cf.n / sp.E)) / cf.beta,
    }


@pytest.mark.parametrize("quantity", ["c_star", "beta_star", "rate", "lambda_max"])
def test_a_wrong_closed_form_is_rejected(quantity: str) -> None:
    params, wrong = POINTS[quantity][1], _wrong_forms()[quantity]
    expected = reference(quantity, params)
    names = sorted(params)
    wrong_float = sp.lambdify([SYMBOLS[k] for k in names], wrong, "mpmath")(*(float(params[k]) for k in names))
    assert not float_agrees(float(mpmath.re(wrong_float)), expected)
    with ctx.workprec(BITS):
        wrong_ball = eval_ball(from_sympy(wrong), {SYMBOLS[k].name: ball_of(v) for k, v in params.items()})
    assert not ball_agrees(wrong_ball, expected)


def test_a_wrong_lambda_c_equation_is_rejected() -> None:
    """phi' = 0 in place of phi'' = 0: the root found is lambda_max, not lambda_c."""
    params = POINTS["lambda_c"][2]
    wrong = _root_reference(cf.lambda_max_equation(), params)
    assert not float_agrees(float_value("lambda_c", params), wrong)
    assert not ball_agrees(constant_balls.ball("lambda_c", params, BITS), wrong)


# ---------------------------------------------------------------- the tangent projection


def _column(v: list[Fraction]) -> sp.Matrix:
    return sp.Matrix([sp.Rational(c) for c in v])


def _exact_inner(a: sp.Matrix, b: sp.Matrix) -> sp.Expr:
    return (a.T * b)[0, 0]


def _unit_rational(t: list[Fraction]) -> list[Fraction]:
    """Inverse stereographic projection: a rational point exactly on the unit sphere."""
    s = sum(v * v for v in t)
    return [2 * v / (s + 1) for v in t] + [(s - 1) / (s + 1)]


PROJECTION_POINTS = [
    (_unit_rational([Fraction(1, 3)]), [Fraction(2), Fraction(-5, 7)]),
    (_unit_rational([Fraction(1, 2), Fraction(-3, 4)]), [Fraction(1), Fraction(2, 3), Fraction(-7, 5)]),
    (_unit_rational([Fraction(5), Fraction(1, 9), Fraction(2, 7)]), [Fraction(k, 11) for k in (3, -8, 13, 1)]),
]


def _exact_projection(x: list[Fraction], u: list[Fraction]) -> list[sp.Rational]:
    """The symbolic projection of closed_forms at exact rational vectors."""
    column = cf.tangent_projection(
        sp.Matrix([sp.Rational(v) for v in x]), sp.Matrix([sp.Rational(v) for v in u]), _exact_inner
    )
    return list(column)


def _gram_projection(x: list[Fraction], u: list[Fraction]) -> list[sp.Expr]:
    """GramSpace's P⊥_x u (coefficients in the pairing <u, x>), evaluated at the vectors x and u."""
    projected = SPACE.project(X, U)
    pairing = sum(sp.Rational(a) * sp.Rational(b) for a, b in zip(u, x, strict=True))
    vectors = {((), x_name): x, ((), u_name): u}
    out = [sp.Integer(0)] * len(x)
    for atom, coefficient in projected.terms.items():
        value = coefficient.replace(lambda e: isinstance(e, Pairing), lambda e: pairing)
        out = [o + value * sp.Rational(v) for o, v in zip(out, vectors[atom], strict=True)]
    return out


@pytest.mark.parametrize(("x", "u"), PROJECTION_POINTS)
def test_projection_representations_agree(x: list[Fraction], u: list[Fraction]) -> None:
    assert sum(v * v for v in x) == 1
    exact = _exact_projection(x, u)
    assert _gram_projection(x, u) == exact
    floats = model.project(np.array([[float(v) for v in x]]), np.array([[float(v) for v in u]]))[0]
    np.testing.assert_allclose(floats, [float(v) for v in exact], rtol=1e-14, atol=1e-15)
    one = [[Fraction(int(i == j)) for j in range(len(x))] for i in range(len(x))]
    chain = Chain(ExactConfiguration([x], [one], [one], Fraction(1)))  # its P⊥_x u, exact at rational vectors
    assert chain._project("r", x, u) == [Fraction(int(value.p), int(value.q)) for value in exact]


def test_a_wrong_projection_is_rejected() -> None:
    """u - 2<u, x> x (a reflection, not a projection) differs from every representation."""
    x, u = PROJECTION_POINTS[1]
    reflection = cf.tangent_projection(
        sp.Matrix([sp.Rational(v) for v in x]),
        sp.Matrix([sp.Rational(v) for v in u]),
        lambda a, b: 2 * _exact_inner(a, b),
    )
    floats = model.project(np.array([[float(v) for v in x]]), np.array([[float(v) for v in u]]))[0]
    assert not np.allclose(floats, [float(v) for v in reflection], rtol=1e-14, atol=1e-15)
    assert list(reflection) != _exact_projection(x, u)


def test_float_functions_work_on_arrays_as_on_scalars() -> None:
    """The numpy path of checks.constants.floats agrees with its libm path to an ulp."""
    lam = np.linspace(0.1, 20.0, 50)
    vectorized = scalar_constants.rate(lam, 10, 0.5)
    scalar = np.array([scalar_constants.rate(float(v), 10, 0.5) for v in lam])
    np.testing.assert_allclose(vectorized, scalar, rtol=4e-16, atol=0)
    heads = np.arange(2, 30)
    np.testing.assert_allclose(
        scalar_constants.beta_star(heads, 100, 1.0),
        [scalar_constants.beta_star(int(h), 100, 1.0) for h in heads],
        rtol=1e-15,
    )
