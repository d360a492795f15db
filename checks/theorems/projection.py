"""The tangent projection P⊥_x u = u - <x, u> x at a unit x: self-pairing, symmetry, tangency, idempotence.

The spherical dynamics move each token along P⊥_x of its velocity field. Each identity is PROVED by
`identities.projection` in dimension-free Gram algebra (inner products with <x, x> = 1), so the
proof holds for every d at once.
"""

from __future__ import annotations

from checks.registry import REGISTRY, Context
from checks.verdicts import Outcome, derived
from identities.projection import prove_self_pairing, prove_symmetry, prove_tangency

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


@REGISTRY.procedure("projection.self-pairing", "symbolic")
def _self_pairing(ctx: Context) -> Outcome:
    return derived(prove_self_pairing(), METHOD)


@REGISTRY.procedure("projection.symmetry", "symbolic")
def _symmetry(ctx: Context) -> Outcome:
    return derived(prove_symmetry(), METHOD)


@REGISTRY.procedure("projection.tangency", "symbolic")
def _tangency(ctx: Context) -> Outcome:
    return derived(prove_tangency(), METHOD)
