"""The spectrum of n equally spaced tokens on the circle, from the phase form: a circulant Jacobian, exactly.

Regime: d = 2, tokens theta_k = 2 pi k / n, heads M_h = W_h = lambda_h I, usa or softmax weights exp(beta s), the
sphere's (Post-LN) field. By the phase form (`circle.phase_form`) the angles move as

    theta_i' = c sum_h lambda_h sum_j w^h_ij sin(theta_j - theta_i),  s^h_ij = lambda_h cos(theta_j - theta_i),

c = 1/n and w^h_ij = exp(beta s^h_ij) for usa, c = 1 and w^h_ij = exp(beta s^h_ij) / sum_k exp(beta s^h_ik) for
softmax. The angles are coordinates of (S^1)^n, so the linearization of the flow at the tokens is the Jacobian
J_ik = d theta_i' / d theta_k there (SymPy differentiates the expression above; the sines and cosines at the equally
spaced angles are SymPy's exact values at rational multiples of pi). theta' depends on the differences of the angles
only, so the rows of J sum to 0 (the rotation, a zero eigenvalue), and the shift k -> k + 1 maps the tokens to their
rotation by 2 pi / n, so J is circulant: J_ik = r_(k - i mod n) with r the first row. The eigenvalues of a circulant
are mu_m = sum_k r_k omega^(m k), omega = exp(2 pi i / n), with real parts Re mu_m = sum_k r_k cos(2 pi m k / n),
m = 0 (the rotation, exactly 0), 1, ..., n - 1, returned as exact expressions: their signs are the caller's
(`checks.claimsfile.equilibrium_decider` decides them with balls; a ball that holds 0 decides nothing).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import sympy as sp
from headflow.identities import circle
from headflow.identities.derivation import Derivation

#: The kinds whose weights this covers.
KINDS = ("usa", "softmax")


def angle_velocities(n: int, kind: str, strengths: Sequence[Fraction], beta: Fraction) -> tuple[list, list]:
    """(theta symbols, theta_i' of the phase form) for n tokens, the kind's weights and the heads lambda_h I."""
    theta = sp.symbols(f"theta_0:{n}", real=True)
    b = sp.Rational(beta.numerator, beta.denominator)
    velocities = []
    for i in range(n):
        total = sp.Integer(0)
        for strength in strengths:
            lam = sp.Rational(strength.numerator, strength.denominator)
            weights = [sp.exp(b * lam * sp.cos(theta[j] - theta[i])) for j in range(n)]
            if kind == "softmax":
                weights = [w / sp.Add(*weights) for w in weights]
            total += lam * sp.Add(*(w * sp.sin(theta[j] - theta[i]) for j, w in enumerate(weights)))
        velocities.append(total / n if kind == "usa" else total)
    return list(theta), velocities


def real_parts(derivation: Derivation, n: int, kind: str, strengths: Sequence[Fraction], beta: Fraction) -> list:
    """Re mu_1, ..., Re mu_(n-1) of the equally spaced tokens' circulant Jacobian as exact expressions (module
    docstring), with the steps in `derivation` (mu_0 = 0 is the rotation)."""
    if kind not in KINDS or n < 2:
        raise ValueError(f"the circle's equally spaced spectrum covers {', '.join(KINDS)} and n >= 2")
    circle.phase_form(derivation)
    theta, velocities = angle_velocities(n, kind, strengths, beta)
    at = {theta[k]: 2 * sp.pi * k / n for k in range(n)}
    row = [sp.diff(velocities[0], theta[k]).subs(at) for k in range(n)]
    derivation.cite(
        "circulant Jacobian",
        "J_ik = d theta_i'/d theta_k at theta_k = 2 pi k/n is circulant, its rows sum to 0, and its eigenvalues are "
        "mu_m = sum_k r_k omega^(m k) with Re mu_m = sum_k r_k cos(2 pi m k/n), mu_0 = 0 (the rotation)",
        "theta' depends on the angles' differences only; the shift k -> k + 1 is a rotation of the tokens",
    )
    return [sp.Add(*(r * sp.cos(2 * sp.pi * m * k / n) for k, r in enumerate(row))) for m in range(1, n)]
