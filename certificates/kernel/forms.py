"""The enclosures a cover's leaves and nodes use, computed alike by the prover and the checker.

- natural: the expression's ball with every variable bound to the ball of its side (interval arithmetic
  node by node; sound, but blind to cancellation: x - x over [0, 1] is [-1, 1]).
- centred (mean value form): f(m) + sum_i d_i f(box) (x_i - m_i) with m the exact midpoint, valid when f
  and its partial derivatives have finite balls over the box (`certificates.kernel.derivatives`: f is then
  continuously differentiable on the box). Its width shrinks like the square of the box's width, so it
  defeats cancellation: (sqrt((H-1)^2+4) - (H-1))/2 over a narrow box.
- monotone: a partial derivative with a sign on the box puts the minimum (for > and >=) or the maximum
  (for < and <=) on one face, `face_end`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from flint import arb

from certificates.kernel.balls import eval_ball
from certificates.kernel.exact import ball_of, interval_ball
from certificates.kernel.exprtree import Tree

Box = Mapping[str, tuple[Fraction, Fraction]]


def natural(tree: Tree, box: Box) -> arb:
    """The natural interval extension of the tree over the box."""
    return eval_ball(tree, {name: interval_ball(lo, hi) for name, (lo, hi) in box.items()})


def varying(box: Box) -> list[str]:
    """The variables whose side is not a single point."""
    return [name for name, (lo, hi) in box.items() if lo < hi]


def centred(tree: Tree, slopes: Mapping[str, arb], box: Box, whole: arb) -> arb | None:
    """The mean value form over the box (`slopes`: the natural balls over the box of the partial derivatives in
    every varying side), or None when `whole` (the natural ball of the tree) or a slope is not finite (the form
    does not apply)."""
    if not whole.is_finite():
        return None
    middle = {name: (lo + hi) / 2 for name, (lo, hi) in box.items()}
    value = eval_ball(tree, {name: ball_of(m) for name, m in middle.items()})
    for name in varying(box):
        slope = slopes[name]
        if not slope.is_finite():
            return None
        lo, hi = box[name]
        value += slope * interval_ball(lo - middle[name], hi - middle[name])
    return value if value.is_finite() else None


def face_end(relation: str, sign: str) -> str:
    """The end ("low" or "high") of the side where the relation is hardest, for a derivative of `sign`
    (">=": non-decreasing, "<=": non-increasing): the minimum for > and >=, the maximum for < and <=."""
    increasing = sign == ">="
    wants_minimum = relation in (">", ">=")
    return "low" if increasing == wants_minimum else "high"
