"""Decimal literals as exact rationals, importing nothing heavy: the claims files' numbers and the command line's
lists (`headflow sweep --help` reads its grids' bounds through it) share it."""

from __future__ import annotations

from fractions import Fraction


def decimal_value(text: str, max_exponent: int) -> Fraction | None:
    """The exact rational of a decimal literal its caller's grammar already accepted ('1.5e-3' is 3/2000),
    or None when the decimal exponent exceeds `max_exponent` (the caller says why in its own words)."""
    mantissa, _, exponent = text.lower().partition("e")
    if exponent and abs(int(exponent)) > max_exponent:
        return None
    return Fraction(mantissa) * Fraction(10) ** int(exponent or 0)
