"""A claim about the trajectory from the user's own exact tokens, refuted exactly at its start (t = 0).

`non-negative`, `at-most` and `at-least` speak of every time of the trajectory, t = 0 included, and at t = 0 the
state is the user's tokens exactly as written. The pairwise inner products, the cluster gap, the first pair's gap and
the number of clusters for a merge radius are rational functions of the tokens (the radius and bound enter as the
exact rationals written in the file), so a start that already violates the claim is a counterexample computed without
rounding; the clustering time is exactly 0 when the cluster gap starts at or below the level.
Any other quantity, float tokens, or a start that satisfies the claim: None, and the float evidence decides.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from headflow.certificates.claims.evaluation import exact
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.kernel.exact_data import dot
from headflow.checks.verdicts import Outcome, Verdict

Rows = tuple[tuple[Fraction, ...], ...]
METHOD = "exact: the claimed quantity at the start t = 0, the user's tokens exactly as written"


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


def _cluster_count(rows: Rows, radius: Fraction) -> Fraction:
    """Connected components of |x_i - x_j| <= radius, i.e. 2 - 2 <x_i, x_j> <= radius^2 for unit tokens."""
    parent = list(range(len(rows)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i, x in enumerate(rows):
        for j in range(i + 1, len(rows)):
            if 2 - 2 * dot(x, rows[j]) <= radius * radius:
                parent[root(j)] = root(i)
    return Fraction(len({root(i) for i in range(len(rows))}))


EXACT: dict[str, Callable[[Rows, Fraction | None], Fraction]] = {
    **{name: _exact_pairwise(name) for name in PAIRWISE},
    "cluster_count": lambda rows, radius: _cluster_count(rows, radius),  # type: ignore[arg-type]
}
"""The quantities computed exactly at exact unit tokens (their float evaluators are `checks.model.observables`)."""


def refuted_at_start(claim: DynamicsClaim) -> Outcome | None:
    """REFUTED with the exact value at t = 0 when the user's exact tokens violate the claim there; None otherwise."""
    options = claim.options
    given = options.get("points")
    if given is None or not given.exact or claim.quantity not in (*EXACT, "clustering_time"):
        return None
    if claim.property not in ("non-negative", "at-most", "at-least") or options.get("head") is not None:
        return None
    bound = Fraction(0)
    if claim.target is not None:
        value = exact(claim.target, {})
        if value is None:
            return None
        bound = value
    if claim.quantity == "clustering_time":  # T = 0 exactly when the gap starts at or below the level, else unknown
        if EXACT["cluster_gap"](given.rows, None) > stated(options["level"]):
            return None
        at_start = Fraction(0)
    else:
        radius = stated(options["radius"]) if "radius" in options else None
        at_start = EXACT[claim.quantity](given.rows, radius)
    holds = at_start <= bound if claim.property == "at-most" else at_start >= bound
    if holds:
        return None
    return start_refutation(claim, bound, str(at_start), "exact", "the given tokens", METHOD)


def start_refutation(
    claim: DynamicsClaim, bound: Fraction, value: str, verified_by: str, start: str, method: str
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
