"""A stationary start of a dynamics claim's family: exact data whose velocity is exactly 0 at every token.

From such a start the trajectory is constant (the dynamics is an autonomous ODE with a locally Lipschitz field, and a
zero of the field is its own unique solution), so every state quantity keeps its value at the start for all t >= 0.
A stationary start whose quantity differs from L therefore shows that *some* start of the family does not tend to L,
hence

- proves an existence claim `exists = true`, property `does-not-tend-to` with `limit = L`;
- refutes a universal claim (`exists = false`) that every start has `tends-to` L, or, for L = 0, `decays-at-rate`
  or `decays-exponentially` (a constant positive quantity decays at no rate), for a family whose every member the
  claim is about: the user's own tokens, tokens in an open hemisphere (`exact_members`). A random family's universal
  claim (random-sphere tokens) is read as the float route reads it, about almost every start, which one equilibrium
  (an antipodal pair is one for every model) does not refute.

What is re-checked, from the embedded claim only: the data belong to the claim's family exactly
(`witness_family.family_failures`: sizes, the file's beta and strengths as written, W_h = M_h, the mask, unit tokens,
the given tokens or tokens in an *open* hemisphere by a strict exact test), every velocity component is exactly zero in
the exact field of the model (`certificates.kernel.exact_model`: exponential polynomials, never a ball or a float;
a velocity of 1e-30 is not 0), and the quantity's exact value at the start is separated from L by a ball.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import sympy as sp

from certificates.kernel import exact_model, recheck
from certificates.kernel.ball_model import ExactConfiguration
from certificates.kernel.claims.evaluation import EvaluationError, ball
from certificates.kernel.claims.schema import DynamicsClaim
from certificates.kernel.claims.witness_family import family_failures, family_hypotheses, repulsive
from certificates.kernel.exp_field import ExpFieldError
from certificates.kernel.family_names import TOKEN_FAMILIES
from certificates.kernel.recheck import Rejected

KEYS = {"witness", "configuration"}
WITNESS = "stationary-start"
PRECISION = 128


def _products(cfg: ExactConfiguration) -> list[Fraction]:
    """<x_i, x_j> for i != j, exactly."""
    rows = cfg.tokens
    return [
        sum((a * b for a, b in zip(rows[i], rows[j], strict=True)), Fraction(0))
        for i in range(cfg.n)
        for j in range(cfg.n)
        if i != j
    ]


#: The state quantities with an exact rational value at exact tokens (`checks.model.field`'s definitions).
EXACT_QUANTITIES: dict[str, Callable[[ExactConfiguration], Fraction]] = {
    "cluster_gap": lambda cfg: max(1 - p for p in _products(cfg)),
    "least_inner_product": lambda cfg: min(_products(cfg)),
    "largest_inner_product": lambda cfg: max(_products(cfg)),
}


def avoided_limit(claim: DynamicsClaim) -> sp.Expr | None:
    """The limit L a stationary start must avoid to settle the claim (None: no stationary start settles it)."""
    if claim.quantity not in EXACT_QUANTITIES or "head" in claim.options:
        return None
    if claim.exists and claim.property == "does-not-tend-to":
        return claim.target
    if not TOKEN_FAMILIES[claim.options["tokens"]].exact_members:
        return None  # a random family's universal claim is about almost every start (an equilibrium is one point)
    if not claim.exists and claim.property == "tends-to":
        return claim.target
    if not claim.exists and claim.property in ("decays-at-rate", "decays-exponentially"):
        return sp.Integer(0)
    return None


def _beyond_exact_model(options: dict[str, Any]) -> bool:
    """Values other than W_h = M_h or the given matrices, or beta = 0: not the exact model of the stationary starts
    (a mask and beta < 0 are: masked weights are 0 or the unmasked ones, exponentials of exact rationals too)."""
    beta = options.get("beta")
    return options.get("values", "aligned") not in ("aligned", "given") or (
        isinstance(beta, int | float | Fraction) and beta == 0
    )


def stationary_failures(claim: DynamicsClaim, cfg: ExactConfiguration) -> tuple[list[str], Fraction | None]:
    """Why `cfg` is not a stationary start of the claim's family whose quantity avoids the limit (empty: it is one),
    and the quantity's exact value there."""
    limit = avoided_limit(claim)
    if limit is None:
        return [f"no stationary start settles claim {claim.id!r} ({claim.property}, exists = {claim.exists})"], None
    if claim.options["geometry"] not in ("sphere", "flat"):
        return [f"exact stationary starts are for sphere and flat dynamics, not {claim.options['geometry']}"], None
    if claim.options.get("interaction") is not None:
        return ["the exact model has exp(beta s) weights: a stated interaction phi has no exact stationary start"], None
    if _beyond_exact_model(claim.options):
        return ["the exact stationary starts are unmasked, with W_h = M_h and beta > 0"], None
    if family_hypotheses(claim.options) is None:
        return [f"the family of {claim.id!r} has no exact members a witness can name"], None
    outside = family_failures(claim.options, cfg)
    if outside:
        return [f"not in the family: {', '.join(outside)}"], None
    try:
        if not exact_model.stationary(cfg):
            return ["some velocity component is not exactly 0"], None
    except ExpFieldError as exc:
        return [f"the velocity has no exact value: {exc}"], None
    value = EXACT_QUANTITIES[claim.quantity](cfg)
    try:
        gap = ball(limit - sp.Rational(value.numerator, value.denominator), {}, PRECISION)
    except EvaluationError as exc:
        return [f"the limit has no ball: {exc}"], value
    if not (gap > 0 or gap < 0):
        return [f"{claim.quantity} = {value} at the start is not separated from the limit {limit} by balls"], value
    return [], value


def check(claim: DynamicsClaim, kind: str, payload: dict[str, Any]) -> tuple[str, str]:
    """(what the stationary start proves or refutes, how it was re-checked); Rejected when it is no such witness."""
    if kind != "witness":
        raise Rejected(f"a stationary start is a witness certificate, not {kind}")
    recheck.require_keys(payload, KEYS, "stationary start")
    if payload["witness"] != WITNESS:
        raise Rejected(f"not a {WITNESS} witness")
    masked = claim.options.get("mask") is not None
    cfg = recheck.exact_configuration(payload["configuration"], negative_beta=repulsive(claim.options), masked=masked)
    failures, value = stationary_failures(claim, cfg)
    if failures:
        raise Rejected(f"not a stationary witness of {claim.id!r}: {'; '.join(failures)}")
    limit = avoided_limit(claim)
    verb = "proves" if claim.exists else "refutes"
    proved = (
        f"{verb} claims-file claim {claim.id!r} ({claim.quantity} {claim.property}"
        f"{', some start' if claim.exists else ''}): an exact start of its family is stationary, so "
        f"{claim.quantity} = {value} for all t >= 0, which is not {limit}"
    )
    how = (
        f"exact data n = {cfg.n}, d = {len(cfg.tokens[0])}, H = {len(cfg.score_matrices)}, beta = {cfg.beta}: family "
        "membership checked exactly, every velocity component exactly 0 (exponential polynomials), "
        f"{claim.quantity} exact, separated from {limit} by a ball"
    )
    return proved, how
