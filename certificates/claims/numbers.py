"""Numbers of a claims file, exactly as written: TOML floats keep their literal text.

`tomllib` rounds a bare float such as `1.0000000000000001` or `1e-400` to binary64, silently.
The loader therefore passes `parse_float=TomlFloat` so that every float arrives as its literal
text, and the schema converts it here: `exact_number` gives the exact rational the text denotes
(domain bounds), `float_parameter` gives the float a model parameter runs with, and refuses a
literal that this float does not represent faithfully.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from headflow.certificates.claims.decimals import decimal_value
from headflow.certificates.errors import InputError

#: Largest magnitude of a number in a file, and the range of a literal's decimal exponent.
MAX_MAGNITUDE = 10**100
MAX_EXPONENT = 400
MAX_CHARS = 120


@dataclass(frozen=True)
class TomlFloat:
    """The literal text of a TOML float, unrounded (`parse_float` hands it over as a string)."""

    text: str

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__


_LITERAL = re.compile(r"^[+-]?[0-9][0-9_]*(\.[0-9][0-9_]*)?([eE][+-]?[0-9][0-9_]*)?$")


def is_number(value: object) -> bool:
    """Whether a TOML value is a number (an integer or a float literal), booleans excluded."""
    return isinstance(value, TomlFloat) or (isinstance(value, int) and not isinstance(value, bool))


def exact_number(field: str, value: object) -> Fraction:
    """The exact rational of a TOML integer or float literal within 1e-400..1e100; InputError otherwise."""
    if isinstance(value, int) and not isinstance(value, bool):
        exact = Fraction(value)
    elif isinstance(value, TomlFloat):
        text = value.text.replace("_", "")
        if len(text) > MAX_CHARS or not _LITERAL.match(text):
            raise InputError(field, value, f"a finite number of at most {MAX_CHARS} characters")
        decimal = decimal_value(text, MAX_EXPONENT)
        if decimal is None:
            raise InputError(field, value, "magnitude must lie within 1e-400..1e100")
        exact = decimal
    else:
        raise InputError(field, value, "a number")
    if abs(exact) > MAX_MAGNITUDE:
        raise InputError(field, value, "magnitude must be at most 1e100")
    return exact


def stated(value: float | int) -> Fraction:
    """The exact rational a faithful model parameter stands for: its shortest decimal text (0.95 is 19/20)."""
    return Fraction(repr(value)) if isinstance(value, float) else Fraction(value)


def float_parameter(field: str, value: object) -> float:
    """The float a model parameter runs with; InputError when it is not faithful to the text.

    A literal is faithful when it is the shortest text of its binary64 value (`0.2` is the float
    nearest 0.2, as in any float program; `1.0000000000000001` and `1e-400` name numbers the float
    cannot tell from 1 and 0, so they are refused). A faithful literal names one exact rational
    (`Fraction(repr(float))`, 0.95 is 19/20): what a refutation uses exactly.
    """
    exact = exact_number(field, value)
    number = float(exact)
    if Fraction(number) == exact:
        return number
    if Fraction(repr(number)) != exact:
        raise InputError(
            field, value, f"more digits than a binary64 float holds (it would run as {number!r}): write {number!r}"
        )
    return number
