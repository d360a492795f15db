"""Deciding `decays-like`: quantity(t) -> 0 and quantity(t)/like(t) -> C with 0 < C < oo as t -> oo, for a stated
shape like(t) (an expression of t: powers, exponentials, logarithms, products).

Exactly, on a reduction that proves the quantity's asymptotic form q(t) ~ C f(t) with an unknown C > 0 (Post-LN's
equiangular eps ~ C e^(-r* t), `exact_dynamics`; nGPT's eps ~ C e^(-(r*/V*) t) and Pre-LN's, Peri-LN's, Mix-LN's
eps ~ C t^(-p), `scheme_reduction`; two clusters, `cluster_route`): q/like = (q/f)(f/like) and q/f -> C, so only
lim f/like matters, computed by `identities.growth.compare` on the checked limits of `identities.limits`:

- lim f/like = a > 0 (proved; a number separated from 0 by a ball): PROVED, q/like -> C a;
- lim f/like = 0: REFUTED (q decays faster than like: q/like -> 0); |f/like| -> oo: REFUTED (q decays slower);
  lim f/like = a < 0: REFUTED (q/like -> C a < 0);
- a quantity that does not tend to 0 (lim eps != 0) decays like nothing: REFUTED;
- anything the checked limits do not settle: INCONCLUSIVE, with the reason.

Elsewhere the float route (`like_start`): log q(t) = a + b log like(t) fitted over the second half of the records,
with its error (STANDARD_ERRORS standard errors of the fit, the change of b between the window's halves, which the
horizon's doublings must bring under MAX_DRIFT, and the integrator's tolerances): a start holds when b = 1 lies
within the error. Floats give at most CONFIRMED, never a refutation.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp
from headflow.certificates.claims.evaluation import EvaluationError, ball
from headflow.certificates.claims.schema import TIME, DynamicsClaim
from headflow.checks.claimsfile.asymptotic_quantities import Unsupported, plain
from headflow.checks.evidence.fits import STANDARD_ERRORS, Estimate, least_squares
from headflow.checks.verdicts import Outcome, Verdict, derived
from headflow.identities import growth, signs
from headflow.identities.derivation import Derivation

PROPERTY = "decays-like"
MEANING = (
    "'q decays like f' means: q(t) -> 0 and q(t)/f(t) -> C for a constant C with 0 < C < oo as t -> oo "
    "(q = cluster_gap = 1 - rho on the equiangular trajectory)"
)
#: Working precision (bits) of the balls that sign a limit that is a number, and of the like's values on the route.
PRECISION = 128
#: The facts of the comparisons: t > 0.
FACTS = signs.facts(positive=[TIME])


def separated(value: sp.Expr) -> str | None:
    """ ">0" or "<0" when a ball of the number separates it from 0, else None."""
    try:
        enclosure = ball(value, {}, PRECISION)
    except EvaluationError:
        return None
    return ">0" if enclosure > 0 else "<0" if enclosure < 0 else None


def shaped(
    derivation: Derivation,
    details: dict[str, Any],
    like: sp.Expr,
    shape: sp.Expr,
    method: str,
) -> Outcome:
    """The verdict of `decays-like like` for a quantity proved ~ C shape (C > 0) in `derivation`, the limit of the
    quantity being 0 already shown there (module docstring)."""
    details["asymptotic_form"] = f"C * {shape}"
    if derivation.failures:
        notes = "the derivation did not close: " + "; ".join(derivation.failures)
        return Outcome(Verdict.INCONCLUSIVE, method, notes=notes, details=details)
    try:
        stated = plain(like)
    except Unsupported as exc:
        return Outcome(Verdict.INCONCLUSIVE, method, notes=f"the stated shape {like}: {exc}", details=details)
    found = growth.compare(shape, stated, TIME, FACTS, derivation, separated)
    details["shape_limit"] = found.reason
    if found.status == growth.UNDECIDED or derivation.failures:
        reason = found.reason if found.status == growth.UNDECIDED else "; ".join(derivation.failures)
        return Outcome(Verdict.INCONCLUSIVE, method, notes=f"the exact route did not decide: {reason}", details=details)
    if found.status == growth.FINITE:
        derivation.note(
            f"q/({like}) = (q/({shape})) (({shape})/({like})) -> C * {found.value} in (0, oo), since "
            f"q/({shape}) -> C > 0",
            r"q(t)/f(t) \to C\,a \in (0, \infty)",
        )
        return derived(derivation, method, details)
    reading = {
        growth.ZERO: f"q(t) ~ C {shape} decays faster than {like}: ({shape})/({like}) -> 0, so q/({like}) -> 0",
        growth.INFINITE: (
            f"q(t) ~ C {shape} decays slower than {like}: |({shape})/({like})| -> oo, so q/({like}) is unbounded"
        ),
        growth.NEGATIVE: f"({shape})/({like}) -> {found.value} < 0, so q/({like}) -> C * {found.value} < 0 (q > 0)",
    }[found.status]
    return refuted(derivation, details, method, reading, found.reason, found.by)


def no_decay(derivation: Derivation, details: dict[str, Any], method: str, limit: sp.Expr, by: str) -> Outcome:
    """REFUTED: the quantity tends to limit != 0 (its sign step verified `by`), so it decays like nothing."""
    return refuted(derivation, details, method, f"q(t) -> {limit} != 0: it does not decay", f"lim q = {limit}", by)


def refuted(derivation: Derivation, details: dict[str, Any], method: str, reading: str, shown: str, by: str) -> Outcome:
    """REFUTED with the derivation's steps (the form and the limits the reading rests on) in the details."""
    steps = [step.text for step in derivation.steps]
    witness = {"verified_by": by, "reading": reading, "limit": shown}
    return Outcome(Verdict.REFUTED, method, witness=witness, details=details | {"derivation": steps})


# ---------------------------------------------------------------- the float route


#: The largest change of the fitted exponent b between the window's halves (relative to b) that counts as asymptotic.
MAX_DRIFT = 1e-3


def like_values(claim: DynamicsClaim, times: np.ndarray) -> np.ndarray | None:
    """like(t) at the record times (balls at the exact rationals of the float times, their midpoints); None when
    the like has no finite value at one of them."""
    assert claim.target is not None
    values = []
    for time in times:
        try:
            values.append(float(ball(claim.target, {TIME: sp.Rational(float(time))}, PRECISION).mid()))
        except EvaluationError:
            return None
    return np.array(values)


def exponent(times: np.ndarray, magnitude: np.ndarray, shape: np.ndarray, rtol: float, atol: float) -> Estimate:
    """b of log q = a + b log like over the window, with its error: STANDARD_ERRORS standard errors, the change of
    b between the window's halves, and what the integrator's relative error can move it (over the window's span of
    log like)."""
    design = np.column_stack([np.ones_like(times), np.log(shape)])
    fit = least_squares(design, np.log(magnitude))
    half = len(times) // 2
    first = least_squares(design[:half], np.log(magnitude[:half]))
    second = least_squares(design[half:], np.log(magnitude[half:]))
    span = float(np.ptp(np.log(shape))) or np.inf
    parts = {
        "fit": STANDARD_ERRORS * float(fit.standard_errors[1]),
        "window_drift": abs(float(first.coefficients[1] - second.coefficients[1])),
        "integrator": 2.0 * (rtol + atol / float(np.min(magnitude))) / span,
    }
    return Estimate(float(fit.coefficients[1]), sum(parts.values()), parts)
