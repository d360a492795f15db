"""How two functions of a variable compare as it -> oo: lim f/g is a positive number, 0, oo, or not settled.

A rate claim "q(t) ~ C f(t)" (C > 0 unknown) against a stated shape g(t) needs only lim f/g (q/g -> C lim f/g), and
f, g are elementary: powers of t, exponentials, logarithms, products. Every limit is computed by the checked route of
`headflow.identities.limits` (never `sp.limit`), every sign by `headflow.identities.signs`, every zero by
`headflow.identities.zero_test`, each as a step of the caller's derivation:

1. lim f/g = a directly (`limits.at_infinity`): a proved > 0 is `finite`, a identically 0 is `zero`, a proved < 0 is
   `negative` (f/g tends to a negative number);
2. lim g/f = 0 directly: |f/g| -> oo, `infinite`;
3. through logarithms, when f > 0 and g > 0 are proved for var > 0: L = log f - log g, written as a sum by the rules
   log(c prod b_k^e_k exp(x)) = log c + sum e_k log b_k + x (every b_k > 0 proved, c a positive rational). For the
   scales h = var^2, var, sqrt(var), log(var) in turn: lim L/h = c proved != 0 gives L -> sign(c) oo (h -> oo), so
   f/g -> oo or 0 [cited: h -> oo]; c identically 0 passes to the next scale; finally lim L = a (finite) gives
   f/g -> exp(a) > 0 [cited: exp is continuous].

Anything else is `undecided` (a limit the checked route does not establish), never a guess.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sympy as sp
from headflow.identities import limits, signs
from headflow.identities.derivation import Derivation
from headflow.identities.zero_test import is_identically_zero

#: The outcomes of `compare`.
FINITE, ZERO, INFINITE, NEGATIVE, UNDECIDED = "finite", "zero", "infinite", "negative", "undecided"
#: A caller's rigorous sign of a number with no free symbol (balls): ">0", "<0" or None (not separated from 0).
Separated = Callable[[sp.Expr], str | None]


@dataclass(frozen=True)
class Comparison:
    """lim f/g as var -> oo: `status` one of FINITE (value > 0 proved), ZERO, INFINITE, NEGATIVE (value < 0 proved),
    UNDECIDED; `value` the limit where it is a number; `reason` one line on how it was settled (or why not)."""

    status: str
    value: sp.Expr | None
    reason: str
    #: "ball" when a sign it rests on is a ball's (a number the caller's `separated` signed), else "exact".
    by: str = "exact"


def scales(var: sp.Symbol) -> tuple[sp.Expr, ...]:
    """The growing functions the log route divides log(f/g) by, the fastest first."""
    return (var**2, var, sp.sqrt(var), sp.log(var))


def log_of(expr: sp.Expr, known: signs.Facts) -> sp.Expr | None:
    """log(expr) as a sum, by the rules log(c) (c a positive rational), log(b^e) = e log b (b > 0 proved),
    log(exp(x)) = x, over the factors of expr; None when a factor's base is not proved positive."""
    terms: list[sp.Expr] = []
    for factor in sp.Mul.make_args(expr):
        base, power = factor.as_base_exp()
        if base == sp.E:
            terms.append(power)
        elif (base.is_Rational and base > 0) or signs.prove(base, ">0", known) is not None:
            terms.append(power * sp.log(base))
        else:
            return None
    return sp.Add(*terms)


def compare(
    f: sp.Expr,
    g: sp.Expr,
    var: sp.Symbol,
    known: signs.Facts,
    derivation: Derivation,
    separated: Separated = lambda value: None,
) -> Comparison:
    """lim f/g as var -> oo (module docstring), every limit and sign a step of `derivation`; the sign of a limit that
    is a number with no free symbol and that `identities.signs` does not read comes from the caller's `separated`."""
    ratio = f"({f})/({g})"
    found = _at_infinity(f / g, var, known)
    if found is not None:
        value = found[0]
        if is_identically_zero(value):
            limits.record_limit(derivation, f"lim {ratio} = 0 as {var} -> oo", found, value)
            return Comparison(ZERO, value, f"{ratio} -> 0")
        relation = _sign(value, known, separated)
        if relation is not None:
            limits.record_limit(derivation, f"lim {ratio} = {value} as {var} -> oo", found, value)
            by = _record_sign(derivation, value, relation, known)
            return Comparison(FINITE if relation == ">0" else NEGATIVE, value, f"{ratio} -> {value}", by)
    inverse = _at_infinity(g / f, var, known)
    if inverse is not None and is_identically_zero(inverse[0]):
        limits.record_limit(derivation, f"lim ({g})/({f}) = 0 as {var} -> oo", inverse, inverse[0])
        derivation.note(f"so |{ratio}| -> oo as {var} -> oo")
        return Comparison(INFINITE, None, f"({g})/({f}) -> 0, so |{ratio}| -> oo")
    return _through_logs(f, g, var, known, derivation, ratio, separated)


def _at_infinity(expr: sp.Expr, var: sp.Symbol, known: signs.Facts) -> tuple[sp.Expr, str] | None:
    """`limits.at_infinity` with var = 1/s, then with var = 1/s^2 (square roots of var become powers of s)."""
    return limits.at_infinity(expr, var, known) or limits.at_infinity(expr, var, known, form=lambda s: s**-2)


def _sign(value: sp.Expr, known: signs.Facts, separated: Separated) -> str | None:
    """ ">0" or "<0" for a limit, proved by `identities.signs`, or for a number by the caller's balls; else None."""
    for relation in (">0", "<0"):
        if signs.prove(value, relation, known) is not None:
            return relation
    return separated(value) if not value.free_symbols else None


def _record_sign(derivation: Derivation, value: sp.Expr, relation: str, known: signs.Facts) -> str:
    """The step `value relation 0` (`_sign` found it) and how it was verified: "exact" or "ball"."""
    text = f"the limit {value} {relation[0]} 0"
    if signs.prove(value, relation, known) is not None:
        derivation.sign(text, value, relation, known)
        return "exact"
    derivation.holds(f"{text} (a number separated from 0 by a ball)", True)
    return "ball"


def _through_logs(
    f: sp.Expr,
    g: sp.Expr,
    var: sp.Symbol,
    known: signs.Facts,
    derivation: Derivation,
    ratio: str,
    separated: Separated,
) -> Comparison:
    """Step 3 of the module docstring: log(f/g) against the scales."""
    undecided = Comparison(UNDECIDED, None, f"lim {ratio} as {var} -> oo is not established by the checked limits")
    if any(signs.prove(side, ">0", known) is None for side in (f, g)):
        return undecided
    top, bottom = log_of(f, known), log_of(g, known)
    if top is None or bottom is None:
        return undecided
    gap = sp.expand(top - bottom)
    for scale in scales(var):
        found = _at_infinity(gap / scale, var, known)
        if found is None or is_identically_zero(found[0]):
            continue
        relation = _sign(found[0], known, separated)
        if relation is None:
            continue
        status, way = (INFINITE, "+oo") if relation == ">0" else (ZERO, "-oo")
        derivation.sign(f"{f} > 0 and {g} > 0 for {var} > 0", f * g, ">0", known)
        limits.record_limit(derivation, f"lim log({ratio})/{scale} = {found[0]}", found, found[0])
        by = _record_sign(derivation, found[0], relation, known)
        derivation.cite(
            "divergence of a scale",
            f"log({ratio}) -> {way}, so {ratio} -> {'oo' if status == INFINITE else '0'}",
            f"log({ratio}) = {gap}, and {scale} -> oo as {var} -> oo",
        )
        reason = f"log({ratio})/{scale} -> {found[0]}: {ratio} -> {'oo' if status == INFINITE else '0'}"
        return Comparison(status, sp.Integer(0) if status == ZERO else None, reason, by)
    found = _at_infinity(gap, var, known)
    if found is None:
        return undecided
    derivation.sign(f"{f} > 0 and {g} > 0 for {var} > 0", f * g, ">0", known)
    limits.record_limit(derivation, f"lim log({ratio}) = {found[0]}", found, found[0])
    derivation.cite("continuity of exp", f"{ratio} -> exp({found[0]}) > 0", "exp is continuous and positive")
    return Comparison(FINITE, sp.exp(found[0]), f"log({ratio}) -> {found[0]}")
