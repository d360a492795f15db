"""Exact numbers of the model at rational data: quotients of exponential polynomials sum_k c_k e^(q_k), c_k, q_k in Q.

At rational tokens, heads and beta every attention weight is exact in this field: usa weights are e^(beta s),
softmax weights e^(beta s) / sum_k e^(beta s_k), relu weights rationals; head outputs, velocities, energies and
their rates are then sums, products and quotients of them (the model's chain of definitions evaluated here,
`certificates.kernel.ball_model.exact_values`; a logarithm, or a square root of anything but a rational square, has
no value in this field). A value is
kept as numerator / denominator, each a finite map exponent -> coefficient (e^a e^b = e^(a + b)). The evaluation map
into the reals is a ring homomorphism, so a numerator that is the zero polynomial is the real number 0: `is_zero` is
an exact zero test that never looks at a float (it is also complete: with N a common denominator of the exponents
every term is a power of e^(1/N), which is transcendental, so a non-zero polynomial has a non-zero value).
Denominators are built only from positive sums (softmax normalizers, the model's positive integers and beta), never
from a value whose sign is unknown: division by a number that is zero is refused.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import partial, reduce
from typing import Any

from . import stored_forms
from .exprtree import NAMED, fold

#: An exponential polynomial: ((exponent, coefficient), ...), exponents increasing, coefficients non-zero.
Poly = tuple[tuple[Fraction, Fraction], ...]

#: The most terms a polynomial may hold (a product of many normalizers grows quickly; past this, no verdict).
MAX_TERMS = 20_000


class ExpFieldError(ValueError):
    """The value cannot be formed exactly (division by zero, too many terms, an inexact ball operand)."""


def _poly(terms: Iterable[tuple[Fraction, Fraction]]) -> Poly:
    """The sum of the terms c e^q, (q, c), as a polynomial: like exponents collected, zero coefficients dropped."""
    collected: dict[Fraction, Fraction] = {}
    for q, c in terms:
        collected[q] = collected.get(q, Fraction(0)) + c
    poly = tuple(sorted((q, c) for q, c in collected.items() if c != 0))
    if len(poly) > MAX_TERMS:
        raise ExpFieldError(f"an exact value with more than {MAX_TERMS} exponential terms")
    return poly


def _mul(p: Poly, r: Poly) -> Poly:
    return _poly((q1 + q2, c1 * c2) for q1, c1 in p for q2, c2 in r)


@dataclass(frozen=True)
class ExpNumber:
    """numerator / denominator, both exponential polynomials; the denominator is never the zero polynomial."""

    numerator: Poly
    denominator: Poly = ((Fraction(0), Fraction(1)),)

    @staticmethod
    def rational(value: Fraction | int) -> ExpNumber:
        return ExpNumber(_poly([(Fraction(0), Fraction(value))]))

    def exp(self) -> ExpNumber:
        """e^self for a rational self (ExpFieldError for any other exponent)."""
        return ExpNumber(((self._rational(), Fraction(1)),))

    def sqrt(self) -> ExpNumber:
        """The square root of a rational that is the square of one (sqrt(0), sqrt(1/4)); ExpFieldError for any other
        value: its root is not in the field."""
        q = self._rational()
        root = Fraction(math.isqrt(q.numerator), math.isqrt(q.denominator)) if q >= 0 else None
        if root is None or root * root != q:
            raise ExpFieldError("a square root of a value that is not a rational square has no exact value here")
        return ExpNumber.rational(root)

    def _rational(self) -> Fraction:
        """The value as a rational (ExpFieldError when it has an exponential term)."""
        if any(q != 0 for q, _ in self.numerator + self.denominator):
            raise ExpFieldError("a value that is not rational where a rational is needed")
        return (self.numerator[0][1] if self.numerator else Fraction(0)) / self.denominator[0][1]

    def is_zero(self) -> bool:
        """Exactly whether the value is 0 (its numerator is the zero polynomial)."""
        return not self.numerator

    def __add__(self, other: Any) -> ExpNumber:
        o = _coerce(other)
        if self.denominator == o.denominator:
            return ExpNumber(_poly(self.numerator + o.numerator), self.denominator)
        top = _poly(_mul(self.numerator, o.denominator) + _mul(o.numerator, self.denominator))
        return ExpNumber(top, _mul(self.denominator, o.denominator))

    __radd__ = __add__

    def __sub__(self, other: Any) -> ExpNumber:
        return self + _coerce(other) * -1

    def __mul__(self, other: Any) -> ExpNumber:
        o = _coerce(other)
        return ExpNumber(_mul(self.numerator, o.numerator), _mul(self.denominator, o.denominator))

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> ExpNumber:
        o = _coerce(other)
        if o.is_zero():
            raise ExpFieldError("division by an exact zero")
        return ExpNumber(_mul(self.numerator, o.denominator), _mul(self.denominator, o.numerator))

    def __pow__(self, k: int) -> ExpNumber:
        if not isinstance(k, int) or isinstance(k, bool) or k < 0:
            raise ExpFieldError("an exact power has a non-negative integer exponent")
        return reduce(operator.mul, [self] * k, ExpNumber.rational(1))


def exactly_zero(tree: Any, point: dict[str, Fraction]) -> bool:
    """Whether the term is exactly 0 at the rational point (named nodes by their closed forms); False where it has no
    value in this field (a logarithm, lambda_c, a root of a non-square, a division by 0): balls alone settle it then,
    and they never say 0."""
    try:
        return _value(tree, {name: ExpNumber.rational(q) for name, q in point.items()}).is_zero()
    except ValueError:  # ExpFieldError, or TreeError for a node without a value here
        return False


def _value(tree: Any, env: dict[str, ExpNumber]) -> ExpNumber:
    rules = {"rat": ExpNumber.rational, "sym": env.__getitem__, "pow": _power, "exp": ExpNumber.exp}
    rules |= {"add": lambda *v: sum(v, ExpNumber.rational(0)), "mul": lambda *v: reduce(operator.mul, v)}
    rules |= {"sub": operator.sub, "neg": lambda v: v * -1, "div": operator.truediv, "sqrt": ExpNumber.sqrt}
    rules |= {name: partial(_named, name) for name in NAMED}
    return fold(tree, rules)


def _power(base: ExpNumber, k: int) -> ExpNumber:
    return base**k if k >= 0 else ExpNumber.rational(1) / base ** (-k)


def _named(name: str, *values: ExpNumber) -> ExpNumber:
    """A named node: its closed form (`stored_forms`) at the values of its arguments."""
    return _value(stored_forms.tree(name), dict(zip(NAMED[name], values, strict=True)))


def _coerce(value: Any) -> ExpNumber:
    """An operand as an exact number: ExpNumber, int or Fraction; anything else (a ball above all) is refused."""
    if isinstance(value, ExpNumber):
        return value
    if isinstance(value, int | Fraction) and not isinstance(value, bool):
        return ExpNumber.rational(value)
    raise ExpFieldError(f"not an exact number: {type(value).__name__}")
