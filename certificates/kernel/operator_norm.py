"""Rigorous operator norms of exact rational matrices: |P|_op = sqrt(lambda_max(P^T P)) as a ball.

Theorem 39 measures approximate orthogonality by delta = max_{h != g} |M_h M_g|_op (the model term `delta_op` of
`certificates.kernel.model_terms`; `misalignment_h` = |W_h - M_h|_op likewise). Its value at exact data is
enclosed by exact facts alone, with no floating-point eigensolver and no proposed vector: for a symmetric rational A
(here P^T P) and a rational t, t I - A is positive definite, shown or refuted by exact Gaussian elimination (every
pivot > 0), iff lambda_max(A) < t. Bisection on t from [max_k A_kk, max_i sum_j |A_ij|] (a diagonal entry is a
Rayleigh quotient, the row sum Gershgorin's bound) gives L <= lambda_max(A) <= U with U - L at most 2^-STEPS of the
first interval's width; then |P|_op lies in [sqrt(L), sqrt(U)] (square roots as balls). A = 0 gives exactly 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from flint import arb, fmpq

from certificates.kernel.exact import ball_of

Matrix = Sequence[Sequence[Fraction]]
#: Bisection steps of the largest eigenvalue (each one exact elimination).
STEPS = 72


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


def largest_eigenvalue(A: Matrix) -> tuple[fmpq, fmpq]:
    """(L, U) with L <= lambda_max(A) <= U for a symmetric rational A, by exact bisection (the module's docstring)."""
    rows = [[fmpq(q.numerator, q.denominator) for q in row] for row in A]
    size = len(rows)
    low = max(rows[k][k] for k in range(size))
    high = max(sum((abs(a) for a in row), fmpq(0)) for row in rows)
    for _ in range(STEPS):
        middle = (low + high) / 2
        if positive_definite([[(middle if i == j else 0) - rows[i][j] for j in range(size)] for i in range(size)]):
            high = middle
        else:
            low = middle
    return low, high


def gram(P: Matrix) -> list[list[Fraction]]:
    """P^T P, exactly."""
    return product(_transpose(P), P)


def operator_norm(P: Matrix) -> arb:
    """|P|_op as a ball (exactly 0 for P = 0)."""
    if all(entry == 0 for row in P for entry in row):
        return ball_of(0)
    low, high = largest_eigenvalue(gram(P))
    return arb(low).sqrt().union(arb(high).sqrt())


def max_cross_operator_norm(matrices: Sequence[Matrix]) -> arb:
    """max_{h != g} |M_h M_g|_op as a ball (exactly 0 for one head: no pair)."""
    norms = [operator_norm(product(matrices[h], matrices[g]))
             for h in range(len(matrices)) for g in range(len(matrices)) if h != g]  # fmt: skip
    if not norms:
        return ball_of(0)
    out = norms[0]
    for value in norms[1:]:
        out = arb.max(out, value)
    return out
