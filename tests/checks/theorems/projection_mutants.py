"""Mutants of the projection identities (checks.theorems.projection): wrong right-hand sides handed to the provers."""

from __future__ import annotations

from headflow.identities import projection

from tests.soundness.mutation import Mutant, symbolic

S, PU, PW, U, W, X = projection.SPACE, projection.PU, projection.PW, projection.U, projection.W, projection.X


def mutants() -> list[Mutant]:
    """The projection identities with a coefficient, sign or projection changed (and two true forms)."""
    ux = S.inner(U, X)
    return [
        Mutant(
            "proj-self-2x",
            "projection.self-pairing",
            "<Pu, u> = 2|Pu|^2 (coefficient)",
            False,
            symbolic(lambda: projection.prove_self_pairing(2 * S.norm2(PU))),
        ),
        Mutant(
            "proj-self-noP",
            "projection.self-pairing",
            "<Pu, u> = |u|^2 (projection dropped)",
            False,
            symbolic(lambda: projection.prove_self_pairing(S.norm2(U))),
        ),
        Mutant(
            "proj-self-sign",
            "projection.self-pairing",
            "<Pu, u> = |u|^2 + <u,x>^2 (sign)",
            False,
            symbolic(lambda: projection.prove_self_pairing(S.norm2(U) + ux**2)),
        ),
        Mutant(
            "proj-self-expanded",
            "projection.self-pairing",
            "<Pu, u> = |u|^2 - <u,x>^2 (true, other form)",
            True,
            symbolic(lambda: projection.prove_self_pairing(S.norm2(U) - ux**2)),
            accept=True,
        ),
        Mutant(
            "proj-sym-noP",
            "projection.symmetry",
            "<Pu, w> = <u, w> (projection dropped)",
            False,
            symbolic(lambda: projection.prove_symmetry(S.inner(U, W))),
        ),
        Mutant(
            "proj-sym-PP",
            "projection.symmetry",
            "<Pu, w> = <Pu, Pw> (true: P is an orthogonal projection)",
            True,
            symbolic(lambda: projection.prove_symmetry(S.inner(PU, PW))),
            accept=True,
        ),
        Mutant(
            "proj-tan-pairing",
            "projection.tangency",
            "<Pu, x> = <u, x> (constant 0 changed)",
            False,
            symbolic(lambda: projection.prove_tangency(pairing_rhs=ux)),
        ),
        Mutant(
            "proj-tan-idem",
            "projection.tangency",
            "P(Pu) = u (idempotence changed to identity)",
            False,
            symbolic(lambda: projection.prove_tangency(projection_rhs=U)),
        ),
    ]
