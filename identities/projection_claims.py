"""Symbolic procedures for the projection identities (proofs in identities.projection)."""

from __future__ import annotations

from checks.registry import REGISTRY, Context
from checks.verdicts import Outcome
from identities.projection import prove_self_pairing, prove_symmetry, prove_tangency

METHOD = "symbolic: dimension-free Gram algebra with <x, x> = 1 (SymPy), valid for every d"


@REGISTRY.procedure("projection.self-pairing", "symbolic")
def _self_pairing(ctx: Context) -> Outcome:
    return prove_self_pairing().outcome(METHOD)


@REGISTRY.procedure("projection.symmetry", "symbolic")
def _symmetry(ctx: Context) -> Outcome:
    return prove_symmetry().outcome(METHOD)


@REGISTRY.procedure("projection.tangency", "symbolic")
def _tangency(ctx: Context) -> Outcome:
    return prove_tangency().outcome(METHOD)
