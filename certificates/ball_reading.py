"""Balls and exact numbers as the provers, deciders and reports read them, outside the kernel (which only checks).

- `fails`: a relation refuted by a ball (every point of it violates `value relation 0`): a decider's FALSE, where the
  kernel only ever needs `headflow.certificates.kernel.exact.holds`;
- `approximate`: a rational to a few significant digits at any magnitude, for messages and reports;
- `shown`: a rational exactly when it is not too large, else about 20 digits, for messages.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from typing import Any

from headflow.certificates.kernel.exact import ball_of, holds, precision

#: The relation that holds exactly where the given one fails.
NEGATION = {">": "<=", ">=": "<", "<": ">=", "<=": ">", "!=": "==", "==": "!="}


def fails(value: Any, relation: str) -> bool:
    """`value relation 0` refuted: for a ball, by every point of it (no precision can rescue it); for an exact
    rational, as usual."""
    return holds(value, NEGATION[relation])


def approximate(value: numbers.Rational | int, digits: int = 6) -> str:
    """`digits` significant digits of a rational at any magnitude (a float would overflow past 1e308 or show 0)."""
    q = Fraction(value)
    number = float(q) if abs(q.numerator).bit_length() - q.denominator.bit_length() < 1000 else math.inf
    if math.isfinite(number) and (number != 0 or q == 0):
        return f"{number:.{digits}g}"
    with precision(max(64, 4 * digits)):
        return ball_of(q).str(digits, radius=False)


#: Bits of a rational shown exactly by `shown`; a larger one is shown to 20 digits with its size (its exact
#: text is long, slow to print, and refused by Python beyond 4300 digits).
MAX_SHOWN_BITS = 512


def shown(value: numbers.Rational | int) -> str:
    """A rational for a report: its exact text when it has at most MAX_SHOWN_BITS bits, else about 20 digits."""
    q = Fraction(value)
    bits = q.numerator.bit_length() + q.denominator.bit_length()
    if bits <= MAX_SHOWN_BITS:
        return str(q)
    with precision(80):
        return f"about {ball_of(q).str(20, radius=False)} (a rational of {bits} bits)"
