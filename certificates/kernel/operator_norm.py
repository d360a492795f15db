"""Rigorous operator norms of exact rational matrices: |P|_op = sqrt(lambda_max(P^T P)) as a ball.

Theorem 39 measures approximate orthogonality by delta = max_{h != g} |M_h M_g|_op (the model term `delta_op` of
`headflow.certificates.kernel.model_terms`; `misalignment_h` = |W_h - M_h|_op likewise). Its value at exact data is
enclosed by exact facts alone, with no floating-point eigensolver and no proposed vector: the eigenvalues of the
symmetric rational A = P^T P are the roots of its characteristic polynomial det(tI - A), exact in rationals
(python-flint's fmpq_mat), all real and >= 0, and python-flint isolates and encloses every root of an exact
polynomial rigorously (`complex_roots`); lambda_max lies in the largest of the real parts' balls. The same
polynomial decides positive definiteness exactly: a symmetric A has only positive eigenvalues iff the coefficients
of det(tI - A) alternate strictly in sign (all its roots are real; by Descartes, none is <= 0 exactly then).
"""

from functools import reduce
from itertools import permutations

from flint import arb, fmpq, fmpq_mat

from .exact_data import Matrix


def rational_matrix(A: Matrix) -> fmpq_mat:
    """The exact matrix in python-flint rationals (exact products, equality, rank, nullspace, characteristic
    polynomial)."""
    return fmpq_mat([[fmpq(q.numerator, q.denominator) for q in row] for row in A])


def positive_definite(A: Matrix) -> bool:
    """Whether the symmetric rational matrix A is positive definite, exactly (the module's docstring: the coefficients
    of det(tI - A), from t^0 up, alternate strictly in sign)."""
    return all((-1) ** (len(A) - k) * c > 0 for k, c in enumerate(rational_matrix(A).charpoly().coeffs()))


def operator_norm(P: Matrix | fmpq_mat) -> arb:
    """|P|_op = sqrt(lambda_max(P^T P)) as a ball (exactly 0 for P = 0: the only root is 0)."""
    P = P if isinstance(P, fmpq_mat) else rational_matrix(P)
    roots = (P.transpose() * P).charpoly().complex_roots()
    return reduce(arb.max, (root.real for root, _ in roots)).nonnegative_part().sqrt()


def cross_products(matrices: list[Matrix]) -> list[fmpq_mat]:
    """M_h M_g for every ordered pair h != g, exactly."""
    return [A * B for A, B in permutations(map(rational_matrix, matrices), 2)]


def max_operator_norm(matrices: list[fmpq_mat]) -> arb:
    """max_k |P_k|_op as a ball (exactly 0 for no matrix)."""
    return reduce(arb.max, map(operator_norm, matrices), arb(0))
