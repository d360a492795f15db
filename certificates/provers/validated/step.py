"""One validated step of the model's flow, and its re-check from the recorded data.

A state set is kept in Lohner's form {c + A r : r in R}: an exact centre c, an exact frame A and a box R of balls.
From the set S at time t, a step of size h, with x_k the solution's Taylor coefficients (`taylor`), p the order:

1. a priori enclosure: a box B with sum_{k <= p} [0, h]^k x_k(hull S) + [0, h]^(p+1) x_{p+1}(B) inside B's interior
   (the high-order enclosure of Corliss and Rihm, 1996: every solution from S exists on [0, h] and stays in B, since
   Taylor's formula with the Lagrange remainder keeps it in B's interior while it is in B). Its first-order form
   (Picard's, S + [0, h] f(B) in B) holds only for h below 1 / (the field's Lipschitz constant over boxes), which in
   dimension 64 is a few hundredths;
2. the image: for x in S, Phi_h(x) = sum_{k <= p} x_k(x) h^k + h^(p+1) x_{p+1}(a point of B) (Lagrange), and by the
   mean-value theorem x_k(x) - x_k(c) lies in V_k(hull S) (x - c), V_k = dx_k/dx_0 the Taylor coefficients of the
   flow's Jacobian (`taylor.variational_coefficients`). So Phi_h(S) lies in T(c) + D A R + h^(p+1) x_{p+1}(B), with
   T(c) the Taylor polynomial at the centre and D = sum_{k <= p} h^k V_k(hull S). D is tight (hull S is small), so
   the set's spread grows as the linearized flow does. A first-order D (an enclosure of DPhi over B by Gronwall,
   as wide as h times the variation of the field's Jacobian over B) multiplied the spread by 1 + O(h^2) N at each
   step and blew the enclosure up by t = 1 in dimension 64; bounding the differences x_k(hull S) - x_k(c) by balls
   for the higher k did too (the balls' widths grow geometrically with k over any box);
3. the new set: centre c' the midpoint of T(c), frame A' an orthogonal matrix from the QR factors of mid(D A) (the
   moving frame that keeps the wrapping effect in check), and R' = A'^-1 (T(c) - c' + remainder) + (A'^-1 D A) R with
   A'^-1 enclosed by ball arithmetic (A' is exact, so nothing is assumed of its orthogonality).

`recheck_step` takes a recorded step (its start, h, order, precision, box and end set) and re-derives 1 and 2-3
from that data alone, with the model's field: a box or an end set that is shifted or shrunk fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from flint import arb, arb_mat
from headflow.certificates.kernel.exact import ball_of, precision
from headflow.certificates.kernel.exact_data import ExactConfiguration
from headflow.certificates.kernel.trajectory import solution_coefficients
from headflow.certificates.provers.validated.program import FieldUndefined
from headflow.certificates.provers.validated.taylor import (
    Field,
    model_field,
    polynomial,
    series_length,
    variational_coefficients,
)

#: A priori enclosures tried with inflated boxes before a step size is given up.
ENCLOSURE_TRIES = 6
#: The factor by which a box's radius grows between tries, and the absolute radius every inflation adds.
INFLATION = (1.5, 2.0**-60)


class StepFailure(ArithmeticError):
    """A step that could not be validated (no a priori enclosure, a field that is not finite, a singular frame)."""


@dataclass(frozen=True)
class LohnerSet:
    """The set {c + A r : r in R}: an exact centre c, an exact frame A (N x N) and a box R."""

    centre: tuple[arb, ...]
    frame: arb_mat
    spread: tuple[arb, ...]

    def hull(self) -> list[arb]:
        """A box containing the set (c + A R in ball arithmetic)."""
        return [c + v for c, v in zip(self.centre, matvec(self.frame, self.spread), strict=True)]


@dataclass(frozen=True)
class Step:
    """A validated step: from `start` at time t, the solutions stay in `box` on [t, t + h] and are in `end` at t + h
    (order p of the Taylor polynomial, working precision in bits); `remainder` is the Lagrange term h^{p+1} x_{p+1}
    over the box."""

    t: Fraction
    h: Fraction
    order: int
    bits: int
    start: LohnerSet
    box: tuple[arb, ...]
    end: LohnerSet
    remainder: tuple[arb, ...]

    def width(self) -> float:
        """The largest width of the end set's hull."""
        return max_width(self.end.hull())

    def box_width(self) -> float:
        """The largest width of the a priori box (the enclosure over [t, t + h])."""
        return max_width(self.box)


def max_width(box: Sequence[arb]) -> float:
    """The largest width (2 x radius) of a box's balls, as a float (infinite for a ball that is not finite)."""
    return max((2 * float(b.rad()) if b.is_finite() else float("inf") for b in box), default=0.0)


def matvec(A: arb_mat, v: Sequence[arb]) -> list[arb]:
    product = A * arb_mat(len(v), 1, list(v))
    return [product[i, 0] for i in range(len(v))]


def widened(b: arb) -> arb:
    """The ball inflated for the next try."""
    return b.mid() + arb(0, float(b.rad()) * INFLATION[0] + INFLATION[1] * (1 + abs(float(b.mid()))))


def time_interval(h: Fraction) -> arb:
    """A ball containing [0, h]."""
    return ball_of(h / 2) + arb(0, float(h / 2) * (1 + 2.0**-50))


def enclosure_image(field: Field, start: list[list[arb]], box: Sequence[arb], h: Fraction) -> tuple[list, list]:
    """(sum_{k <= p} [0, h]^k x_k(hull S) + [0, h]^(p+1) x_{p+1}(box), x_{p+1}(box)), from the coefficients over the
    start's hull (x_0 .. x_p): what the a priori box must hold in its interior."""
    order = len(start) - 1
    interval = time_interval(h)
    top = solution_coefficients(field, box, order + 1)[-1]
    path = polynomial(start, interval)
    power = interval ** (order + 1)
    return [x + power * c for x, c in zip(path, top, strict=True)], top


def a_priori_box(field: Field, start: list[list[arb]], h: Fraction) -> tuple[tuple[arb, ...], list[arb]]:
    """A box B holding its high-order image in its interior, and x_{p+1}(B) (StepFailure when ENCLOSURE_TRIES
    inflations do not give one)."""
    box = [widened(widened(x)) for x in polynomial(start, time_interval(h))]
    for _ in range(ENCLOSURE_TRIES):
        image, top = enclosure_image(field, start, box, h)
        if all(b.contains_interior(y) for b, y in zip(box, image, strict=True)):
            return tuple(box), top
        if not all(y.is_finite() for y in image):
            break
        box = [widened(y.union(b)) for y, b in zip(image, box, strict=True)]
    raise StepFailure(f"no a priori enclosure with h = {float(h):.3g}")


def image_parts(
    field: Field, start: LohnerSet, hull: list[list[arb]], top: Sequence[arb], h: Fraction
) -> tuple[list[arb], list[arb], arb_mat]:
    """(T(c), the remainder h^(p+1) x_{p+1}(B), D A): what the end set is built from, given the coefficients over the
    start's hull (x_0 .. x_p) and x_{p+1}(B)."""
    order, hb = len(hull) - 1, ball_of(h)
    taylor = polynomial(solution_coefficients(field, start.centre, order), hb)
    remainder = [c * hb ** (order + 1) for c in top]
    V = variational_coefficients(field, hull, order)
    D = V[order]
    for k in range(order - 1, -1, -1):  # Horner: sum_k h^k V_k
        D = D * hb + V[k]
    return taylor, remainder, D * start.frame


def end_spread(
    start: LohnerSet, centre: Sequence[arb], frame: arb_mat, taylor: list[arb], remainder: list[arb], carried: arb_mat
) -> list[arb]:
    """R' = A'^-1 (taylor - c' + remainder) + (A'^-1 D A) R (StepFailure when A' is not shown invertible)."""
    try:
        inverse = frame.inv()
    except ZeroDivisionError:
        raise StepFailure("the frame is not shown invertible") from None
    offset = [t - c + r for t, c, r in zip(taylor, centre, remainder, strict=True)]
    return [a + b for a, b in zip(matvec(inverse, offset), matvec(inverse * carried, start.spread), strict=True)]


def qr_frame(carried: arb_mat, spread: Sequence[arb]) -> arb_mat:
    """An exact frame: Q of the QR factors of mid(D A), its columns taken longest first (|column| x width of R)."""
    n = carried.nrows()
    mid = np.array([[float(carried[i, j].mid()) for j in range(n)] for i in range(n)])
    lengths = np.linalg.norm(mid, axis=0) * np.array([float(r.rad()) for r in spread])
    Q, _ = np.linalg.qr(mid[:, np.argsort(-lengths, kind="stable")])
    if not np.all(np.isfinite(Q)):
        raise StepFailure("the frame's QR factors are not finite")
    return arb_mat(n, n, [float(v) for v in Q.ravel()])


def take_step(field: Field, start: LohnerSet, t: Fraction, h: Fraction, order: int, bits: int) -> Step:
    """One validated step of size h from `start` (at the current working precision, recorded as `bits`)."""
    try:
        hull = solution_coefficients(field, start.hull(), order)
        box, top = a_priori_box(field, hull, h)
        taylor, remainder, carried = image_parts(field, start, hull, top, h)
    except FieldUndefined as exc:
        raise StepFailure(str(exc)) from None
    if not all(v.is_finite() for v in [*taylor, *remainder]):
        raise StepFailure("the Taylor image is not finite")
    centre = tuple(v.mid() for v in taylor)
    frame = qr_frame(carried, start.spread)
    end = LohnerSet(centre, frame, tuple(end_spread(start, centre, frame, taylor, remainder, carried)))
    if not all(r.is_finite() for r in end.spread):
        raise StepFailure("the end set is not finite")
    return Step(t, h, order, bits, start, box, end, tuple(remainder))


def recheck_step(cfg: ExactConfiguration, step: Step) -> list[str]:
    """Why the recorded step does not hold (empty when it does), re-derived from its data with the model's field: the
    a priori enclosure of its start over its box, then its end set against the Taylor image, remainder and mean-value
    term computed again over that box (what a replay in the checking kernel would do)."""
    field = model_field(cfg)
    with precision(step.bits), series_length(step.order + 2):
        try:
            hull = solution_coefficients(field, step.start.hull(), step.order)
            image, top = enclosure_image(field, hull, step.box, step.h)
            if bad := [c for c, (b, y) in enumerate(zip(step.box, image, strict=True)) if not b.contains_interior(y)]:
                return [f"the a priori enclosure fails at component {c}" for c in bad]
            taylor, remainder, carried = image_parts(field, step.start, hull, top, step.h)
            spread = end_spread(step.start, step.end.centre, step.end.frame, taylor, remainder, carried)
        except (StepFailure, FieldUndefined) as exc:
            return [str(exc)]
        pairs = enumerate(zip(step.end.spread, spread, strict=True))
        return [f"the end set misses the image at component {c}" for c, (r, s) in pairs if not r.contains(s)]
