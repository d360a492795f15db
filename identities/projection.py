"""The tangent-projection identities, proved in every dimension by Gram algebra.

x is a unit vector and u, w are arbitrary: each identity reduces to a polynomial identity in
the pairings <u, u>, <u, x>, <u, w>, <w, x> (with <x, x> = 1), which holds for every d.
Each prover takes the claimed right-hand side, so a wrong variant can be shown not to prove.
"""

from __future__ import annotations

import sympy as sp
from headflow.identities.derivation import Derivation
from headflow.identities.gram import GramSpace, Vector

x_name, u_name, w_name = sp.symbols("x u w")
SPACE = GramSpace.create(unit=[x_name])
X, U, W = Vector.named(x_name), Vector.named(u_name), Vector.named(w_name)
PU = SPACE.project(X, U)
PW = SPACE.project(X, W)

DEFINITION = r"P^\perp_x u = u - \langle u, x\rangle x,\quad \langle x, x\rangle = 1,\quad x, u, w \in \mathbb{R}^d"


def _setup(d: Derivation) -> None:
    d.note(
        "Write x, u, w as formal vectors and every inner product as a Gram symbol; impose <x, x> = 1. "
        "Nothing depends on d, so a residual that vanishes identically proves the identity for every d >= 1",
        DEFINITION,
    )


def prove_self_pairing(rhs: sp.Expr | None = None) -> Derivation:
    """<P⊥_x u, u> = rhs, by default rhs = |P⊥_x u|^2."""
    rhs = SPACE.norm2(PU) if rhs is None else rhs
    d = Derivation()
    _setup(d)
    lhs = SPACE.inner(PU, U)
    d.note("Expand the left side bilinearly", rf"\langle P^\perp_x u, u\rangle = {sp.latex(lhs)}")
    d.note("Expand the claimed right side", rf"|P^\perp_x u|^2 \to {sp.latex(sp.expand(rhs))}")
    d.zero("Left minus right side", lhs - rhs, rf"{sp.latex(lhs)} - \left({sp.latex(sp.expand(rhs))}\right) = 0")
    return d


def prove_symmetry(rhs: sp.Expr | None = None) -> Derivation:
    """<P⊥_x u, w> = rhs, by default rhs = <u, P⊥_x w>."""
    rhs = SPACE.inner(U, PW) if rhs is None else rhs
    d = Derivation()
    _setup(d)
    lhs = SPACE.inner(PU, W)
    d.note("Expand both sides bilinearly", rf"\langle P^\perp_x u, w\rangle = {sp.latex(lhs)}")
    d.zero(
        "Left minus right side (the pairing <u, x><w, x> is symmetric in u and w)",
        lhs - rhs,
        rf"{sp.latex(lhs)} - \left({sp.latex(sp.expand(rhs))}\right) = 0",
    )
    return d


def prove_tangency(pairing_rhs: sp.Expr | int = 0, projection_rhs: Vector | None = None) -> Derivation:
    """<P⊥_x u, x> = pairing_rhs (by default 0) and P⊥_x P⊥_x u = projection_rhs (by default P⊥_x u)."""
    projection_rhs = PU if projection_rhs is None else projection_rhs
    d = Derivation()
    _setup(d)
    lhs = SPACE.inner(PU, X)
    d.zero(
        "Tangency: <P u, x> = <u, x> - <u, x><x, x> and <x, x> = 1",
        lhs - pairing_rhs,
        rf"\langle P^\perp_x u, x\rangle = {sp.latex(lhs)} = {sp.latex(pairing_rhs)}",
    )
    twice = SPACE.project(X, PU)
    difference = twice - projection_rhs  # every coefficient is checked, none dropped on a simplify
    d.note(
        "Idempotence: expand P(P u) as a combination of u and x",
        rf"P^\perp_x P^\perp_x u = u - \left({sp.latex(SPACE.inner(PU, X) + SPACE.inner(U, X))}\right) x",
    )
    residuals = list(difference.terms.values()) or [sp.Integer(0)]
    for residual in residuals:
        d.zero(
            "Idempotence: every coefficient of P(P u) - P u vanishes (a zero combination is the zero vector)", residual
        )
    return d
