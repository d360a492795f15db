"""Elaboration of a claims-file dynamics claim on equally spaced tokens of a circle into the kernel's `spaced`
statement (`headflow.certificates.kernel.spaced`), and of an arc spread bound from exact angles into its `arc`
statement (`arc_statement`).

The claim's tokens are `equally-spaced` (theta_k = 2 pi k / n) or `angles` that are exactly theta_0 + 2 pi k / n in some
order (`given_angles.GivenAngles.equally_spaced`); its heads scalar (M_h = W_h = lambda_h I), no mask, no interaction,
values aligned, exp weights (usa, softmax), numbers (no parameter symbols). What the kernel cannot see in the
statement (heads, mask, values, the tokens' spacing) is this elaboration's: `check-cert --claims` repeats it from the
user's file and refuses a statement that differs. The payload is `{"holds": ...}`, the verdict the kernel re-derives.
"""

from __future__ import annotations

from typing import Any

from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.kernel import arc, spaced
from headflow.certificates.kernel.exprtree import TreeError, rational_tree
from headflow.certificates.statements.equiangular import datum
from headflow.certificates.sympy_trees import from_sympy


def scalar_heads(claim: DynamicsClaim, kinds: tuple[str, ...], geometries: Any) -> dict[str, Any] | None:
    """The attention kind, geometry, beta and strengths of a claim at numbers (no parameter) with scalar heads whose
    values are their scores, no mask and no interaction, a kind and geometry among those given (each form's), as a
    statement writes them; None for any other claim (the forms `spaced`, `arc`, `clusters`)."""
    options = claim.options
    plain = options.get("mask") is None and options.get("values", "aligned") == "aligned"
    plain = plain and "interaction" not in options and options.get("heads") == "scalar" and not claim.domains
    if not plain or options.get("attention") not in kinds or options.get("geometry") not in geometries:
        return None
    try:
        numbers = {"beta": datum(options["beta"]), "strengths": [datum(v) for v in options["lambdas"]]}
    except (TreeError, TypeError, ValueError, AttributeError):
        return None
    return {"attention": options["attention"], "geometry": options["geometry"], **numbers}


def statement(claim: DynamicsClaim, holds: bool) -> dict[str, Any] | None:
    """The statement that the claim holds (or fails, `holds` false), or None outside the form."""
    options, fields = claim.options, scalar_heads(claim, spaced.KINDS, spaced.SCHEMES)
    tokens = options.get("tokens")
    spaced_tokens = tokens == "equally-spaced" or (tokens == "angles" and options["angles"].equally_spaced())
    arc_on_circle = claim.quantity != "arc_spread" or options.get("d") == 2
    if fields is None or not spaced_tokens or not arc_on_circle or claim.quantity not in spaced.QUANTITIES:
        return None
    try:
        target = None if claim.target is None else from_sympy(claim.target)
    except (TreeError, TypeError, ValueError):
        return None
    return {"form": spaced.FORM, "claim": claim.id, **fields, "n": options["n"], "quantity": claim.quantity} | {
        "property": claim.property,
        "target": target,
        "holds": holds,
    }


def arc_statement(claim: DynamicsClaim, holds: bool) -> dict[str, Any] | None:
    """The kernel's `arc` statement that `arc_spread at-most b` from exact angles holds for all t (or, `holds` false,
    fails at t = 0: `certificates.kernel.arc`), or None outside it (scalar heads, no mask, no interaction, aligned
    values, numbers)."""
    given, fields = claim.options.get("angles"), scalar_heads(claim, arc.KINDS, arc.GEOMETRIES)
    if claim.quantity != "arc_spread" or claim.property != "at-most" or given is None or claim.target is None:
        return None
    try:
        angles = [["add", rational_tree(t.a), ["mul", rational_tree(t.b), ["pi"]]] for t in given.angles]
        bound = from_sympy(claim.target)
    except (TreeError, TypeError, ValueError):
        return None
    if fields is None:
        return None
    return {"form": arc.FORM, "claim": claim.id, **fields, "angles": angles, "bound": bound, "holds": holds}
