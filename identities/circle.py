"""The circle (d = 2) in SymPy: the phase form of the dynamics derived from the model, and the equally spaced
equilibrium.

Phase form. Tokens x_i = (c_i, s_i) with c_i^2 + s_i^2 = 1 (c_i = cos theta_i, s_i = sin theta_i), heads
M_h = W_h = lambda_h I. The tangent frame e_i = (-s_i, c_i) is a unit vector orthogonal to x_i, so every tangent
velocity is xdot_i = theta_i' e_i with theta_i' = <xdot_i, e_i>; the model's scores are s^h_ij = <x_i, M_h x_j> =
lambda_h (c_i c_j + s_i s_j) = lambda_h cos(theta_j - theta_i), and with v_i = c sum_h lambda_h sum_j w^h_ij x_j,

    theta_i' = <P⊥_{x_i} v_i, e_i> = <v_i, e_i> = c sum_h lambda_h sum_j w^h_ij sin(theta_j - theta_i),

because <x_j, e_i> = s_j c_i - c_j s_i = sin(theta_j - theta_i). `phase_form` checks each polynomial step exactly
(`headflow.identities.derivation`); the angle-difference formulas are cited.

Equally spaced tokens theta_k = theta_0 + 2 pi k / n (any d: on a great circle). Every weight depends on
cos(theta_j - theta_i) only, so the terms k and n - k of theta_i' cancel (cos is even, sin odd): the tangent part
of every v_i vanishes and v_i = a x_i with a = c sum_h lambda_h sum_k w^h(lambda_h cos(2 pi k/n)) cos(2 pi k/n),
which is positive when every lambda_h > 0. `equally_spaced_equilibrium` states this for a scheme: the directions
stay fixed for Post-LN with any strengths, and for nGPT, Pre-LN, Peri-LN and Mix-LN when every lambda_h > 0
(then a > 0, so |x_i| grows and no Norm(v) is taken of a zero vector).
"""

from __future__ import annotations

import sympy as sp
from headflow.identities.derivation import Derivation

c_i, s_i, c_j, s_j = sp.symbols("c_i s_i c_j s_j", real=True)
lam, w = sp.symbols("lambda w", real=True)
cos_ij, sin_ij = sp.symbols("cos_ij sin_ij", real=True)

#: The schemes of `headflow.certificates.kernel.vocabulary.GEOMETRIES` whose directions the equilibrium holds for, and
#: whether that needs every lambda_h > 0 (a > 0).
EQUILIBRIUM_SCHEMES = {"sphere": False, "ngpt": True, "pre-ln": True, "peri-ln": True, "mix-ln": True}


def _dot(u: tuple[sp.Expr, sp.Expr], v: tuple[sp.Expr, sp.Expr]) -> sp.Expr:
    return u[0] * v[0] + u[1] * v[1]


def phase_form(derivation: Derivation) -> None:
    """Derive theta_i' = c sum_h lambda_h sum_j w^h_ij sin(theta_j - theta_i) (Post-LN, M_h = W_h = lambda_h I, d = 2)
    from the model's definitions, each polynomial step checked exactly."""
    x_i, e_i = (c_i, s_i), (-s_i, c_i)
    on_circle = {s_i**2: 1 - c_i**2}
    derivation.cite(
        "angle-difference formulas",
        "cos(theta_j - theta_i) = c_i c_j + s_i s_j and sin(theta_j - theta_i) = s_j c_i - c_j s_i",
        "trigonometry",
    )
    derivation.zero(
        "the score <x_i, lambda x_j> = lambda cos(theta_j - theta_i)",
        _dot(x_i, (lam * c_j, lam * s_j)) - lam * (c_i * c_j + s_i * s_j),
    )
    derivation.all_zero(
        "e_i = (-s_i, c_i) is a unit tangent at x_i: <x_i, e_i> = 0 and <e_i, e_i> = 1 on the circle",
        [_dot(x_i, e_i), sp.expand(_dot(e_i, e_i) - 1).subs(on_circle)],
    )
    v = sp.symbols("v_1 v_2", real=True)
    projected = tuple(vk - _dot(v, x_i) * xk for vk, xk in zip(v, x_i, strict=True))
    derivation.zero(
        "theta_i' = <P⊥_{x_i} v_i, e_i> = <v_i, e_i> (the projection removes only the part along x_i)",
        _dot(projected, e_i) - _dot(v, e_i),
    )
    derivation.zero(
        "one term of v_i: <lambda w x_j, e_i> = lambda w sin(theta_j - theta_i)",
        _dot((lam * w * c_j, lam * w * s_j), e_i) - lam * w * (s_j * c_i - c_j * s_i),
    )
    derivation.note(
        "summing the terms (the pairing is linear in v_i): theta_i' = c sum_h lambda_h sum_j w^h_ij "
        "sin(theta_j - theta_i), w^h_ij the kind's weight of the scores lambda_h cos(theta_j - theta_i)",
        r"\theta_i' = c \sum_h \lambda_h \sum_j w^h_{ij} \sin(\theta_j - \theta_i)",
    )


def equally_spaced_equilibrium(derivation: Derivation, geometry: str, n: int, strengths: list[sp.Rational]) -> None:
    """The directions of n equally spaced tokens stay fixed under the scheme `geometry` with scalar heads of the
    given exact strengths (a failure in `derivation` when the scheme or the strengths are outside the statement)."""
    derivation.note(
        f"tokens theta_k = theta_0 + 2 pi k / n on a great circle, n = {n}, M_h = W_h = lambda_h I, "
        f"lambda = {[str(s) for s in strengths]}, scheme {geometry}"
    )
    known = geometry in EQUILIBRIUM_SCHEMES
    derivation.holds(f"{geometry} is a scheme whose directions the statement covers", known)
    if not known:
        return
    derivation.cite(
        "pairing of equally spaced terms",
        "sum_k w(lambda cos(2 pi k/n)) sin(2 pi k/n) = 0 for every weight function w (terms k and n - k cancel; "
        "k = 0 and k = n/2 have sin = 0), so the tangent part of every v_i vanishes and v_i = a x_i",
        "cos is even and sin odd, and every weight of token i is a function of cos(theta_j - theta_i) (the "
        "softmax normalizer is common to the row)",
    )
    if EQUILIBRIUM_SCHEMES[geometry]:
        derivation.holds("every lambda_h > 0 (exact rationals)", all(s > 0 for s in strengths))
        derivation.cite(
            "positive radial coefficient",
            "a = c sum_h lambda_h sum_k w^h_k cos(2 pi k/n) > 0",
            "usa and softmax: g(t) = sum_k e^{t cos(2 pi k/n)} is strictly convex with g'(0) = sum_k cos(2 pi k/n) "
            "= 0, so g'(t) > 0 for t = beta lambda_h > 0 (softmax: g'/g); relu: every term "
            "max(beta lambda cos, 0) cos >= 0 and the term k = 0 is beta lambda > 0",
        )
    derivation.note(
        {
            "sphere": "Post-LN: xdot_i = P⊥_{x_i}(a x_i) = 0",
            "ngpt": "nGPT: xdot_i = P⊥_{x_i}(a x_i / |a|) = 0",
            "pre-ln": "Pre-LN: xdot_i = a y_i, so x_i moves along its fixed direction and |x_i| = 1 + a t grows",
            "peri-ln": "Peri-LN: xdot_i = y_i, so |x_i| = 1 + t grows along the fixed direction",
            "mix-ln": "Mix-LN: xdot_i = (3/4) a y_i (no tangent part), |x_i| grows along the fixed direction",
        }[geometry]
        + ": the equally spaced directions are the unique solution (uniqueness for the locally Lipschitz ODE), so "
        "every quantity of the directions keeps its value at t = 0 for all t >= 0"
    )
