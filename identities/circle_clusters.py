"""Two clusters on the circle: the gap angle's ODE, exact in n1, n2, beta and the strengths lambda_h.

Regime: Post-LN, heads M_h = W_h = lambda_h I, n1 tokens at a unit point a and n2 = n - n1 tokens at a unit point b,
<a, b> = rho = cos phi (any d: a and b span a plane, which is invariant because every v_i lies in it). The velocity of
a token is a function of its position and of the configuration, so tokens that coincide move alike and stay
together: the two-cluster configurations form an invariant set, and on it the motion is that of the gap angle phi.

From the phase form (`headflow.identities.circle.phase_form`), with w_ab the weight a token of a puts on one of b,

    theta_a' = c sum_h lambda_h n2 w^h_ab sin phi,   theta_b' = -c sum_h lambda_h n1 w^h_ba sin phi,

so phi' = -K(rho) sin phi and rho' = -sin(phi) phi' = (1 - rho)(1 + rho) K(rho) with the pull

    K(rho) = c sum_h lambda_h (n1 w^h_ba + n2 w^h_ab):

usa sum_h lambda_h e^{beta lambda_h rho} (n1 and n2 drop out), softmax
sum_h lambda_h (n1 / (n1 + n2 e^{beta lambda_h (1 - rho)}) + n2 / (n2 + n1 e^{beta lambda_h (1 - rho)})), relu
sum_h lambda_h max(beta lambda_h rho, 0). This is the equiangular reduction of n = 2 tokens
(`identities.equiangular_reduction`, size 2) with pull K: for n1 = n2 = 1 K is that module's S (checked). Every term
of K is increasing in rho (derivative beta lambda_h^2 times a positive factor), so the limit and the late rate of
the cluster gap 1 - rho are that module's `destination` and `late_rate` for size 2: eps -> 0 when K(rho0) > 0, at
the rate 2 K(1) (usa 2 sum_h lambda_h e^{beta lambda_h}, softmax 2 sum_h lambda_h, relu 2 beta sum_h lambda_h^2);
rho0 = -1 (antipodal clusters) and, for relu with every lambda_h > 0, every rho0 <= 0 are equilibria.

The order parameter of the two clusters is R = |n1 a + n2 b| / n = sqrt(n1^2 + n2^2 + 2 n1 n2 rho) / n, an
increasing function of rho: R moves in the direction of rho (`order_parameter`).
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp
from headflow.identities import equiangular_reduction as er
from headflow.identities.derivation import Derivation

n1, n2 = sp.symbols("n_1 n_2", positive=True, integer=True)
#: cos phi and sin phi of the gap angle, and one head's weights across the gap (a -> b and b -> a).
_cos, _sin = sp.symbols("C S", real=True)
_w_ab, _w_ba = sp.symbols("w_ab w_ba", positive=True)
rho, lam, beta = er.rho, er.lam, er.beta


def cross_weights(kind: str, strength: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """(w_ab, w_ba): the weight a token of cluster a (n1 tokens) puts on one of b (n2 tokens), and the reverse, for
    one head M = W = strength I, scores strength (same cluster) and strength rho (across)."""
    across = sp.exp(beta * strength * rho)
    if kind == "usa":
        return across, across
    if kind == "softmax":
        own = sp.exp(beta * strength)
        return across / (n1 * own + n2 * across), across / (n2 * own + n1 * across)
    if kind == "relu":
        weight = sp.Max(beta * strength * rho, 0) / (n1 + n2)
        return weight, weight
    raise ValueError(f"unknown attention kind {kind!r}")


def velocity_scale(kind: str) -> sp.Expr:
    """c of the phase form: 1/n for usa, 1 for softmax and relu (whose 1/n is in the weight)."""
    return 1 / (n1 + n2) if kind == "usa" else sp.Integer(1)


def head_pull(kind: str, strength: sp.Expr) -> sp.Expr:
    """One head's term of K(rho) in closed form (module docstring)."""
    if kind == "usa":
        return strength * sp.exp(beta * strength * rho)
    if kind == "softmax":
        gap = sp.exp(beta * strength * (1 - rho))
        return strength * (n1 / (n1 + n2 * gap) + n2 / (n2 + n1 * gap))
    if kind == "relu":
        return strength * sp.Max(beta * strength * rho, 0)
    raise ValueError(f"unknown attention kind {kind!r}")


def reduced_pull(derivation: Derivation, kind: str, strengths: Sequence[sp.Expr]) -> sp.Expr:
    """K(rho) = sum_h K_{lambda_h}(rho) with d rho/dt = (1 - rho)(1 + rho) K(rho), derived from the phase form for
    one head of either sign and summed over the heads (`strengths`)."""
    derivation.note(
        "regime: Post-LN, M_h = W_h = lambda_h I, n1 tokens at a and n2 at b, <a, b> = rho = cos phi; the velocity of "
        "a token depends on its position and the configuration only, so coinciding tokens stay together and the "
        "plane of a and b is invariant: the motion is that of the gap angle phi (uniqueness for the locally "
        "Lipschitz ODE)",
        r"\rho = \cos\varphi",
    )
    c = velocity_scale(kind)
    theta_a = c * lam * n2 * _w_ab * _sin  # phase form: n1 terms with sin 0 = 0, n2 terms with sin(phi)
    theta_b = -c * lam * n1 * _w_ba * _sin  # sin(-phi) = -sin(phi)
    rate = -_sin * (theta_b - theta_a)  # rho' = -sin(phi) phi'
    derivation.zero(
        "phase form at two clusters: theta_a' = c lambda n2 w_ab sin phi, theta_b' = -c lambda n1 w_ba sin phi, so "
        "rho' = -sin(phi) (theta_b' - theta_a') = (1 - rho^2) c lambda (n1 w_ba + n2 w_ab) with sin^2 = 1 - cos^2",
        sp.expand(rate - (1 - _cos**2) * c * lam * (n1 * _w_ba + n2 * _w_ab)).subs(_sin**2, 1 - _cos**2),
        r"\dot\rho = (1-\rho^2)\, c \lambda (n_1 w_{ba} + n_2 w_{ab})",
    )
    w_ab, w_ba = cross_weights(kind, lam)
    derivation.zero(
        f"{kind}: with the kind's weights w_ab = {w_ab}, w_ba = {w_ba} (c = {c}), c lambda (n1 w_ba + n2 w_ab) is "
        f"the closed form K_lambda = {head_pull(kind, lam)}",
        sp.together(c * lam * (n1 * w_ba + n2 * w_ab) - head_pull(kind, lam)),
    )
    derivation.zero(
        "for n1 = n2 = 1 K_lambda is the pull s_lambda of two equiangular tokens (identities.equiangular_reduction)",
        sp.together((head_pull(kind, lam) - er.head_pull(kind, lam)).subs({n1: 1, n2: 1, er.n: 2})),
    )
    derivation.note(
        f"several heads: the phase velocity is linear in the heads' terms, so K = sum_h K_(lambda_h), lambda_h = "
        f"{', '.join(str(s) for s in strengths)}; d rho/dt = (1 - rho)(1 + rho) K(rho) is the equiangular reduction "
        "of n = 2 tokens with pull K",
        r"\dot\rho = (1-\rho)(1+\rho) K(\rho)",
    )
    return sum((head_pull(kind, s) for s in strengths), sp.Integer(0))


def order_parameter(size_a: int, size_b: int, inner: sp.Expr) -> sp.Expr:
    """R = sqrt(n1^2 + n2^2 + 2 n1 n2 rho) / n at two clusters of the given sizes with <a, b> = inner."""
    return sp.sqrt(size_a**2 + size_b**2 + 2 * size_a * size_b * inner) / (size_a + size_b)


def order_parameter_identity(derivation: Derivation) -> None:
    """|n1 a + n2 b|^2 = n1^2 + n2^2 + 2 n1 n2 rho for unit a, b with <a, b> = rho, checked in coordinates of the
    plane (a = (1, 0), b = (rho, s), s^2 = 1 - rho^2)."""
    s = sp.Symbol("s", real=True)
    square = (n1 + n2 * rho) ** 2 + (n2 * s) ** 2
    derivation.zero(
        "R^2 n^2 = |n1 a + n2 b|^2 = n1^2 + n2^2 + 2 n1 n2 rho (a = (1, 0), b = (rho, s), s^2 = 1 - rho^2): R is "
        "an increasing function of rho, so it moves in the direction rho moves",
        sp.expand(square - (n1**2 + n2**2 + 2 * n1 * n2 * rho)).subs(s**2, 1 - rho**2),
        r"n^2 R^2 = n_1^2 + n_2^2 + 2 n_1 n_2 \rho",
    )
