"""First-order jets over balls: a value and its partial derivatives, each a python-flint ball.

Evaluating the model's formulas on jets (forward-mode differentiation) gives, from the one ball
implementation of the model (`certificates.kernel.ball_model`), an enclosure of the value and of the
Jacobian together; on inputs that are balls covering a box, the Jacobian enclosure holds at every
point of the box, which is what an interval Newton (Krawczyk) test and a certified spectrum need.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from flint import arb

from certificates.kernel.exact import ball_of

Scalar = arb | int | Fraction


def _ball(value: Scalar) -> arb:
    return value if isinstance(value, arb) else ball_of(value)


class Jet:
    """value + sum_k grad[k] dt_k: the arithmetic of first-order Taylor models without remainder."""

    __slots__ = ("grad", "value")

    def __init__(self, value: arb, grad: Sequence[arb]) -> None:
        self.value, self.grad = value, tuple(grad)

    @staticmethod
    def variables(values: Sequence[arb]) -> list[Jet]:
        """The independent variables t_k = values[k], each with the unit gradient e_k."""
        return [Jet(v, [arb(int(k == j)) for k in range(len(values))]) for j, v in enumerate(values)]

    def __add__(self, other: Jet | Scalar) -> Jet:
        if not isinstance(other, Jet):
            return Jet(self.value + _ball(other), self.grad)
        return Jet(self.value + other.value, [a + b for a, b in zip(self.grad, other.grad, strict=True)])

    __radd__ = __add__

    def __neg__(self) -> Jet:
        return Jet(-self.value, [-a for a in self.grad])

    def __sub__(self, other: Jet | Scalar) -> Jet:
        return self + (-other)

    def __rsub__(self, other: Jet | Scalar) -> Jet:
        return (-self) + other

    def __mul__(self, other: Jet | Scalar) -> Jet:
        if not isinstance(other, Jet):
            factor = _ball(other)
            return Jet(self.value * factor, [a * factor for a in self.grad])
        u, v = self.value, other.value
        return Jet(u * v, [a * v + u * b for a, b in zip(self.grad, other.grad, strict=True)])

    __rmul__ = __mul__

    def __truediv__(self, other: Jet | Scalar) -> Jet:
        if not isinstance(other, Jet):
            return self * (1 / _ball(other))
        inverse = 1 / other.value
        quotient = self.value * inverse
        return Jet(quotient, [(a - quotient * b) * inverse for a, b in zip(self.grad, other.grad, strict=True)])

    def __rtruediv__(self, other: Scalar) -> Jet:
        return Jet(_ball(other), [arb(0)] * len(self.grad)) / self

    def exp(self) -> Jet:
        value = self.value.exp()
        return Jet(value, [a * value for a in self.grad])

    def sqrt(self) -> Jet:
        root = self.value.sqrt()
        return Jet(root, [a / (2 * root) for a in self.grad])
