"""The certified constants against independent sources: mpmath, exact fractions, SymPy derivatives."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp
from headflow.certificates.errors import InputError
from headflow.checks.constants import certified as constants
from headflow.checks.constants import mpmath_reference as constants_mpmath
from headflow.checks.constants.digits import Rounded
from mpmath import mp, mpf


def _fraction(c: constants.Constant) -> Fraction:
    """The printed value as an exact fraction."""
    r = c.rounded
    assert r is not None
    return r.sign * Fraction(int(r.digits)) * Fraction(10) ** (r.exponent - len(r.digits) + 1)


def _ulp(c: constants.Constant) -> Fraction:
    """One unit in the last printed place."""
    assert c.rounded is not None
    return Fraction(10) ** (c.rounded.exponent - c.digits + 1)


def _mp(q: Fraction) -> mpf:
    return mpf(q.numerator) / q.denominator


def test_c_star_of_two_is_one_over_golden_to_1000_digits() -> None:
    c = constants.c_star(2, digits=1000)
    g = constants.golden(digits=1000)
    with mp.workdps(1100):
        reference = (mp.sqrt(5) - 1) / 2
        assert abs(_mp(_fraction(c)) - reference) <= _mp(_ulp(c)) / 2
        assert abs(_mp(_fraction(g)) - 1 / reference) <= _mp(_ulp(g)) / 2
        # a digit changed in the last place is caught
        assert abs(_mp(_fraction(c) + _ulp(c)) - reference) > _mp(_ulp(c)) / 2
    assert c.correctly_rounded and g.correctly_rounded
    assert c.value.startswith("0.6180339887498948482045868343656381177203091798057628621354486227")


@pytest.mark.parametrize("heads", [2, 3, 7, 64, 10**6])
def test_c_star_satisfies_its_defining_polynomial(heads: int) -> None:
    digits = 200
    c = constants.c_star(heads, digits=digits)
    v, ulp = _fraction(c), _ulp(c)

    def poly(x: Fraction) -> Fraction:
        return x * x + (heads - 1) * x - 1

    slope = 2 * v + heads - 1
    assert abs(poly(v)) <= slope * ulp / 2 * Fraction(101, 100)
    assert poly(v - ulp) < 0 < poly(v + ulp)  # the root is within one unit of the printed value
    assert abs(poly(v + 3 * ulp)) > slope * ulp  # a wrong value fails the same test


def _phi_derivatives(tokens: int, beta: Fraction) -> tuple[sp.Expr, sp.Expr, sp.Symbol]:
    lam = sp.Symbol("lam", positive=True)
    phi = 2 * lam / (sp.exp(lam * sp.Rational(beta.numerator, beta.denominator)) + tokens - 1)
    return sp.diff(phi, lam), sp.diff(phi, lam, 2), lam


@pytest.mark.parametrize(
    ("tokens", "beta"), [(2, Fraction(1)), (10, Fraction(1)), (10, Fraction(1, 3)), (1000, Fraction(2))]
)
def test_lambda_max_and_lambda_c_zero_the_derivatives_of_phi(tokens: int, beta: Fraction) -> None:
    digits = 120
    d1, d2, lam = _phi_derivatives(tokens, beta)
    f1, f2 = sp.lambdify(lam, d1, "mpmath"), sp.lambdify(lam, d2, "mpmath")
    lmax = constants.lambda_max(tokens, beta, digits=digits)
    lc = constants.lambda_c(tokens, beta, digits=digits)
    with mp.workdps(digits + 40):
        for f, c in ((f1, lmax), (f2, lc)):
            v, ulp = _mp(_fraction(c)), _mp(_ulp(c))
            slope = abs(f(v + ulp) - f(v - ulp)) / (2 * ulp)
            assert abs(f(v)) <= slope * ulp * mpf("0.51")
            assert f(v - ulp) * f(v + ulp) < 0  # a sign change within one unit of the printed value
            assert abs(f(v + 5 * ulp)) > slope * ulp  # five units off is detected
    assert _fraction(lmax) < _fraction(lc)  # the maximum lies in the concave part (0, lambda_c)


def test_lambda_c_equation_is_convex_right_of_zero() -> None:
    """The uniqueness argument of certificates.kernel.lambda_c: g'' = u e^u."""
    from headflow.identities.closed_forms import lambda_c_equation, n, u

    assert sp.simplify(sp.diff(lambda_c_equation(u, n), u, 2) - u * sp.exp(u)) == 0


@pytest.mark.parametrize(
    ("quantity", "params"),
    [
        ("golden", {}),
        ("c_star", {"H": 5}),
        ("beta_star", {"H": 2, "n": 10, "alpha": 1}),
        ("beta_star", {"H": 64, "n": 10, "alpha": "1/2"}),
        ("rate", {"lam": "0.7", "n": 10, "beta": 2}),
        ("lambda_max", {"n": 100, "beta": "0.5"}),
        ("lambda_c", {"n": 10, "beta": 1}),
        ("lambertw", {"x": "-0.3"}),
        ("lambertw", {"x": "1e6"}),
    ],
)
def test_digits_at_n_are_a_rounded_prefix_of_digits_at_2n(quantity: str, params: dict[str, object]) -> None:
    for digits in (7, 60, 400):
        short = constants.compute(quantity, params, digits).rounded
        long = constants.compute(quantity, params, 2 * digits).rounded
        assert short is not None and long is not None
        assert short == _round_digits(long, digits)


def _round_digits(r: Rounded, digits: int) -> Rounded:
    head, nxt = int(r.digits[:digits]), int(r.digits[digits])
    head += nxt >= 5
    if len(str(head)) > digits:
        return Rounded(r.sign, str(head)[:digits], r.exponent + 1)
    return Rounded(r.sign, str(head), r.exponent)


def test_values_agree_with_sympy_evaluation_of_independent_formulas() -> None:
    digits = 80
    cases = [
        (constants.c_star(4, digits=digits), (sp.sqrt(13) - 3) / 2),
        (constants.beta_star(4, 50, 3, digits=digits), sp.log((sp.sqrt(13) - 3) / 2 * 49 / 3) / 6),
        (constants.rate("1/2", 7, 3, digits=digits), 1 / (sp.exp(sp.Rational(3, 2)) + 6)),
        (constants.lambertw(2, digits=digits), sp.LambertW(2)),
    ]
    for c, expr in cases:
        reference = Fraction(str(sp.N(expr, digits + 30)))
        assert abs(_fraction(c) - reference) <= _ulp(c) / 2


def test_beta_star_sign_and_notes() -> None:
    for heads in (2, 3, 8, 64):
        for tokens in (2, 10, 100):
            c = constants.beta_star(heads, tokens, 1, digits=20)
            with mp.workdps(40):
                cs = 2 / (mp.sqrt((heads - 1) ** 2 + 4) + heads - 1)
                positive = cs * (tokens - 1) > heads - 1
            assert (c.rounded is not None and c.rounded.sign > 0) == positive
            assert (c.note is None) == positive
            if not positive:
                assert "beta* < 0" in (c.note or "")
    one = constants.beta_star(1, 10, 1, digits=20)
    assert one.value == "inf" and "H = 1" in (one.note or "")


def test_the_threshold_identity_of_the_spec() -> None:
    """e^(2 alpha beta*) = c* (n - 1)/(H - 1), since 1 - c*^2 = (H - 1) c*."""
    b = constants.beta_star(3, 20, "0.25", digits=60)
    c = constants.c_star(3, digits=60)
    with mp.workdps(80):
        lhs = mp.exp(2 * mpf("0.25") * _mp(_fraction(b)))
        rhs = _mp(_fraction(c)) * 19 / 2
        assert abs(lhs - rhs) < mpf(10) ** -55


def test_exact_values_and_large_magnitudes() -> None:
    assert constants.lambertw(0, digits=10).value == "0"
    assert constants.c_star(1, digits=5).value == "1.0000"
    tiny = constants.rate(1000, 10, 2, digits=12)
    with mp.workdps(40):
        reference = 2000 / (mp.exp(2000) + 9)
        assert abs(_mp(_fraction(tiny)) / reference - 1) < mpf(10) ** -11
        assert tiny.rounded is not None and tiny.rounded.exponent == int(mp.floor(mp.log10(reference)))
    assert tiny.value.endswith(f"e{tiny.rounded.exponent}")


def test_huge_parameters_stay_real() -> None:
    """SymPy judges 1 - c*(10^100)^2 negative when numbers are substituted into the closed form;
    the balls must not inherit that (beta* would become complex)."""
    big = 10**100
    b = constants.beta_star(big, big, Fraction(1, big), digits=30)
    lc = constants.lambda_c(big, 1, digits=30)
    with mp.workdps(400):
        cs = 2 / (mp.sqrt(mpf(big - 1) ** 2 + 4) + big - 1)
        reference = mp.log(cs * (big - 1) / (big - 1)) * big / 2
        assert abs(_mp(_fraction(b)) - reference) <= _mp(_ulp(b)) / 2
        u = _mp(_fraction(lc))
        assert abs((u - 2) * mp.exp(u) / ((big - 1) * (u + 2)) - 1) < mpf(10) ** -27


def test_the_ball_is_reported_with_its_radius() -> None:
    c = constants.lambda_c(10, 1, digits=40)
    assert c.ball is not None and c.correctly_rounded
    assert float(c.radius) < 1e-40
    assert c.ball.contains(constants.certify("lambda_c", c.parameters, 80).ball)


def test_too_little_precision_is_said_not_hidden() -> None:
    c = constants.compute("c_star", {"H": 2}, 30, check=False, max_prec=40)
    assert not c.correctly_rounded
    assert "not correctly rounded" in (c.note or "")


def _replace(monkeypatch: pytest.MonkeyPatch, quantity: str, formula: constants_mpmath.Formula) -> None:
    """Register another mpmath formula for `quantity` for the test."""
    reference = constants_mpmath.REFERENCES[quantity]._replace(formula=formula)
    monkeypatch.setitem(constants_mpmath.REFERENCES, quantity, reference)


def test_a_disagreement_with_mpmath_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrong(context: object, p: dict[str, Fraction]) -> mpf:
        return 2 / (mp.sqrt((_mp(p["H"]) - 1) ** 2 + 4) + _mp(p["H"]))  # H instead of H - 1

    _replace(monkeypatch, "c_star", wrong)
    with pytest.raises(constants.CrossCheckError):
        constants.c_star(3, digits=30)


def test_a_tiny_mpmath_error_is_caught_too(monkeypatch: pytest.MonkeyPatch) -> None:
    original = constants_mpmath.lambertw

    def off(context: object, p: dict[str, Fraction]) -> mpf:
        return original(mp, p) * (1 + mpf(10) ** -48)

    _replace(monkeypatch, "lambertw", off)
    assert constants.lambertw(3, digits=40).correctly_rounded
    with pytest.raises(constants.CrossCheckError):
        constants.lambertw(3, digits=50)


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: constants.c_star(0), "H"),
        (lambda: constants.c_star("2.5"), "H"),
        (lambda: constants.beta_star(2, 1, 1), "n"),
        (lambda: constants.beta_star(2, 10, 0), "alpha"),
        (lambda: constants.beta_star(2, 10, -1), "alpha"),
        (lambda: constants.rate(1, 10, 0), "beta"),
        (lambda: constants.lambertw("-0.37"), "x"),
        (lambda: constants.c_star(2, digits=0), "digits"),
        (lambda: constants.c_star(2, digits=100_001), "digits"),
        (lambda: constants.lambda_c(10, 1, digits=100_001), "digits"),
        (lambda: constants.c_star("two"), "H"),
        (lambda: constants.compute("c_star", {}), "H"),
        (lambda: constants.compute("pi", {}), "quantity"),
    ],
)
def test_bad_parameters_raise_input_error(call: object, field: str) -> None:
    with pytest.raises(InputError) as info:
        call()  # type: ignore[operator]
    assert info.value.field == field
