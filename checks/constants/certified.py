"""The regime's constants with certified decimal digits (the Python API behind `headflow constants`).

Every value is a python-flint ball of `certificates/provers/constant_balls.py`, evaluated from the one SymPy
formula in `identities/closed_forms.py` (stored as a tree, `headflow.certificates.kernel.stored_forms`: no SymPy here);
lambda_c, which has no closed form, is the certified root
of `lambda_c_equation` (`certificates/provers/lambda_c_roots.py`). The working precision rises until the ball
determines every printed digit (correct rounding); if it still straddles a rounding boundary at
the maximum precision, the result says so. mpmath then
recomputes the value with its own formulas (`checks/constants/mpmath_reference.py`); a disagreement is a
bug and raises CrossCheckError.

    >>> from headflow.checks.constants import certified as constants
    >>> constants.beta_star(2, 10, 1, digits=30).value
    '0.858006376138307967646365780210'
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING

from flint import arb, ctx
from headflow.certificates.constant_specs import PARAMETERS, QUANTITIES
from headflow.certificates.errors import InputError
from headflow.certificates.kernel.exact import ball_of
from headflow.certificates.provers import constant_balls, exit_gap
from headflow.checks.constants.digits import OutOfRange, Rounded, certified_digits, midpoint_digits, radius_bound
from headflow.checks.constants.exact_numbers import check_bounds, format_number, parse_number
from headflow.checks.constants.mpmath_reference import max_digits, mpmath_value

if TYPE_CHECKING:  # mpmath loads only for a cross-check (`headflow constants --cross-check`)
    from mpmath import mpf

Number = int | Fraction | str | float


class CrossCheckError(RuntimeError):
    """python-flint and mpmath disagree on a value: one of the two computations is wrong."""


@dataclass(frozen=True, init=False)
class Constant:
    """One certified value: `value` has `digits` significant digits, correctly rounded when
    `correctly_rounded`; the true number lies within `radius` of the ball's midpoint."""

    quantity: str
    parameters: dict[str, Fraction]
    digits: int
    rounded: Rounded | None
    correctly_rounded: bool
    precision_bits: int
    note: str | None = None
    ball: arb | None = field(default=None, repr=False, compare=False)

    def __init__(
        self,
        quantity: str,
        parameters: dict[str, Fraction],
        digits: int,
        rounded: Rounded | None,
        correctly_rounded: bool,
        precision_bits: int,
        note: str | None = None,
        ball: arb | None = None,
    ) -> None:
        """The fields set once through the instance's dictionary (frozen all the same: assignment raises), at half
        the cost of the generated initialiser's one `object.__setattr__` per field (a certified constant at 1,000
        digits takes some 10 microseconds in all)."""
        self.__dict__.update(
            quantity=quantity,
            parameters=parameters,
            digits=digits,
            rounded=rounded,
            correctly_rounded=correctly_rounded,
            precision_bits=precision_bits,
            note=note,
            ball=ball,
        )

    @property
    def value(self) -> str:
        """The printed digits ('inf' for beta*(1, n, alpha), where no other head constrains beta)."""
        return "inf" if self.rounded is None else self.rounded.text()

    @cached_property
    def radius(self) -> str:
        """An upper bound of the ball's radius with two significant digits ('0' without a ball): written when it
        is shown (a table), not at every certification."""
        return "0" if self.ball is None else radius_bound(self.ball)


def _exact(name: str, value: Number) -> Fraction:
    if isinstance(value, bool):
        raise InputError(name, value, "not a number")
    if isinstance(value, int | Fraction):
        return check_bounds(name, Fraction(value))
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InputError(name, value, "not a finite number")
        return parse_number(name, repr(value))
    if isinstance(value, str):
        return parse_number(name, value)
    raise InputError(name, value, "not a number")


def _require(ok: bool, name: str, value: Fraction, reason: str) -> None:
    if not ok:
        raise InputError(name, format_number(value), reason)


def validate(quantity: str, params: Mapping[str, Number]) -> dict[str, Fraction]:
    """The parameters of `quantity` as exact fractions, checked against the quantity's domain."""
    if quantity not in QUANTITIES:
        raise InputError("quantity", quantity, f"unknown (choose from {', '.join(QUANTITIES)})")
    exact: dict[str, Fraction] = {}
    for name in QUANTITIES[quantity].parameters:
        if name not in params:
            raise InputError(name, None, f"required by {quantity}")
        exact[name] = _in_domain(name, _exact(name, params[name]))
    if quantity == "c8_exit_gap":
        _exit_domain(exact)
    return exact


#: Largest H and n of c8_exit_gap (those of its point certificates).
MAX_EXIT_HEADS, MAX_EXIT_TOKENS = 10**6, 10**9


def _exit_domain(params: Mapping[str, Fraction]) -> None:
    """c8_exit_gap needs 2 <= H <= 10^6, n <= 10^9 and Condition 8 strict at the orthonormal start."""
    heads, tokens = params["H"], params["n"]
    _require(2 <= heads <= MAX_EXIT_HEADS, "H", heads, f"c8_exit_gap needs 2 <= H <= {MAX_EXIT_HEADS}")
    _require(tokens <= MAX_EXIT_TOKENS, "n", tokens, f"c8_exit_gap needs n <= {MAX_EXIT_TOKENS}")
    try:
        inside = exit_gap.start_margin_positive(int(heads), int(tokens), params["alpha"] * params["beta"])
    except exit_gap.NoExit as exc:
        raise InputError("alpha*beta", format_number(params["alpha"] * params["beta"]), str(exc)) from None
    _require(
        inside,
        "alpha*beta",
        params["alpha"] * params["beta"],
        "Condition 8 fails at the orthonormal start ((H - 1) exp(2 alpha beta) > n - 1): there is no exit gap",
    )


def _in_domain(name: str, v: Fraction) -> Fraction:
    """`v` when it lies in the domain of parameter `name` (`headflow.certificates.constant_specs.PARAMETERS`)."""
    domain = PARAMETERS[name].domain
    if domain == "integer>=1":
        _require(v.denominator == 1 and v >= 1, name, v, "the number of heads must be an integer >= 1")
    elif domain == "integer>=2":
        _require(v.denominator == 1 and v >= 2, name, v, "the number of tokens must be an integer >= 2")
    elif domain == "lambertw":
        _require(_above_branch_point(v), name, v, "Lambert W_0 is real only for x >= -1/e")
    else:
        _require(v > 0, name, v, "must be > 0")
    return v


def _above_branch_point(x: Fraction) -> bool:
    """x > -1/e, decided with balls (x is rational and 1/e is not, so they differ)."""
    if x >= 0:
        return True
    prec = 64
    while prec <= 1 << 16:
        with ctx.workprec(prec):
            gap = ball_of(x) + arb(-1).exp()
        if gap > 0 or gap < 0:
            return bool(gap > 0)
        prec *= 2
    raise InputError("x", format_number(x), "too close to -1/e to decide the branch")


_LOG2_10 = math.log2(10)


def _bits(digits: int) -> int:
    return math.ceil(digits * _LOG2_10)


#: The note of a negative beta*.
_EMPTY = "beta* < 0: no positive inverse temperature satisfies beta <= beta*, the condition is empty"


def certify(quantity: str, params: Mapping[str, Fraction], digits: int, max_prec: int | None = None) -> Constant:
    """The certified value without digit limit or cross-check (validated `params` expected)."""
    try:
        return _certify(quantity, params, digits, max_prec)
    except OutOfRange as exc:
        raise InputError(quantity, _describe(params), str(exc)) from None


def _certify(quantity: str, params: Mapping[str, Fraction], digits: int, max_prec: int | None) -> Constant:
    if quantity == "beta_star" and params["H"] == 1:
        note = "H = 1: no other head, the condition holds for every beta (beta* = +inf)"
        return Constant(quantity, dict(params), digits, None, True, 0, note)
    need = math.ceil(digits * _LOG2_10) + 8  # `_bits`
    limit = max_prec or 2 * need + 4096
    prec = need + 32 if need + 32 < limit else limit
    while True:
        ball = constant_balls.ball(quantity, params, prec)
        rounded = certified_digits(ball, digits)
        if rounded is not None:
            note = _EMPTY if quantity == "beta_star" and rounded.sign < 0 else None
            return Constant(quantity, dict(params), digits, rounded, True, prec, note, ball)
        if prec >= limit:
            break
        accuracy = ball.rel_accuracy_bits() if ball.is_finite() else 0
        if accuracy <= 0:
            prec *= 2
        elif accuracy < need:
            prec += need - accuracy + 64
        else:  # accurate enough, yet next to a rounding boundary
            prec += max(64, prec // 2)
        prec = min(limit, prec)
    if not ball.is_finite():
        raise ArithmeticError(f"{quantity}: no finite enclosure at {prec} bits")
    rounded = midpoint_digits(ball, digits)
    note = f"not correctly rounded: the ball straddles a rounding boundary at the maximum precision ({prec} bits)"
    return Constant(quantity, dict(params), digits, rounded, False, prec, note, ball)


def _mpmath_ball(value: mpf) -> arb:
    sign, mantissa, exp, _ = value._mpf_
    man = int(mantissa)  # a gmpy2 mpz when mpmath runs on gmpy2, which python-flint does not take
    if man == 0:
        return arb(0)
    num, den = (man << exp, 1) if exp >= 0 else (man, 1 << -exp)
    with ctx.workprec(int(man).bit_length() + 8):
        return ball_of(Fraction(-num if sign else num, den))


def cross_check(result: Constant) -> None:
    """Recompute `result` with mpmath; raise CrossCheckError unless it lies within the ball widened
    by 2^-(bits of the printed digits + 20), relative (far below one unit of the last digit)."""
    if result.ball is None:
        return
    reference = mpmath_value(result.quantity, result.parameters, result.precision_bits + 64)
    point = _mpmath_ball(reference)
    with ctx.workprec(result.precision_bits + 128):
        mid = result.ball.mid()
        tolerance = abs(mid) * arb(2) ** (-(_bits(result.digits) + 20)) + result.ball.rad()
        agree = arb(mid, tolerance).contains(point)
    if not agree:
        raise CrossCheckError(
            f"{result.quantity}({_describe(result.parameters)}): python-flint gives {result.ball.str(40)} "
            f"but mpmath gives {point.str(40)}"
        )


def _describe(params: Mapping[str, Fraction]) -> str:
    return ", ".join(f"{k}={format_number(v)}" for k, v in params.items())


def compute(
    quantity: str,
    params: Mapping[str, Number] | None = None,
    digits: int = 50,
    *,
    check: bool = True,
    max_prec: int | None = None,
) -> Constant:
    """`quantity` at `params` with `digits` certified digits, cross-checked by mpmath when `check`."""
    exact = validate(quantity, params or {})
    most = max_digits(quantity)
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= most:
        raise InputError("digits", digits, f"must be an integer from 1 to {most} for {quantity}")
    result = certify(quantity, exact, digits, max_prec)
    if check:
        cross_check(result)
    return result


def golden(digits: int = 50, *, check: bool = True, max_prec: int | None = None) -> Constant:
    """The golden ratio (1 + sqrt 5)/2."""
    return compute("golden", {}, digits, check=check, max_prec=max_prec)


def c_star(H: Number, digits: int = 50, *, check: bool = True, max_prec: int | None = None) -> Constant:
    """c*(H), the positive root of c^2 + (H - 1) c - 1."""
    return compute("c_star", {"H": H}, digits, check=check, max_prec=max_prec)


def beta_star(
    H: Number, n: Number, alpha: Number, digits: int = 50, *, check: bool = True, max_prec: int | None = None
) -> Constant:
    """beta*(H, n, alpha), the summary's threshold inverse temperature."""
    return compute("beta_star", {"H": H, "n": n, "alpha": alpha}, digits, check=check, max_prec=max_prec)


def rate(
    lam: Number, n: Number, beta: Number, digits: int = 50, *, check: bool = True, max_prec: int | None = None
) -> Constant:
    """phi(lambda) = 2 lambda / (exp(lambda beta) + n - 1), the early clustering rate."""
    return compute("rate", {"lam": lam, "n": n, "beta": beta}, digits, check=check, max_prec=max_prec)


def lambda_max(
    n: Number, beta: Number, digits: int = 50, *, check: bool = True, max_prec: int | None = None
) -> Constant:
    """The maximiser of phi, (1 + W((n - 1)/e))/beta."""
    return compute("lambda_max", {"n": n, "beta": beta}, digits, check=check, max_prec=max_prec)


def lambda_c(n: Number, beta: Number, digits: int = 50, *, check: bool = True, max_prec: int | None = None) -> Constant:
    """The inflection point of phi (phi'' = 0), certified as a root."""
    return compute("lambda_c", {"n": n, "beta": beta}, digits, check=check, max_prec=max_prec)


def lambertw(x: Number, digits: int = 50, *, check: bool = True, max_prec: int | None = None) -> Constant:
    """The principal branch W_0(x), x >= -1/e."""
    return compute("lambertw", {"x": x}, digits, check=check, max_prec=max_prec)
