"""The exact route for equally spaced tokens: an equilibrium of the directions, so each quantity keeps its start value.

It applies when the claim's tokens are "equally-spaced" (n tokens at the angles 2 pi k / n of a great circle, or
`angles` that are exactly theta_0 + 2 pi k / n in some order, `given_angles.GivenAngles.equally_spaced`),
its heads "scalar" (W_h = M_h, no mask) and its scheme one of `identities.circle.EQUILIBRIUM_SCHEMES` (Post-LN with
any strengths; nGPT, Pre-LN, Peri-LN and Mix-LN with every lambda_h > 0, beta > 0 and exp weights), and its
quantity one of the directions' quantities whose start value is known in closed form (VALUES).
`headflow.identities.circle.equally_spaced_equilibrium` states why the directions stay fixed; then Q(t) = Q(0) for all
t >= 0 and the claim is decided on Q(0):

- non-decreasing: PROVED (a constant);
- tends-to L, at-most b, at-least b, non-negative: Q(0) against the target, exactly (a rational or pi value, by
  exact algebra) or by balls that separate them; equal values that only balls see stay undecided;
- decays-at-rate r: REFUTED (a constant tends to 0 only when it is 0, and then Q e^{r t} = 0 tends to no C > 0);
  decays-like f: REFUTED alike (Q -> 0 only when Q = 0, and then Q/f = 0 tends to no C > 0).

Q(0) is exact where it is: R = 0 (the n-th roots of unity sum to 0), the arc spread 2 pi (n - 1)/n, and the cosines
cos(2 pi k/n) that are rational (Niven: 2k/n a multiple of 1/2 or 1/3); any other cosine is a ball
(`arb.cos_pi` of an exact rational), which can separate but never equal. Anything else: None (the float
evidence decides).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import sympy as sp
from flint import arb
from headflow.certificates.claims.evaluation import ball
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.claims.symbolic import REDUCTION_OPERATIONS, exactly_zero
from headflow.certificates.inert import inert
from headflow.certificates.kernel.exact import precision
from headflow.certificates.kernel.spaced import FORM as SPACED
from headflow.certificates.statements import spaced as spaced_statements
from headflow.certificates.store import certificate_directory, write_accepted
from headflow.checks.claimsfile.given_start import separated
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict, derived
from headflow.identities import circle
from headflow.identities.derivation import Derivation

METHOD = "exact: equally spaced tokens are an equilibrium of the directions (headflow.identities.circle)"
PRECISION = 128
#: cos(q pi) for the q in [0, 2) where it is rational (Niven's theorem).
RATIONAL_COSINES = {
    Fraction(0): 1,
    Fraction(1, 3): Fraction(1, 2),
    Fraction(1, 2): 0,
    Fraction(2, 3): Fraction(-1, 2),
    Fraction(1): -1,
    Fraction(4, 3): Fraction(-1, 2),
    Fraction(3, 2): 0,
    Fraction(5, 3): Fraction(1, 2),
}


class _Value:
    """Q(0): a ball, and its exact SymPy value when it has one (None: only the ball is known)."""

    def __init__(self, enclosure: arb, exact: sp.Expr | None, why: str) -> None:
        self.ball, self.exact, self.why = enclosure, exact, why


def _cosine(k: int, n: int, complement: bool = False) -> _Value:
    """cos(2 pi k/n), or 1 - cos(2 pi k/n) when `complement`: exact when the cosine is rational, else a ball."""
    q = Fraction(2 * k, n) % 2
    value = RATIONAL_COSINES.get(q)
    exact = None if value is None else sp.Rational(value)
    with precision(PRECISION):
        enclosure = (arb(q.numerator) / q.denominator).cos_pi()
    if complement:
        return _Value(1 - enclosure, None if exact is None else 1 - exact, f"cos(2 pi {k}/{n})")
    return _Value(enclosure, exact, f"cos(2 pi {k}/{n})")


def _order_parameter(n: int) -> _Value:
    return _Value(arb(0), sp.Integer(0), "R = |(1/n) sum_k e^{2 pi i k/n}| = 0 (the n-th roots of unity sum to 0)")


def _arc_spread(n: int) -> _Value:
    with precision(PRECISION):
        enclosure = 2 * arb.pi() * (n - 1) / n
    return _Value(enclosure, 2 * sp.pi * (n - 1) / n, "consecutive angles are 2 pi/n apart: the arc is 2 pi (n-1)/n")


def _gap(n: int) -> _Value:
    value = _cosine(n // 2, n, complement=True)
    value.why = f"1 - min_k cos(2 pi k/n) = 1 - {value.why} (cos decreases on [0, pi])"
    return value


def _least(n: int) -> _Value:
    value = _cosine(n // 2, n)
    value.why = f"min_k cos(2 pi k/n) = {value.why} (cos decreases on [0, pi])"
    return value


def _largest(n: int) -> _Value:
    value = _cosine(1, n)
    value.why = f"max_(k != 0) cos(2 pi k/n) = {value.why}"
    return value


#: The quantities of the directions whose value at equally spaced tokens is known in closed form, by n.
VALUES: dict[str, Callable[[int], _Value]] = {
    "order_parameter": _order_parameter,
    "arc_spread": _arc_spread,
    "cluster_gap": _gap,
    "least_inner_product": _least,
    "largest_inner_product": _largest,
}


def applies(claim: DynamicsClaim) -> bool:
    """Whether the claim's family is equally spaced tokens with scalar heads under a scheme the equilibrium covers."""
    options = claim.options
    geometry = options["geometry"]
    spaced = options["tokens"] == "equally-spaced" or (
        options["tokens"] == "angles" and options["angles"].equally_spaced()
    )
    if not spaced or options["heads"] != "scalar" or claim.quantity not in VALUES:
        return False
    if geometry not in circle.EQUILIBRIUM_SCHEMES or (claim.quantity == "arc_spread" and options["d"] != 2):
        return False
    if options.get("mask") is not None or options.get("values", "aligned") != "aligned":
        return False  # a mask breaks the symmetry k <-> n - k; other values need not map x_j into their plane
    if not circle.EQUILIBRIUM_SCHEMES[geometry]:
        return True
    # a > 0 needs exp(beta s) weights with beta > 0 and every lambda_h > 0 (else |x_i| can shrink to 0)
    beta = options["beta"]
    attracting = "interaction" not in options and isinstance(beta, int | float) and beta > 0
    return attracting and all(stated(value) > 0 for value in options["lambdas"])


def decide_equally_spaced(claim: DynamicsClaim, ctx: Context) -> Outcome | None:
    """PROVED, REFUTED or INCONCLUSIVE (undecided, with the reason) on Q(t) = Q(0); None outside the regime. A strong
    verdict carries a `spaced` certificate where the kernel's form states the claim and accepts it."""
    outcome = _decided(claim, ctx)
    if outcome is None or outcome.verdict not in (Verdict.PROVED, Verdict.REFUTED):
        return outcome
    holds = outcome.verdict is Verdict.PROVED
    stated = spaced_statements.statement(claim, holds)
    path = write_accepted(certificate_directory(ctx.certificate_dir), claim, SPACED, {"holds": holds}, stated)
    if path is None:
        return outcome
    witness = outcome.witness | {"certificate": path} if outcome.witness else outcome.witness
    return dataclasses.replace(outcome, certificates=[path], witness=witness)


def _decided(claim: DynamicsClaim, ctx: Context) -> Outcome | None:
    if not applies(claim):
        return None
    options = claim.options
    n = options["n"]
    derivation = Derivation()
    strengths = [sp.Rational(stated(value)) for value in options["lambdas"]]
    circle.equally_spaced_equilibrium(derivation, options["geometry"], n, strengths)
    value = VALUES[claim.quantity](n)
    derivation.note(f"at t = 0: {value.why}")
    details: dict[str, Any] = {
        "start_value": str(value.exact) if value.exact is not None else value.ball.str(20, radius=True)
    }
    if derivation.failures:
        return derived(derivation, METHOD, details)
    prop = claim.property
    if prop == "non-decreasing":
        derivation.note(f"{claim.quantity}(t) = {claim.quantity}(0) for all t: a constant is non-decreasing")
        return derived(derivation, METHOD, details)
    if prop in ("decays-at-rate", "decays-like"):
        scaled = "its product with e^(r t)" if prop == "decays-at-rate" else f"its quotient by {claim.target}"
        reading = (
            f"{claim.quantity}(t) = {details['start_value']} for all t: a constant tends to 0 only when it is 0, and "
            f"then {scaled} is 0, which tends to no C > 0"
        )
        return _refuted(derivation, details, "exact" if value.exact is not None else "ball", reading)
    target = sp.Integer(0) if claim.target is None else claim.target
    relation = {"tends-to": "=", "at-most": "<=", "at-least": ">=", "non-negative": ">="}[prop]
    settled = _compare(value, target, relation, ctx)
    if settled is None:
        notes = f"the exact route did not decide: {claim.quantity}(0) against {target} is settled neither way"
        return Outcome(Verdict.INCONCLUSIVE, METHOD, notes=notes, details=details)
    holds, by = settled
    if holds:
        derivation.holds(f"{claim.quantity}(0) = {details['start_value']} {relation} {target} ({by})", True)
        return derived(derivation, METHOD, details)
    reading = f"{claim.quantity}(t) = {details['start_value']} for all t, and not {relation} {target} ({by})"
    return _refuted(derivation, details, by, reading)


def _compare(value: _Value, target: sp.Expr, relation: str, ctx: Context) -> tuple[bool, str] | None:
    """Whether Q(0) relation target: by balls that separate them (`given_start.separated`: more bits while they do
    not, Q(0)'s from its exact value where it has one), else equal by exact algebra when Q(0) is exact."""
    found = separated(lambda bits: value.ball if value.exact is None else ball(value.exact, {}, bits), target)
    if found is not None:
        return {"=": False, "<=": not found[0], ">=": found[0]}[relation], "ball"
    if value.exact is None:
        return None
    zero, _ = exactly_zero(target - inert(value.exact), REDUCTION_OPERATIONS[ctx.profile])
    return (True, "exact") if zero else None


def _refuted(derivation: Derivation, details: dict[str, Any], by: str, reading: str) -> Outcome:
    """REFUTED on the equilibrium, with the derivation's steps in the details."""
    steps = [step.text for step in derivation.steps]
    witness = {"verified_by": by, "reading": reading, "start_value": details["start_value"]}
    return Outcome(Verdict.REFUTED, METHOD, witness=witness, details=details | {"derivation": steps})
