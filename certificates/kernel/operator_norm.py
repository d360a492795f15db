"""Rigorous operator norms of exact rational matrices: |P|_op = sqrt(lambda_max(P^T P)) as a ball.

Theorem 39 measures approximate orthogonality by delta = max_{h != g} |M_h M_g|_op (the model term `delta_op` of
`certificates.kernel.claims.model_terms`). Its value at exact data is enclosed from two exact facts, neither taken
from a floating-point eigensolver:

- a lower bound: the Rayleigh quotient L = v^T A v / v^T v of a rational vector v != 0 (A = P^T P), which is
  <= lambda_max(A) for every v; v is mpmath's eigenvector rounded to rationals, a proposal only;
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
    import mpmath

Matrix = Sequence[Sequence[Fraction]]
#: Decimal digits of the eigenvector proposal; relative gaps tried between the lower and the upper bound.
DIGITS = 40
GAPS = tuple(Fraction(1, 2**k) for k in (60, 40, 20, 10, 4, 1))


def _product(A: Matrix, B: Matrix) -> list[list[Fraction]]:
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


def _rational(x: mpmath.mpf) -> Fraction:
    """x rounded to DIGITS decimal digits, as an exact rational (a proposal: any rational vector is sound)."""
    import mpmath

    return Fraction(mpmath.nstr(x, DIGITS))


def _rayleigh(A: Matrix) -> Fraction:
    """v^T A v / v^T v for v the rounded top eigenvector of A (mpmath's proposal), a lower bound of lambda_max."""
    import mpmath

    with mpmath.workdps(DIGITS):
        values, vectors = mpmath.eigsy(mpmath.matrix([[mpmath.mpf(q.numerator) / q.denominator for q in row]
                                                      for row in A]))  # fmt: skip
        top = max(range(len(A)), key=lambda k: values[k])
        v = [_rational(mpmath.mpf(vectors[i, top])) for i in range(len(A))]
    norm = sum(c * c for c in v)
    if norm == 0:
        return Fraction(0)
    return sum(v[i] * A[i][j] * v[j] for i in range(len(A)) for j in range(len(A))) / norm


def largest_eigenvalue_bounds(A: Matrix) -> tuple[Fraction, Fraction] | None:
    """(L, U) with L <= lambda_max(A) < U for a symmetric positive semi-definite rational A ((0, 0) for A = 0), or
    None when no tried U was shown (then nothing is claimed)."""
    low = max(_rayleigh(A), Fraction(0))
    scale = max(low, max((abs(a) for row in A for a in row), default=Fraction(0)))
    if scale == 0:
        return Fraction(0), Fraction(0)
    for gap in GAPS:
        high = low + gap * scale
        shifted = [[(high if i == j else 0) - A[i][j] for j in range(len(A))] for i in range(len(A))]
        if positive_definite(shifted):
            return low, high
    return None


def operator_norm(P: Matrix) -> arb:
    """|P|_op as a ball (ValueError when its upper bound could not be shown)."""
    if all(entry == 0 for row in P for entry in row):
        return ball_of(0)
    bounds = largest_eigenvalue_bounds(_product(_transpose(P), P))
    if bounds is None:
        raise ValueError("no certified upper bound of an operator norm")
    low, high = bounds
    return ball_of(low).sqrt().union(ball_of(high).sqrt())


def max_cross_operator_norm(matrices: Sequence[Matrix]) -> arb:
    """max_{h != g} |M_h M_g|_op as a ball (exactly 0 for one head: no pair)."""
    norms = [operator_norm(_product(matrices[h], matrices[g]))
             for h in range(len(matrices)) for g in range(len(matrices)) if h != g]  # fmt: skip
    if not norms:
        return ball_of(0)
    out = norms[0]
    for value in norms[1:]:
        out = arb.max(out, value)
    return out
