"""Mutants of the invariance question (checks.theorems.c8_invariance): wrong exit bounds, points on the wrong side."""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
from headflow.certificates.statements import registry as obligations
from headflow.checks.theorems import c8_invariance as inv
from headflow.identities import condition8_invariance as ci
from headflow.identities.derivation import Derivation

from tests.soundness.mutation import Mutant, point_witness, symbolic

H, n = ci.H, ci.n


def _exit_gap(lower_bound: sp.Expr) -> Derivation:
    derivation = Derivation()
    ci.prove_exit_gap(derivation, lower_bound)
    return derivation


def _witness_point(rho: Fraction, relation: str) -> tuple[list[tuple[str, sp.Expr, str]], dict[sp.Symbol, Fraction]]:
    """The C8.invariance obligation at H = 2, n = 3, alpha = 1, beta near beta*/2, with the last condition's
    relation replaced (">" claims that the trajectory is still inside at rho)."""
    conditions = obligations.invariance_conditions({"H": 2, "n": 3, "alpha": 1})
    name, expr, _ = conditions[-1]
    beta = inv.rational_beta(2, 3, 1, Fraction(1, 2))
    return [*conditions[:-1], (name, expr, relation)], {obligations.beta: beta, obligations.rho_w: rho}


def mutants() -> list[Mutant]:
    inside_late, _ = _witness_point(Fraction(3, 10), ">")
    outside_early, _ = _witness_point(Fraction(1, 10), "<")
    inside_early, _ = _witness_point(Fraction(1, 10), ">")
    beta = inv.rational_beta(2, 3, 1, Fraction(1, 2))
    at = lambda rho: {obligations.beta: beta, obligations.rho_w: rho}  # noqa: E731
    return [
        Mutant(
            "exit-gap-bound-heads",
            "C8.invariance.exit-gap",
            "the exit gap's kappa -> 0 limit is (H - 1)/H (the n -> oo value, not the exact one)",
            False,
            symbolic(lambda: _exit_gap((H - 1) / H)),
        ),
        Mutant(
            "exit-gap-bound-swapped",
            "C8.invariance.exit-gap",
            "the exit gap's kappa -> 0 limit is H (n - 1)/(n (H - 1)) (H and n swapped)",
            False,
            symbolic(lambda: _exit_gap(H * (n - 1) / (n * (H - 1)))),
        ),
        Mutant(
            "exit-gap-bound-true",
            "C8.invariance.exit-gap",
            "the exit gap's kappa -> 0 limit is n (H - 1)/(H (n - 1))",
            True,
            symbolic(lambda: _exit_gap(n * (H - 1) / (H * (n - 1)))),
            accept=True,
        ),
        Mutant(
            "invariance-still-inside",
            "C8.invariance",
            "H = 2, n = 3, beta ~ beta*/2: Condition 8 still holds at rho = 3/10 (past the exit)",
            False,
            point_witness(inside_late, at(Fraction(3, 10))),
        ),
        Mutant(
            "invariance-early-exit",
            "C8.invariance",
            "H = 2, n = 3, beta ~ beta*/2: Condition 8 already fails at rho = 1/10 (before the exit)",
            False,
            point_witness(outside_early, at(Fraction(1, 10))),
        ),
        Mutant(
            "invariance-inside-before-exit",
            "C8.invariance",
            "H = 2, n = 3, beta ~ beta*/2: Condition 8 holds at rho = 1/10",
            True,
            point_witness(inside_early, at(Fraction(1, 10))),
            accept=True,
        ),
    ]
