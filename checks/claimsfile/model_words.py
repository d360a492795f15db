"""Names of pairings of vectors with head matrices applied, for the per-token Gram reduction of model claims.

A vector of the reduction is a word of matrices applied to a base vector: `M_h[W_h[x]]` is M_h W_h x (outermost
first). A pairing <A a, B b> is an opaque atom of the reduction, named by `pairing`. When every matrix in the two
words is symmetric (M_h under symmetric-scores, W_h under symmetric-values), <A1 A2 a, B b> = <a, A2 A1 B b>: the
matrices may move between the sides, and the pairing is named by one split of the word chosen from the whole set of
splits (so equal pairings get one name). Otherwise the two sides are only sorted (symmetry of the inner product).
Names keep the `<first,second>` shape that the reduction's other rewrites read.
"""

from __future__ import annotations

import re

_OPERATOR = re.compile(r"^([MW]_[a-z])\[(.*)\]$")


def word(base: str) -> tuple[list[str], str]:
    """The matrices of `base` (outermost first) and the vector they are applied to."""
    ops = []
    match = _OPERATOR.match(base)
    while match is not None:
        ops.append(match.group(1))
        base = match.group(2)
        match = _OPERATOR.match(base)
    return ops, base


def applied(ops: list[str], core: str) -> str:
    """The base name of the word `ops` (outermost first) applied to `core`."""
    for op in reversed(ops):
        core = f"{op}[{core}]"
    return core


def pairing(a: str, b: str, symmetric: frozenset[str]) -> tuple[str, str]:
    """The two bases that name <a, b> (sorted; `symmetric`: the matrix letters, "M" and/or "W", that are symmetric).

    When every matrix is symmetric, every split of the word between the two sides is the same pairing: a split
    with equal sides is chosen when there is one (a square, which the reduction knows is >= 0), else the least."""
    ops_a, core_a = word(a)
    ops_b, core_b = word(b)
    moved = [*reversed(ops_a), *ops_b]
    if not moved or any(op[0] not in symmetric for op in moved):
        first, second = sorted((a, b))
        return first, second
    splits = [
        tuple(sorted((applied(list(reversed(moved[:k])), core_a), applied(moved[k:], core_b))))
        for k in range(len(moved) + 1)
    ]
    squares = [s for s in splits if s[0] == s[1]]
    first, second = min(squares or splits)
    return first, second
