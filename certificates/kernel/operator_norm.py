"""Rigorous operator norms of exact rational matrices: |P|_op = sqrt(lambda_max(P^T P)) as a ball.

Theorem 39 measures approximate orthogonality by delta = max_{h != g} |M_h M_g|_op (the model term `delta_op` of
`certificates.kernel.claims.model_terms`). Its value at exact data is enclosed from two exact facts, neither taken
from a floating-point eigensolver:

- a lower bound: the Rayleigh quotient L = v^T A v / v^T v of a rational vector v != 0 (A = P^T P), which is
  <= lambda_max(A) for every v; v is data (mpmath's eigenvector rounded to rationals, proposed by
  `certificates.kernel.claims.operator_norms`, which no certificate check loads);
- an upper bound: U such that U I - A is positive definite, shown by exact Gaussian elimination in rationals (every
  pivot > 0), so lambda_max(A) < U.

Then |P|_op lies in [sqrt(L), sqrt(U)] (square roots as balls). A = 0 gives exactly 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from flint import arb

from certificates.kernel.exact import ball_of

if TYPE_CHECKING:  # the eigenvector proposal loads mpmath on use only (checking a positive definite matrix needs none)
    pass

Matrix = Sequence[Sequence[Fraction]]
#: Decimal digits of the eigenvector proposal; relative gaps tried between the lower and the upper bound.
DIGITS = 40
GAPS = tuple(Fraction(1, 2**k) for k in (60, 40, 20, 10, 4, 1))


def product(A: Matrix, B: Matrix) -> list[list[Fraction]]:
    return [[sum((A[i][k] * B[k][j] for k in range(len(B))), Fraction(0)) for j in range(len(B[0]))]
            for i in range(len(A))]  # fmt: skip


def _transpose(A: Matrix) -> list[list[Fraction]]:
    return [list(column) for column in zip(*A, strict=True)]


def positive_definite(A: Matrix) -> bool:
    """Whether the symmetric rational matrix A is positive definite: exact elimination, every pivot > 0."""
    rows = [list(row) for row in A]
    size = len(rows)
    for k in range(size):
        if rows[k][k] <= 0:
            return False
        for i in range(k + 1, size):
            factor = rows[i][k] / rows[k][k]
            for j in range(k, size):
                rows[i][j] -= factor * rows[k][j]
    return True


def rayleigh(A: Matrix, v: Sequence[Fraction]) -> Fraction:
    """v^T A v / v^T v (0 for v = 0): a lower bound of lambda_max(A) for every rational v."""
    norm = sum(c * c for c in v)
    if norm == 0:
        return Fraction(0)
    return sum(v[i] * A[i][j] * v[j] for i in range(len(A)) for j in range(len(A))) / norm


def largest_eigenvalue_bounds(A: Matrix, v: Sequence[Fraction]) -> tuple[Fraction, Fraction] | None:
    """(L, U) with L <= lambda_max(A) < U for a symmetric positive semi-definite rational A ((0, 0) for A = 0), L the
    Rayleigh quotient of the given vector v, or None when no tried U was shown (then nothing is claimed)."""
    if len(v) != len(A):
        raise ValueError("the vector of a Rayleigh quotient has the matrix's size")
    low = max(rayleigh(A, v), Fraction(0))
    scale = max(low, max((abs(a) for row in A for a in row), default=Fraction(0)))
    if scale == 0:
        return Fraction(0), Fraction(0)
    for gap in GAPS:
        high = low + gap * scale
        shifted = [[(high if i == j else 0) - A[i][j] for j in range(len(A))] for i in range(len(A))]
        if positive_definite(shifted):
            return low, high
    return None


def gram(P: Matrix) -> list[list[Fraction]]:
    """P^T P, exactly."""
    return product(_transpose(P), P)


def operator_norm(P: Matrix, v: Sequence[Fraction]) -> arb:
    """|P|_op as a ball, its lower end from the given vector v (ideally the top eigenvector of P^T P); ValueError
    when its upper bound could not be shown."""
    if all(entry == 0 for row in P for entry in row):
        return ball_of(0)
    bounds = largest_eigenvalue_bounds(gram(P), v)
    if bounds is None:
        raise ValueError("no certified upper bound of an operator norm")
    low, high = bounds
    return ball_of(low).sqrt().union(ball_of(high).sqrt())
