"""Elaboration of a claims-file dynamics claim refuted at t = 0 by the user's exact tokens into the kernel's `start`
statement (`headflow.certificates.kernel.start`): the observables of merges and clusters (the pairwise ones are
stated in form `trajectory`).

The claim's tokens are `given` exact unit rows, its property `at-most`, `at-least` or `non-negative` (bound 0), its
radius, k and bound exact rationals; the dynamics (heads, kind, geometry) do not enter: the state at t = 0 is the
tokens whatever they are. `check-cert --claims` repeats this from the user's file and refuses a statement that
differs; the kernel re-derives the value at the start and that it violates the bound.
"""

from __future__ import annotations

from typing import Any

from headflow.certificates.claims.evaluation import exact
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.kernel import start
from headflow.certificates.kernel.exprtree import TreeError, rational_text


def statement(claim: DynamicsClaim) -> dict[str, Any] | None:
    """The statement that the claim fails at the start, or None outside the form."""
    options = claim.options
    given = options.get("points")
    if claim.quantity not in start.QUANTITIES or given is None or not given.exact or claim.domains:
        return None
    if claim.property not in ("at-most", "at-least", "non-negative") or options.get("head") is not None:
        return None
    bound = 0 if claim.target is None else exact(claim.target, {})
    try:
        radius = None if "radius" not in options else rational_text(stated(options["radius"]))
        tokens = [[rational_text(c) for c in row] for row in given.rows]
        bound_text = None if bound is None else rational_text(bound)
    except (TreeError, TypeError, ValueError):
        return None
    if bound_text is None:
        return None
    k = options.get("k") if claim.quantity == "merge_time" else None
    return {"form": start.FORM, "claim": claim.id, "tokens": tokens, "quantity": claim.quantity, "radius": radius} | {
        "k": k,
        "property": claim.property,
        "bound": bound_text,
    }
