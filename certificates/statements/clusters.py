"""Two clusters of tokens in a claim's exact start, and the elaboration of a claim on them into the kernel's
`clusters` statement (`headflow.certificates.kernel.clusters`).

The claim's start is two clusters (n1 tokens at a, n2 at b != a, exact given points or angles: `two_clusters`), its
heads scalar (M_h = W_h = lambda_h I), the sphere, no mask, no interaction, values aligned, usa or softmax, numbers;
its claim the gap's `decays-at-rate` or R's `non-decreasing`. `check-cert --claims` repeats this from the user's file
and refuses a statement that differs; the kernel re-derives the verdict from K's sign and the rate.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import sympy as sp
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.kernel import clusters
from headflow.certificates.kernel.exprtree import TreeError
from headflow.certificates.statements.spaced import scalar_heads
from headflow.certificates.sympy_trees import from_sympy


@dataclasses.dataclass(frozen=True)
class TwoClusters:
    """An exact start of two clusters: their sizes and the exact inner product rho0 = <a, b> (a SymPy number)."""

    sizes: tuple[int, int]
    inner: sp.Expr


def two_clusters(options: dict[str, Any]) -> TwoClusters | None:
    """The two clusters of the claim's exact start: exact given points with exactly two distinct rows, or angles
    with exactly two distinct values mod 2 pi (`given_angles`); None otherwise."""
    given = options.get("points")
    if options["tokens"] == "given" and given is not None and given.exact:
        distinct = list(dict.fromkeys(given.rows))
        if len(distinct) != 2:
            return None
        a, b = distinct
        inner = sum((x * y for x, y in zip(a, b, strict=True)), Fraction(0))
        return TwoClusters((given.rows.count(a), given.rows.count(b)), sp.Rational(inner))
    angles = options.get("angles")
    if options["tokens"] == "angles" and angles is not None:
        clusters = angles.two_clusters()
        return None if clusters is None else TwoClusters(clusters[0], clusters[1])
    return None


def statement(claim: DynamicsClaim, holds: bool) -> dict[str, Any] | None:
    """The statement that the claim holds (or fails, `holds` false), or None outside the form."""
    found, fields = two_clusters(claim.options), scalar_heads(claim, ("usa", "softmax"), ("sphere",))
    if found is None or fields is None or (claim.quantity, claim.property) not in clusters.CLAIMS:
        return None
    try:
        rate = None if claim.property != "decays-at-rate" else from_sympy(claim.target)
        start = from_sympy(found.inner)
    except (TreeError, TypeError, ValueError):
        return None
    del fields["geometry"]  # the sphere's, always
    return {"form": clusters.FORM, "claim": claim.id, **fields, "sizes": list(found.sizes), "rho0": start} | {
        "quantity": claim.quantity,
        "property": claim.property,
        "rate": rate,
        "holds": holds,
    }
