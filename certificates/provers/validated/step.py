"""One validated step of the model's flow, and its re-check from the recorded data.

A state set is kept in Lohner's form {c + A r : r in R}: an exact centre c, an exact frame A and a box R of balls.
From the set S at time t, a step of size h:

1. a priori enclosure: a box B with hull(S) + [0, h] f(B) contained in B (a Picard inclusion: every solution from S
   exists on [0, h] and stays in B), found by evaluating, inflating and retrying;
2. the centre's image: the Taylor polynomial sum_{k <= p} x_k(c) h^k of the solution through c (`taylor`), with the
   Lagrange remainder h^{p+1} x_{p+1}(B) (x_{p+1} enclosed over the box B, which holds the path from c);
3. the rest by the mean-value theorem: Phi_h(c + A r) - Phi_h(c) lies in D (A r), D an enclosure of the flow's
   Jacobian over S: with J the field's Jacobian over B and L >= |J|_inf, |DPhi_s|_inf <= exp(s L) (Gronwall), and
   DPhi_s = I + int_0^s J DPhi is enclosed by JACOBIAN_ITERATIONS Picard iterations of that bound;
4. the new set: centre c' the midpoint of the image's ball, frame A' an orthogonal matrix from the QR factors of
   mid(D A) (the moving frame that keeps the wrapping effect in check), and R' = A'^-1 (image - c' + remainder) +
   (A'^-1 D A) R with A'^-1 enclosed by ball arithmetic (A' is exact, so nothing is assumed of its orthogonality).

`recheck_step` takes a recorded step (its start, h, order, precision, box and end set) and re-derives 1 and 2-4
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
from headflow.certificates.provers.validated.taylor import (
    Field,
    jacobian,
    model_field,
    polynomial,
    series_length,
    solution_coefficients,
)

#: Picard inclusions tried with inflated boxes before a step size is given up.
PICARD_TRIES = 6
#: Picard iterations of DPhi_s = I + int_0^s J DPhi from the Gronwall bound: each shrinks the bound's share of the
#: flow's Jacobian by about h |J|, which the end set's spread is multiplied by at every step (with 2, the widths of a
#: usa start with n d = 12 grew about e^25 per unit time, with 5 about e^5; more changed nothing).
JACOBIAN_ITERATIONS = 5
#: The factor by which a box's radius grows between tries, and the absolute radius every inflation adds.
INFLATION = (1.5, 2.0**-80)


class StepFailure(ArithmeticError):
    """A step that could not be validated (no Picard inclusion, a field that is not finite, a singular frame)."""


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


def identity(n: int) -> arb_mat:
    return arb_mat(n, n, [1 if i == j else 0 for i in range(n) for j in range(n)])


def widened(b: arb) -> arb:
    """The ball inflated for the next Picard try."""
    return b.mid() + arb(0, float(b.rad()) * INFLATION[0] + INFLATION[1] * (1 + abs(float(b.mid()))))


def time_interval(h: Fraction) -> arb:
    """A ball containing [0, h]."""
    return ball_of(h / 2) + arb(0, float(h / 2) * (1 + 2.0**-50))


def picard_box(field: Field, start: Sequence[arb], h: Fraction) -> tuple[arb, ...]:
    """A box B with start + [0, h] f(B) inside B (StepFailure when PICARD_TRIES inflations do not give one)."""
    interval = time_interval(h)
    box = [widened(x + interval * v) for x, v in zip(start, _finite(field(start)), strict=True)]
    for _ in range(PICARD_TRIES):
        image = [x + interval * v for x, v in zip(start, _finite(field(box)), strict=True)]  # StepFailure: stop
        if all(b.contains(c) for b, c in zip(box, image, strict=True)):
            return tuple(box)
        box = [widened(c.union(b)) for c, b in zip(image, box, strict=True)]
    raise StepFailure(f"no Picard inclusion with h = {float(h):.3g}")


def _finite(values: list[arb]) -> list[arb]:
    if not all(v.is_finite() for v in values):
        raise StepFailure("the field is not finite over the box")
    return values


def picard_failures(field: Field, start: LohnerSet, box: Sequence[arb], h: Fraction) -> list[int]:
    """The components where hull(start) + [0, h] f(box) is not inside the box (empty: the inclusion holds)."""
    interval = time_interval(h)
    image = [x + interval * v for x, v in zip(start.hull(), field(box), strict=True)]
    return [c for c, (b, y) in enumerate(zip(box, image, strict=True)) if not (y.is_finite() and b.contains(y))]


def flow_jacobian(J: arb_mat, h: Fraction) -> arb_mat:
    """An enclosure of DPhi_h over every path inside the box where J encloses the field's Jacobian."""
    n = J.nrows()
    hb, interval, eye = ball_of(h), time_interval(h), identity(n)
    L = max(sum((abs(J[i, j]) for j in range(n)), arb(0)).upper() for i in range(n))
    bound = (hb * L).exp().upper()
    V = arb_mat(n, n, [arb(0, float(bound) * (1 + 2.0**-50)) for _ in range(n * n)])
    for _ in range(JACOBIAN_ITERATIONS):
        V = eye + interval * (J * V)
    return eye + hb * (J * V)


def image_parts(field: Field, start: LohnerSet, box: Sequence[arb], h: Fraction, order: int) -> tuple:
    """(the Taylor polynomial at the centre, the remainder over the box, D A): what the end set is built from."""
    hb = ball_of(h)
    taylor = polynomial(solution_coefficients(field, start.centre, order), hb)
    remainder = [c * hb ** (order + 1) for c in solution_coefficients(field, box, order + 1)[-1]]
    carried = flow_jacobian(jacobian(field, box), h) * start.frame
    return taylor, remainder, carried


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
    box = picard_box(field, start.hull(), h)
    taylor, remainder, carried = image_parts(field, start, box, h, order)
    centre = tuple(v.mid() for v in taylor)
    frame = qr_frame(carried, start.spread)
    end = LohnerSet(centre, frame, tuple(end_spread(start, centre, frame, taylor, remainder, carried)))
    if not all(r.is_finite() for r in end.spread):
        raise StepFailure("the end set is not finite")
    return Step(t, h, order, bits, start, box, end, tuple(remainder))


def recheck_step(cfg: ExactConfiguration, step: Step) -> list[str]:
    """Why the recorded step does not hold (empty when it does), re-derived from its data with the model's field: the
    Picard inclusion of its start over its box, then its end set against the Taylor image, remainder and mean-value
    term computed again over that box (what a replay in the checking kernel would do)."""
    field = model_field(cfg)
    with precision(step.bits), series_length(step.order + 2):
        if bad := picard_failures(field, step.start, step.box, step.h):
            return [f"the Picard inclusion fails at component {c}" for c in bad]
        taylor, remainder, carried = image_parts(field, step.start, step.box, step.h, step.order)
        try:
            spread = end_spread(step.start, step.end.centre, step.end.frame, taylor, remainder, carried)
        except StepFailure as exc:
            return [str(exc)]
        pairs = enumerate(zip(step.end.spread, spread, strict=True))
        return [f"the end set misses the image at component {c}" for c, (r, s) in pairs if not r.contains(s)]
