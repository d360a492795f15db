"""Exact rationals and python-flint balls: decimal text -> rational, the working precision, rational -> ball,
the exact ends of a ball (ball -> rational: `exact_value`) and what settles a relation.

One module for the arithmetic that every rigorous step shares — the writers
(`certificates.provers.witness`, `certificates.provers.intervals`), the deciders of `checks` and the independent
checker (`headflow.certificates.kernel.recheck`) — so that "the ball settles `value relation 0`" means the same thing on
both sides of a certificate.

A relation is settled by a ball when EVERY point of the ball satisfies it, and refuted when no
point does; python-flint's comparisons have exactly these semantics (`b > 0` only when the whole
ball is positive, `b != 0` only when it excludes 0, `b == 0` only for the exact zero). The same
tables compare exact rationals (`Fraction`, SymPy's `Rational`) in the ordinary way.
"""

import numbers
import operator
from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from flint import arb, ctx, fmpq, fmpz

#: The relations `value relation 0` that a certificate's ball settles.
SIGNS = (">", ">=", "<", "<=")

_COMPARE: dict[str, Callable[[Any, int], Any]] = {">": operator.gt, ">=": operator.ge, "<": operator.lt}
_COMPARE |= {"<=": operator.le, "!=": operator.ne, "==": operator.eq}

#: The signs that settle each relation, in order of preference: `x != 0` is settled by `x > 0` or
#: `x < 0`, and `x >= 0` by `x >= 0` itself or by `x > 0`.
SETTLING = {"!=": (">", "<"), ">": (">",), ">=": (">=", ">"), "<": ("<",), "<=": ("<=", "<")}


#: python-flint's working precision at `bits` inside a `with` block, restored afterwards (also on errors).
precision = ctx.workprec


def box_text(box: Mapping[str, tuple[numbers.Rational, numbers.Rational]]) -> str:
    """`x in [lo, hi], ...` to 6 digits, for messages about a box of rational sides (of any magnitude)."""
    with precision(64):
        ends = {name: [ball_of(end).str(6, radius=False) for end in ends] for name, ends in box.items()}
    return ", ".join(f"{name} in [{lo}, {hi}]" for name, (lo, hi) in ends.items())


def ball_of(value: numbers.Rational | int) -> arb:
    """An exact rational as a ball (exact when its binary expansion fits the working precision).

    Any exact rational type converts exactly (int, Fraction, and SymPy's Rational, which the
    claims files' points are): this is the one conversion from an exact rational to a ball."""
    q = Fraction(value)
    return arb(fmpq(q.numerator, q.denominator))


@lru_cache(maxsize=4096)
def rational_ball(numerator: int, denominator: int, bits: int) -> arb:
    """`ball_of(numerator / denominator)` at `bits` bits, kept: a cover evaluates the rationals of its trees over and
    over, and a table of certified constants the same parameters at each precision its digits need (keyed by
    integers, whose hash costs far less than a Fraction's)."""
    with precision(bits):
        return ball_of(Fraction(numerator, denominator))


class ExponentTooLarge(ArithmeticError):
    """An exact ball's binary exponent is beyond the bound its caller set: its exact value would be huge."""


def dyadic_fmpz(point: arb) -> tuple[fmpz, int]:
    """(m, e) with the exact ball `point` = m 2^e (`exact_value`), the mantissa left an fmpz (correct rounding
    multiplies 100,000-digit mantissas as fmpz: a round trip through a Python int costs as much as the product)."""
    mantissa, exponent = point.man_exp()
    return mantissa, int(exponent)


def exact_value(point: arb, max_exponent: int | None = None) -> Fraction:
    """The exact rational value of an exact ball: the one way from a ball to exact numbers.

    `point` is an exact ball: an end of a ball (`arb.lower()`, `arb.upper()`, rounded outwards), its midpoint
    (`arb.mid()`) or its radius (`arb.rad()`); python-flint raises ValueError for any other. ExponentTooLarge when
    its binary exponent exceeds `max_exponent` (an end such as 2^(10^43) has no exact value that fits in memory)."""
    mantissa, exponent = (int(part) for part in point.man_exp())
    if max_exponent is not None and abs(exponent) > max_exponent:
        raise ExponentTooLarge(f"a ball end of binary exponent {exponent}, beyond 2^+-{max_exponent}")
    return Fraction(mantissa << exponent) if exponent >= 0 else Fraction(mantissa, 1 << -exponent)


def interval_ball(low: numbers.Rational | int, high: numbers.Rational | int) -> arb:
    """A ball containing every point of the rational interval [low, high]."""
    return ball_of(low).union(ball_of(high))


def holds(value: Any, relation: str) -> bool:
    """`value relation 0` settled: for a ball, by every point of it; for an exact rational, as usual."""
    return bool(_COMPARE[relation](value, 0))


def settling_sign(value: Any, relation: str) -> str | None:
    """The first sign of SETTLING[relation] that `value` satisfies (so that `relation` holds), or None."""
    return next((sign for sign in SETTLING[relation] if holds(value, sign)), None)
