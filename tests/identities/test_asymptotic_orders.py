"""The bracket rules of identities.asymptotic_orders and the exit-gap bracket they rest on."""

from __future__ import annotations

import mpmath
import sympy as sp
from headflow.identities import asymptotic_orders as ao
from headflow.identities import condition8_invariance as ci
from headflow.identities import signs
from headflow.identities.derivation import Derivation

x = sp.Symbol("x", positive=True)
FACTS = signs.facts(positive=[x])


def _never(expr: sp.Expr) -> None:
    return None


def _bracket(lower: sp.Expr, upper: sp.Expr, derivation: Derivation | None = None) -> ao.Bracket:
    return ao.Bracket("q", lower, upper, x, FACTS, derivation or Derivation())


def test_each_relation_follows_the_limits_of_the_bracket() -> None:
    exact = _bracket(3 * x + sp.log(x), 3 * x + sp.log(x))
    assert ao.decide(exact, "Theta", x, _never).status == "proved"
    assert ao.decide(exact, "~", 3 * x, _never).status == "proved"
    assert ao.decide(exact, "~", 2 * x, _never).status == "refuted"
    assert ao.decide(exact, "o", x, _never).status == "refuted"
    assert ao.decide(exact, "o", x**2, _never).status == "proved"
    assert ao.decide(exact, "limit", sp.Integer(3), _never, over=x).status == "proved"
    linear = _bracket(3 * x + 1, 3 * x + 1)
    assert ao.decide(linear, "O", sp.sqrt(x), _never).status == "refuted"


def test_a_loose_bracket_settles_only_what_both_sides_give() -> None:
    """x <= Q <= x^2: O(x^2) holds; Theta(x) and o(x^2) are neither proved nor refuted."""
    loose = _bracket(x, x**2)
    assert ao.decide(loose, "O", x**2, _never).status == "proved"
    assert ao.decide(loose, "Theta", x, _never).status == "undecided"
    assert ao.decide(loose, "o", x**2, _never).status == "undecided"
    assert ao.decide(loose, "o", sp.sqrt(x), _never).status == "refuted"  # sqrt(x)/lower -> 0


def test_omega_needs_a_positive_lower_limit_and_fails_when_the_upper_one_vanishes() -> None:
    """Omega(g): Q >= c g for large x. x <= Q <= x^2 is Omega(x) (and Omega(sqrt(x)), g/lower -> 0); it is not
    Omega(x^3) (upper/g -> 0); Omega(x^2) is open (lower/x^2 -> 0, upper/x^2 -> 1)."""
    loose = _bracket(x, x**2)
    assert ao.decide(loose, "Omega", x, _never).status == "proved"
    assert ao.decide(loose, "Omega", sp.sqrt(x), _never).status == "proved"
    refuted = ao.decide(loose, "Omega", x**3, _never)
    assert refuted.status == "refuted" and "large x" in refuted.reason
    assert ao.decide(loose, "Omega", x**2, _never).status == "undecided"
    # a lower bound that is not proved positive does not give Q/g -> oo
    assert ao.decide(_bracket(x - x**2, x**2), "Omega", sp.sqrt(x), _never).status == "undecided"


def test_a_bracket_whose_proof_failed_decides_nothing() -> None:
    broken = Derivation()
    broken.zero("a wrong step", x - 1)
    decision = ao.decide(_bracket(x, x, broken), "Theta", x, _never)
    assert decision.status == "undecided" and "did not close" in decision.reason


def test_the_exit_gap_bracket_holds_around_the_root_and_closes() -> None:
    """Independently of the bracket's proof: g(eps) = h(1 - eps) is < 0 below the exit gap and > 0 above it (h > 0
    exactly before rho_exit), so g(lower) < 0 < g(upper) at large n, evaluated with mpmath at 50 digits."""
    derivation = Derivation()
    lower, upper = ci.exit_gap_bracket(derivation)
    assert derivation.proved
    mpmath.mp.dps = 50
    for heads, tokens, strength in ((2, 10**4, 1), (3, 10**5, sp.Rational(1, 2)), (5, 10**6, 2)):
        point = {ci.H: heads, ci.n: tokens, ci.kappa: strength}
        gap = ci.gap_function().subs(point)
        low, high = lower.subs(point), upper.subs(point)
        assert sp.N(gap.subs(ci.eps, low), 50) < 0 < sp.N(gap.subs(ci.eps, high), 50)
        assert abs(sp.N(low - sp.Rational(heads - 1, heads))) < 1e-2 and abs(sp.N(high - low)) < 1e-2
