"""Rational enclosures of a point problem's named definitions: hints that keep each `interval` call small.

A configuration's rate is a chain of definitions (weights, velocities, score rates; `model_tree`). Unfolded
into one term, `interval` takes minutes on it; instead the Coq file proves one lemma per definition,
`lo <= name <= hi`, from the earlier names' lemmas (which `interval` reads from the context as bounds of
atoms), so each call sees one definition's small term. The bounds here are only hints: coqc proves every
one, and a wrong hint makes the file fail, never a false theorem.

Each hint is the definition's ball (python-flint at BITS) evaluated from the earlier *hints* as boxes, so it
encloses what Interval's interval arithmetic gets from the same boxes; it is then widened by its radius (or the radius
of the same ball at the COARSE precision, where rounding dominates: an exact cancellation) and by a relative SLACK,
and rounded outwards to MANTISSA significant bits (short Coq literals).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from flint import arb
from headflow.certificates.kernel.balls import eval_ball
from headflow.certificates.kernel.coq.statements import NotTranslatable
from headflow.certificates.kernel.exact import ball_of, exact_value, interval_ball, precision
from headflow.certificates.kernel.exprtree import TreeError

#: Working precision of the hints, their relative widening and their rounding (significant bits).
BITS = 160
SLACK = Fraction(1, 2**60)
MANTISSA = 72
#: Interval's working precision (bits) in the lemmas and the theorem that rest on them.
COQ_BITS = 90
#: A coarser precision whose ball's radius each hint also holds: Interval at COQ_BITS cannot bound a term that
#: cancels exactly (a derivative along a tangent vector, zero at the data) to BITS' width, only to its own rounding.
COARSE = COQ_BITS - 16


def _round(value: Fraction, up: bool) -> Fraction:
    """`value` rounded outwards (up or down) to MANTISSA significant bits."""
    if value == 0:
        return value
    shift = MANTISSA - math.floor(math.log2(abs(value)))
    scaled = value * Fraction(2) ** shift
    rounded = math.ceil(scaled) if up else math.floor(scaled)
    return Fraction(rounded) / Fraction(2) ** shift


def hints(
    point: Mapping[str, Fraction | tuple[Fraction, Fraction]], definitions: Sequence[tuple[str, Any]]
) -> list[tuple[Fraction, Fraction]]:
    """[lo, hi] for each definition, in order, at the point (a coordinate a rational, or an interval (lo, hi));
    NotTranslatable when one has no finite enclosure."""
    out: list[tuple[Fraction, Fraction]] = []
    with precision(BITS):
        env: dict[str, arb] = {n: interval_ball(*v) if isinstance(v, tuple) else ball_of(v) for n, v in point.items()}
        for name, tree in definitions:
            try:
                ball = eval_ball(tree, env)
            except (TreeError, ValueError, ZeroDivisionError) as exc:
                raise NotTranslatable(f"{name} has no enclosure: {exc}") from exc
            if not ball.is_finite():
                raise NotTranslatable(f"{name} has no finite enclosure at the exact data")
            with precision(COARSE):  # a sum that cancels exactly (a zero at the data) keeps Interval's rounding width
                coarse = eval_ball(tree, env)
            mid, rad = exact_value(ball.mid()), max(exact_value(ball.rad()), exact_value(coarse.rad()))
            widen = 2 * rad + abs(mid) * SLACK + Fraction(1, 2**400)
            low, high = _round(mid - widen, up=False), _round(mid + widen, up=True)
            out.append((low, high))
            env[name] = interval_ball(low, high)
    return out
