"""Mutants of the critical-points claims (checks.theorems.critical_points): a wrong simplex, a non-equilibrium."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy as sp
from headflow.checks.evidence import equilibria
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict
from headflow.identities import critical_points as proofs

from tests.soundness.mutation import Decide, Mutant, symbolic

#: The issue's instance: n = 4, d = 3, two scalar heads 1 and 1/2, softmax, beta = 1.
INSTANCE = equilibria.instance(4, 3, [Fraction(1), Fraction(1, 2)], "softmax", Fraction(1), "scalar")


def _certified_equilibrium(tokens: list[list[float]]) -> Decide:
    """The equilibrium certifier on a float configuration: CERTIFIED when it certifies one, else INCONCLUSIVE."""

    def decide(ctx: Context) -> Outcome:
        outcome = equilibria.certify(INSTANCE, equilibria._normalized(np.array(tokens, dtype=float)))
        if outcome["certified"]:
            return Outcome(Verdict.CONFIRMED, "equilibrium certifier", cases=1, notes="certified")
        return Outcome(Verdict.INCONCLUSIVE, "equilibrium certifier", notes=str(outcome.get("reason", ""))[:200])

    return decide


def mutants() -> list[Mutant]:
    return [
        Mutant(
            "simplex-wrong-rho",
            "critical-points.simplex",
            "equiangular tokens with rho = -1/2 (not -1/(n-1)) are an equilibrium by the simplex argument",
            False,
            symbolic(lambda: proofs.prove_simplex(sp.Rational(-1, 2))),
        ),
        Mutant(
            "simplex-true",
            "critical-points.simplex",
            "the regular simplex (rho = -1/(n-1)) is an equilibrium for every kind and scalar heads",
            True,
            symbolic(proofs.prove_simplex),
            accept=True,
        ),
        Mutant(
            "non-equilibrium-certified",
            "critical-points",
            "n = 4, d = 3, softmax, heads 1 and 1/2: three orthonormal tokens and their diagonal are an equilibrium",
            False,
            _certified_equilibrium([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]]),
        ),
    ]
