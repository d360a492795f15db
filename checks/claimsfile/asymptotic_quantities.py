"""The brackets of the quantities an asymptotic claim may be about, each from the derivation that proves it.

A bracket (`headflow.identities.asymptotic_orders.Bracket`) is lower <= Q <= upper for every large value of the claim's
variable, with the sign facts of the quantity's regime. What each quantity rests on:

- `clustering_time`, softmax: the squeeze of the time from rho0 = 0 between two closed forms
  (`headflow.identities.reduced_clustering.softmax_time_bounds`, Theorem 25's exact-reduction readings);
  relu: the closed form of the time from rho0 = d^(-1/2) (`reduced_clustering.relu_time`), lower = upper.
- `exit_gap`: n (H - 1)/(H (n - 1)) < eps_exit < 1 - (1 - K/(n - 1))/H for large n
  (`headflow.identities.condition8_invariance.exit_gap_bracket`), alpha beta in place of kappa.
- `expression`: the user's formula itself (lower = upper), in ordinary SymPy form (`plain`), with facts from the
  claim's domain (`domain_facts`); a parameter whose domain is one number, or one the caller fixes at a point of its
  domain (a refutation at a point), is put in exactly (`at_point`).

Each quantity also names the exact parameter points a refutation may try (`candidates`), inside its regime.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sympy as sp
from headflow.certificates.claims.domains import Domain
from headflow.certificates.claims.orders import parameter_symbol
from headflow.certificates.claims.schema import AsymptoticClaim
from headflow.certificates.inert import Exp, Log, Pi, RealPower, Sqrt, W, inert
from headflow.identities import condition8_invariance as ci
from headflow.identities import limits, signs
from headflow.identities import reduced_clustering as rc
from headflow.identities.asymptotic_orders import Bracket
from headflow.identities.derivation import Derivation


@dataclass(frozen=True)
class Setting:
    """A claim's bracket, the map from the claim's symbols to the bracket's, and exact candidate points."""

    bracket: Bracket
    symbols: dict[sp.Symbol, sp.Symbol]
    candidates: dict[sp.Symbol, tuple[sp.Rational, ...]]


class Unsupported(Exception):
    """The claim's formula or domain cannot be put in the form the checked limits work on; the message says why."""


def _past_one(s: sp.Symbol) -> sp.Expr:
    """n = 1 + 1/s: n -> oo as s -> 0+, with n - 1 = 1/s positive in form."""
    return 1 + 1 / s


_FORMS: dict[str, Callable[[sp.Symbol], sp.Expr]] = {
    "n": _past_one,
    "d": lambda s: (1 + 1 / s) ** 2,  # d -> oo with sqrt(d) = 1 + 1/s and d > 1
    "beta": lambda s: 1 / s,
}
_R = sp.Rational
_POSITIVE = (_R(1), _R(2), _R(1, 2))


def setting(
    claim: AsymptoticClaim, derivation: Derivation, fixed: dict[sp.Symbol, sp.Rational] | None = None
) -> Setting:
    """The claim's quantity as a bracket in its variable (Unsupported when the formula cannot be used); for an
    expression, with the parameters of `fixed` (exact points of their domains) put in (`at_point`)."""
    if claim.quantity == "expression":
        return _expression(claim, derivation, fixed or {})
    return _BUILDERS[claim.quantity](claim, derivation)


def _names(names: dict[str, sp.Symbol]) -> dict[sp.Symbol, sp.Symbol]:
    return {parameter_symbol(name): target for name, target in names.items()}


def _clustering(claim: AsymptoticClaim, derivation: Derivation) -> Setting:
    names = {"n": rc.n, "d": rc.d, "lam": rc.lam, "beta": rc.beta, "rho1": rc.rho1}
    if claim.attention == "softmax":
        lower, upper = rc.softmax_time_bounds(derivation)
    else:
        lower = upper = rc.relu_time(derivation)
    variable = names[claim.variable.name]
    candidates = {
        rc.lam: _POSITIVE,
        rc.beta: _POSITIVE,
        rc.rho1: (_R(1, 2), _R(1, 3), _R(3, 4)),
        rc.n: (_R(2), _R(3), _R(10)),
        rc.d: (_R(16), _R(100)),
    }
    bracket = Bracket(claim.quantity, lower, upper, variable, rc.FACTS, derivation, _FORMS[claim.variable.name])
    return Setting(bracket, _names(names), _without(candidates, variable))


def _exit_gap(claim: AsymptoticClaim, derivation: Derivation) -> Setting:
    names = {"H": ci.H, "n": ci.n, "alpha": ci.alpha, "beta": ci.beta}
    lower, upper = (bound.subs(ci.kappa, ci.alpha * ci.beta) for bound in ci.exit_gap_bracket(derivation))
    j = sp.Dummy("j", nonnegative=True)
    facts = signs.facts(positive=[ci.alpha, ci.beta], nonnegative=[j], shifts={ci.H: (j, 2)})
    candidates = {ci.H: (_R(2), _R(3), _R(5)), ci.alpha: _POSITIVE, ci.beta: _POSITIVE}
    bracket = Bracket(claim.quantity, lower, upper, ci.n, facts, derivation, _past_one)
    return Setting(bracket, _names(names), candidates)


def _expression(claim: AsymptoticClaim, derivation: Derivation, fixed: dict[sp.Symbol, sp.Rational]) -> Setting:
    assert claim.expr is not None
    formula = plain(claim.expr)
    derivation.note(f"the quantity is the formula Q = {formula} itself (lower = upper = Q)")
    others = [s for s in claim.order if s != claim.variable]
    for symbol in others:
        if claim.variable.name in claim.domains[symbol].dependencies():
            raise Unsupported(f"the domain of {symbol} depends on the variable {claim.variable}: it is not held fixed")
    if claim.domains[claim.variable].high is not None:
        raise Unsupported(f"the domain of {claim.variable} is bounded above: it cannot tend to infinity")
    point = {s: claim.domains[s].low for s in others if _single_point(claim.domains[s])} | fixed
    free = [s for s in others if s not in point]
    facts = domain_facts({s: claim.domains[s] for s in free})
    if point:
        formula = at_point(formula, point, facts, claim.variable)
        shown = ", ".join(f"{s} = {v}" for s, v in point.items())
        derivation.note(f"at {shown} (a point of the domain{'' if fixed else ', its only one'}): Q = {formula}")
    candidates = {s: (point[s],) if s in point else _domain_candidates(claim.domains[s]) for s in others}
    bracket = Bracket("expression", formula, formula, claim.variable, facts, derivation, _FORMS[claim.variable.name])
    return Setting(bracket, {s: s for s in claim.order}, candidates)


def _single_point(domain: Domain) -> bool:
    """Whether the domain is one rational number [a, a]."""
    low, high = domain.low, domain.high
    closed = not (domain.low_open or domain.high_open)
    return closed and low is not None and high is not None and low.is_Rational and high.is_Rational and low == high


def at_point(formula: sp.Expr, point: dict[sp.Symbol, sp.Rational], facts: signs.Facts, variable: sp.Symbol) -> sp.Expr:
    """The formula with the exact values of `point` put in, one symbol at a time, each only where every power and
    function of the formula is defined at the value (`limits.defined_at`: SymPy's substitution could turn an
    undefined 0 * zoo into 0); Unsupported otherwise. `facts` are those of the symbols left free (the variable is
    declared positive: it is sent to infinity)."""
    known = facts.with_signs(positive=[variable])
    for symbol, value in point.items():
        if not limits.defined_at(formula, symbol, value, known):
            raise Unsupported(f"the formula is not shown defined at {symbol} = {value}")
        formula = formula.xreplace({symbol: value})
        if formula.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
            raise Unsupported(f"the formula is undefined at {symbol} = {value}")
    return formula


def _without(candidates: dict[sp.Symbol, tuple[sp.Rational, ...]], variable: sp.Symbol) -> dict:
    return {symbol: values for symbol, values in candidates.items() if symbol != variable}


def domain_facts(domains: dict[sp.Symbol, Domain]) -> signs.Facts:
    """Sign facts a domain implies, never more: a rational lower end a gives s = m + a (m > 0 or >= 0), a rational
    upper end b makes the atom b - s > 0 (or >= 0); bounds that are formulas give nothing; a symbol with no
    rational end is only real."""
    named: dict[str, list[sp.Expr]] = {"positive": [], "nonnegative": [], "real": []}
    shifts: dict[sp.Symbol, tuple[sp.Symbol, sp.Rational]] = {}
    for symbol, domain in domains.items():
        low = domain.low if domain.low is not None and domain.low.is_Rational else None
        high = domain.high if domain.high is not None and domain.high.is_Rational else None
        if low is None:
            named["real"].append(symbol)
        else:
            base = sp.Dummy(f"{symbol}_above")
            named["positive" if domain.low_open else "nonnegative"].append(base)
            shifts[symbol] = (base, low)
        if high is not None:
            named["positive" if domain.high_open else "nonnegative"].append(high - symbol)
    return signs.facts(positive=named["positive"], nonnegative=named["nonnegative"], real=named["real"], shifts=shifts)


def _domain_candidates(domain: Domain) -> tuple[sp.Rational, ...]:
    """A few exact values of a domain with rational ends (the caller keeps only points the domain contains)."""
    low = domain.low if domain.low is not None and domain.low.is_Rational else None
    high = domain.high if domain.high is not None and domain.high.is_Rational else None
    if low is not None and high is not None:  # the ends last (the caller keeps only points the domain contains)
        return ((low + high) / 2, (3 * low + high) / 4, (low + 3 * high) / 4, low, high)
    if low is not None:
        return (low + 1, low + 2, low + 10)
    if high is not None:
        return (high - 1, high - 2, high - 10)
    return (_R(1), _R(-1), _R(2))


_PLAIN: dict[type, Callable[..., sp.Expr]] = {Sqrt: sp.sqrt, Exp: sp.exp, Log: sp.log, W: sp.LambertW}


def plain(expr: sp.Expr) -> sp.Expr:
    """An inert claims-file formula in ordinary SymPy form, for the checked limits of `identities.limits`; accepted
    only when putting it back in inert form gives the formula exactly, so that no automatic rewrite SymPy made
    while building it (a sign it read off a number) goes unnoticed: Unsupported otherwise."""
    converted = _convert(expr)
    if inert(converted) not in (expr, _integer_powers_merged(expr)):
        raise Unsupported(f"SymPy rewrote the formula {expr} while converting it (to {converted})")
    return converted


def _integer_powers_merged(expr: sp.Expr) -> sp.Expr:
    """expr with (x**q)**k written x**(q k) for a symbolic q and an integer k, a rewrite SymPy makes whatever the
    signs (1/n**gamma becomes n**(-gamma)): both sides are defined exactly where x > 0, and there
    exp(q log x)**k = exp(k q log x). (Not for a number q: (x**(1/2))**2 is undefined at x < 0, x is not.)"""
    return expr.replace(
        lambda node: (
            isinstance(node, sp.Pow)
            and isinstance(node.base, RealPower)
            and node.exp.is_Integer
            and not node.base.args[1].is_number
        ),
        lambda node: RealPower(node.base.args[0], node.base.args[1] * node.exp),
    )


def converted(expr: sp.Expr) -> sp.Expr:
    """An inert formula in ordinary SymPy form, as SymPy builds it (the caller checks what SymPy rewrote)."""
    return _convert(expr)


def _convert(expr: sp.Expr) -> sp.Expr:
    if expr.is_Rational or expr.is_Symbol:
        return expr
    if isinstance(expr, Pi):
        return sp.pi
    args = [_convert(a) for a in expr.args]
    if isinstance(expr, RealPower):
        return sp.Pow(*args)
    for node, ordinary in _PLAIN.items():
        if isinstance(expr, node):
            return ordinary(*args)
    if isinstance(expr, sp.Add | sp.Mul | sp.Pow):
        return expr.func(*args)
    raise Unsupported(f"{type(expr).__name__} has no form the checked limits work on")


_BUILDERS: dict[str, Callable[[AsymptoticClaim, Derivation], Setting]] = {
    "clustering_time": _clustering,
    "exit_gap": _exit_gap,
}
