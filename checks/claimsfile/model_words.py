"""Vectors with head matrices applied, as bases of the Gram reduction of model claims (`model_atoms.Basis`).

A word is a basis whose name applies matrices of its head to a base vector: ("M[W[f]]", "h", t) is M_h W_h f^h_t
(outermost first), ("M[x]", "h", t) is M_h x_t. A word never mixes heads: its head is that of its matrices and of its
base (x and F have none), and `apply` refuses a matrix of one head on a vector of another (M_h f^g is not a word of
one head). A pairing <A a, B b> is an opaque atom of the reduction. When every matrix of the two words is symmetric
(M under symmetric-scores, W under symmetric-values) and the two sides are at one head (or one of them at none),
<A1 A2 a, B b> = <a, A2 A1 B b>: the matrices may move between the sides, and `pairing` names the pairing by one
split of the word chosen from the whole set of splits, so equal pairings get one name. Otherwise the pairing is left
as it is (the reduction sorts its sides).
"""

from __future__ import annotations

import re

from headflow.checks.claimsfile.model_atoms import Basis

_OPERATOR = re.compile(r"^([MW])\[(.*)\]$")
#: The base vectors that belong to a head (f^h_t, xbar^h_t); x and F do not.
HEADED = ("f", "xbar")


def word(name: str) -> tuple[list[str], str]:
    """The matrices of the basis name `name` (outermost first, "M" or "W") and the base vector they apply to."""
    ops = []
    match = _OPERATOR.match(name)
    while match is not None:
        ops.append(match.group(1))
        name = match.group(2)
        match = _OPERATOR.match(name)
    return ops, name


def applied(ops: list[str], core: str) -> str:
    """The basis name of the word `ops` (outermost first) applied to the base vector `core`."""
    for op in reversed(ops):
        core = f"{op}[{core}]"
    return core


def apply(matrix: str, head: str, b: Basis) -> Basis | None:
    """The basis matrix_head b, or None when b belongs to another head (the word would mix two heads)."""
    if b[1] is not None and b[1] != head:
        return None
    return (applied([matrix], b[0]), head, b[2])


def _basis(ops: list[str], core: str, head: str, token: str) -> Basis:
    return (applied(ops, core), head if ops or core in HEADED else None, token)


def _key(b: Basis) -> tuple[str, str, str]:
    return (b[2], b[0], b[1] or "")


def pairing(a: Basis, b: Basis, symmetric: frozenset[str]) -> tuple[Basis, Basis]:
    """The two bases that name <a, b> (`symmetric`: the matrix letters, "M" and/or "W", that are symmetric).

    When every matrix is symmetric and the sides share their head, every split of the word between the two sides is
    the same pairing: a split with equal sides is chosen when there is one (a square, which the reduction knows is
    >= 0), else the least."""
    ops_a, core_a = word(a[0])
    ops_b, core_b = word(b[0])
    moved = [*reversed(ops_a), *ops_b]
    heads = {a[1], b[1]} - {None}
    if not moved or len(heads) != 1 or any(op not in symmetric for op in moved):
        return a, b
    (head,) = heads
    splits = []
    for k in range(len(moved) + 1):
        sides = (_basis(list(reversed(moved[:k])), core_a, head, a[2]), _basis(moved[k:], core_b, head, b[2]))
        splits.append(tuple(sorted(sides, key=_key)))
    squares = [s for s in splits if s[0] == s[1]]
    first, second = min(squares or splits, key=lambda s: (_key(s[0]), _key(s[1])))
    return first, second
