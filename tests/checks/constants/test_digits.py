"""Correct rounding from balls, and exact parsing of parameter lists."""

from __future__ import annotations

import decimal
from fractions import Fraction

import pytest
from flint import arb, ctx, fmpq
from headflow.certificates.errors import InputError
from headflow.checks.constants.digits import Rounded, certified_digits, midpoint_digits, radius_bound
from headflow.checks.constants.exact_numbers import format_number, parse_number, parse_values
from hypothesis import given, settings
from hypothesis import strategies as st


@pytest.mark.parametrize(
    ("text", "digits", "expected"),
    [
        ("2.5", 1, "2"),  # exact ties go to even
        ("3.5", 1, "4"),
        ("0.5", 3, "0.500"),
        ("9.96", 2, "10"),  # rounding up carries into a new leading digit
        ("-0.00123456", 3, "-0.00123"),
        ("123456", 3, "1.23e+5"),
        ("1.5e-20", 2, "1.5e-20"),
        ("0", 5, "0"),
    ],
)
def test_exact_balls_round_correctly(text: str, digits: int, expected: str) -> None:
    q = Fraction(text)
    with ctx.workprec(200):
        ball = arb(fmpq(q.numerator, q.denominator))  # exact when dyadic (the ties), else a tiny ball
    rounded = certified_digits(ball, digits)
    assert rounded is not None
    assert rounded.text() == expected


def test_a_ball_across_a_rounding_boundary_decides_nothing() -> None:
    with ctx.workprec(200):
        sqrt2 = arb(2).sqrt()
        wide = arb(sqrt2.mid(), arb(10) ** -5)
    assert certified_digits(sqrt2, 40) is not None
    assert certified_digits(wide, 4) is not None  # 1.414 +- 1e-5 rounds to 1.414 everywhere
    assert certified_digits(wide, 6) is None  # 1.41421 +- 1e-5 straddles 1.414205
    assert certified_digits(arb(0, 1e-30), 3) is None  # a ball around zero has no leading digit
    assert midpoint_digits(wide, 6).text() == "1.41421"


def test_a_ball_straddling_a_power_of_ten_still_rounds_when_both_ends_agree() -> None:
    with ctx.workprec(200):
        ball = arb(1, arb(10) ** -10)  # [0.9999999999, 1.0000000001]
    assert certified_digits(ball, 5) == Rounded(1, "10000", 0)


def test_radius_bound_is_an_upper_bound() -> None:
    with ctx.workprec(100):
        ball = arb(1, arb(3) * arb(10) ** -7)
    bound = radius_bound(ball)
    assert Fraction(bound) >= Fraction(3, 10**7)
    assert Fraction(bound) <= Fraction(31, 10**8)
    assert radius_bound(arb(5)) == "0"


def test_numbers_parse_exactly() -> None:
    assert parse_number("n", "1e6") == 10**6
    assert parse_number("b", "0.1") == Fraction(1, 10)
    assert parse_number("b", "1/3") == Fraction(1, 3)
    assert parse_number("x", "-2.5E-3") == Fraction(-1, 400)
    assert parse_values("H", "2..5") == [2, 3, 4, 5]
    assert parse_values("b", "0.5..1:1/4,2") == [Fraction(1, 2), Fraction(3, 4), 1, 2]
    assert parse_values("n", "2,10,100,1e6") == [2, 10, 100, 10**6]
    assert format_number(Fraction(1, 3)) == "1/3"
    assert format_number(Fraction(-1, 400)) == "-0.0025"
    assert format_number(Fraction(10**6)) == "1000000"


@pytest.mark.parametrize(
    "text",
    ["", "abc", "1..", "..3", "5..2", "1..3:0", "1..3:-1", "2,,3", "1e1000", "1/0", "__import__('os')", "1..1e9"],
)
def test_bad_lists_are_input_errors(text: str) -> None:
    with pytest.raises(InputError):
        parse_values("H", text)


@given(
    st.integers(min_value=-(10**30), max_value=10**30).filter(lambda m: m != 0),
    st.integers(min_value=-200, max_value=200),
    st.integers(min_value=1, max_value=40),
)
@settings(max_examples=300, deadline=None)
def test_rounding_agrees_with_the_decimal_module(mantissa: int, exponent: int, digits: int) -> None:
    """Exact dyadics m * 2^e rounded by certified_digits and by Python's decimal (half-even)."""
    with ctx.workprec(200):
        ball = arb(mantissa) * arb(2) ** exponent
    assert ball.is_exact()
    with decimal.localcontext() as c:
        c.prec = 400
        exact = decimal.Decimal(mantissa) * (decimal.Decimal(2) ** exponent)
        c.prec, c.rounding = digits, decimal.ROUND_HALF_EVEN
        expected = +exact
    sign, ds, _ = expected.as_tuple()
    rounded = certified_digits(ball, digits)
    assert rounded is not None
    assert rounded.sign == (-1 if sign else 1)
    assert rounded.digits == "".join(map(str, ds)).ljust(digits, "0")
    assert rounded.exponent == expected.adjusted()


def _ball(centre: Fraction, radius: Fraction) -> arb:
    with ctx.workprec(4000):
        mid = arb(fmpq(centre.numerator, centre.denominator)).mid()
        return arb(mid, arb(fmpq(radius.numerator, radius.denominator)))


@pytest.mark.parametrize("digits", [5, 1000])
def test_a_ball_at_a_run_of_nines_refuses_rather_than_guess(digits: int) -> None:
    """0.99..9|5 with `digits` nines before the cut (the fast path of one decade at 1000 digits): a ball straddling
    the tie point decides nothing; one just below it keeps the nines, one just above carries into 1.00..0; and a
    ball moved by one unit of the last digit prints a different last digit (a wrong value would be seen)."""
    unit = Fraction(1, 10**digits)
    tie = 1 - unit / 2  # rounds to 1.000 above, to 0.999..9 below
    assert certified_digits(_ball(tie, unit / 10**6), digits) is None
    below = certified_digits(_ball(tie - unit / 10**5, unit / 10**6), digits)
    above = certified_digits(_ball(tie + unit / 10**5, unit / 10**6), digits)
    assert below == Rounded(1, "9" * digits, -1)
    assert above == Rounded(1, "1" + "0" * (digits - 1), 0)
    near = Fraction(7, 3)
    here = certified_digits(_ball(near, unit / 10**6), digits)
    moved = certified_digits(_ball(near + 10 * unit, unit / 10**6), digits)  # one unit of its last digit
    assert here is not None and moved is not None and int(moved.digits) - int(here.digits) == 1
