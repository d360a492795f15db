"""The checked limits (`identities.limits`): a value only where every part of the expression is defined."""

from __future__ import annotations

import sympy as sp
from headflow.identities import limits, signs


def test_a_power_undefined_at_the_point_gives_no_limit() -> None:
    s, gamma = sp.Symbol("s", positive=True), sp.Symbol("gamma", positive=True)
    known = signs.facts(positive=[s, gamma])
    hidden = s * ((s + 1) / s) ** gamma  # SymPy substitutes s = 0 to 0 * zoo**gamma = 0
    assert hidden.subs(s, 0) == 0
    assert not limits.defined_at(hidden, s, sp.Integer(0), known)
    assert limits.at_point(hidden, s, sp.Integer(0), known) is None
    defined = limits.at_point(s * (s + 1) ** gamma, s, sp.Integer(0), known)  # every part defined at 0: the limit 0
    assert defined is not None and defined[0] == 0


def test_a_zero_base_needs_a_positive_exponent() -> None:
    s, a = sp.Symbol("s", positive=True), sp.Symbol("a", real=True)
    assert not limits.defined_at(s**a, s, sp.Integer(0), signs.facts(positive=[s], real=[a]))
    assert limits.defined_at(s**a, s, sp.Integer(0), signs.facts(positive=[s, a]))
