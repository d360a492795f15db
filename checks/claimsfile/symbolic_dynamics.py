"""The exact route of `exact_dynamics` for every point of a quantified claim's domain at once.

The equiangular reduction is symbolic in n, beta, the strengths and rho (`identities.equiangular_reduction`), so a
cluster-gap claim of its regime whose parameters are symbols with domains (`headflow.certificates.claims.quantified`)
is derived once with those symbols: the pull S(rho) of the file's heads, the sign of S(rho0) and the monotonicity
of S on the side rho0 goes to (which fix lim eps: 0 or n/(n - 1)), the exact rate r* = n S(1) and r* > 0. Every
sign is proved by `identities.signs` from the domains as facts (each symbol's sign from its rational bounds, n as
m + min with m >= 0), the claimed target is compared with the exact one by the exact zero test; nothing is
sampled or evaluated. When a step does not close (signs that depend on the point, a target that is not the
exact one identically), the route says why and the caller samples exact points of the domain instead.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp
from headflow.certificates.claims.head_sums import HeadScope, HeadSum
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.claims.symbolic import REDUCTION_OPERATIONS, exactly_zero
from headflow.certificates.inert import inert
from headflow.checks.claimsfile.exact_dynamics import (
    GAPS,
    MEANING,
    applies,
    in_regime,
    initial_rate,
    on_gap,
)
from headflow.checks.claimsfile.head_families import linear_atoms
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict, derived
from headflow.identities import equiangular_quantities as eq
from headflow.identities import equiangular_reduction as er
from headflow.identities import signs
from headflow.identities.derivation import Derivation

METHOD = (
    "exact: the equiangular reduction d eps/dt = -eps (n - (n-1) eps) S(1 - eps) with symbolic parameters, "
    "for every point of the domain (equiangular_reduction, identities.signs)"
)
_u = sp.Symbol("u", nonnegative=True)


def prove_for_domain(claim: DynamicsClaim, ctx: Context) -> tuple[Outcome | None, str]:
    """PROVED for the whole domain with the symbolic steps, or (None, why not); (None, "") outside the regime."""
    if not applies(claim) or claim.target is None:
        return None, ""
    options = claim.options
    derivation = Derivation()
    derivation.note(MEANING[claim.property])
    n, start, strengths, facts, pull = _reduced(claim, derivation)
    per_head = isinstance(options["lambdas"], sp.Symbol)
    limit = _limit(derivation, pull, start, n, facts)
    details: dict[str, Any] = {"meaning": MEANING[claim.property], "pull": str(pull), "limit": str(limit)}
    if limit is None:
        return None, "the sign of S(rho0) or the monotonicity of S is not proved on the whole domain"
    exact = limit
    if claim.property == "decays-at-rate":
        exact = er.late_rate(derivation, er.on_side(pull, positive=True, known=facts), n)
        if per_head:
            derivation.note(f"r* = n S(1) is linear in S: the sum over the heads of the one-head rate {exact}")
        details["exact_rate"] = str(HeadSum(exact) if per_head else exact)
    if derivation.failures:
        return None, "the derivation did not close: " + "; ".join(derivation.failures)
    whole = HeadSum(exact) if per_head and claim.property == "decays-at-rate" else exact
    difference = claim.target - inert(whole)
    if per_head:  # the sums over the heads as unknowns (linearity): 0 then is 0 for every family
        difference = linear_atoms(difference, HeadScope(frozenset({str(strengths[0])}), options["H"]))[0]
    zero, left_over = exactly_zero(difference, REDUCTION_OPERATIONS[ctx.profile])
    if not zero:
        return None, f"the claimed {claim.property} target {claim.target} is not shown equal to {whole} ({left_over})"
    if per_head:
        derivation.holds(
            f"the claimed target {claim.target} equals {whole} for every H and family (exact algebra, each sum over "
            "the heads split by linearity and taken as an unknown)",
            True,
        )
    else:
        derivation.zero(f"the claimed target {claim.target} equals {exact} identically", difference)
    if claim.property == "decays-at-rate":
        if limit != 0:
            return None, f"eps tends to {limit}, not 0, on the whole domain"
        derivation.sign(f"r* = {whole} > 0 on the domain (each head's term > 0, H >= 1)", exact, ">0", facts)
        derivation.note(
            "with eps -> 0 and F(eps)/eps = -r* + O(eps), eps(t) e^(r* t) -> C in (0, oo) "
            "[cited: comparison for a scalar ODE]"
        )
    outcome = derived(derivation, METHOD, details)
    return (outcome, "") if outcome.verdict is Verdict.PROVED else (None, outcome.notes)


def _reduced(
    claim: DynamicsClaim, derivation: Derivation
) -> tuple[sp.Expr, sp.Expr, list[sp.Expr], signs.Facts, sp.Expr]:
    """n, rho0, the strengths (one head's symbol for lambdas = "lam_h"), the domain's facts and the pull S(rho)
    of the claim's heads, with the derivation's first steps."""
    options = claim.options
    facts = domain_facts(claim)
    n, beta, start = (_value(options[key]) for key in ("n", "beta", "rho"))
    per_head = isinstance(options["lambdas"], sp.Symbol)  # lambdas = "lam_h": any number H of heads
    strengths = [options["lambdas"]] if per_head else [_value(value) for value in options["lambdas"]]
    derivation.note("for every point of the domain: " + _facts_text(facts) + " (d does not enter the reduction)")
    pull = er.reduced_pull(derivation, options["attention"], strengths).subs({er.n: n, er.beta: beta})
    if per_head:
        derivation.note(
            f"any number of heads: S(rho) = sum_h s(rho; {strengths[0]}) over h = 1..H (H >= 1), the term s written "
            f"for one head's strength {strengths[0]} of the domain; each sign below is proved for that term at every "
            "strength of the domain, and a sum of H >= 1 terms of one strict sign has that sign",
            r"S(\rho) = \sum_{h=1}^{H} s_{\lambda_h}(\rho)",
        )
    return n, start, strengths, facts, pull


def prove_domain(claim: DynamicsClaim, ctx: Context) -> tuple[Outcome | None, str]:
    """The whole-domain route of the claim's property and quantity: initial rates, limits of the closed-form
    quantities (`headflow.identities.equiangular_quantities`), else the gap's limit and rate (`prove_for_domain`)."""
    if claim.property == "initial-rate":
        return prove_initial_rate_for_domain(claim, ctx)
    if claim.property == "tends-to" and claim.quantity in eq.QUANTITIES and claim.quantity not in GAPS:
        return prove_closed_form_limit(claim, ctx)
    return prove_for_domain(claim, ctx)


def prove_closed_form_limit(claim: DynamicsClaim, ctx: Context) -> tuple[Outcome | None, str]:
    """`tends-to` of a quantity that is a closed function Q(rho) of each head's own strength, for the whole domain:
    rho -> rho_lim (1 or -1/(n - 1), from the proved signs of S), Q continuous, the claimed limit equal to Q(rho_lim)
    identically. (None, why not) when a step does not close; (None, "") outside the regime."""
    if claim.target is None or not in_regime(claim) or claim.quantity in eq.COUPLED or claim.options.get("mask"):
        return None, ""
    options = claim.options
    derivation = Derivation()
    derivation.note(f"'{claim.quantity} tends to L' means: every entry of it tends to L as t -> oo")
    n, start, strengths, facts, pull = _reduced(claim, derivation)
    eq.check_counting(derivation)
    gap = _limit(derivation, pull, start, n, facts)
    if gap is None:
        return None, "the sign of S(rho0) or the monotonicity of S is not proved on the whole domain"
    end = 1 - gap
    at = {er.n: n, er.beta: _value(options["beta"])}
    forms = [form.subs(at) for form in eq.values(options["attention"], claim.quantity, strengths)]
    derivation.note(
        f"{claim.quantity} at the equiangular state of correlation rho (the same at every token; per head, a function "
        f"of that head's strength only): {', '.join(map(str, forms))}, continuous on [-1/(n - 1), 1]; rho(t) -> "
        f"{end}, so it tends to its value there",
        r"Q(\rho(t)) \to Q(\rho_\infty)",
    )
    for form in forms:
        value = form.subs(er.rho, end)
        zero, left_over = exactly_zero(claim.target - inert(value), REDUCTION_OPERATIONS[ctx.profile])
        if not zero:
            return None, f"the claimed limit {claim.target} is not shown equal to {value} ({left_over})"
        derivation.holds(f"the claimed limit {claim.target} equals {value} identically (exact algebra)", True)
    if derivation.failures:
        return None, "the derivation did not close: " + "; ".join(derivation.failures)
    outcome = derived(derivation, METHOD, {"rho_limit": str(end), "closed_forms": [str(f) for f in forms]})
    return (outcome, "") if outcome.verdict is Verdict.PROVED else (None, outcome.notes)


def prove_initial_rate_for_domain(claim: DynamicsClaim, ctx: Context) -> tuple[Outcome | None, str]:
    """`initial-rate` for the whole domain: d eps/dt at t = 0 is F(eps0) with symbolic n, beta, strengths and rho0,
    and the claimed value equals it identically (exact algebra; a sum over the heads split by linearity). No sign
    is needed: the reduced ODE holds for every beta and strength. (None, why not) otherwise; (None, "") outside."""
    if claim.property != "initial-rate" or claim.target is None or not on_gap(claim):
        return None, ""
    options = claim.options
    per_head = isinstance(options["lambdas"], sp.Symbol)
    derivation = Derivation()
    derivation.note(MEANING[claim.property])
    if options.get("mask") == "causal":
        return None, "the causal pair's initial rate is decided at exact points of the domain"
    n, start, strengths, _, pull = _reduced(claim, derivation)
    exact = initial_rate(derivation, pull, start, n)
    if per_head:
        derivation.note(
            f"any number of heads: S = sum_h s(rho; {strengths[0]}) over h = 1..H, and F(eps0) is linear in S: "
            f"d eps/dt at t = 0 is the sum over the heads of {exact}",
            r"\dot\varepsilon(0) = \sum_h F_{\lambda_h}(\varepsilon_0)",
        )
    whole = HeadSum(exact) if per_head else exact
    if derivation.failures:
        return None, "the derivation did not close: " + "; ".join(derivation.failures)
    difference = claim.target - inert(whole)
    if per_head:
        difference = linear_atoms(difference, HeadScope(frozenset({str(strengths[0])}), options["H"]))[0]
    zero, left_over = exactly_zero(difference, REDUCTION_OPERATIONS[ctx.profile])
    if not zero:
        return None, f"the claimed initial rate {claim.target} is not shown equal to {whole} ({left_over})"
    derivation.holds(
        f"the claimed initial rate {claim.target} equals {whole} identically (exact algebra"
        + (", each sum over the heads split by linearity and taken as an unknown)" if per_head else ")"),
        True,
    )
    details = {"meaning": MEANING[claim.property], "pull": str(pull), "exact_initial_rate": str(whole)}
    outcome = derived(derivation, METHOD, details)
    return (outcome, "") if outcome.verdict is Verdict.PROVED else (None, outcome.notes)


def domain_facts(claim: DynamicsClaim) -> signs.Facts:
    """The domains as sign facts: each symbol's sign from its rational bounds (as the symbol was declared), and an
    integer with min m written as m + k, k >= 0 (n >= 2 gives n - 1 > 0)."""
    known: dict[sp.Expr, str] = {}
    shifts: dict[sp.Symbol, tuple[sp.Symbol, sp.Rational]] = {}
    for symbol in claim.order:
        declared = signs.declared_facts(symbol).signs
        known.update(declared)
        domain = claim.domains[symbol]
        if domain.integer and domain.low is not None and domain.low.is_Rational:
            offset = sp.Symbol(f"{symbol}_above_min", nonnegative=True)
            known[offset] = "nonnegative"
            shifts[symbol] = (offset, domain.low)
    return signs.Facts(known, shifts)


def _limit(derivation: Derivation, pull: sp.Expr, start: sp.Expr, n: sp.Expr, facts: signs.Facts) -> sp.Expr | None:
    """lim eps from rho0 = start on the whole domain: 0 when S(rho0) > 0 and S increases on [rho0, 1), n/(n - 1)
    when S(rho0) < 0 and S increases on (-1/(n-1), rho0]; None when a sign is not proved."""
    known = er.with_facts(facts)
    for upward, relation in ((True, ">0"), (False, "<0")):
        side_known = signs.prove(start, relation, known) is not None  # rho keeps the sign of rho0 on its way
        side = er.on_side(pull, positive=upward, known=facts) if side_known else pull
        value = side.subs(er.rho, start)
        if signs.prove(value, relation, known) is None:
            continue
        derivation.sign(f"S(rho0) = {value} {relation[:-1]} 0 at rho0 = {start}", value, relation, known)
        moved = start + _u if upward else start - _u
        slope = sp.diff(side, er.rho).subs(er.rho, moved)
        along = signs.Facts({**known.signs, _u: "nonnegative"}, known.shifts)
        derivation.sign(
            f"dS/drho > 0 at rho = rho0 + {'u' if upward else '-u'} for every u >= 0 (rho0 = {start})",
            slope,
            ">0",
            along,
        )
        if upward:
            derivation.note("so rho increases to 1: eps(t) -> 0", r"\varepsilon(t) \to 0")
            return sp.Integer(0)
        derivation.note("so rho decreases to -1/(n - 1): eps(t) -> n/(n - 1)", r"\varepsilon(t) \to \frac{n}{n-1}")
        return n / (n - 1)
    return None


def _facts_text(facts: signs.Facts) -> str:
    words = [f"{atom} {name}" for atom, name in facts.signs.items()]
    words += [f"{symbol} = {base} + {offset}" for symbol, (base, offset) in facts.shifts.items()]
    return ", ".join(words) or "no facts"


def _value(value: Any) -> sp.Expr:
    if isinstance(value, sp.Symbol):
        return value
    exact = stated(value) if not isinstance(value, Fraction) else value
    return sp.Rational(exact.numerator, exact.denominator)
