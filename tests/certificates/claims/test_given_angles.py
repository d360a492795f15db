"""Tokens given as angles: parsing (attacks: float literals, zero denominators, junk), and the circle's observables
in every representation — numpy from the tokens, numpy from the angles, balls, exact (cyclotomic R^2, the arc spread
as a + b pi) — agreeing on random angles; exact facts floats cannot see (angles 1e-30 apart)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from headflow.certificates.claims.given_angles import Angle, given_angles, parse_angle
from headflow.certificates.claims.numbers import TomlFloat
from headflow.certificates.errors import InputError
from headflow.checks.model import circle, families
from headflow.checks.model.configuration import Configuration


def _random_angles(rng: np.random.Generator, n: int, pi_only: bool) -> list[str]:
    texts = []
    for _ in range(n):
        if pi_only or rng.random() < 0.5:
            texts.append(f"{int(rng.integers(-24, 25))}*pi/{int(rng.integers(1, 13))}")
        else:
            texts.append(f"{int(rng.integers(-40, 41))}/{int(rng.integers(1, 9))}")
    return texts


@pytest.mark.parametrize("seed", range(12))
def test_every_representation_of_the_observables_agrees(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 9))
    angles = given_angles("angles", _random_angles(rng, n, pi_only=seed % 2 == 0), n)
    theta = np.array(angles.floats())
    cfg = Configuration.create(circle.tokens_at_angles(theta), families.scalar_heads([1.0], 2), beta=1.0)
    R_ball, spread_ball = angles.order_parameter_ball(), angles.arc_spread_ball()
    for R in (circle.order_parameter(cfg), circle.order_parameter_of_angles(theta)):
        assert abs(R - float(R_ball.mid())) < 1e-12 and float(R_ball.rad()) < 1e-30
    for spread in (circle.arc_spread(cfg), circle.arc_spread_of_angles(theta)):
        assert abs(spread - float(spread_ball.mid())) < 1e-9
    square = angles.order_parameter_exact()
    if square is not None:
        assert R_ball.overlaps(R_ball.__class__(f"{square.numerator}/{square.denominator}").sqrt())
    if seed % 2 == 0:  # every angle a multiple of pi: n^2 R^2 in Q(zeta_N), evaluated at zeta = e^(2 pi i / N)
        poly = angles.order_parameter_square()
        N = 2 * np.lcm.reduce([a.b.denominator for a in angles.angles])
        zeta = np.exp(2j * np.pi / N)
        value = sum(complex(float(c)) * zeta**k for k, c in enumerate(poly.coeffs()))
        assert abs(value - (n * circle.order_parameter_of_angles(theta)) ** 2) < 1e-9


def test_exact_values_where_the_angles_allow() -> None:
    spaced = given_angles("angles", ["pi/2", "7*pi/6", "-pi/6"], 3)
    assert spaced.equally_spaced() and spaced.order_parameter_exact() == 0
    assert spaced.arc_spread() == (Fraction(0), Fraction(4, 3))  # 2 pi (n - 1)/n
    two = given_angles("angles", ["0", "0", "pi/3", "7*pi/3"], 4)  # 7 pi/3 is pi/3 on the circle
    assert two.two_clusters() == ((2, 2), Fraction(1, 2)) and two.order_parameter_exact() == Fraction(3, 4)
    seventh = given_angles("angles", ["0", "2*pi/7", "4*pi/7", "6*pi/7", "8*pi/7", "10*pi/7", "12*pi/7"], 7)
    assert seventh.order_parameter_exact() == 0  # cos(2 pi/7) + ... sums exactly to -1/2: zero in Q(zeta_7)
    radians = given_angles("angles", ["-7", "1/2"], 2)  # -7 is -7 + 4 pi = 5.57 on the circle, 5.07 from 1/2
    assert radians.arc_spread() == (Fraction(15, 2), Fraction(-2))  # the shorter arc: 2 pi - (4 pi - 15/2)


def test_angles_closer_than_float_precision_are_told_apart_exactly() -> None:
    tiny = given_angles("angles", ["0", f"1/{10**30}", "0"], 3)
    assert circle.arc_spread_of_angles(np.array(tiny.floats())) == 0.0  # floats: one point
    assert tiny.arc_spread() == (Fraction(1, 10**30), Fraction(0))
    assert tiny.arc_spread_ball() > 0
    near_pi = given_angles("angles", ["0", "pi"], 2)
    off_pi = given_angles("angles", ["0", "314159265358979323846/100000000000000000000"], 2)
    assert near_pi.two_clusters() == ((1, 1), -1)
    assert off_pi.two_clusters() is None  # a rational near pi is not pi: no closed-form cosine, no exact route
    assert off_pi.order_parameter_ball() > 0


@pytest.mark.parametrize(
    ("entry", "why"),
    [
        (TomlFloat("0.5"), "float literal"),
        ("pi/0", "zero denominator"),
        ("2*pie", "not an angle"),
        ("1e400", "not an angle"),
        ("10000000*pi", "at most 10"),
        (True, "an angle is text"),
    ],
)
def test_bad_angles_are_one_line_errors(entry: object, why: str) -> None:
    with pytest.raises(InputError, match=why):
        parse_angle("angles[0]", entry)


def test_the_forms_of_an_angle() -> None:
    assert parse_angle("a", "pi") == Angle(Fraction(0), Fraction(1))
    assert parse_angle("a", "-2*pi/5") == Angle(Fraction(0), Fraction(-2, 5))
    assert parse_angle("a", "3/4*pi") == Angle(Fraction(0), Fraction(3, 4))
    assert parse_angle("a", "0.25") == Angle(Fraction(1, 4), Fraction(0))
    assert parse_angle("a", -3) == Angle(Fraction(-3), Fraction(0))
    with pytest.raises(InputError, match="n = 3"):
        given_angles("angles", ["0", "1"], 3)


def test_angles_that_floats_cannot_order_are_ordered_exactly() -> None:
    """1 and 1 + 1e-30 radians are one float: the float order is only a guess, checked pair by pair exactly; the
    spread of 0, 1, 1 + 1e-30 is 1 + 1e-30 exactly (floats: 1)."""
    tie = given_angles("angles", [f"{10**30 + 1}/{10**30}", "1", "0", "1"], 4)
    assert [a.a for a in tie.points()] == [0, 1, 1 + Fraction(1, 10**30)]
    assert tie.arc_spread() == (1 + Fraction(1, 10**30), 0)
    assert circle.arc_spread_of_angles(np.array(tie.floats())) == 1.0
