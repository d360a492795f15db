"""Proof lines that bound the operator norms a point Theorem binds (`statements.opnorm_binders`) by rationals.

Untrusted, like every proof: coqc checks each step. For each matrix P (m x d) and its norm s (the least b >= 0 with
|P v|^2 <= b^2 |v|^2 for every v): an upper bound b, a rational just above the ball of |P|_op, is such a b, since b^2
|v|^2 - |P v|^2 = v^T (b^2 I - P^T P) v = sum_j D_j (L^T v)_j^2 with the exact LDL^T factorization of b^2 I - P^T P
(every D_j >= 0): `ring` shows the identity, the squares' signs the rest; so s <= b. A lower bound a: the definition at
a rational u near the top singular vector gives |P u|^2 <= s^2 |u|^2, so s >= a for any rational a >= 0 with
a^2 |u|^2 <= |P u|^2. The name is the largest of its matrices' norms (`Rmax`), so between the largest lower and the
largest upper bound; `interval` then reads those bounds from the context.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
from headflow.certificates.kernel.coq.statements import identifier, real
from headflow.certificates.kernel.exact import exact_value, precision
from headflow.certificates.kernel.operator_norm import operator_norm

Matrix = Sequence[Sequence[Fraction]]
#: Bits of the balls that place |P|_op, the binary digits of its rational upper bound (short: the LDL^T's
#: entries grow with them) and the relative margin by which the bound rises when the factorization fails.
BITS, DIGITS, MARGIN = 256, 64, Fraction(1, 2**60)


def _gram(P: Matrix) -> list[list[Fraction]]:
    """P^T P, exactly."""
    columns = list(zip(*P, strict=True))
    return [[sum((a * b for a, b in zip(u, w, strict=True)), Fraction(0)) for w in columns] for u in columns]


def ldl(A: list[list[Fraction]]) -> tuple[list[list[Fraction]], list[Fraction]] | None:
    """(L, D) with A = L diag(D) L^T, L unit lower triangular, every D_j >= 0; None if A is not positive
    semi-definite in that order (a pivot < 0, or 0 with a non-zero column below it)."""
    n = len(A)
    A = [row[:] for row in A]
    L = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    D = []
    for j in range(n):
        pivot = A[j][j]
        if pivot < 0 or (pivot == 0 and any(A[i][j] != 0 for i in range(j + 1, n))):
            return None
        D.append(pivot)
        for i in range(j + 1, n):
            L[i][j] = A[i][j] / pivot if pivot else Fraction(0)
        for i in range(j + 1, n):
            for k in range(j + 1, n):
                A[i][k] -= L[i][j] * L[k][j] * pivot
    return L, D


def _upper(P: Matrix) -> tuple[Fraction, list[list[Fraction]], list[Fraction]]:
    """A rational b >= |P|_op and the LDL^T factorization of b^2 I - P^T P that shows it (where none is found, its
    diagonal: the proof then fails in coqc, not here)."""
    G = _gram(P)
    with precision(BITS):
        bound = operator_norm(P).upper()
    b = Fraction(math.ceil(exact_value(bound) * 2**DIGITS), 2**DIGITS)
    for _ in range(8):
        shifted = [[b * b * (i == j) - G[i][j] for j in range(len(G))] for i in range(len(G))]
        if (found := ldl(shifted)) is not None:
            return b, *found
        b = b * (1 + MARGIN) + MARGIN
    identity = [[Fraction(int(i == j)) for j in range(len(G))] for i in range(len(G))]
    return b, identity, [shifted[j][j] for j in range(len(G))]  # not a factorization: coqc rejects the file


def _lower(P: Matrix) -> tuple[Fraction, list[Fraction]]:
    """A rational a <= |P|_op and the rational u with a^2 |u|^2 <= |P u|^2 that shows it."""
    values = np.array([[float(p) for p in row] for row in P])
    _, _, vt = np.linalg.svd(values)
    u = [Fraction(float(x)).limit_denominator(2**40) for x in vt[0]]
    image = sum((sum((p * x for p, x in zip(row, u, strict=True)), Fraction(0)) ** 2 for row in P), Fraction(0))
    size = sum((x * x for x in u), Fraction(0))
    if size == 0 or image == 0:
        return Fraction(0), u
    scale = 2**80
    return Fraction(math.isqrt(math.floor(image / size * scale * scale)), scale), u


def proof_lines(norms: Sequence[tuple[str, Sequence[Matrix]]]) -> list[str]:
    """The intros of the norms' binders and, for each name, `name_bounds : a <= name <= b`."""
    lines: list[str] = []
    for name, matrices in norms:
        parts = [f"{identifier(name)}'{k}" for k in range(len(matrices))]
        lows, highs = [], []
        for part, P in zip(parts, matrices, strict=True):
            h = f"h{len(lines)}"  # the line count: a fresh name
            lines.append(f"  intros {part} [{h}z [{h}b {h}l]].")
            b, L, D = _upper(P)
            v = [f"v{j}" for j in range(len(P[0]))]
            squares = [
                "(" + " + ".join(f"{real(L[i][j])} * {v[i]}" for i in range(j, len(v)) if L[i][j]) + ")"
                for j in range(len(v))
            ]
            kept = [(d, s) for d, s in zip(D, squares, strict=True) if d]
            image = " + ".join(
                "(" + " + ".join(f"{real(p)} * {x}" for p, x in zip(row, v, strict=True)) + ") ^ 2" for row in P
            )
            identity = f"{real(b)} ^ 2 * ({' + '.join(f'{x} ^ 2' for x in v)}) - ({image}) = "
            identity += " + ".join(f"{real(d)} * {s} ^ 2" for d, s in kept) or "0"
            signs = "".join(f"pose proof (pow2_ge_0 {s}); " for _, s in kept)
            lines.append(
                f"  assert ({part}_high : {part} <= {real(b)}) by (apply {h}l; [lra | intros {' '.join(v)}; "
                f"assert ({identity}) by field; {signs}lra])."
            )
            a, u = _lower(P)
            at = " ".join(map(real, u))
            lines.append(f"  assert ({part}_low : {real(a)} <= {part}) by (pose proof ({h}b {at}); nra).")
            lows.append(a)
            highs.append(b)
        symbol = identifier(name)
        lines.append(f"  intros {symbol} h{symbol}.")
        if not parts:  # no matrix: the name is 0
            lines.append(f"  assert ({symbol}_bounds : 0 <= {symbol} <= 0) by (rewrite h{symbol}; lra).")
            continue
        nested = [parts[0]]  # the Theorem's Rmax (Rmax s0 s1) s2 ..., level by level, and what each level is at least
        for part in parts[1:]:
            nested.append(f"(Rmax {nested[-1]} {part})")
        facts = "".join(
            f"pose proof (Rmax_{s} {a} {b}); " for a, b in zip(nested[:-1], parts[1:], strict=True) for s in ("l", "r")
        )
        lines.append(
            f"  assert ({symbol}_bounds : {real(max(lows))} <= {symbol} <= {real(max(highs))}) by "
            f"(rewrite h{symbol}; split; [{facts}lra | repeat apply Rmax_lub; lra])."
        )
    return lines
