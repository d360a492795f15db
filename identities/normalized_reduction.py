"""The equiangular reduction under the normalization schemes: Post-LN's trajectory, run at another speed.

Regime: n equiangular unit start tokens <x_i, x_j> = rho0, heads M_h = W_h = lambda_h I with every lambda_h > 0, the
schemes of `certificates.kernel.vocabulary` other than Post-LN and the flat flow. Each scheme moves the directions
y_i = x_i/|x_i| along the Post-LN field times a positive speed common to all tokens (by the symmetry of the
configuration every |x_i| and every |v_i| is the same):

    y_i' = sigma(t) P⊥_{y_i} v_i(Y),  sigma = 1/r (pre-ln, mix-ln), 1/(r |v|) (peri-ln), 1/|v| (ngpt),  r = |x_i|,

so rho(t) = rho_post(tau(t)) with tau = int_0^t sigma (uniqueness of the ODE's solution). The radial rate of the
residual stream is r' = k G(rho) with G(rho) = <y_i, v_i> = c sum_h lambda_h (w^h_ii + (n - 1) rho w^h_ij) >= 0 and
k = 1 (pre-ln), 3/4 (mix-ln), 1/|v| (peri-ln), so r >= 1; |v| is bounded on the regime, so r grows at most
linearly and tau(t) -> oo: every scheme has Post-LN's limit of the cluster gap (`equiangular_reduction.destination`).

The rates differ. At rho = 1 the velocity is radial, |v| = G(1) = V* = c n sum_h lambda_h w^h_ij(1), and Post-LN's
exact rate is r* = n S(1) = 2 V* (`late_speed`). nGPT: sigma -> 1/V*, so eps decays at the exact rate r*/V* = 2 for
every kind and strength. Pre-LN and Mix-LN: r' -> k V* (k = 1, 3/4) and sigma = 1/r; Peri-LN: r' -> 1 and sigma =
1/(r |v|); in each sigma ~ 1/(k V* t) (k = 1 for Peri-LN), tau ~ ln(t)/(k V*), and eps(t) ~ C t^(-p) with
p = r*/(k V*) (2 for pre-ln and peri-ln, 8/3 for mix-ln): a power of t, so eps decays at no exponential rate.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp
from headflow.identities import equiangular_reduction as er
from headflow.identities.derivation import Derivation

#: The schemes of this reduction: the speed sigma of the directions, and the k of its late form sigma ~ 1/(k V* t)
#: (None: nGPT, whose sigma tends to 1/V*).
SCHEMES = {
    "ngpt": ("1/|v|", None),
    "pre-ln": ("1/r", sp.Integer(1)),
    "mix-ln": ("1/r", sp.Rational(3, 4)),
    "peri-ln": ("1/(r |v|)", sp.Integer(1)),
}


def time_change(derivation: Derivation, geometry: str) -> None:
    """The steps that reduce the scheme's equiangular trajectory to Post-LN's, run at the speed sigma > 0."""
    speed, _ = SCHEMES[geometry]
    derivation.note(
        f"{geometry}: the directions move as y_i' = sigma P⊥_{{y_i}} v_i(Y) with sigma = {speed} > 0, common to all "
        "tokens (the configuration is symmetric under permutations of the tokens, so every |x_i| and |v_i| is equal)"
    )
    derivation.cite(
        "time change",
        "rho(t) = rho_post(tau(t)) with tau(t) = int_0^t sigma, rho_post Post-LN's equiangular solution",
        "y(t) and y_post(tau(t)) solve the same locally Lipschitz ODE from the same start (uniqueness)",
    )
    derivation.cite(
        "unbounded time change",
        "tau(t) -> oo as t -> oo",
        "with every lambda_h > 0, G(rho) = c sum_h lambda_h ((w_ii - w_ij) + w_ij (1 + (n - 1) rho)) >= 0 (w_ii >= "
        "w_ij, 1 + (n - 1) rho >= 0), so r = |x_i| >= 1; |v| <= V is bounded on the regime and |r'| <= max(V, 1), so "
        "sigma >= 1/(max(V, 1)^2 (1 + t)), whose integral diverges",
    )


def late_speed(derivation: Derivation, kind: str, strengths: Sequence[sp.Expr]) -> sp.Expr:
    """V* = |v_i| at coincident tokens (rho = 1), derived, with Post-LN's exact rate r* = n S(1) = 2 V* checked."""
    c = er.velocity_scale(kind)
    speed = sp.Integer(0)
    for strength in strengths:
        w_self, w_other = er.head_weights(kind, strength)
        speed += c * strength * (w_self + (er.n - 1) * w_other).subs(er.rho, 1)
    pull = sum((er.head_pull(kind, s) for s in strengths), sp.Integer(0))
    derivation.zero(
        f"at rho = 1 the velocity is radial, |v_i| = V* = c sum_h lambda_h (w_ii + (n - 1) w_ij) = {speed}, and "
        "Post-LN's exact rate r* = n S(1) equals 2 V*",
        er.n * pull.subs(er.rho, 1) - 2 * speed,
        r"r^* = n S(1) = 2 V^*",
    )
    return speed
