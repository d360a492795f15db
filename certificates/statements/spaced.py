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


def covered(claim: DynamicsClaim) -> bool:
    """Whether the claim is one the form states (the module's docstring)."""
    options = claim.options
    tokens = options.get("tokens")
    spaced_tokens = tokens == "equally-spaced" or (tokens == "angles" and options["angles"].equally_spaced())
    plain = options.get("mask") is None and options.get("values", "aligned") == "aligned"
    plain = plain and "interaction" not in options
    numbers = not claim.domains and isinstance(options.get("lambdas"), list)
    arc = claim.quantity != "arc_spread" or options.get("d") == 2
    kind = options.get("attention") in spaced.KINDS and options.get("geometry") in spaced.SCHEMES
    return spaced_tokens and options.get("heads") == "scalar" and plain and numbers and arc and kind


def statement(claim: DynamicsClaim, holds: bool) -> dict[str, Any] | None:
    """The statement that the claim holds (or fails, `holds` false), or None outside the form."""
    if not covered(claim) or claim.quantity not in spaced.QUANTITIES:
        return None
    options = claim.options
    try:
        target = None if claim.target is None else from_sympy(claim.target)
        numbers = {"beta": datum(options["beta"]), "strengths": [datum(v) for v in options["lambdas"]]}
    except (TreeError, TypeError, ValueError):
        return None
    fields = {"attention": options["attention"], "geometry": options["geometry"], "n": options["n"]}
    return {"form": spaced.FORM, "claim": claim.id, **fields, **numbers, "quantity": claim.quantity} | {
        "property": claim.property,
        "target": target,
        "holds": holds,
    }


def arc_statement(claim: DynamicsClaim, holds: bool) -> dict[str, Any] | None:
    """The kernel's `arc` statement that `arc_spread at-most b` from exact angles holds for all t (or, `holds` false,
    fails at t = 0: `certificates.kernel.arc`), or None outside it (scalar heads, no mask, no interaction, aligned
    values, numbers)."""
    options = claim.options
    given = options.get("angles")
    if claim.quantity != "arc_spread" or claim.property != "at-most" or given is None or claim.target is None:
        return None
    plain = options.get("mask") is None and options.get("values", "aligned") == "aligned"
    if not plain or "interaction" in options or options.get("heads") != "scalar" or claim.domains:
        return None
    if options.get("attention") not in arc.KINDS or options.get("geometry") not in arc.GEOMETRIES:
        return None
    try:
        angles = [["add", rational_tree(t.a), ["mul", rational_tree(t.b), ["pi"]]] for t in given.angles]
        numbers = {"beta": datum(options["beta"]), "strengths": [datum(v) for v in options["lambdas"]]}
        bound = from_sympy(claim.target)
    except (TreeError, TypeError, ValueError):
        return None
    fields = {"attention": options["attention"], "geometry": options["geometry"], **numbers}
    return {"form": arc.FORM, "claim": claim.id, **fields, "angles": angles, "bound": bound, "holds": holds}
