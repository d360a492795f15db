"""Closed-form quantities along the equiangular reduction: limits and properties at every time, decided exactly.

In the regime of `exact_dynamics` (scalar heads W_h = M_h, equiangular tokens, the sphere, no mask, no interaction,
beta > 0) each quantity of `identities.equiangular_quantities` is a closed function Q_h(rho) of the one correlation
rho(t) (one per head; the same at every token), and rho moves monotonically from rho0 to its limit rho_lim
(`equiangular_reduction.destination`: 1 or -1/(n - 1), not reached in finite time, or rho0 at an equilibrium), so the
trajectory passes every correlation of the visited set [rho0, rho_lim) (or (rho_lim, rho0]) and no other.

- `tends-to L`: Q_h is continuous on [-1/(n - 1), 1], so Q_h(rho(t)) -> Q_h(rho_lim): PROVED when L equals it
  exactly for every head, REFUTED (balls) when it differs for one.
- `non-negative`, `at-least b`, `at-most b` (at every t >= 0) and `stays-non-negative` (at every t >= 0, for a start
  where it holds at t = 0): the margin m_h (Q_h, Q_h - b, b - Q_h) at rationals of the visited set. REFUTED when a
  ball shows m_h < 0 at a visited rho or at rho_lim (then negative for all large t; for `stays-non-negative` after
  balls showed every m_h(rho0) > 0, or exact algebra m_h(rho0) = 0). `stays-non-negative` is PROVED, vacuously,
  when a ball shows some m_h(rho0) < 0 (the family's one start, up to rotation, does not satisfy the hypothesis), and
  a property at an equilibrium start is decided at rho0. Margins at rho0 and rho_lim are retried at higher precision.
  Otherwise the route is undecided (a proof that m_h >= 0 on a whole interval is not attempted): the float route
  decides, at most CONFIRMED.
"""

from __future__ import annotations

from typing import Any

import sympy as sp
from headflow.certificates.claims.evaluation import EvaluationError, ball
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.claims.symbolic import REDUCTION_OPERATIONS, exactly_zero
from headflow.checks.claimsfile.exact_dynamics import (
    Undecided,
    ball_of,
    ball_text,
    checked_destination,
    equal,
    in_regime,
    refuted,
)
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict, derived
from headflow.identities import equiangular_quantities as eq
from headflow.identities import equiangular_reduction as er
from headflow.identities.derivation import Derivation

METHOD = (
    "exact: the quantity as a closed function of rho along the equiangular reduction "
    "(equiangular_quantities, equiangular_reduction)"
)
PROPERTIES = ("tends-to", "non-negative", "at-least", "at-most", "stays-non-negative")
#: Equally spaced rationals of the visited set tried for a violation, and halvings towards its open end.
SPACING, HALVINGS = 16, 24
#: Precisions (bits) a margin at rho0 or at the limit is retried at, when 128 bits do not separate it from 0.
PRECISIONS = (512, 2048)


def applies(claim: DynamicsClaim) -> bool:
    """The reduction's regime with beta > 0 (the destination needs it), a closed-form quantity and a property here
    (the gaps' limits are `exact_dynamics`'s)."""
    options = claim.options
    gap_limit = claim.quantity in ("cluster_gap", "first_pair_gap") and claim.property == "tends-to"
    return (
        claim.quantity in eq.QUANTITIES
        and claim.property in PROPERTIES
        and not gap_limit
        and options.get("mask") is None
        and not isinstance(options["n"], sp.Symbol)
        and stated(options["beta"]) > 0
        and in_regime(claim)
    )


def decide_on_reduction(claim: DynamicsClaim, ctx: Context) -> Outcome | None:
    """PROVED, REFUTED or INCONCLUSIVE (undecided, with why) on the reduction; None outside its regime."""
    if not applies(claim):
        return None
    options = claim.options
    start = _rational(options["rho"])
    strengths = [_rational(value) for value in options["lambdas"]]
    at = {er.n: options["n"], er.beta: _rational(options["beta"])}
    derivation = Derivation()
    details: dict[str, Any] = {"rho0": str(start)}
    pull = er.reduced_pull(derivation, options["attention"], strengths).subs(at)
    eq.check_counting(derivation)
    closed_forms = [q.subs(at) for q in eq.values(options["attention"], claim.quantity, strengths)]
    head = options.get("head")
    heads = list(range(len(closed_forms))) if head is None or len(closed_forms) == 1 else [head]
    derivation.note(
        f"{claim.quantity} at the equiangular state of correlation rho, the same at every token: "
        + "; ".join(f"head {h}: {closed_forms[h]}" for h in heads)
    )
    details["closed_forms"] = [str(closed_forms[h]) for h in heads]
    try:
        limit = 1 - checked_destination(derivation, pull, start, options["n"], details)
        details["rho_limit"] = str(limit)
        if claim.property == "tends-to":
            return _limit(claim, derivation, [closed_forms[h] for h in heads], limit, ctx, details)
        return _along(claim, derivation, {h: _margin(claim, closed_forms[h]) for h in heads}, start, limit, details)
    except Undecided as why:
        return Outcome(Verdict.INCONCLUSIVE, METHOD, notes=f"the exact route did not decide: {why}", details=details)


def _limit(
    claim: DynamicsClaim,
    derivation: Derivation,
    forms: list[sp.Expr],
    limit: sp.Expr,
    ctx: Context,
    details: dict[str, Any],
) -> Outcome:
    assert claim.target is not None
    derivation.note(
        f"each closed form is continuous on [-1/(n - 1), 1] and rho(t) -> {limit}, so the quantity tends to its value "
        f"at rho = {limit}",
        r"Q(\rho(t)) \to Q(\rho_\infty)",
    )
    for head, form in enumerate(forms):  # `head`: its place among the heads the claim is about
        value = form.subs(er.rho, limit)
        if not equal(claim.target, value, ctx):
            reading = f"{claim.quantity} tends to {value} exactly (rho -> {limit}), not to the claimed {claim.target}"
            return refuted(
                derivation,
                details,
                "ball",
                reading,
                exact_limit=str(value),
                claimed_limit=str(claim.target),
                head=head,
                difference=ball_text(claim.target - value),
            )
        derivation.holds(f"the claimed limit {claim.target} equals {value} (exact algebra)", True)
    return derived(derivation, METHOD, details)


def _margin(claim: DynamicsClaim, form: sp.Expr) -> sp.Expr:
    """What must stay >= 0: Q, Q - bound or bound - Q."""
    if claim.property == "at-least":
        return form - claim.target
    if claim.property == "at-most":
        return claim.target - form
    return form


def _along(
    claim: DynamicsClaim,
    derivation: Derivation,
    margins: dict[int, sp.Expr],
    start: sp.Rational,
    limit: sp.Expr,
    details: dict[str, Any],
) -> Outcome | None:
    """The pointwise properties on the visited set (see the module docstring)."""
    at_start = {h: _signed_ball(m.subs(er.rho, start)) for h, m in margins.items()}
    details["margins_at_rho0"] = {str(h): v.str(15, radius=True) for h, v in at_start.items()}
    if claim.property == "stays-non-negative":
        failing = [h for h, value in at_start.items() if value < 0]
        if failing:
            details["head"] = list(at_start).index(failing[0])
            derivation.holds(
                f"at t = 0 (rho0 = {start}) the margin of head {failing[0]} is {at_start[failing[0]].str(15)} < 0 "
                "(balls): the family's one start (up to rotation, which the dynamics commutes with) does not satisfy "
                "the hypothesis, so the statement holds for it vacuously",
                True,
            )
            return derived(derivation, METHOD, details)
        for h, value in at_start.items():
            if not value > 0 and not _zero(margins[h].subs(er.rho, start)):
                raise Undecided(f"the sign of head {h}'s margin at t = 0 ({value.str(15)}) is not settled")
        derivation.holds("every margin is >= 0 at t = 0 (balls, or exactly 0): the hypothesis holds", True)
    if limit == start:  # an equilibrium: the trajectory is its start
        if all(value > 0 for value in at_start.values()):
            derivation.holds(f"rho0 = {start} is an equilibrium and every margin there is > 0 (balls)", True)
            return derived(derivation, METHOD, details)
        raise Undecided("an equilibrium start whose margins balls do not show positive")
    for h, margin in margins.items():  # the margin's limit: negative there, it is negative for all large t
        value = _signed_ball(margin.subs(er.rho, limit))
        if value < 0:
            reading = (
                f"rho(t) -> {limit}, and head {h}'s margin, continuous in rho, tends to {value.str(15, radius=True)} "
                "< 0 there: it is negative for every large t"
            )
            return refuted(derivation, details, "ball", reading, rho_limit=str(limit), head=h, margin_limit=str(value))
    for rho in _visited(start, limit):
        for h, margin in margins.items():
            value = ball_of(margin.subs(er.rho, rho))
            if value < 0:
                reading = (
                    f"rho(t) moves continuously and monotonically from rho0 = {start} towards {limit}, so it equals "
                    f"rho = {rho} at some t >= 0; there the margin of head {h} is {value.str(15, radius=True)} < 0"
                )
                return refuted(
                    derivation, details, "ball", reading, rho=str(rho), head=h, margin=value.str(20, radius=True)
                )
    raise Undecided(f"no visited correlation (of {SPACING + HALVINGS} tried) where balls show a margin < 0")


def _visited(start: sp.Rational, limit: sp.Expr) -> list[sp.Rational]:
    """Rationals of the visited set [start, limit) (or (limit, start]): start, equally spaced ones, then ever closer
    to the open end."""
    end = sp.Rational(limit)
    points = [start + (end - start) * sp.Rational(k, SPACING) for k in range(SPACING)]
    return points + [end - (end - start) / 2**j for j in range(6, 6 + HALVINGS)]


def _signed_ball(value: sp.Expr) -> Any:
    """The ball of `value` at the first precision where it excludes 0 (the last one tried otherwise)."""
    found = ball_of(value)
    for bits in PRECISIONS:
        if found > 0 or found < 0:
            break
        try:
            found = ball(value, {}, bits)
        except EvaluationError as exc:
            raise Undecided(f"{value} has no ball: {exc}") from None
    return found


def _zero(value: sp.Expr) -> bool:
    zero, _ = exactly_zero(value, REDUCTION_OPERATIONS["quick"])
    return bool(zero)


def _rational(value: Any) -> sp.Rational:
    exact = stated(value)
    return sp.Rational(exact.numerator, exact.denominator)
