"""A dynamics claim's tokens on the circle given as angles: exact numbers a + b pi, and the circle's observables.

`angles = ["0", "pi/3", "2*pi/5", "-pi", "1/2"]`: each entry is text, either a rational multiple of pi (`pi`,
`-pi/3`, `2*pi/5`, `3/4*pi`) or a rational number of radians (`1/2`, `0.25`, `-3`); an integer entry is radians. An
angle is held exactly as a + b pi with rationals a and b; the token is x = (cos theta, sin theta). A TOML float literal
is refused: the angle it means is not the float it is (3.14159 is not pi), so it is written as text.

Exact facts used (pi is irrational, Lambert): a + b pi = 2 pi k for an integer k exactly when a = 0 and b = 2k, so
two angles are the same point of the circle exactly when their a agree and their b differ by an even integer; any
other difference of angles is not a multiple of 2 pi, and balls of increasing precision place it between two
multiples (ORDER_BITS bounds the work). The circle's observables in every representation this layer holds:

- balls: cos and sin of each angle (`arb.cos_pi` of the exact b when a = 0), R = |(1/n) sum_j e^{i theta_j}| and
  the arc spread (the length of the shortest arc holding every token, 2 pi minus the largest gap);
- exact: the arc spread as a + b pi (the cyclic order decided as above), and, when every angle is a rational
  multiple of pi, R^2 as an element of the cyclotomic field Q(zeta_N) (theta_j = 2 pi k_j / N): n^2 R^2 =
  sum_{j, l} zeta^(k_j - k_l), reduced modulo the N-th cyclotomic polynomial, whose remainder is the unique
  representative in the power basis; R^2 is rational exactly when that remainder is a constant.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp
from flint import arb, ctx, fmpq_poly, fmpz_poly
from headflow.certificates.claims.numbers import TomlFloat
from headflow.certificates.errors import InputError
from headflow.certificates.vocabulary import MAX_TOKENS

#: The most bits balls are given to place an angle between two multiples of 2 pi.
ORDER_BITS = 1 << 14
#: The largest denominator of a pi multiple whose cyclotomic field is built (N = 2 lcm of the denominators).
MAX_CYCLOTOMIC = 2000

_NUMBER = r"[0-9]{1,300}(?:\.[0-9]{0,300})?(?:/[0-9]{1,300})?"
_PI = re.compile(
    rf"^\s*(?P<sign>[+-]?)\s*(?:(?P<factor>{_NUMBER})\s*\*?\s*)?pi\s*(?:/\s*(?P<over>[0-9]{{1,300}}))?\s*$"
)
_RADIANS = re.compile(rf"^\s*(?P<sign>[+-]?)\s*(?P<value>{_NUMBER})\s*$")


@dataclass(frozen=True, order=True)
class Angle:
    """theta = a + b pi exactly (a: radians, b: a multiple of pi)."""

    a: Fraction
    b: Fraction

    def __str__(self) -> str:
        if self.a == 0:
            return f"{self.b}*pi" if self.b not in (0, 1) else ("0" if self.b == 0 else "pi")
        return str(self.a) if self.b == 0 else f"{self.a} + {self.b}*pi"

    def float(self) -> float:
        return float(self.a) + float(self.b) * math.pi

    def ball(self) -> arb:
        """theta as a ball at the current working precision."""
        return arb(_text(self.a)) + arb(_text(self.b)) * arb.pi()

    def cos_sin(self) -> tuple[arb, arb]:
        """(cos theta, sin theta) as balls: arb.cos_pi/sin_pi of the exact b when a = 0 (no rounding of pi)."""
        if self.a == 0:
            b = arb(_text(self.b))
            return b.cos_pi(), b.sin_pi()
        theta = self.ball()
        return theta.cos(), theta.sin()

    def sympy(self) -> sp.Expr:
        return sp.Rational(self.a) + sp.Rational(self.b) * sp.pi


def _text(value: Fraction) -> str:
    """A rational as text arb reads exactly ("p/q")."""
    return f"{value.numerator}/{value.denominator}"


def _number(field: str, text: str) -> Fraction:
    numerator, _, denominator = text.partition("/")
    if denominator and int(denominator) == 0:
        raise InputError(field, text, "a zero denominator")
    value = Fraction(numerator) / (int(denominator) if denominator else 1)
    if abs(value) > 10**6:
        raise InputError(field, text, "an angle is at most 10^6 in size (radians or multiples of pi)")
    return value


def parse_angle(field: str, entry: object) -> Angle:
    """One entry of `angles` (module docstring); InputError naming the entry otherwise."""
    if isinstance(entry, TomlFloat):
        raise InputError(
            field, entry, 'a float literal is not an exact angle: write it as text, "pi/3", "2*pi/5" or "1/2" (radians)'
        )
    if isinstance(entry, int) and not isinstance(entry, bool):
        return Angle(_number(field, str(abs(entry))) * (1 if entry >= 0 else -1), Fraction(0))
    if not isinstance(entry, str):
        raise InputError(field, entry, 'an angle is text such as "pi/3", "-2*pi/5" or "1/2" (radians)')
    found = _PI.match(entry)
    if found is not None:
        sign = -1 if found["sign"] == "-" else 1
        factor = _number(field, found["factor"]) if found["factor"] else Fraction(1)
        over = int(found["over"]) if found["over"] else 1
        if over == 0:
            raise InputError(field, entry, "a zero denominator")
        return Angle(Fraction(0), sign * factor / over)
    found = _RADIANS.match(entry)
    if found is None:
        raise InputError(field, entry, 'not an angle: a rational multiple of pi ("2*pi/5") or of radians ("1/2")')
    return Angle(_number(field, found["value"]) * (-1 if found["sign"] == "-" else 1), Fraction(0))


def _floor_turns(angle: Angle) -> int:
    """The integer k with 2 pi k <= theta < 2 pi (k + 1): exact when a = 0, else by balls (theta / 2 pi is then
    irrational, so a fine enough ball decides)."""
    if angle.a == 0:
        return math.floor(angle.b / 2)
    bits = 128
    while bits <= ORDER_BITS:
        with ctx.workprec(bits):
            floor = (angle.ball() / (2 * arb.pi())).floor().unique_fmpz()
        if floor is not None:
            return int(floor)
        bits *= 2
    raise InputError("angles", str(angle), f"its place on the circle is not decided with {ORDER_BITS} bits")


def reduced(angle: Angle) -> Angle:
    """The same point of the circle with 0 <= theta < 2 pi, exactly."""
    return Angle(angle.a, angle.b - 2 * _floor_turns(angle))


@dataclass(frozen=True, repr=False)
class GivenAngles:
    """The tokens as exact angles (their order as written)."""

    angles: tuple[Angle, ...]

    @property
    def n(self) -> int:
        return len(self.angles)

    def __str__(self) -> str:
        return (
            f"the {self.n} given angles ({', '.join(str(a) for a in self.angles[:6])}{', ...' if self.n > 6 else ''})"
        )

    __repr__ = __str__

    def floats(self) -> list[float]:
        """The angles in radians as floats (what the numeric model runs with)."""
        return [angle.float() for angle in self.angles]

    def on_circle(self) -> list[Angle]:
        """Each angle reduced to [0, 2 pi), exactly."""
        return [reduced(angle) for angle in self.angles]

    def points(self) -> list[Angle]:
        """The distinct points of the circle, in [0, 2 pi), sorted (exact comparison: a + b pi by balls, equal ones
        exactly)."""
        guess = sorted(set(self.on_circle()), key=Angle.float)  # a float order, then checked exactly pair by pair
        if all(_sort_key(p) < _sort_key(q) for p, q in itertools.pairwise(guess)):
            return guess
        return sorted(guess, key=_sort_key)

    def two_clusters(self) -> tuple[tuple[int, int], sp.Expr] | None:
        """((n1, n2), cos of the gap) when the tokens are exactly two distinct points and the cosine has a closed form
        without trigonometric functions (a rational multiple of pi that SymPy evaluates); None otherwise."""
        on = self.on_circle()
        distinct = list(dict.fromkeys(on))
        if len(distinct) != 2:
            return None
        gap = distinct[1].b - distinct[0].b
        if distinct[0].a != 0 or distinct[1].a != 0:
            return None
        cosine = sp.cos(sp.pi * sp.Rational(gap))
        if cosine.has(sp.cos, sp.sin):
            return None
        return (on.count(distinct[0]), on.count(distinct[1])), cosine

    def equally_spaced(self) -> bool:
        """Whether the n angles are exactly theta_0 + 2 pi k / n, k = 0..n-1, in some order."""
        on = self.on_circle()
        first = on[0]
        wanted = {reduced(Angle(first.a, first.b + Fraction(2 * k, self.n))) for k in range(self.n)}
        return len(set(on)) == self.n and set(on) == wanted

    def order_parameter_ball(self, bits: int = 128) -> arb:
        """R = |(1/n) sum_j e^{i theta_j}| as a ball."""
        with ctx.workprec(bits):
            pairs = [angle.cos_sin() for angle in self.angles]
            c = sum((p[0] for p in pairs), arb(0))
            s = sum((p[1] for p in pairs), arb(0))
            square = c * c + s * s
            return _sqrt(square) / self.n

    def order_parameter_square(self) -> fmpq_poly | None:
        """n^2 R^2 as the remainder of P(x) P(1/x), P = sum_j x^(k_j), modulo the N-th cyclotomic polynomial (exact);
        None unless every angle is a rational multiple of pi with N = 2 lcm(denominators) <= MAX_CYCLOTOMIC."""
        if any(angle.a != 0 for angle in self.angles):
            return None
        N = 2 * math.lcm(*(angle.b.denominator for angle in self.angles))
        if N > MAX_CYCLOTOMIC:
            return None
        counts = [0] * N  # P(x) = sum_j x^(k_j), theta_j = pi b_j = 2 pi k_j / N
        for angle in self.angles:
            counts[int(angle.b * N / 2) % N] += 1
        mirrored = [counts[-k % N] for k in range(N)]  # P(1/x) modulo x^N - 1
        product = (fmpz_poly(counts) * fmpz_poly(mirrored)).coeffs()
        folded = [sum(product[m::N]) for m in range(N)]  # x^N = 1, as Phi_N divides x^N - 1
        return fmpq_poly(folded) % fmpq_poly(list(fmpz_poly.cyclotomic(N).coeffs()))

    def order_parameter_exact(self) -> Fraction | None:
        """R^2 as an exact rational when the cyclotomic remainder is a constant (R^2 is rational), else None."""
        square = self.order_parameter_square()
        if square is None or square.degree() > 0:
            return None
        value = square[0]  # the constant term (0 for the zero remainder)
        return Fraction(int(value.p), int(value.q)) / self.n**2

    def arc_spread(self) -> tuple[Fraction, Fraction]:
        """The arc spread exactly, as (a, b) with spread = a + b pi: 2 pi minus the largest gap between consecutive
        distinct points (0 for one point). The largest gap is found by exact comparison of the gaps (a + b pi)."""
        points = self.points()
        if len(points) == 1:
            return Fraction(0), Fraction(0)
        gaps = [Angle(q.a - p.a, q.b - p.b) for p, q in itertools.pairwise(points)]
        gaps.append(Angle(points[0].a - points[-1].a, points[0].b - points[-1].b + 2))
        largest = max(gaps, key=_sort_key)
        return -largest.a, 2 - largest.b

    def arc_spread_ball(self, bits: int = 128) -> arb:
        a, b = self.arc_spread()
        with ctx.workprec(bits):
            return Angle(a, b).ball()


class _SortKey:
    """Exact order of angles a + b pi: equal ones exactly, others by balls (never equal in value unless a and b
    agree, since pi is irrational)."""

    def __init__(self, angle: Angle) -> None:
        self.angle = angle

    def __lt__(self, other: _SortKey) -> bool:
        x, y = self.angle, other.angle
        if x == y:
            return False
        if x.a == y.a:
            return x.b < y.b
        if x.b == y.b:
            return x.a < y.a
        bits = 128
        while bits <= ORDER_BITS:
            with ctx.workprec(bits):
                difference = Angle(y.a - x.a, y.b - x.b).ball()
            if difference > 0 or difference < 0:
                return bool(difference > 0)
            bits *= 2
        raise InputError("angles", f"{x}, {y}", f"their order is not decided with {ORDER_BITS} bits")


def _sort_key(angle: Angle) -> _SortKey:
    return _SortKey(angle)


def _sqrt(value: arb) -> arb:
    """sqrt of a ball that may reach below 0 by rounding (R^2 >= 0): the sqrt of its non-negative part."""
    if value >= 0:
        return value.sqrt()
    upper = value.upper()
    return arb(0) if upper <= 0 else arb(0).union(upper.sqrt())


def given_angles(field: str, value: object, n: int) -> GivenAngles:
    """The angles of `angles = value`: a list of n entries; InputError naming what is wrong."""
    if not isinstance(value, list) or not 2 <= len(value) <= MAX_TOKENS:
        raise InputError(field, value, f'a list of 2 to {MAX_TOKENS} angles, e.g. ["0", "pi/3", "1/2"]')
    if len(value) != n:
        raise InputError(field, f"{len(value)} angles", f"the claim states n = {n}")
    return GivenAngles(tuple(parse_angle(f"{field}[{k}]", entry) for k, entry in enumerate(value)))
