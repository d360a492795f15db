"""The tangent projection P⊥_x u = u - <x, u> x at a unit x: self-pairing, symmetry, tangency, idempotence.

The spherical dynamics move each token along P⊥_x of its velocity field. Each identity is PROVED by
`headflow.identities.projection` in dimension-free Gram algebra (inner products with <x, x> = 1), so the
proof holds for every d at once.
"""

from __future__ import annotations

from headflow.checks.registry import REGISTRY
from headflow.identities.projection import prove_self_pairing, prove_symmetry, prove_tangency

_STATEMENTS: tuple[tuple[str, str, str], ...] = (
    (
        "projection.self-pairing",
        "Self-pairing of the tangent projection",
        "For every d >= 1, every unit x in R^d and every u in R^d: <P⊥_x u, u> = |P⊥_x u|^2.",
    ),
    (
        "projection.symmetry",
        "Symmetry of the tangent projection",
        "For every d >= 1, every unit x and every u, w in R^d: <P⊥_x u, w> = <u, P⊥_x w>.",
    ),
    (
        "projection.tangency",
        "Tangency and idempotence of the tangent projection",
        "For every d >= 1, every unit x and every u in R^d: <P⊥_x u, x> = 0 and P⊥_x P⊥_x u = P⊥_x u.",
    ),
)

REGISTRY.declare_all(_STATEMENTS)


METHOD = "symbolic: dimension-free Gram algebra with <x, x> = 1 (SymPy), valid for every d"


REGISTRY.derivations(
    __name__,
    (
        ("projection.self-pairing", prove_self_pairing, METHOD),
        ("projection.symmetry", prove_symmetry, METHOD),
        ("projection.tangency", prove_tangency, METHOD),
    ),
)
