"""Exact parsing of user numbers and parameter lists: '2', '0.5', '1e6', '1/3', '2..64', '1..2:1/4'.

Text becomes an exact Fraction through a strict grammar (never eval or sympify), so values reach
the ball evaluator exactly. Sizes are bounded so that a typo cannot ask for a gigantic integer
or a list of a billion rows.
"""

from __future__ import annotations

import re
from fractions import Fraction

from headflow.certificates.claims.decimals import decimal_value
from headflow.certificates.errors import InputError

MAX_VALUES = 10_000
"""Longest list one parameter may expand to."""

MAX_EXPONENT = 100
"""Largest |decimal exponent| accepted in a number: values and denominators stay below 10^100."""

_DECIMAL = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
_RATIO = re.compile(r"[+-]?\d+/\d+")
_BOUND = Fraction(10) ** MAX_EXPONENT


def parse_number(field: str, text: str) -> Fraction:
    """One exact number: an integer, a decimal (with optional exponent) or a fraction p/q."""
    token = text.strip()
    if len(token) > 400:
        raise InputError(field, text, "number too long (at most 400 characters)")
    if _DECIMAL.fullmatch(token):
        decimal = decimal_value(token, MAX_EXPONENT)
        if decimal is None:
            raise InputError(field, text, f"exponent beyond +-{MAX_EXPONENT}")
        value = decimal
    elif _RATIO.fullmatch(token):
        numerator, denominator = token.split("/")
        if int(denominator) == 0:
            raise InputError(field, text, "zero denominator")
        value = Fraction(int(numerator), int(denominator))
    else:
        raise InputError(field, text, "not a number (use 2, 0.5, 1e6 or 1/3)")
    return check_bounds(field, value, text)


def check_bounds(field: str, value: Fraction, text: str | None = None) -> Fraction:
    """`value` unchanged when |value| and its denominator are at most 10^MAX_EXPONENT, else InputError
    (beyond, cancellation in the closed forms needs more precision than the evaluator allows)."""
    if abs(value) > _BOUND or value.denominator > _BOUND:
        digits = (abs(value.numerator).bit_length() - value.denominator.bit_length()) * 0.30103
        shown = text if text is not None else f"about 10^{digits:.0f}"
        raise InputError(field, shown, f"numbers must stay within 10^-{MAX_EXPONENT}..10^{MAX_EXPONENT}")
    return value


def parse_values(field: str, text: str) -> list[Fraction]:
    """A comma-separated list of numbers and inclusive ranges 'a..b' (step 1) or 'a..b:step'."""
    values: list[Fraction] = []
    for item in text.split(","):
        if not item.strip():
            raise InputError(field, text, "empty item in the list")
        values.extend(_parse_item(field, item.strip(), MAX_VALUES - len(values)))
    return values


def _parse_item(field: str, item: str, room: int) -> list[Fraction]:
    if ".." not in item:
        return [parse_number(field, item)]
    start_text, _, rest = item.partition("..")
    stop_text, _, step_text = rest.partition(":")
    start, stop = parse_number(field, start_text), parse_number(field, stop_text)
    step = parse_number(field, step_text) if step_text else Fraction(1)
    if step <= 0:
        raise InputError(field, item, "the step of a range must be positive")
    if stop < start:
        raise InputError(field, item, "a range a..b needs a <= b")
    count = int((stop - start) / step) + 1
    if count > room:
        raise InputError(field, item, f"too many values (at most {MAX_VALUES} per parameter)")
    return [start + k * step for k in range(count)]


def format_number(value: Fraction) -> str:
    """An exact, short spelling: '10', '0.5', '1/3'."""
    if value.denominator == 1:
        return str(value.numerator)
    d = value.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d != 1:
        return f"{value.numerator}/{value.denominator}"
    places = max(twos, fives)
    scaled = abs(value) * 10**places
    whole, frac = divmod(int(scaled), 10**places)
    sign = "-" if value < 0 else ""
    return f"{sign}{whole}.{frac:0{places}d}"
