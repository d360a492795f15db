"""The exact route for the cluster gap of a dynamics claim in the equiangular scalar-head regime.

It applies when the claim's family is exactly the regime of `headflow.identities.equiangular_reduction`:
quantity `cluster_gap`, property `decays-at-rate` or `tends-to`, tokens = "equiangular" (its rho),
heads = "scalar" (its lambdas), geometry = "sphere" (W_h = M_h always). Then eps = 1 - rho obeys the
reduced ODE d eps/dt = F(eps) = -eps (n - (n - 1) eps) S(1 - eps), derived from the model's definitions
for the file's attention kind and heads, and the claim is decided on it with n, beta, the lambdas and
rho as the exact rationals written in the file (`numbers.stated`: 0.2 is 1/5):

- "eps decays at rate r" means eps(t) -> 0 and eps(t) e^{r t} -> C for a constant C > 0, i.e.
  eps(t) ~ C exp(-r t). Whenever eps -> 0, d ln eps/dt = F(eps)/eps -> -r* with the exact rate
  r* = -F'(0) = n S(1), so eps(t) e^{r t} = exp((r - r*) t + o(t)): no r other than r* can hold. A
  claimed rate that differs from r* (ball-verified) is REFUTED with r* as the witness; r = r* is PROVED
  when r* > 0 and eps(t) -> 0 from the file's rho, and REFUTED when r* <= 0 or eps tends elsewhere.
- The limit of eps is exact: S is increasing, so S(rho0) > 0 sends eps to 0, S(rho0) < 0 to n/(n - 1)
  and S(rho0) = 0 keeps eps0 (`equiangular_reduction.destination`). `tends-to` is PROVED when the
  claimed limit equals it exactly, REFUTED when a ball separates them.

Under the causal mask the tokens stop being equiangular, but the first two form a closed system
(`identities.causal_reduction`): a claim on `first_pair_gap` with `mask = "causal"` is decided on the pair's ODE, the
same reduction for n = 2 tokens with the pair's pull S_12 (without the mask the first pair's gap is the cluster gap).

A refutation rests on the same derivation as a proof, and the sign of S(rho0) that picks the limit is
also settled with balls. What the route cannot decide (a SymPy step that does not close, a comparison
neither balls nor SymPy settle) is handed back undecided, with the reason, to the float evidence of
`dynamics_decider`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy as sp
from headflow.certificates.claims.evaluation import EvaluationError, ball
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import TIME, DynamicsClaim
from headflow.certificates.claims.symbolic import REDUCTION_OPERATIONS, exactly_zero
from headflow.certificates.inert import inert
from headflow.checks.claimsfile import rate_shapes
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict, derived
from headflow.identities import causal_reduction as cr
from headflow.identities import equiangular_reduction as er
from headflow.identities.derivation import Derivation

METHOD = "exact: the equiangular reduction d eps/dt = -eps (n - (n-1) eps) S(1 - eps) (equiangular_reduction)"
PROPERTIES = ("decays-at-rate", "tends-to")
#: The quantities the reduced ODE is written in.
GAPS = ("cluster_gap", "first_pair_gap")
#: Working precision (bits) of every ball of this route.
PRECISION = 128

MEANING = {
    "decays-at-rate": (
        "'eps decays at rate r' means: eps(t) -> 0 and eps(t) e^(r t) -> C for a constant C > 0, i.e. "
        "eps(t) ~ C exp(-r t) (eps = cluster_gap = 1 - rho on the equiangular trajectory)"
    ),
    "tends-to": "'eps tends to L' means eps(t) -> L as t -> oo (eps = cluster_gap = 1 - rho)",
    rate_shapes.PROPERTY: rate_shapes.MEANING,
    "initial-rate": (
        "'eps has the initial rate r' means: the right derivative of eps(t) at t = 0 is r (eps = cluster_gap = "
        "1 - rho on the equiangular trajectory)"
    ),
}


def applies(claim: DynamicsClaim) -> bool:
    """Whether the claim's family is exactly the regime of the reduction (and its property one this route decides):
    beta > 0 (the pull S is increasing only then), no mask (`headflow.identities.causal_reduction` says what the causal
    mask leaves of it), W_h = M_h."""
    return claim.property in PROPERTIES and _positive(claim.options["beta"]) and on_gap(claim)


def applies_like(claim: DynamicsClaim) -> bool:
    """`decays-like` of a gap in the reduction's regime with beta > 0 (`rate_shapes`)."""
    return claim.property == rate_shapes.PROPERTY and _positive(claim.options["beta"]) and on_gap(claim)


def on_gap(claim: DynamicsClaim) -> bool:
    """A gap of the reduced ODE (cluster_gap, first_pair_gap) in its regime (`in_regime`)."""
    return claim.quantity in GAPS and in_regime(claim)


def in_regime(claim: DynamicsClaim) -> bool:
    """Whether the claim's family is that of the reduced ODE (for every beta: the ODE is derived for any beta, and
    only the monotonicity of S, which the limits use, needs beta > 0); the causal mask only for first_pair_gap."""
    options = claim.options
    causal_pair = claim.quantity == "first_pair_gap" and options.get("mask") == "causal"
    return (
        (options.get("mask") is None or causal_pair)
        and options.get("values", "aligned") == "aligned"
        and options["tokens"] == "equiangular"
        and options["heads"] == "scalar"
        and options["geometry"] == "sphere"
        and "interaction" not in options  # the reduction's weights are exp(beta s)
    )


def _positive(beta: object) -> bool:
    """beta > 0 at a number; a quantified beta (a symbol) is decided at each point of its domain, and only there."""
    return not isinstance(beta, int | float) or beta > 0


class Undecided(Exception):
    """The exact route cannot decide this claim; the message says why."""


@dataclass
class _Problem:
    """One claim on its reduced ODE: the claimed target, rho0, the pull S(rho), the derivation so far, the
    exact limit of eps, and the report's details."""

    claimed: sp.Expr
    size: int
    start: sp.Rational
    pull: sp.Expr
    derivation: Derivation
    limit: sp.Expr
    ctx: Context
    details: dict[str, Any]


def decide_exactly(claim: DynamicsClaim, ctx: Context) -> Outcome | None:
    """PROVED, REFUTED, or INCONCLUSIVE (undecided, with the reason) on the reduced ODE; None outside the regime."""
    initial = claim.property == "initial-rate" and on_gap(claim)
    if claim.target is None or not (applies(claim) or applies_like(claim) or initial):
        return None
    options = claim.options
    start = _rational(options["rho"])
    derivation = Derivation()
    derivation.note(MEANING[claim.property])
    pull, size = reduction(derivation, claim, [_rational(value) for value in options["lambdas"]])
    pull = pull.subs({er.n: options["n"], er.beta: _rational(options["beta"])})
    details: dict[str, Any] = {"meaning": MEANING[claim.property], "rho0": str(start), "pull": str(pull)}
    if claim.property == "initial-rate":
        return _initial(claim, derivation, initial_rate(derivation, pull, start, size), ctx, details)
    try:
        limit = checked_destination(derivation, pull, start, size, details)
        problem = _Problem(claim.target, size, start, pull, derivation, limit, ctx, details)
        return {"decays-at-rate": _decays, rate_shapes.PROPERTY: _like}.get(claim.property, _tends)(problem)
    except Undecided as undecided:
        notes = f"the exact route did not decide: {undecided}"
        return Outcome(Verdict.INCONCLUSIVE, METHOD, notes=notes, details=details)


def reduction(derivation: Derivation, claim: DynamicsClaim, strengths: list[sp.Expr]) -> tuple[sp.Expr, Any]:
    """The pull S(rho) of the claim's heads (n and beta still er.n, er.beta) and the number of tokens of its ODE: the
    first pair under the causal mask (a closed system of n = 2 tokens), else all n equiangular tokens."""
    options = claim.options
    if options.get("mask") == "causal":  # the first pair: a closed system of n = 2 tokens (causal_reduction)
        derivation.note("eps = first_pair_gap = 1 - <x_1, x_2>; under the causal mask tokens 1 and 2 move alone")
        return cr.pair_pull(derivation, options["attention"], strengths), 2
    # equiangular tokens stay equiangular: first_pair_gap = cluster_gap = 1 - rho
    return er.reduced_pull(derivation, options["attention"], strengths), options["n"]


def initial_rate(derivation: Derivation, pull: sp.Expr, start: sp.Expr, size: Any) -> sp.Expr:
    """d eps/dt at t = 0, F(eps0) = -eps0 (n - (n - 1) eps0) S(rho0) with eps0 = 1 - rho0, as a derivation step: the
    trajectory is the reduced ODE's solution (unique, C^1), so its derivative at t = 0 is the field at the start."""
    value = er.gap_ode(pull, size).subs(er.eps, 1 - start)
    derivation.note(
        f"the gap eps = 1 - rho solves d eps/dt = F(eps) = -eps (n - (n - 1) eps) S(1 - eps); the solution is C^1, "
        f"so at t = 0 (eps0 = 1 - rho0 = {1 - start}) d eps/dt = F(eps0) = {value}",
        r"\dot\varepsilon(0) = F(\varepsilon_0)",
    )
    return value


def _initial(
    claim: DynamicsClaim, derivation: Derivation, exact: sp.Expr, ctx: Context, details: dict[str, Any]
) -> Outcome:
    """`initial-rate`: the claimed d eps/dt at t = 0 against the field of the reduced ODE at the start."""
    assert claim.target is not None
    details["exact_initial_rate"] = str(exact)
    try:
        closed(derivation)
        if not equal(claim.target, exact, ctx):
            return refuted(
                derivation,
                details,
                "ball",
                f"d eps/dt at t = 0 is F(eps0) = {exact} exactly, and the claimed initial rate {claim.target} "
                "differs from it",
                exact_initial_rate=str(exact),
                claimed_initial_rate=str(claim.target),
                difference=ball_text(claim.target - exact),
            )
    except Undecided as undecided:
        return Outcome(
            Verdict.INCONCLUSIVE, METHOD, notes=f"the exact route did not decide: {undecided}", details=details
        )
    derivation.zero(f"the claimed initial rate {claim.target} equals F(eps0) = {exact}", claim.target - inert(exact))
    return derived(derivation, METHOD, details)


def closed(derivation: Derivation) -> None:
    """Undecided when a step of the derivation failed: a refutation rests on the same derivation as a proof."""
    if derivation.failures:
        raise Undecided("the derivation did not close: " + "; ".join(derivation.failures))


def checked_destination(
    derivation: Derivation, pull: sp.Expr, start: sp.Expr, size: Any, details: dict[str, Any]
) -> sp.Expr:
    """lim eps from rho0 = start (`equiangular_reduction.destination`), its derivation closed and the sign of S(rho0)
    that picked it confirmed by a ball; Undecided otherwise."""
    limit = er.destination(derivation, pull, start, size)
    closed(derivation)
    if limit is None:
        raise Undecided("the limit of eps is not derived")
    details["limit"] = str(limit)
    _confirm_start_sign(pull, start, limit, details)
    return limit


def _confirm_start_sign(pull: sp.Expr, start: sp.Expr, limit: sp.Expr, details: dict[str, Any]) -> None:
    """The ball of S(rho0) agrees with the sign SymPy's derivation used to pick the limit (0: positive;
    n/(n - 1): negative; an equilibrium: SymPy showed S(rho0) = 0 exactly)."""
    value = ball_of(pull.subs(er.rho, start))
    details["pull_at_rho0"] = value.str(20, radius=True)
    if limit == 0:
        confirmed = value > 0
    elif limit == 1 - start:
        confirmed = True  # an equilibrium: SymPy reduced S(rho0) to exactly 0
    else:
        confirmed = value < 0
    if not confirmed:
        raise Undecided(f"the ball {value.str(20, radius=True)} of S(rho0) does not confirm the sign SymPy used")


def _decays(problem: _Problem) -> Outcome:
    """`decays-at-rate`: the claimed rate against the exact rate r*, then r* > 0 and eps -> 0."""
    derivation, claimed = problem.derivation, problem.claimed
    rate = er.late_rate(derivation, er.on_side(problem.pull, positive=True), problem.size)
    closed(derivation)
    problem.details["exact_rate"] = str(rate)
    if not equal(claimed, rate, problem.ctx):
        return refuted(
            problem.derivation,
            problem.details,
            "ball",
            f"the exact rate is r* = -F'(0) = n S(1) = {rate}; eps(t) e^(r t) = exp((r - r*) t + o(t)) whenever "
            f"eps -> 0, so no rate other than r* holds, and the claimed rate {claimed} differs from r*",
            exact_rate=str(rate),
            claimed_rate=str(claimed),
            difference=ball_text(claimed - rate),
        )
    derivation.zero(f"the claimed rate {claimed} equals r* = {rate}", claimed - inert(rate))
    if problem.limit != 0:
        reading = f"eps(t) -> {problem.limit} != 0: it decays at no rate"
        return refuted(problem.derivation, problem.details, "ball", reading, exact_rate=str(rate))
    exponential_form(derivation, rate)
    return derived(derivation, METHOD, problem.details)


def exponential_form(derivation: Derivation, rate: sp.Expr) -> None:
    """The steps eps(t) ~ C e^(-r* t) with C > 0, once eps -> 0 is shown: r* > 0 by a ball, then the comparison."""
    derivation.holds(f"r* = {rate} > 0 (S(1) > S(rho0) > 0; its ball is positive)", bool(ball_of(rate) > 0))
    derivation.note(
        "with eps -> 0 and F(eps)/eps = -r* + O(eps): d/dt ln(eps e^(r* t)) = F(eps)/eps + r* = O(eps), and eps "
        "decays exponentially once F(eps)/eps <= -r*/2, so the integral converges and eps(t) e^(r* t) -> C in "
        "(0, oo) [cited: comparison for a scalar ODE]",
        r"\varepsilon(t) \sim C e^{-r^* t},\ C > 0",
    )


def _like(problem: _Problem) -> Outcome:
    """`decays-like`: eps -> 0 (else REFUTED), eps ~ C e^(-r* t), then the stated shape against e^(-r* t)."""
    derivation = problem.derivation
    if problem.limit != 0:  # the sign of S(rho0) that picked the limit is a ball's (`_confirm_start_sign`)
        return rate_shapes.no_decay(derivation, problem.details, METHOD, problem.limit, "ball")
    rate = er.late_rate(derivation, er.on_side(problem.pull, positive=True), problem.size)
    closed(derivation)
    problem.details["exact_rate"] = str(rate)
    exponential_form(derivation, rate)
    return rate_shapes.shaped(derivation, problem.details, problem.claimed, sp.exp(-rate * TIME), METHOD)


def _tends(problem: _Problem) -> Outcome:
    """`tends-to`: the claimed limit against the exact limit of eps."""
    claimed, limit = problem.claimed, problem.limit
    if not equal(claimed, limit, problem.ctx):
        return refuted(
            problem.derivation,
            problem.details,
            "ball",
            f"eps(t) -> {limit} exactly, and the claimed limit {claimed} differs from it",
            exact_limit=str(limit),
            claimed_limit=str(claimed),
            difference=ball_text(claimed - limit),
        )
    problem.derivation.zero(f"the claimed limit {claimed} equals lim eps = {limit}", claimed - inert(limit))
    return derived(problem.derivation, METHOD, problem.details)


def refuted(derivation: Derivation, details: dict[str, Any], by: str, reading: str, **fields: Any) -> Outcome:
    """REFUTED with the witness `fields`, verified `by` exact arithmetic or balls, and the derivation's steps
    in the details (the reduction, the limit and the rate the witness rests on)."""
    steps = [step.text for step in derivation.steps]
    witness = {"verified_by": by, "reading": reading, **fields}
    return Outcome(Verdict.REFUTED, METHOD, witness=witness, details=details | {"derivation": steps})


def equal(left: sp.Expr, right: sp.Expr, ctx: Context) -> bool:
    """Whether left = right exactly (exact algebra, no simplify) or not (balls); Undecided when neither settles it.
    The claimed side is the file's inert formula (`headflow.certificates.inert`), the exact side is put in the same
    form."""
    difference = left - inert(right)
    value = ball_of(difference)
    if value > 0 or value < 0:
        return False
    zero, left_over = exactly_zero(difference, REDUCTION_OPERATIONS[ctx.profile])
    if zero:
        return True
    raise Undecided(f"{left} - {right} is neither separated from 0 by balls nor reduced to 0 ({left_over})")


def ball_of(value: sp.Expr) -> Any:
    try:
        return ball(value, {}, PRECISION)
    except EvaluationError as exc:
        raise Undecided(f"{value} has no ball: {exc}") from None


def ball_text(value: sp.Expr) -> str:
    return ball_of(value).str(20, radius=True)


def _rational(value: float | int) -> sp.Rational:
    return sp.Rational(stated(value))


# The names `scheme_reduction` uses (its owner moves it to the public ones above: Undecided, closed, equal, ball_of,
# refuted, checked_destination).
_Undecided = Undecided
_closed, _equal, _ball = closed, equal, ball_of


def _check_start_sign(problem: _Problem) -> None:
    _confirm_start_sign(problem.pull, problem.start, problem.limit, problem.details)


def _refuted(problem: _Problem, by: str, reading: str, **fields: Any) -> Outcome:
    return refuted(problem.derivation, problem.details, by, reading, **fields)
