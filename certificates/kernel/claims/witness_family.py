"""Which exact configurations belong to a dynamics claim's family, and which rate refutes the claim.

Shared by the dynamics decider (which rounds a float state to exact data and certifies it) and
the claims-file certificate checker (which re-derives, from the claim's own fields, what a
witness of that claim must be): the quantity whose negative value refutes the claim, the exact
hypotheses its family implies, and the exact membership test (sizes, the file's beta and scalar
strengths exactly as written, the given score and value matrices entry by entry, W_h = M_h (W_h = I or SPD for
values = "identity" or "spd"), the mask, unit tokens,
symmetry, attention kind, geometry; the user's own tokens exactly, or tokens in an open hemisphere by an exact
sufficient test). Witnesses have the claim's beta, of either sign (beta < 0: repulsive attention); a claim about
beta = 0 has none (its violations stay INCONCLUSIVE).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from certificates.kernel.ball_model import ExactConfiguration, hypothesis_failures
from certificates.kernel.claims.numbers import stated
from certificates.kernel.claims.schema import DynamicsClaim
from certificates.kernel.family_names import HEAD_FAMILIES, TOKEN_FAMILIES
from certificates.kernel.masks import mask_of
from certificates.kernel.model_quantities import MODEL_QUANTITIES

#: The exact hypotheses of a claim's geometry and attention kind (usa and relu: none beyond the witness's
#: `attention` field, which the checker compares with the claim's).
GEOMETRY_HYPOTHESES = {
    "sphere": ("unit-tokens", "spherical-geometry"),
    "flat": (),
    "pre-ln": (),
    "peri-ln": (),
    "mix-ln": (),
    "ngpt": ("unit-tokens",),
}
ATTENTION_HYPOTHESES = {"usa": (), "softmax": ("softmax-attention",), "relu": ()}
#: The exact hypotheses of a claim's values (given matrices: none; `family_failures` compares them entry by entry).
VALUE_HYPOTHESES = {
    "aligned": ("aligned-values",),
    "identity": ("identity-values",),
    "spd": ("spd-values",),
    "given": (),
}


def searched_quantity(claim: DynamicsClaim) -> str | None:
    """The quantity whose least value decides the claim pointwise, or None (trajectories only).

    non-negative: the quantity itself; non-decreasing: its rate, when it has one (of its value per head
    when the claim names a head); Q is non-decreasing along trajectories iff dQ/dt >= 0."""
    head = claim.options.get("head")
    if claim.property == "non-negative":
        return claim.quantity
    quantity = MODEL_QUANTITIES[claim.quantity]
    if claim.property == "non-decreasing" and quantity.rate is not None:
        if head is not None and quantity.per_head is not None:
            quantity = MODEL_QUANTITIES[quantity.per_head]
        return quantity.rate
    return None


def family_hypotheses(options: dict[str, Any]) -> list[str] | None:
    """The exact hypotheses the claim's family implies, or None when a rounded state leaves the family."""
    tokens, heads = TOKEN_FAMILIES[options["tokens"]], HEAD_FAMILIES[options["heads"]]
    if not ((tokens.free or tokens.exact_members) and heads.rounds) or options["attention"] not in ATTENTION_HYPOTHESES:
        return None
    given = options.get("points")
    if given is not None and (not given.exact or given.source):  # floats are no exact start; a file is not embedded
        return None
    if any(not options[key].embeddable for key in ("scores", "value_matrices") if key in options):
        return None  # matrices from a file (the checker does not read it), or too long to embed
    beta = options["beta"]
    if isinstance(beta, int | float) and beta == 0:
        return None  # witnesses have beta != 0 (the certificate reader's; beta < 0 for a repulsive claim)
    return [
        *VALUE_HYPOTHESES[options.get("values", "aligned")],
        *GEOMETRY_HYPOTHESES[options["geometry"]],
        *ATTENTION_HYPOTHESES[options["attention"]],
        *heads.hypotheses,
    ]


def repulsive(options: dict[str, Any]) -> bool:
    """Whether the claim is about beta < 0 (its witnesses then have a negative beta, which the reader requires)."""
    beta = options["beta"]
    return isinstance(beta, int | float) and beta < 0


def family_failures(options: dict[str, Any], exact: ExactConfiguration) -> list[str]:
    """What keeps exact data out of the claim's family (checked exactly; empty when it belongs)."""
    d = len(exact.tokens[0])
    failures = []
    if (exact.n, d, len(exact.score_matrices)) != (options["n"], options["d"], options["H"]):
        failures.append("sizes")
    if exact.beta != stated(options["beta"]):
        failures.append("beta")
    if exact.attention != options["attention"] or exact.geometry != options["geometry"]:
        failures.append("attention or geometry")
    if exact.n == options["n"] and exact.mask != mask_of(options.get("mask"), exact.n):
        failures.append("the mask")
    if options.get("values") in ("identity", "spd"):
        name = f"{options['values']}-values"
        failures += [name] if hypothesis_failures(exact, [name]) else []
    elif options.get("values") == "given":
        failures += [] if exact.values == options["value_matrices"].exact() else ["the given value matrices"]
    elif exact.values != exact.score_matrices:
        failures.append("W_h = M_h")
    stated_phi = options["interaction"].tree if "interaction" in options else None
    if (exact.interaction.tree if exact.interaction is not None else None) != stated_phi:
        failures.append("the stated interaction function")
    if any(sum(v * v for v in x) != 1 for x in exact.tokens):
        failures.append("unit tokens")
    if options["tokens"] == "given" and [tuple(x) for x in exact.tokens] != list(options["points"].rows):
        failures.append("the given tokens")
    if options["tokens"] == "hemisphere" and not in_open_hemisphere(exact.tokens):
        failures.append("tokens in an open hemisphere")
    if options["heads"] == "given" and exact.score_matrices != options["scores"].exact():
        failures.append("the given score matrices")
    if options["heads"] == "scalar":  # the stated strengths: every hypothesis of the family follows
        expected = [[[stated(lam) if i == j else 0 for j in range(d)] for i in range(d)] for lam in options["lambdas"]]
        if exact.score_matrices != expected:
            failures.append("the stated scalar strengths")
    elif "symmetric-scores" in HEAD_FAMILIES[options["heads"]].hypotheses and hypothesis_failures(
        exact, ["symmetric-scores"]
    ):
        failures.append("symmetric heads")
    return failures


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


def in_open_hemisphere(tokens: list[list[Fraction]]) -> bool:
    """A sufficient exact test that the tokens lie in one open hemisphere: <x_i, c> > 0 for every i, with c the sum
    of the tokens (then they lie in {y : <y, c> > 0}); False does not show that no hemisphere holds them."""
    centre = [sum(column, Fraction(0)) for column in zip(*tokens, strict=True)]
    return all(sum((a * b for a, b in zip(x, centre, strict=True)), Fraction(0)) > 0 for x in tokens)
