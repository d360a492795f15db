"""Operator norms at exact data with their proposals: the top eigenvector of P^T P from mpmath, rounded to rationals,
handed to the kernel's exact enclosure (`certificates.kernel.operator_norm`), which holds for any vector."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import mpmath
from flint import arb

from certificates.kernel import operator_norm as exact_norms
from certificates.kernel.exact import ball_of

Matrix = Sequence[Sequence[Fraction]]
#: Decimal digits of the eigenvector proposal.
DIGITS = 40


def top_vector(A: Matrix) -> list[Fraction]:
    """The top eigenvector of the symmetric A by mpmath, rounded to DIGITS digits (a proposal: any vector is sound)."""
    with mpmath.workdps(DIGITS):
        values, vectors = mpmath.eigsy(mpmath.matrix([[mpmath.mpf(q.numerator) / q.denominator for q in row]
                                                      for row in A]))  # fmt: skip
        top = max(range(len(A)), key=lambda k: values[k])
        return [Fraction(mpmath.nstr(mpmath.mpf(vectors[i, top]), DIGITS)) for i in range(len(A))]


def operator_norm(P: Matrix) -> arb:
    """|P|_op as a ball, the kernel's enclosure at the proposed vector (ValueError when no upper bound is shown)."""
    if all(entry == 0 for row in P for entry in row):
        return ball_of(0)
    return exact_norms.operator_norm(P, top_vector(exact_norms.gram(P)))


def max_cross_operator_norm(matrices: Sequence[Matrix]) -> arb:
    """max_{h != g} |M_h M_g|_op as a ball (exactly 0 for one head: no pair)."""
    norms = [operator_norm(exact_norms.product(matrices[h], matrices[g]))
             for h in range(len(matrices)) for g in range(len(matrices)) if h != g]  # fmt: skip
    if not norms:
        return ball_of(0)
    out = norms[0]
    for value in norms[1:]:
        out = arb.max(out, value)
    return out
