"""A claim about the trajectory from the user's own exact tokens, refuted exactly at its start (t = 0).

`non-negative`, `at-most` and `at-least` speak of every time of the trajectory, t = 0 included, and at t = 0 the
state is the user's tokens exactly as written. The pairwise inner products, the cluster gap, the first pair's gap and
the number of clusters for a merge radius are rational functions of the tokens (the radius and bound enter as the
exact rationals written in the file), so a start that already violates the claim is a counterexample computed without
rounding (the number of clusters from the exact merge heights, `checks.model.field.merge_heights`, as its float
evaluator); the clustering time is exactly 0 when the cluster gap starts at or below the level, the time of the k-th
merge (merge_time) exactly 0 when the k-th merge height starts at or below the radius, and closest_pair_merges_first
exactly 1 when the closest pair starts within the radius. The rescaled tokens exp(-t V) x_i are the tokens at t = 0:
their number of clusters is the tokens', and their distance to the boundary of their hull (or to 0) is exactly 0.
The W2 distance to the closest Dirac mass and the k-th merge radius are square roots of such rationals: their balls
(BITS bits) refute a bound they lie strictly beyond.
Any other quantity, float tokens, or a start that satisfies the claim: None, and the float evidence decides.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import sympy as sp
from flint import arb, ctx
from headflow.certificates.claims.evaluation import EvaluationError, ball, exact
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.kernel import start as kernel_start
from headflow.certificates.kernel.exact_data import dot
from headflow.certificates.statements import start as start_statements
from headflow.certificates.store import write_accepted
from headflow.checks.model import field as model
from headflow.checks.verdicts import Outcome, Verdict
from headflow.identities.measure_distances import w2_squared_to_dirac

Rows = tuple[tuple[Fraction, ...], ...]
METHOD = "exact: the claimed quantity at the start t = 0, the user's tokens exactly as written"
BALL_METHOD = "balls: the claimed quantity at the start t = 0 from the user's tokens exactly as written"


def pair_products(rows: Sequence[Sequence[Any]]) -> list[Any]:
    """<x_i, x_j> for i < j, in any one number type (exact rationals, balls, power series of the tokens)."""
    return [dot(x, y) for i, x in enumerate(rows) for y in rows[i + 1 :]]


#: The pairwise quantities, each the least or the largest (`pick`) of its terms, polynomials in the tokens written
#: once for any number type: exact rationals at t = 0 here, balls and first-order series of the tokens along a
#: validated enclosure of the trajectory (`validated_route`). Their float evaluators are `checks.model.observables`.
PAIRWISE: dict[str, tuple[Callable[[Sequence[Sequence[Any]]], list[Any]], Callable[..., Any]]] = {
    "least_inner_product": (pair_products, min),
    "largest_inner_product": (pair_products, max),
    "cluster_gap": (lambda rows: [1 - p for p in pair_products(rows)], max),
    "first_pair_gap": (lambda rows: [1 - dot(rows[0], rows[1])], max),
}


def _exact_pairwise(name: str) -> Callable[[Rows, Fraction | None], Fraction]:
    terms, pick = PAIRWISE[name]
    return lambda rows, _: pick(terms(rows))


def _squared_distances(rows: Rows) -> np.ndarray:
    """|x_i - x_j|^2 as exact rationals (an object array), for `field.merge_heights`."""
    n = len(rows)
    squared = np.empty((n, n), dtype=object)
    for i, x in enumerate(rows):
        for j, y in enumerate(rows):
            squared[i, j] = dot(x, x) + dot(y, y) - 2 * dot(x, y)
    return squared


EXACT: dict[str, Callable[[Rows, Fraction | None], Fraction]] = {
    **{name: _exact_pairwise(name) for name in PAIRWISE},
    "cluster_count": lambda rows, radius: Fraction(
        model.clusters_at(model.merge_heights(_squared_distances(rows)), radius * radius)  # type: ignore[operator]
    ),
}
"""The quantities computed exactly at exact unit tokens (their float evaluators are `checks.model.observables`)."""
# The rescaled tokens z_i(0) = exp(0 V) x_i(0) are the start itself: at t = 0 their clusters are the tokens' clusters,
# and every exact unit token is an extreme point of the unit ball, which holds their hull, so it lies on the hull's
# boundary: its distance to that boundary (or to 0) is exactly 0 (`checks.model.rescaled`).
EXACT["rescaled_cluster_count"] = EXACT["cluster_count"]
EXACT["rescaled_boundary_distance"] = lambda rows, _: Fraction(0)


def _rational(value: Fraction) -> arb:
    return arb(f"{value.numerator}/{value.denominator}")


def _root(square: arb) -> arb | None:
    """The square root of a ball of a quantity >= 0; None when the ball reaches below 0 (not separated)."""
    root = square.sqrt()
    return root if root.is_finite() else None


def _w2_ball(rows: Rows, _: Fraction | None) -> arb | None:
    """W2 to the closest Dirac mass on the sphere, with balls: `measure_distances.w2_squared_to_dirac` at the exact
    mean square norm and variance of the tokens (rationals), its square roots taken as balls."""
    n, d = len(rows), len(rows[0])
    mean = [sum((row[k] for row in rows), Fraction(0)) / n for k in range(d)]
    mean_square = sum((dot(row, row) for row in rows), Fraction(0)) / n
    variance = mean_square - dot(mean, mean)  # exact: no rounding to cancel
    return _root(w2_squared_to_dirac(_rational(mean_square), _rational(variance), lambda q: q.sqrt()))


def _merge_radius_ball(rows: Rows, k: Fraction | None) -> arb | None:
    """The k-th merge height sqrt(h_k), h_k exact (`field.merge_heights` on exact squared distances)."""
    assert k is not None
    return _root(_rational(model.merge_heights(_squared_distances(rows))[int(k) - 1]))


#: The quantities whose value at exact tokens is a square root: balls from exact rationals (`BITS` bits).
BALLS: dict[str, Callable[[Rows, Fraction | None], arb | None]] = {
    "w2_to_dirac": _w2_ball,
    "merge_radius": _merge_radius_ball,
}
BITS = 128
#: The most bits `separated` takes its balls at.
MAX_BITS = 4096
#: The numbers per trajectory whose value at t = 0 may be known exactly: merge_time (0 when the k-th merge height
#: starts at or below the radius), closest_pair_merges_first (1 when the closest pair starts within the radius).
_OF_TRAJECTORY = ("clustering_time", "merge_time", "closest_pair_merges_first")


def _trajectory_value(claim: DynamicsClaim, rows: Rows) -> Fraction | None:
    """A number per trajectory known exactly from the start alone, or None: clustering_time = 0 when the cluster gap
    starts at or below the level, merge_time = 0 when the number of clusters at the radius starts at or below n - k,
    closest_pair_merges_first = 1 when the closest pair starts within the radius (then the first pair within it)."""
    options = claim.options
    if claim.quantity == "clustering_time":
        return Fraction(0) if EXACT["cluster_gap"](rows, None) <= stated(options["level"]) else None
    reach = stated(options["radius"]) ** 2
    heights = model.merge_heights(_squared_distances(rows))
    if claim.quantity == "merge_time":
        return Fraction(0) if heights[options["k"] - 1] <= reach else None
    return Fraction(1) if heights[0] <= reach else None


def refuted_at_start(claim: DynamicsClaim) -> Outcome | None:
    """REFUTED with the exact value (or a ball, for a square root) at t = 0 when the user's exact tokens violate the
    claim there; None otherwise. A bound that is no rational (pi, a root) is compared by balls (`separated`)."""
    options = claim.options
    given = options.get("points")
    if given is None or not given.exact or claim.quantity not in (*EXACT, *BALLS, *_OF_TRAJECTORY):
        return None
    if claim.property not in ("non-negative", "at-most", "at-least") or options.get("head") is not None:
        return None
    target = sp.Integer(0) if claim.target is None else claim.target
    bound = exact(target, {})
    if claim.quantity in BALLS or bound is None:
        return _refuted_by_ball(claim, given.rows, target)
    at_start = _start_value(claim, given.rows)
    if at_start is None or (at_start <= bound if claim.property == "at-most" else at_start >= bound):
        return None
    return start_refutation(claim, bound, str(at_start), "exact", "the given tokens", METHOD)


def _start_value(claim: DynamicsClaim, rows: Rows) -> Fraction | None:
    """The exact value at t = 0 of a quantity of EXACT or _OF_TRAJECTORY (None where the start does not give it)."""
    if claim.quantity in _OF_TRAJECTORY:
        return _trajectory_value(claim, rows)
    radius = stated(claim.options["radius"]) if "radius" in claim.options else None
    return EXACT[claim.quantity](rows, radius)


def separated(value_at: Callable[[int], arb | None], target: sp.Expr) -> tuple[bool, arb] | None:
    """(whether the value lies above the target, its ball) from balls of BITS bits, then four times more while they
    do not separate the two, up to MAX_BITS: a bound 10^-300 from the start is settled, never left to floats that
    cannot see it; None when they never separate (or a value has no ball)."""
    bits = BITS
    while bits <= MAX_BITS:
        try:
            claimed = ball(target, {}, bits)
        except EvaluationError:
            return None
        with ctx.workprec(bits):
            value = value_at(bits)
            if value is None:
                return None
            difference = value - claimed
        if difference > 0 or difference < 0:
            return bool(difference > 0), value
        bits *= 4
    return None


def start_certificate(claim: DynamicsClaim, directory: Path) -> str | None:
    """The `start` certificate of a refutation at t = 0 where the kernel's form states the claim (the observables of
    merges and clusters) and accepts it; None otherwise."""
    return write_accepted(directory, claim, kernel_start.FORM, {}, start_statements.statement(claim))


def _refuted_by_ball(claim: DynamicsClaim, rows: Rows, target: sp.Expr) -> Outcome | None:
    """REFUTED when the quantity's ball at t = 0 lies strictly beyond the bound (`separated`; a bound it equals
    exactly is never separated from it)."""
    own = claim.options.get("k")
    if claim.quantity in BALLS:
        found = separated(lambda bits: BALLS[claim.quantity](rows, None if own is None else Fraction(own)), target)
    else:
        known = _start_value(claim, rows)  # exact, once; a ball of it at each precision
        found = None if known is None else separated(lambda bits: _rational(known), target)
    if found is None:
        return None
    above, value = found
    if above is (claim.property in ("non-negative", "at-least")):
        return None
    return start_refutation(claim, target, value.str(20, radius=True), "ball", "the given tokens", BALL_METHOD)


def start_refutation(
    claim: DynamicsClaim, bound: object, value: str, verified_by: str, start: str, method: str
) -> Outcome:
    """REFUTED by the start itself: the quantity's `value` at t = 0 (exact or a ball) violates the claimed bound."""
    relation = {"non-negative": "< 0", "at-most": f"> {bound}", "at-least": f"< {bound}"}[claim.property]
    how = ", computed exactly" if verified_by == "exact" else ""
    witness = {
        "verified_by": verified_by,
        "time": 0,
        "quantity": claim.quantity,
        "value": value,
        "reading": f"at t = 0 ({start}) {claim.quantity} = {value} {relation}{how}",
    }
    return Outcome(Verdict.REFUTED, method, witness=witness, cases=1)
