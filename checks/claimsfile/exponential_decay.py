"""Deciding `decays-exponentially`: some r > r0 (the file's `rate`) and C have cluster_gap(t) <= C e^(-r t), t >= 0.

In the equiangular scalar-head regime (`headflow.identities.equiangular_reduction`) eps = 1 - rho obeys
d eps/dt = -eps g(eps) with g(eps) = (n - (n - 1) eps) S(1 - eps), decided exactly with the rate and the constant:

- eps does not tend to 0 (S(rho0) <= 0, `destination`): REFUTED, no rate holds;
- eps -> 0 with the exact rate r* = g(0) = n S(1) <= r0: REFUTED, since eps(t) e^(r t) = exp((r - r*) t + o(t)) is
  unbounded for every r > r*, and r > r0 >= r*;
- eps -> 0 and r* > r0 (balls): PROVED with r and C shown. S is increasing and S(rho0) > 0, so on (0, eps0] both
  factors of g are positive and decreasing in eps: g(eps) >= g(eps1) while eps <= eps1. With eps1 <= eps0 a rational
  at which balls show g(eps1) > (r0 + r*)/2 (halving from eps0), r a rational in ((r0 + r*)/2, g(eps1)] and
  T = ln(eps0/eps1)/g(eps0): eps <= eps0 e^(-g(eps0) t) reaches eps1 by T, and then eps(t) <= eps1 e^(-r (t - T)),
  so eps(t) <= C e^(-r t) with C = eps0 e^(r T) for every t >= 0 (Gronwall); C is shown as a rational above it.

Elsewhere: a stationary start of the family (velocity exactly 0, gap > 0) REFUTES the claim
(`checks.claimsfile.stationary_starts`); otherwise the late rate is fitted on the family's starts with its error
(`checks.evidence.clustering_rates.late_exponent`) and C as the largest eps(t) e^(r t) on the recorded trajectory: at
most CONFIRMED, the fitted r and C in the evidence.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import sympy as sp
from headflow.certificates.claims.evaluation import EvaluationError, ball
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.claims.symbolic import REDUCTION_OPERATIONS, exactly_zero
from headflow.certificates.errors import InputError
from headflow.certificates.families import TOKEN_FAMILIES
from headflow.certificates.kernel.exact import exact_value, precision
from headflow.checks.claimsfile.dynamics_starts import configuration
from headflow.checks.evidence.clustering_rates import LATE_ATOL, LATE_RECORDS, LATE_RTOL, late_exponent
from headflow.checks.evidence.sampling import configuration_record
from headflow.checks.integrator import IntegrationFailure, integrate
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict, derived
from headflow.identities import equiangular_reduction as er
from headflow.identities.derivation import Derivation

METHOD = "exact: the equiangular reduction d eps/dt = -eps g(eps), g(eps) = (n - (n-1) eps) S(1 - eps), Gronwall"
FIT = "fitted late rate of the cluster gap (with its error) and C = max eps(t) e^(r t) on the trajectory"
PRECISION = 128
#: Halvings of eps1 from eps0 before the exact route gives up.
HALVINGS = 200
#: Starts whose late rate is fitted, for a family that is not one configuration up to rotation.
FITTED_STARTS = {"quick": 4, "thorough": 12}
#: C is shown rounded up to a multiple of 1/ROUNDING.
ROUNDING = 100


def applies_exactly(claim: DynamicsClaim) -> bool:
    options = claim.options
    return (
        claim.quantity == "cluster_gap"
        and options["tokens"] == "equiangular"
        and options["heads"] == "scalar"
        and options["geometry"] == "sphere"
        and "interaction" not in options  # the reduction's weights are exp(beta s)
        and options.get("mask") is None  # unmasked, W_h = M_h, beta > 0: the equiangular reduction's regime
        and options.get("values", "aligned") == "aligned"
        and (not isinstance(options["beta"], int | float) or options["beta"] > 0)
    )


class _Undecided(Exception):
    """The exact route cannot decide the claim (the message says why)."""


def _ball(expr: sp.Expr) -> Any:
    try:
        return ball(expr, {}, PRECISION)
    except EvaluationError as exc:
        raise _Undecided(f"{expr} has no ball: {exc}") from None


def _rational(value: Any) -> sp.Rational:
    exact = stated(value)
    return sp.Rational(exact.numerator, exact.denominator)


def decide_exactly(claim: DynamicsClaim) -> Outcome:
    """PROVED with r and C, REFUTED with the exact rate or limit, or INCONCLUSIVE with why (see the docstring)."""
    options = claim.options
    n, start = options["n"], _rational(options["rho"])
    derivation = Derivation()
    derivation.note(
        "'decays exponentially faster than r0' means: there are r > r0 and C with eps(t) <= C exp(-r t) for every "
        "t >= 0 (eps = cluster_gap = 1 - rho on the equiangular trajectory)"
    )
    pull = er.reduced_pull(derivation, options["attention"], [_rational(v) for v in options["lambdas"]])
    pull = pull.subs({er.n: n, er.beta: _rational(options["beta"])})
    details: dict[str, Any] = {"rho0": str(start), "pull": str(pull)}
    try:
        limit = er.destination(derivation, pull, start, n)
        if derivation.failures or limit is None:
            raise _Undecided("the derivation did not close: " + "; ".join(derivation.failures))
        s0 = _ball(pull.subs(er.rho, start))
        if (limit == 0) != bool(s0 > 0):
            raise _Undecided(f"the ball {s0.str(10, radius=True)} of S(rho0) does not confirm the sign SymPy used")
        if limit != 0:
            witness = {"verified_by": "ball", "limit": str(limit), "reading": f"eps(t) -> {limit} != 0: no rate holds"}
            steps = [step.text for step in derivation.steps]
            return Outcome(Verdict.REFUTED, METHOD, witness=witness, details=details | {"derivation": steps})
        rate = er.late_rate(derivation, er.on_side(pull, positive=True), n)
        if derivation.failures:
            raise _Undecided("the derivation did not close: " + "; ".join(derivation.failures))
        details["exact_rate"] = str(rate)
        return _against_rate(claim, derivation, pull, start, n, rate, details)
    except _Undecided as why:
        return Outcome(Verdict.INCONCLUSIVE, METHOD, notes=f"the exact route did not decide: {why}", details=details)


def _against_rate(
    claim: DynamicsClaim,
    derivation: Derivation,
    pull: sp.Expr,
    start: sp.Rational,
    n: int,
    rate: sp.Expr,
    details: dict[str, Any],
) -> Outcome:
    """The exact rate r* against r0: REFUTED when r* <= r0, else PROVED with r and C."""
    assert claim.target is not None
    r0 = claim.target
    difference = _ball(rate - r0)
    equal = False
    if not (difference > 0 or difference < 0):
        equal, left = exactly_zero(rate - r0, REDUCTION_OPERATIONS["quick"])
        if not equal:
            raise _Undecided(f"r* - r0 = {rate - r0} is neither separated from 0 by balls nor exactly 0 ({left})")
    if equal or difference < 0:
        reading = (
            f"the exact rate is r* = n S(1) = {rate} {'=' if equal else '<'} r0 = {r0}: eps(t) e^(r t) = "
            "exp((r - r*) t + o(t)) is unbounded for every r > r*, so no r > r0 has a constant C"
        )
        witness = {"verified_by": "exact" if equal else "ball", "exact_rate": str(rate), "reading": reading}
        steps = [step.text for step in derivation.steps]
        return Outcome(Verdict.REFUTED, METHOD, witness=witness, details=details | {"derivation": steps})
    eps0 = 1 - start
    wanted = (r0 + rate) / 2  # r is shown at least halfway from r0 to r*

    def g(eps: sp.Expr) -> Any:
        return _ball((n - (n - 1) * eps) * pull.subs(er.rho, 1 - eps) - wanted)

    eps1 = eps0
    for _ in range(HALVINGS):
        if g(eps1) > 0:
            break
        eps1 = eps1 / 2
    else:
        raise _Undecided(f"no eps1 >= {eps1} with g(eps1) > r0 shown by balls")
    with precision(PRECISION):  # ball arithmetic outside `ball` runs at the context's precision
        r = _rational_between(_ball(wanted), g(eps1) + _ball(wanted))
        g0 = _ball((n - (n - 1) * eps0) * pull.subs(er.rho, start))
        bound = _ball(eps0) * (_ball(sp.Rational(r)) * _ball(eps0 / eps1).log() / g0).exp()
    C = _rational_above(bound)
    derivation.holds(
        f"S(rho0) > 0 and dS/drho > 0 on [rho0, 1] (above), and n - (n - 1) eps > 0 decreases on [0, eps0] "
        f"(eps0 = {eps0} < n/(n - 1)): g(eps) = (n - (n-1) eps) S(1 - eps) is positive and decreasing on (0, eps0] "
        "(g(eps0) > 0 by balls), so eps decreases and g(eps(t)) >= g(eps1) once eps(t) <= eps1",
        bool(g0 > 0),
    )
    derivation.holds(
        f"eps1 = {eps1}: g(eps1) > (r0 + r*)/2 = {wanted} > r0 = {r0} (balls); r = {r} lies in (r0, g(eps1)]",
        bool(_ball(sp.Rational(r) - r0) > 0),
    )
    derivation.note(
        "Gronwall: eps(t) <= eps0 e^(-g(eps0) t) reaches eps1 by T = ln(eps0/eps1)/g(eps0); after that "
        "eps(t) <= eps1 e^(-r (t - T)); so eps(t) <= eps0 e^(r T) e^(-r t) for all t >= 0",
        r"\varepsilon(t) \le C e^{-r t}",
    )
    derivation.holds(f"C = {C} >= eps0 e^(r T) (balls: {bound.str(10, radius=True)})", True)
    details |= {"r": str(r), "C": str(C), "eps1": str(eps1)}
    outcome = derived(derivation, METHOD, details)
    outcome.notes = f"r = {r} > {r0} and C = {C}: cluster_gap(t) <= C e^(-r t) for all t >= 0 (exact rate r* = {rate})"
    return outcome


def _rational_between(low: Any, high: Any) -> Fraction:
    """A short rational strictly above the ball `low` and not above the ball `high` (balls: low < high)."""
    lo, hi = exact_value(low.upper()), exact_value(high.lower())
    if not lo < hi:
        raise _Undecided("the balls of r0 and g(eps1) overlap")
    for denominator in (1, 2, 4, 10, 100, 1000, 10**6):
        candidate = Fraction(math.floor(hi * denominator), denominator)
        if lo < candidate <= hi:
            return candidate
    return (lo + hi) / 2


def _rational_above(value: Any) -> Fraction:
    """A short rational at or above every point of the ball `value`."""
    top = exact_value(value.upper())
    return Fraction(math.ceil(top * ROUNDING), ROUNDING)


def decide_by_fit(claim: DynamicsClaim, ctx: Context) -> Outcome:
    """CONFIRMED when every start's fitted late rate exceeds r0 beyond its error (some start, for `exists`), with r
    and C in the evidence; INCONCLUSIVE otherwise (a float fit refutes nothing)."""
    assert claim.target is not None
    r0 = float(_ball(claim.target).mid())
    options = claim.options
    one_orbit = TOKEN_FAMILIES[options["tokens"]].fixed and options["heads"] == "scalar"
    count = 1 if one_orbit else FITTED_STARTS[ctx.profile]
    starts = []
    for k in range(count):
        ctx.check_budget()
        cfg = configuration(options, ctx.rng(f"decay-{k}"))
        starts.append(_fitted_start(cfg, r0))
    held = [s for s in starts if s["status"] == "holds"]
    errors = [s["error"] for s in starts if "error" in s]
    details = {"starts": starts, "r0": r0}
    enough = held if claim.exists else (held if len(held) == len(starts) else [])
    if enough:
        first = enough[0]
        notes = (
            f"{len(held)} of {len(starts)} starts fit a late rate above r0 = {r0:g}; first: r = {first['r']:.6g} "
            f"(fitted {first['fitted']:.6g} +- {first['error']:.2g}), C = {first['C']:.6g}: floats, not a proof"
        )
        return Outcome(Verdict.CONFIRMED, FIT, cases=len(starts), tolerance=max(errors), notes=notes, details=details)
    bad = next(s for s in starts if s["status"] != "holds")
    notes = f"a start {bad['reason']}: floats neither confirm nor refute the claim"
    return Outcome(Verdict.INCONCLUSIVE, FIT, notes=notes, details=details)


def _fitted_start(cfg: Any, r0: float) -> dict[str, Any]:
    """One start: the fitted rate with its error, r = fitted - error, C = max eps(t) e^(r t) on [0, end]."""
    record: dict[str, Any] = {"configuration": configuration_record(cfg)}
    try:
        fitted = late_exponent(cfg)
    except (IntegrationFailure, InputError) as exc:
        return record | {"status": "undecided", "reason": f"could not be integrated ({exc})"}
    if fitted is None:
        return record | {"status": "undecided", "reason": "did not fall through the late window"}
    estimate = fitted[0]
    record |= {"fitted": estimate.value, "error": estimate.error}
    r = estimate.value - estimate.error
    if r <= r0:
        return record | {"status": "fails", "reason": f"fits a late rate {estimate.value:.6g} +- {estimate.error:.2g}"}
    end = float(np.log(1e5)) / r
    grid = np.linspace(0.0, end, LATE_RECORDS)
    try:
        traj = integrate(
            cfg, end, rtol=LATE_RTOL, atol=LATE_ATOL, record_times=grid, observables=("cluster_gap",), backend="numpy"
        )
    except (IntegrationFailure, InputError) as exc:
        return record | {"status": "undecided", "reason": f"could not be integrated for C ({exc})"}
    eps = traj.observables["cluster_gap"]
    C = float(np.max(eps * np.exp(r * traj.times)))
    return record | {"status": "holds", "r": r, "C": C}
