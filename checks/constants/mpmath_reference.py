"""The same constants computed independently with mpmath, to cross-check the certified balls.

These are deliberately other formulas than those of `identities/closed_forms.py` (equivalent
forms, mpmath's own functions), so that an error in either side shows up as a disagreement:
c* = 2 / (sqrt((H - 1)^2 + 4) + H - 1) (no cancellation), beta* = ln(c* (n - 1)/(H - 1)) / (2 alpha)
(using 1 - c*^2 = (H - 1) c*), golden = mp.phi, lambda_max through mp.lambertw, lambda_c by
mp.findroot on (u - 2) - (n - 1)(u + 2) e^-u (a 53-bit bracketing solve of its logarithmic form,
then Newton at full precision). Each formula is named after its quantity, the `reference` of its row
in `certificates.kernel.constant_specs.QUANTITIES`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from mpmath import mp, mpf

from certificates.kernel.constant_specs import QUANTITIES


def _q(value: Fraction) -> mpf:
    return mpf(value.numerator) / value.denominator


def golden(p: Mapping[str, Fraction]) -> mpf:
    return +mp.phi


def c_star(p: Mapping[str, Fraction]) -> mpf:
    h1 = _q(p["H"]) - 1
    return 2 / (mp.sqrt(h1 * h1 + 4) + h1)


def beta_star(p: Mapping[str, Fraction]) -> mpf:
    h1 = _q(p["H"]) - 1
    return mp.log(c_star(p) * (_q(p["n"]) - 1) / h1) / (2 * _q(p["alpha"]))


def rate(p: Mapping[str, Fraction]) -> mpf:
    lam = _q(p["lam"])
    return 2 * lam / (mp.exp(lam * _q(p["beta"])) + _q(p["n"]) - 1)


def lambda_max(p: Mapping[str, Fraction]) -> mpf:
    return (1 + mp.re(mp.lambertw((_q(p["n"]) - 1) / mp.e))) / _q(p["beta"])


def lambda_c(p: Mapping[str, Fraction]) -> mpf:
    m = _q(p["n"]) - 1

    def f(t: mpf) -> mpf:
        return (t - 2) - m * (t + 2) * mp.exp(-t)

    def df(t: mpf) -> mpf:
        return 1 + m * (t + 1) * mp.exp(-t)

    def h(s: mpf) -> mpf:  # the same equation in logarithms, in s = u - 2 (well scaled for a 53-bit guess)
        return s + 2 + mp.log(s / (s + 4)) - mp.log(m)

    with mp.workprec(53):
        s = mp.findroot(h, (mpf("0.1"), max(mpf(4), mp.log(2 * m))), solver="anderson")
    return mp.findroot(f, 2 + s, solver="newton", df=df) / _q(p["beta"])


def lambertw(p: Mapping[str, Fraction]) -> mpf:
    return mp.re(mp.lambertw(_q(p["x"])))


def c8_exit_gap(p: Mapping[str, Fraction]) -> mpf:
    """The zero in (0, 1) of sqrt((n-1) e (n - (n-1) e)) - sqrt(H-1) (exp(alpha beta e) + (n-1)(1 - e)) (both sides
    of g(e) = 0 as square roots), by a bracketing solve at 53 bits and Newton at full precision."""
    heads, tokens, strength = _q(p["H"]), _q(p["n"]), _q(p["alpha"]) * _q(p["beta"])
    m = tokens - 1

    def f(e: mpf) -> mpf:
        return mp.sqrt(m * e * (tokens - m * e)) - mp.sqrt(heads - 1) * (mp.exp(strength * e) + m * (1 - e))

    with mp.workprec(53):
        guess = mp.findroot(f, (mpf(10) ** -30, 1), solver="anderson")
    return mp.findroot(f, guess, solver="newton")


def mpmath_value(quantity: str, params: Mapping[str, Fraction], prec: int) -> mpf:
    """The constant at `prec` bits with mpmath alone."""
    with mp.workprec(prec):
        return QUANTITIES[quantity].reference_formula()(params)
