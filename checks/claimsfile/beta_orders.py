"""Deciding `grows-like`: an order in beta of a trajectory observable from the family's start, as beta -> oo.

The claim `property = "grows-like"`, `order = "Theta(g)"` (or O, Omega, o, ~ g; the asymptotic kind's grammar, g a
formula of beta) states Q(beta) = Theta(g(beta)) as beta -> oo, Q a number per trajectory (a merge time, a clustering
time) or a scalar read at t = `time` (the number of clusters at a radius), the family's start the same at every
beta; `of = "log"` states it of log Q (metastability: the log of a late merge time grows like beta).

Exactly on the equiangular reduction (softmax, one scalar head lambda I, the sphere, no mask, no interaction, values
aligned): every merge happens when rho reaches rho1 (merge_time at radius r: the merge height sqrt(2 - 2 rho) <= r,
rho1 = 1 - r^2/2; clustering_time at a level: 1 - rho <= level), and the time from rho0 (the claim's `rho`) is
squeezed by `identities.reduced_clustering.softmax_time_from`:

    exp(beta lambda (1 - rho1)) DA <= T(beta) <= n exp(beta lambda (1 - rho0)) DA,   DA = A(rho1) - A(rho0) > 0.

For Q = T the two sides are compared with g by `identities.growth.compare` (checked limits, through logarithms),
DA a positive constant; for log T the bracket is beta lambda (1 - rho1) + log DA <= log T <= beta lambda (1 - rho0) +
log(n DA), decided by `identities.asymptotic_orders.decide` (the asymptotic kind's rules). So log T = Theta(beta) is
PROVED and T = Theta(beta) REFUTED (T/beta -> oo) there; a start already merged (rho0 >= rho1) has T = 0 at every beta.

Elsewhere the float route (`dynamics_starts`): Q at beta_j = beta0 2^j, j < POINTS, from one start of the
family, and the exponent e of Q/g ~ beta^e fitted (`exponent`) with its error: STANDARD_ERRORS standard errors, the
change of e between the grid's halves (the grid is not yet asymptotic) and the integrator's tolerance. A start holds
when e = 0 lies within the error (Theta), e <= error (O), e >= -error (Omega), and is undecided when the error
exceeds MAX_ERROR (the grid does not pin the exponent); `o` and `~` (a constant) are not settled by floats. Floats
give at most CONFIRMED, never a refutation: a failing fit is INCONCLUSIVE with its candidate exponent.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp
from headflow.certificates.claims.evaluation import EvaluationError, ball
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import BETA, DynamicsClaim
from headflow.certificates.provers.reduced_time import certify_grows_like
from headflow.certificates.statements.reduced_time import in_reduction, target
from headflow.certificates.store import certificate_directory
from headflow.checks.claimsfile.asymptotic_quantities import Unsupported, plain
from headflow.checks.claimsfile.rate_shapes import separated
from headflow.checks.evidence.fits import STANDARD_ERRORS, Estimate, least_squares
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict
from headflow.identities import asymptotic_orders as ao
from headflow.identities import growth, signs
from headflow.identities import reduced_clustering as rc
from headflow.identities.derivation import Derivation

PROPERTY = "grows-like"
METHOD = (
    "exact: the equiangular softmax reduction's bracket of the time (identities.reduced_clustering), compared with "
    "the stated order by checked limits"
)
#: How a refutation reads when Q/g -> oo (the form a `reduced-time` certificate states: h -> +oo).
FASTER = "/g -> oo"
#: Working precision (bits) of the balls: the sign of DA, g at the grid's betas.
PRECISION = 128
#: The float route's grid: beta0 * RATIO^j for j < POINTS (per profile); halves of at least 3 points each.
RATIO = 2.0
POINTS = {"quick": 6, "thorough": 8}
#: Starts of a random family the float route measures (each one a whole grid of runs), unless `samples` says.
STARTS = {"quick": 3, "thorough": 10}
#: The relative error of one measured value (the first time's location, the integration): its share of the error.
VALUE_TOLERANCE = 1e-6
#: The largest error of a fitted exponent that pins it: a wider one (the grid is not yet asymptotic: the merge times
#: of two groups on the circle drift by 0.7 between the grid's halves) leaves the start undecided, not CONFIRMED.
MAX_ERROR = 0.35
#: The relations floats can support, and what a fitted exponent e +- error must satisfy for each.
FLOAT_RULES = {
    "Theta": lambda e: abs(e.value) <= e.error,
    "O": lambda e: e.value <= e.error,
    "Omega": lambda e: e.value >= -e.error,
}


def grid(beta0: float, profile: str) -> list[float]:
    """The betas the float route measures at: beta0 * RATIO^j, j < POINTS[profile]."""
    return [beta0 * RATIO**j for j in range(POINTS.get(profile, POINTS["quick"]))]


# ---------------------------------------------------------------- the exact route


def _rational(value: float) -> sp.Rational:
    exact = stated(value)
    return sp.Rational(exact.numerator, exact.denominator)


def decide_exactly(claim: DynamicsClaim, ctx: Context) -> Outcome | None:
    """PROVED, REFUTED or INCONCLUSIVE on the equiangular reduction (module docstring); None outside its regime."""
    if claim.property != PROPERTY or not in_reduction(claim):
        return None
    o = claim.options
    n, lam, rho0 = sp.Integer(o["n"]), _rational(o["lambdas"][0]), _rational(o["rho"])
    reach = sp.Rational(target(claim).numerator, target(claim).denominator)
    if claim.quantity == "merge_time":
        why = f"the merge height sqrt(2 - 2 rho) <= {o['radius']:g} once rho >= {reach} (every k: one height)"
    else:
        why = f"the cluster gap 1 - rho <= {o['level']:g} once rho >= {reach}"
    details: dict[str, Any] = {"route": "equiangular reduction", "reaches": why, "rho0": str(rho0)}
    relation, log = o["order"], o["of"] == "log"
    if rho0 >= reach:
        return _merged_at_start(claim, relation, log, details)
    derivation = Derivation()
    low_factor, high_factor, gained = rc.softmax_time_from(derivation, rho0)
    values = {rc.n: n, rc.lam: lam, rc.rho1: reach, rc.beta: BETA}
    constant = gained.xreplace(values)
    try:
        enclosure = ball(constant, {}, PRECISION)
    except EvaluationError as exc:
        return Outcome(Verdict.INCONCLUSIVE, METHOD, notes=f"A(rho1) - A(rho0) = {constant}: {exc}", details=details)
    if not enclosure > 0:
        return Outcome(Verdict.INCONCLUSIVE, METHOD, notes=f"{constant} is not separated from 0", details=details)
    derivation.holds(f"DA = A({reach}) - A({rho0}) = {constant} > 0 (a ball: {enclosure.str(12)})", True)
    c = sp.Symbol("DA", positive=True)
    lower, upper = (factor.xreplace(values) * c for factor in (low_factor, high_factor))
    facts = signs.facts(positive=[BETA, c])
    try:
        g = plain(claim.target)
    except Unsupported as exc:
        return Outcome(Verdict.INCONCLUSIVE, METHOD, notes=f"the order's function: {exc}", details=details)
    details["bracket"] = f"{lower} <= T <= {upper} for beta > 0, DA = {constant}"
    if log:
        found = _log_decision(derivation, lower, upper, relation, g, facts)
    else:
        found = _time_decision(derivation, lower, upper, relation, g, facts)
    status, reason, by = found
    details["reason"] = reason
    steps = [step.text for step in derivation.steps]
    if derivation.failures or status == "undecided":
        why_not = reason if status == "undecided" else "; ".join(derivation.failures)
        return Outcome(
            Verdict.INCONCLUSIVE, METHOD, notes=f"the exact route did not decide: {why_not}", details=details
        )
    # the certificate's forms (`statements.reduced_time.grows_like`): log T = Theta(beta), or Q/g -> oo
    stated = (log and relation == "Theta") if status == "proved" else FASTER in reason
    path = certify_grows_like(claim, status == "proved", certificate_directory(ctx.certificate_dir)) if stated else None
    if status == "proved":
        proved = Outcome(Verdict.PROVED, METHOD, steps=list(derivation.steps), notes=reason, details=details)
        return proved.with_certificate(path)
    witness = {"verified_by": by, "reading": reason, "bracket": details["bracket"]}
    refuted = Outcome(Verdict.REFUTED, METHOD, witness=witness, notes=reason, details=details | {"derivation": steps})
    return refuted.with_certificate(path)


def _merged_at_start(claim: DynamicsClaim, relation: str, log: bool, details: dict[str, Any]) -> Outcome:
    """rho0 >= rho1 (exact rationals): the time is 0 at every beta. O and o of a g > 0 hold; Theta, Omega and ~ do
    not (T/g = 0); log T is not defined, so no order of it holds."""
    reading = f"rho0 = {details['rho0']} already reaches it ({details['reaches']}): the time is 0 at every beta"
    if log:
        reading += ", and log 0 is not defined: log T has no order"
    elif relation in ("O", "o"):
        derivation = Derivation()
        derivation.holds(f"rho0 = {details['rho0']} >= rho1 (exact rationals): T = 0 for every beta", True)
        derivation.note(f"0 <= c g for every c > 0 and g > 0: T = 0 is {relation}(g)")
        notes = reading + f": T = 0 is {relation}(g)"
        return Outcome(Verdict.PROVED, METHOD, steps=list(derivation.steps), notes=notes, details=details)
    else:
        reading += f": T/g = 0 for every beta, so T is not {relation} g"
    witness = {"verified_by": "exact", "reading": reading}
    return Outcome(Verdict.REFUTED, METHOD, witness=witness, notes=reading, details=details)


def _time_decision(
    derivation: Derivation, lower: sp.Expr, upper: sp.Expr, relation: str, g: sp.Expr, facts: signs.Facts
) -> tuple[str, str, str]:
    """(status, reason, verified by) of T relation g from lim lower/g and lim upper/g (`growth.compare`)."""
    low = growth.compare(lower, g, BETA, facts, derivation, separated)
    high = growth.compare(upper, g, BETA, facts, derivation, separated)
    by = "ball" if "ball" in (low.by, high.by) else "exact"
    status, reason = _by_limits(relation, low.status, high.status, "T")
    return status, f"lower/g: {low.reason}; upper/g: {high.reason}: {reason}", by


def _by_limits(relation: str, low: str, high: str, name: str) -> tuple[str, str]:
    """(status, reason) of `name relation g` from how lower/g and upper/g of a bracket of it behave (`growth`'s
    FINITE, ZERO, INFINITE, ...): lower/g -> a > 0 or oo gives name >= c g (c > 0) for large beta, upper/g finite
    or -> 0 gives name <= C g; lower/g -> oo gives name/g -> oo, upper/g -> 0 gives name/g -> 0."""
    above, faster = low in (growth.FINITE, growth.INFINITE), low == growth.INFINITE
    below, slower = high in (growth.FINITE, growth.ZERO), high == growth.ZERO
    proved = {"Theta": above and below and not faster and not slower, "O": below, "Omega": above, "o": slower}
    refuted = {"Theta": faster or slower, "O": faster, "Omega": slower, "o": above, "~": faster or slower}
    if proved.get(relation, False):
        return "proved", f"{name} = {relation}(g)"
    if refuted[relation]:
        side = f"{name}{FASTER}" if faster else f"{name}/g -> 0" if slower else f"{name} >= c g, c > 0"
        return "refuted", f"{side}, so {name} is not {relation}(g)"
    return "undecided", f"these limits do not settle {name} = {relation}(g)"


def _log_decision(
    derivation: Derivation, lower: sp.Expr, upper: sp.Expr, relation: str, g: sp.Expr, facts: signs.Facts
) -> tuple[str, str, str]:
    """(status, reason, verified by) of log T relation g. log is increasing, so log lower <= log T <= log upper,
    each a sum (`growth.log_of`) linear in beta: the asymptotic kind's rules (`asymptotic_orders.decide`) prove
    log T = Theta(beta) on that bracket (and decide `~ g` on it directly); then log T/g behaves as beta/g
    (`growth.compare`), which decides the other relations."""
    low, high = growth.log_of(lower, facts), growth.log_of(upper, facts)
    if low is None or high is None:
        return "undecided", "the bracket's logarithms are not sums of known terms", "exact"
    derivation.note(f"log is increasing: {low} <= log T <= {high} for beta > 0")
    bracket = ao.Bracket("log T", sp.expand(low), sp.expand(high), BETA, facts, derivation)
    linear = relation != "~"
    decision = ao.decide(bracket, "Theta" if linear else "~", BETA if linear else g, lambda expr: None)
    shown = "; ".join(f"{key} = {value}" for key, value in decision.shown.items())
    if not linear or decision.status != "proved":
        return decision.status, f"{decision.reason} ({shown})", "exact"
    found = growth.compare(BETA, g, BETA, facts, derivation, separated)
    status, reason = _by_limits(relation, found.status, found.status, "log T")
    return status, f"log T = Theta(beta) ({shown}) and beta/g: {found.reason}: {reason}", found.by


# ---------------------------------------------------------------- the float route


def exponent(claim: DynamicsClaim, betas: list[float], values: list[float]) -> tuple[Estimate | None, str]:
    """The exponent e of Q/g ~ beta^e (of log Q with `of = "log"`) fitted over the grid, with its error (module
    docstring); (None, why) when a value cannot be fitted (Q <= 0, log Q <= 0, g not positive and finite)."""
    assert claim.target is not None
    measured = np.asarray(values, dtype=float)
    if claim.options["of"] == "log":
        if np.any(measured <= 1.0):
            return None, "log Q is not positive at every beta of the grid (Q <= 1)"
        measured = np.log(measured)
    if np.any(measured <= 0):
        return None, f"{claim.quantity} is not positive at every beta of the grid"
    shape = []
    for beta in betas:
        try:
            shape.append(float(ball(claim.target, {BETA: sp.Rational(beta)}, PRECISION).mid()))
        except EvaluationError:
            return None, f"g = {claim.target} has no value at beta = {beta:g}"
    if not all(np.isfinite(shape)) or min(shape) <= 0:
        return None, f"g = {claim.target} is not positive and finite at every beta of the grid"
    x, y = np.log(betas), np.log(measured) - np.log(shape)
    design = np.column_stack([np.ones_like(x), x])
    half = len(x) // 2
    fit, first, second = (
        least_squares(design[part], y[part]) for part in (slice(None), slice(0, half), slice(half, None))
    )
    relative = VALUE_TOLERANCE / float(np.min(measured)) if claim.options["of"] == "log" else VALUE_TOLERANCE
    parts = {
        "fit": STANDARD_ERRORS * float(fit.standard_errors[1]),
        "grid_drift": abs(float(first.coefficients[1] - second.coefficients[1])),
        "integrator": 2.0 * relative / float(np.ptp(x)),
    }
    return Estimate(float(fit.coefficients[1]), sum(parts.values()), parts), ""


def judge(relation: str, estimate: Estimate) -> tuple[str, str]:
    """("holds" | "fails" | "undecided", why) of the fitted exponent for the claim's relation."""
    rule = FLOAT_RULES.get(relation)
    if rule is None:
        return "undecided", f"floats do not settle {relation} (a limit or a constant): only Theta, O and Omega"
    if estimate.error > MAX_ERROR:
        return "undecided", (
            f"the grid does not pin the exponent of Q/g in beta: {estimate.value:.4g} +- {estimate.error:.3g} "
            f"(> {MAX_ERROR:g}; drift between the grid's halves {estimate.parts['grid_drift']:.3g}): not yet "
            "asymptotic, start at a larger beta"
        )
    return ("holds" if rule(estimate) else "fails"), ""
