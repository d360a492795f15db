"""The same constants computed independently with mpmath, to cross-check the certified balls, and their digit limits.

These are deliberately other formulas than those of `identities/closed_forms.py` (equivalent
forms, mpmath's own functions), so that an error in either side shows up as a disagreement:
c* = 2 / (sqrt((H - 1)^2 + 4) + H - 1) (no cancellation), beta* = ln(c* (n - 1)/(H - 1)) / (2 alpha)
(using 1 - c*^2 = (H - 1) c*), golden = mp.phi, lambda_max through mp.lambertw, lambda_c by
mp.findroot on
(u - 2) - (n - 1)(u + 2) e^-u (a 53-bit bracketing solve of its logarithmic form, then Newton at doubling
precision). Each formula is named after its row of
`headflow.certificates.constant_specs.QUANTITIES` and registered there by `@reference`, with the most digits
`headflow constants` computes of it (the cross-check bounds the time). A formula is written on the mpmath
context it is handed, so this module loads without mpmath and the command line reads the digit limits here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

from headflow.certificates.constant_specs import QUANTITIES, Quantity

if TYPE_CHECKING:
    from mpmath import mpf

DEFAULT_MAX_DIGITS = 100_000
"""Largest number of digits of a quantity unless its reference says otherwise (the ball computation does
100,000 digits in about a second)."""

Params = Mapping[str, Fraction]
#: mpmath's formula of a quantity: (mpmath's context `mp`, the parameters) -> mpf.
Formula = Callable[[Any, Params], "mpf"]


class Reference(NamedTuple):
    """mpmath's formula of one quantity and the most digits computed of it."""

    quantity: Quantity
    formula: Formula
    max_digits: int


REFERENCES: dict[str, Reference] = {}
"""The reference of each quantity, by name, in the order of QUANTITIES (registered by `reference`)."""


def reference(max_digits: int = DEFAULT_MAX_DIGITS) -> Callable[[Formula], Formula]:
    """Register the decorated formula as the one reference of the quantity it is named after."""

    def register(formula: Formula) -> Formula:
        name = formula.__name__
        if name not in QUANTITIES or name in REFERENCES:
            raise ValueError(f"{name} is not a quantity without a reference")
        REFERENCES[name] = Reference(QUANTITIES[name], formula, max_digits)
        return formula

    return register


def max_digits(quantity: str) -> int:
    """The most digits `headflow constants` computes of `quantity`."""
    return REFERENCES[quantity].max_digits


def _q(mp: Any, value: Fraction) -> mpf:
    return mp.mpf(value.numerator) / value.denominator


@reference()
def golden(mp: Any, p: Params) -> mpf:
    return +mp.phi


@reference()
def c_star(mp: Any, p: Params) -> mpf:
    h1 = _q(mp, p["H"]) - 1
    return 2 / (mp.sqrt(h1 * h1 + 4) + h1)


@reference()
def beta_star(mp: Any, p: Params) -> mpf:
    h1 = _q(mp, p["H"]) - 1
    return mp.log(c_star(mp, p) * (_q(mp, p["n"]) - 1) / h1) / (2 * _q(mp, p["alpha"]))


@reference()
def rate(mp: Any, p: Params) -> mpf:
    lam = _q(mp, p["lam"])
    return 2 * lam / (mp.exp(lam * _q(mp, p["beta"])) + _q(mp, p["n"]) - 1)


@reference()
def lambda_max(mp: Any, p: Params) -> mpf:
    return (1 + mp.re(mp.lambertw((_q(mp, p["n"]) - 1) / mp.e))) / _q(mp, p["beta"])


@reference()
def lambda_c(mp: Any, p: Params) -> mpf:
    m = _q(mp, p["n"]) - 1

    def newton(t: mpf) -> mpf:  # t - f(t)/f'(t) for f(t) = (t - 2) - m (t + 2) e^-t, f' = 1 + m (t + 1) e^-t
        damped = m * mp.exp(-t)
        return t - ((t - 2) - damped * (t + 2)) / (1 + damped * (t + 1))

    def h(s: mpf) -> mpf:  # the same equation in logarithms, in s = u - 2 (well scaled for a 53-bit guess)
        return s + 2 + mp.log(s / (s + 4)) - mp.log(m)

    with mp.workprec(53):
        s = mp.findroot(h, (mp.mpf("0.1"), max(mp.mpf(4), mp.log(2 * m))), solver="anderson")
    return _doubling_newton(mp, newton, 2 + s) / _q(mp, p["beta"])


def _doubling_newton(mp: Any, step: Callable[[mpf], mpf], start: mpf, accurate: int = 40) -> mpf:
    """Newton's iteration from `start` (about `accurate` correct bits) at doubling precision up to mp.prec, then
    two steps at it: each step doubles the correct bits, so only the last ones cost the full precision (a
    Newton iteration at full precision throughout took 126 s at 100,000 digits; this takes seconds)."""
    target, prec, t = mp.prec, accurate, start
    while prec < target:
        prec = min(2 * prec, target)
        with mp.workprec(prec + 32):
            t = step(t)
    with mp.workprec(target + 32):
        for _ in range(2):
            t = step(t)
    return +t


@reference()
def lambertw(mp: Any, p: Params) -> mpf:
    return mp.re(mp.lambertw(_q(mp, p["x"])))


@reference(max_digits=10_000)
def c8_exit_gap(mp: Any, p: Params) -> mpf:
    """The zero in (0, 1) of sqrt((n-1) e (n - (n-1) e)) - sqrt(H-1) (exp(alpha beta e) + (n-1)(1 - e)) (both sides
    of g(e) = 0 as square roots), by a bracketing solve at 53 bits and Newton at full precision."""
    heads, tokens, strength = _q(mp, p["H"]), _q(mp, p["n"]), _q(mp, p["alpha"]) * _q(mp, p["beta"])
    m = tokens - 1

    def f(e: mpf) -> mpf:
        return mp.sqrt(m * e * (tokens - m * e)) - mp.sqrt(heads - 1) * (mp.exp(strength * e) + m * (1 - e))

    with mp.workprec(53):
        guess = mp.findroot(f, (mp.mpf(10) ** -30, 1), solver="anderson")
    return mp.findroot(f, guess, solver="newton")


def mpmath_value(quantity: str, params: Params, prec: int) -> mpf:
    """The constant at `prec` bits with mpmath alone (its registered formula, looked up at each call)."""
    from mpmath import mp

    with mp.workprec(prec):
        return REFERENCES[quantity].formula(mp, params)
