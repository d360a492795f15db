"""Model quantities at an equiangular state with scalar heads, as closed functions of the correlation rho.

Regime (`identities.equiangular_reduction`): n unit tokens with <x_i, x_j> = rho (i != j), heads M_h = W_h = lambda_h I,
weights (w_ii, w_ij) of the attention kind (`equiangular_reduction.head_weights`). Head h's output at token i is
f^h_i = lambda_h g^h_i with g^h_i = sum_j w^h_ij x_j, and counting the terms j = i and the n - 1 others (for the norm:
the pairs (j, k) with j = k = i, one of them i, j = k != i, and j != k both != i) gives

    <g, x_i> = w_ii + (n - 1) rho w_ij,
    |g|^2 = w_ii^2 + 2 (n - 1) rho w_ii w_ij + (n - 1) (1 + (n - 2) rho) w_ij^2,

so the radial shadow a^h_i = lambda_h <g, x_i>, the tangential power T^h_i = lambda_h^2 |g|^2 - (a^h_i)^2 and the
Condition 8 margin T^h_i - a^h_i sum_{h' != h} a^h'_i are the same at every token. The attention distribution is
p_ii = e^(beta lambda)/Z, p_ij = e^(beta lambda rho)/Z, Z = e^(beta lambda) + (n - 1) e^(beta lambda rho), for every
attention kind (`checks.model.field.attention_distributions`), so H^h_i = log Z - beta lambda (p_ii + (n - 1) rho p_ij)
(`entropy`). Every distance |x_i - x_j| is sqrt(2 - 2 rho), so every merge height is (`merge_radius`, any k), and the
tokens' mean has |m|^2 = (n + n (n - 1) rho)/n^2 (variance (n - 1)(1 - rho)/n), so the W2 distance to the closest Dirac
mass is sqrt(2 - 2 sqrt((1 + (n - 1) rho)/n)) (`identities.measure_distances`).
The counting is checked against the explicit Gram sums for n = 2..5 (`check_counting`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import sympy as sp
from headflow.identities import equiangular_reduction as er
from headflow.identities.derivation import Derivation
from headflow.identities.measure_distances import w2_squared_to_dirac

rho, n, beta = er.rho, er.n, er.beta
#: The quantities this module writes in closed form (claims-file names), and whether one head's value depends on the
#: other heads (the Condition 8 margin couples them).
QUANTITIES = (
    "radial_shadow",
    "tangential_power",
    "condition8_margin",
    "attention_entropy",
    "cluster_gap",
    "first_pair_gap",
    "least_inner_product",
    "largest_inner_product",
    "merge_radius",
    "w2_to_dirac",
)
COUPLED = ("condition8_margin",)
#: The explicit sizes the counting is checked at.
CHECKED_SIZES = (2, 3, 4, 5)


def shadow_factor(w_self: sp.Expr, w_other: sp.Expr, size: sp.Expr = n) -> sp.Expr:
    """<g, x_i> for g = sum_j w_ij x_j at equiangular tokens (counted)."""
    return w_self + (size - 1) * rho * w_other


def norm_factor(w_self: sp.Expr, w_other: sp.Expr, size: sp.Expr = n) -> sp.Expr:
    """|g|^2 for g = sum_j w_ij x_j at equiangular tokens (counted)."""
    return w_self**2 + 2 * (size - 1) * rho * w_self * w_other + (size - 1) * (1 + (size - 2) * rho) * w_other**2


def entropy(strength: sp.Expr) -> sp.Expr:
    """H^h_i of a head strength I at equiangular tokens: log Z - beta strength (p_ii + (n - 1) rho p_ij), written with
    q = e^(-beta strength (1 - rho)) = p_ij / p_ii as log(1 + (n - 1) q) + beta strength (1 - rho) (n - 1) q / (1 +
    (n - 1) q) (log Z = beta strength + log(1 + (n - 1) q)): log n at rho = 1, no logarithm of an exponential left."""
    q = sp.exp(-beta * strength * (1 - rho))
    return sp.log(1 + (n - 1) * q) + beta * strength * (1 - rho) * (n - 1) * q / (1 + (n - 1) * q)


def values(kind: str, quantity: str, strengths: Sequence[sp.Expr]) -> list[sp.Expr]:
    """The quantity at an equiangular state, one closed form per head (one for a quantity without heads)."""
    if quantity in ("cluster_gap", "first_pair_gap"):
        return [1 - rho]
    if quantity in ("least_inner_product", "largest_inner_product"):
        return [rho]
    if quantity == "merge_radius":  # every distance is sqrt(2 - 2 rho): every merge height, whatever k
        return [sp.sqrt(2 - 2 * rho)]
    if quantity == "w2_to_dirac":  # unit tokens (s = 1), variance 1 - |mean|^2 = 1 - (1 + (n - 1) rho)/n
        return [sp.sqrt(w2_squared_to_dirac(sp.Integer(1), (n - 1) * (1 - rho) / n, sp.sqrt))]
    if quantity == "attention_entropy":
        return [entropy(s) for s in strengths]
    weights = [er.head_weights(kind, s) for s in strengths]
    shadows = [s * shadow_factor(*w) for s, w in zip(strengths, weights, strict=True)]
    if quantity == "radial_shadow":
        return shadows
    powers = [s**2 * norm_factor(*w) - a**2 for s, w, a in zip(strengths, weights, shadows, strict=True)]
    if quantity == "tangential_power":
        return powers
    if quantity == "condition8_margin":
        total = sum(shadows, sp.Integer(0))
        return [t - a * (total - a) for t, a in zip(powers, shadows, strict=True)]
    raise ValueError(f"no closed form at equiangular states for {quantity!r}")


def counting_residuals() -> tuple[sp.Expr, ...]:
    """The counted <g, x_i> and |g|^2 minus the explicit sums over the Gram matrix (1 on the diagonal, rho off it) for
    n = 2..5 and symbolic weights w_ii, w_ij (token i = 0)."""
    w_self, w_other = sp.symbols("w_self w_other", real=True)
    residuals = []
    for size in CHECKED_SIZES:
        weight = [w_self if j == 0 else w_other for j in range(size)]
        radial = sum(weight[j] * _gram(j, 0) for j in range(size))
        norm = sum(weight[j] * weight[k] * _gram(j, k) for j in range(size) for k in range(size))
        residuals.append(sp.expand(radial - shadow_factor(w_self, w_other, size)))
        residuals.append(sp.expand(norm - norm_factor(w_self, w_other, size)))
    return tuple(residuals)


def _gram(j: int, k: int) -> sp.Expr:
    return sp.Integer(1) if j == k else rho


@functools.cache
def _residuals() -> tuple[sp.Expr, ...]:
    """`counting_residuals`, computed once per process (they do not depend on the claim)."""
    return counting_residuals()


def check_counting(derivation: Derivation) -> bool:
    """The counting checked against the explicit Gram sums for n = 2..5 (`counting_residuals`), as a step."""
    residuals = _residuals()
    return derivation.all_zero(
        "at equiangular tokens g = sum_j w_ij x_j has <g, x_i> = w_ii + (n - 1) rho w_ij and |g|^2 = w_ii^2 + "
        "2 (n - 1) rho w_ii w_ij + (n - 1)(1 + (n - 2) rho) w_ij^2: the terms j = i and j != i (n - 1 of them), and "
        "the pairs (i, i), (i, j) and (j, i) (2 (n - 1)), (j, j) (n - 1) and (j, k), j != k both != i "
        "((n - 1)(n - 2)), each with its Gram entry; checked against the explicit Gram sums for n = 2..5",
        residuals,
        r"|g|^2 = w_{ii}^2 + 2(n-1)\rho\, w_{ii}w_{ij} + (n-1)(1+(n-2)\rho)\, w_{ij}^2",
    )
