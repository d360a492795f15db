"""Rounded digits that a ball determines: correct rounding decided with exact integer arithmetic.

A ball [m - r, m + r] (m, r exact dyadics) determines the N-significant-digit rounding of the
number it encloses when both of its endpoints round to the same decimal: rounding to nearest is
monotone, so every point in between rounds the same way. Endpoints are handled as exact
integers (python-flint's fmpz, whose decimal conversion is fast at 100,000 digits), never as
floats.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

from flint import arb, fmpz
from headflow.certificates.kernel.exact import dyadic_fmpz

MAX_EXPONENT10 = 1_000_000
"""Largest |decimal exponent| of a printed value; beyond it the digits would not fit any table."""

_LOG10_2 = 0.30102999566398119521


class OutOfRange(ValueError):
    """The value's decimal exponent is beyond MAX_EXPONENT10: its digits cannot be printed."""

    def __init__(self, exponent: int) -> None:
        self.exponent = exponent
        super().__init__(f"the value is about 10^{exponent}, beyond 10^+-{MAX_EXPONENT10}")


class Rounded(NamedTuple):
    """sign * d1.d2...dN * 10^exponent; sign 0 for an exact zero (a named tuple: made once per certified value,
    at a third of a frozen dataclass's cost)."""

    sign: int
    digits: str
    exponent: int

    def text(self) -> str:
        """Positional when the exponent allows it without invented zeros, otherwise scientific."""
        if self.sign == 0:
            return "0"
        sign = "-" if self.sign < 0 else ""
        d, e = self.digits, self.exponent
        if 0 <= e < len(d) - 1:
            return f"{sign}{d[: e + 1]}.{d[e + 1 :]}"
        if e == len(d) - 1:
            return sign + d
        if -6 <= e < 0:
            return f"{sign}0.{'0' * (-e - 1)}{d}"
        mantissa = d[0] + ("." + d[1:] if len(d) > 1 else "")
        return f"{sign}{mantissa}e{e:+d}"


@lru_cache(maxsize=32)
def _power10(k: int) -> fmpz:
    """10^k for k >= 0 (cached: one rounding and the next at a higher precision use the same few powers, and a
    power of 10^100,000 costs about as much as the rest of the rounding)."""
    return fmpz(10) ** k


def _aligned(ball: arb) -> tuple[fmpz, fmpz, int]:
    """Exact integers m, r and an exponent g with midpoint m * 2^g and radius r * 2^g."""
    m, e = dyadic_fmpz(ball.mid())
    r, f = dyadic_fmpz(ball.rad())
    if r == 0:
        return m, r, e
    if m == 0:
        return m, r, f
    g = min(e, f)
    return m << (e - g), r << (f - g), g


def _scaled_round(num: fmpz, g: int, k: int, mode: str) -> fmpz:
    """round(num * 2^g * 10^k) for num > 0, to nearest (ties to even) or up ('ceil'); a division by a power of
    two is a shift (the common case: a binary midpoint scaled up to an integer of `digits` digits)."""
    p, q = num, fmpz(1)
    if k >= 0:
        p *= _power10(k)
    else:
        q *= _power10(-k)
    if g >= 0:
        p <<= g
    elif q == 1:
        return _shift_round(p, -g, mode)
    else:
        q <<= -g
    quotient, remainder = divmod(p, q)
    return _rounded(quotient, remainder, q, mode)


def _shift_round(p: fmpz, shift: int, mode: str = "nearest") -> fmpz:
    """round(p / 2^shift) for p > 0 and shift > 0 (shifts, no division). To nearest: with t = floor(2 p / 2^shift),
    floor(p / 2^shift + 1/2) = (t + 1) >> 1, one too many at an exact tie (t odd, p = t 2^(shift - 1)) whose
    result is odd (ties go to even)."""
    if mode == "nearest":
        twice = p >> (shift - 1)
        up = (twice + 1) >> 1
        if twice & 1 and up & 1 and twice << (shift - 1) == p:
            return up - 1
        return up
    quotient = p >> shift
    return _rounded(quotient, p - (quotient << shift), fmpz(1) << shift, mode)


def _rounded(quotient: fmpz, remainder: fmpz, q: fmpz, mode: str) -> fmpz:
    """The rounding of quotient + remainder / q (0 <= remainder < q), to nearest (ties to even) or up ('ceil')."""
    if mode == "ceil":
        return quotient + (1 if remainder else 0)
    twice = 2 * remainder
    if twice > q or (twice == q and quotient % 2 == 1):
        return quotient + 1
    return quotient


def _exponent10(num: fmpz, g: int) -> int:
    """floor(log10(num * 2^g)) for num > 0, exactly (a float estimate, then integer comparisons)."""
    e = math.floor((num.bit_length() - 1 + g) * _LOG10_2)
    if abs(e) > MAX_EXPONENT10:
        raise OutOfRange(e)

    def at_least(k: int) -> bool:  # num * 2^g >= 10^k ?
        left, right = num, fmpz(1)
        left, right = (left * _power10(-k), right) if k < 0 else (left, right * _power10(k))
        return (left << g if g >= 0 else left) >= (right << -g if g < 0 else right)

    while not at_least(e):
        e -= 1
    while at_least(e + 1):
        e += 1
    return e


def _round_integer(num: fmpz, g: int, digits: int, mode: str = "nearest") -> tuple[fmpz, int]:
    """num * 2^g (num > 0) rounded to `digits` significant decimal digits, as (d, e): d * 10^(e - digits + 1), d an
    integer of `digits` digits."""
    e = _exponent10(num, g)
    d = _scaled_round(num, g, digits - 1 - e, mode)
    if d == _power10(digits):  # rounding carried into a new leading digit: 9.99.. -> 10.0
        d, e = d // 10, e + 1
    return d, e


def _round_positive(num: fmpz, g: int, digits: int, mode: str = "nearest") -> Rounded:
    """num * 2^g (num > 0) rounded to `digits` significant decimal digits."""
    d, e = _round_integer(num, g, digits, mode)
    return Rounded(1, str(d), e)


def certified_digits(ball: arb, digits: int) -> Rounded | None:
    """The correctly rounded `digits`-digit decimal of the number in `ball`, or None if undetermined (also when
    the ball is not finite).

    Both ends are rounded at the last digit of the lower end's decade e (its exact decimal exponent): unit
    u = 10^(e - digits + 1). When they round alike to a u, every point between rounds to it (rounding at a fixed
    unit is monotone); a point of the next decade can only be in the ball when a = 10^digits, and then it rounds
    to 10^(e + 1) = a u as well (it is within u / 2 of it, well inside its own half unit 10 u / 2).

    First the ends of a decimal interval holding the ball (`_decimal_digits`: python-flint's rigorous
    `mid_rad_10exp`, a few digits wider than the ball); when they do not round alike (or the interval holds 0),
    the ball's own exact ends decide. Both ways every point of the ball rounds to the answer, so the answer is the
    same; the exact ends, scaled by 10^k, k >= 0, over 2^-s (the usual case: `_at_unit`), are m 10^k -+ r 10^k:
    one long product, a short one and shifts; the decimal text is made once."""
    found = _decimal_digits(ball, digits)
    return found if found is not None else _exact_digits(ball, digits)


def _exact_digits(ball: arb, digits: int) -> Rounded | None:
    """`certified_digits` from the ball's own exact ends (None when it is not finite, holds 0 or straddles)."""
    if not ball.is_finite():  # (its decimal interval is 0 +- 0: deferred by `_decimal_digits`)
        return None
    m, r, g = _aligned(ball)
    if m == 0 and r == 0:
        return Rounded(0, "0", 0)
    if -r <= m <= r:  # the ball holds 0
        return None
    sign, centre = (1, m) if m > 0 else (-1, -m)
    found = _at_unit(centre, r, -g, digits) if g < 0 else None
    if found is None:
        return _rounded_ends(sign, centre - r, centre + r, g, digits)
    if found is False:
        return None
    a, e = found
    return Rounded(sign, str(a), e)


#: Digits beyond the printed ones in the decimal interval of `_decimal_digits` (it is that much wider than the ball).
GUARD_DIGITS = 10


def _decimal_digits(ball: arb, digits: int) -> Rounded | None:
    """The rounding of the ends of a decimal interval [(c - r) 10^x, (c + r) 10^x] holding the ball
    (`arb.mid_rad_10exp`, c of about digits + GUARD_DIGITS digits) when both are positive or both negative and
    they round alike at the unit of the lower end's decade (the rule of `certified_digits`); None otherwise (the
    exact ends decide then, also at a tie). The ends are integers, and the lower one's decimal text (made once, as
    the printed digits need anyway) gives its decade (its length), the digits before the unit 10^j and the rest
    below it; r is a few digits, so the upper end is the same text with 2 r added to that short rest."""
    c, r, exponent = ball.mid_rad_10exp(digits + GUARD_DIGITS)
    sign, centre = (1, c) if c > 0 else (-1, -c)
    low = centre - r
    if low <= 0:  # the interval holds 0 (or c = 0)
        return None
    text = str(low)
    j, decade = len(text) - digits, int(exponent) + len(text) - 1  # low 10^x = d.ddd... 10^decade
    if j <= 0 or abs(decade) > MAX_EXPONENT10:
        return None
    size, rest = 10**j, int(text[digits:])
    half = size >> 1  # exact: the unit is even
    above, remainder = divmod(rest + (int(r) << 1), size)
    if rest == half or remainder == half:  # an end at a tie, where the digit's parity decides: the exact ends decide
        return None
    up = rest > half
    if up != above + (remainder > half):  # the upper end rounds to whole + above (+ 1 past the half)
        return None
    if not up:
        head = text[:digits]
    elif text[digits - 1] != "9":  # the usual rounding up: the last digit alone changes
        head = text[: digits - 1] + _NEXT_DIGIT[text[digits - 1]]
    else:
        head = _plus_one(text[:digits])
    if len(head) > digits:  # rounding carried into a new leading digit: 9.99.. -> 10.0
        return Rounded(sign, head[:digits], decade + 1)
    return Rounded(sign, head, decade)


_NEXT_DIGIT = dict(zip("012345678", "123456789", strict=True))


def _plus_one(decimal: str) -> str:
    """The decimal text of int(decimal) + 1 (one digit longer when it is all nines)."""
    kept = decimal.rstrip("9")
    if not kept:
        return "1" + "0" * len(decimal)
    return kept[:-1] + str(int(kept[-1]) + 1) + "0" * (len(decimal) - len(kept))


def _at_unit(centre: fmpz, r: fmpz, s: int, digits: int) -> tuple[fmpz, int] | bool | None:
    """The ends (centre -+ r) 2^-s (centre > r >= 0, s > 0) rounded at the unit of the lower end's decade: (the
    `digits`-digit integer, the decade) when they agree, False when they differ, None when that unit is above 1
    (a value of more than `digits` integer digits) or the decade is out of range: the general case decides.

    The decade e comes from a float estimate checked exactly: 10^(digits-1) <= low 10^k 2^-s < 10^digits with
    k = digits - 1 - e (a wrong estimate moves by one decade and checks again). The lower end's rounding a
    settles it when 10^(digits-1) < a < 10^digits (a is within 1/2 of low 10^k 2^-s), so only a rounding
    onto a power of ten compares the long products."""
    low = centre - r
    e = math.floor((low.bit_length() - 1 - s) * _LOG10_2)
    least, most = _power10(digits - 1), _power10(digits)
    while abs(e) <= MAX_EXPONENT10 and digits - 1 - e >= 0:
        scale = _power10(digits - 1 - e)
        scaled = low * scale
        a = _shift_round(scaled, s)
        if not least < a < most:
            if scaled < least << s:
                e -= 1
                continue
            if scaled >= most << s:
                e += 1
                continue
        if r != 0 and a != _shift_round(scaled + ((r * scale) << 1), s):
            return False
        if a == most:  # rounding carried into a new leading digit: 9.99.. -> 10.0
            return a // 10, e + 1
        return a, e
    return None


def _rounded_ends(sign: int, low: fmpz, high: fmpz, g: int, digits: int) -> Rounded | None:
    """The rounding of the ends low 2^g and high 2^g (0 < low <= high) when they agree, else None (the general
    case of `certified_digits`: a value of more than `digits` integer digits or an integer midpoint)."""
    first, second = _round_integer(low, g, digits), _round_integer(high, g, digits)
    return Rounded(sign, str(first[0]), first[1]) if first == second else None


def midpoint_digits(ball: arb, digits: int) -> Rounded:
    """The midpoint rounded to `digits` digits: the best guess when the ball decides nothing better."""
    m, e = dyadic_fmpz(ball.mid())
    if m == 0:
        return Rounded(0, "0", 0)
    rounded = _round_positive(abs(m), e, digits)
    return Rounded(1 if m > 0 else -1, rounded.digits, rounded.exponent)


def radius_bound(ball: arb) -> str:
    """An upper bound of the ball's radius with two significant digits, e.g. '3.1e-10007'."""
    r, f = dyadic_fmpz(ball.rad())
    if r == 0:
        return "0"
    bound = _round_positive(r, f, 2, mode="ceil")
    return f"{bound.digits[0]}.{bound.digits[1]}e{bound.exponent:+d}"
