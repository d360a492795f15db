"""Elaboration of dynamics claims (a property of a model quantity along the trajectories of a family) into core
statements of form `dynamics` (`certificates.kernel.dynamics_statements`, where their meaning is stated).

The claims file's options become data: the sizes, beta and the scalar strengths as the exact rationals the file's
literals name (`numbers.stated`), the given tokens and matrices entry by entry, the mask as rows of 0/1, the
interaction as its parsed tree, the claimed limit as a tree.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from certificates.claims.numbers import stated
from certificates.claims.schema import DynamicsClaim
from certificates.kernel import dynamics_statements as kernel
from certificates.kernel.ball_model import ExactConfiguration
from certificates.kernel.dynamics_statements import FORM, STATIONARY, refuting_quantity
from certificates.kernel.exprtree import rational_text
from certificates.kernel.tree_text import term_text
from certificates.masks import mask_of
from certificates.sympy_trees import from_sympy


def _texts(rows: Any) -> Any:
    return [_texts(r) for r in rows] if isinstance(rows, list | tuple) else rational_text(rows)


def family(options: dict[str, Any]) -> dict[str, Any]:
    """The family of a dynamics claim's options, as a statement's data (None where the claim states no exact data)."""
    points, values = options.get("points"), options.get("values", "aligned")
    tokens = _texts(points.rows) if points is not None and points.exact and not points.source else None
    scores = options.get("scores")
    value_matrices = options.get("value_matrices")
    interaction = options.get("interaction")
    mask = mask_of(options.get("mask"), options["n"])
    return {
        "attention": options["attention"],
        "geometry": options["geometry"],
        "n": options["n"],
        "d": options["d"],
        "H": options["H"],
        "beta": rational_text(stated(options["beta"])),
        "tokens": options["tokens"],
        "given_tokens": tokens if options["tokens"] == "given" else None,
        "heads": options["heads"],
        "scores": _texts(scores.exact()) if options["heads"] == "given" and scores.embeddable else None,
        "strengths": [rational_text(stated(lam)) for lam in options["lambdas"]]
        if options["heads"] == "scalar"
        else None,
        "values": values,
        "value_matrices": _texts(value_matrices.exact()) if values == "given" and value_matrices.embeddable else None,
        "mask": None if mask is None else [[int(m) for m in row] for row in mask],
        "interaction": None if interaction is None else interaction.tree,
        "head": options.get("head"),
    }


def statement(claim: DynamicsClaim, witness: str) -> dict[str, Any]:
    """The core statement a `witness` certificate (`configuration` or `stationary-start`) of the claim proves."""
    searched = refuting_quantity(claim.quantity, claim.property, claim.options.get("head"))
    configuration = witness == "configuration"
    return {
        "form": FORM,
        "claim": claim.id,
        "quantity": claim.quantity,
        "property": claim.property,
        "exists": claim.exists,
        "limit": None if claim.target is None else from_sympy(claim.target),
        "family": family(claim.options),
        "witness": witness,
        "refuting": {"quantity": searched, "relation": "<"} if configuration else None,
    }


def elaborate(claim: object, kind: str, payload: dict[str, Any]) -> dict[str, Any] | None:
    """The statement of a dynamics witness certificate of `claim`, or None when it is not one."""
    witness = payload.get("witness") if isinstance(payload, dict) else None
    if not isinstance(claim, DynamicsClaim) or kind != "witness" or witness not in ("configuration", STATIONARY):
        return None
    return statement(claim, witness)


# ---------------------------------------------------------------- the deciders' side of the same meaning


def searched_quantity(claim: DynamicsClaim) -> str | None:
    """The quantity whose least value decides the claim pointwise, or None (trajectories only)."""
    return refuting_quantity(claim.quantity, claim.property, claim.options.get("head"))


def family_hypotheses(options: dict[str, Any]) -> list[str] | None:
    """The exact hypotheses the claim's family implies, or None when a rounded state leaves the family."""
    if isinstance(options["beta"], int | float) and options["beta"] == 0:
        return None
    return kernel.hypotheses(family(options))


def repulsive(options: dict[str, Any]) -> bool:
    """Whether the claim is about beta < 0 (its witnesses then have a negative beta, which the reader requires)."""
    beta = options["beta"]
    return isinstance(beta, int | float) and beta < 0


def family_failures(options: dict[str, Any], exact: ExactConfiguration) -> list[str]:
    """What keeps exact data out of the claim's family (the kernel's exact test on the elaborated family)."""
    return kernel.family_failures(family(options), exact)


def with_given_matrices(options: dict[str, Any], exact: ExactConfiguration) -> ExactConfiguration:
    """Exact data with the claim's own score matrices (heads = "given"; values W_h = M_h too when aligned) and its
    own value matrices (values given as matrices), exactly as the file states them."""
    if options["heads"] == "given":
        scores = options["scores"].exact()
        aligned = options.get("values", "aligned") == "aligned"
        exact = dataclasses.replace(exact, score_matrices=scores, values=scores if aligned else exact.values)
    if options.get("values") == "given":
        exact = dataclasses.replace(exact, values=options["value_matrices"].exact())
    return exact


def avoided_limit(claim: DynamicsClaim) -> str | None:
    """The limit L a stationary start must avoid to settle the claim, as the kernel renders it (None: no stationary
    start settles it)."""
    limit = kernel.avoided_limit(statement(claim, STATIONARY))
    return None if limit is None else term_text(limit)


def stationary_failures(claim: DynamicsClaim, cfg: ExactConfiguration) -> tuple[list[str], Fraction | None]:
    """Why `cfg` is not a stationary start of the claim's family whose quantity avoids the limit (the kernel's test
    on the elaborated statement; empty: it is one), and the quantity's exact value there."""
    return kernel.stationary_failures(statement(claim, STATIONARY), cfg)
