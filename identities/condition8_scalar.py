"""Condition 8 in the scalar-head regime (usa, M_h = W_h = alpha I), derived from the model's formulas.

Tokens are equiangular, <x_i, x_j> = rho for i != j; orthonormal tokens (Theorem 19's regime) are
rho = 0, the default of every function here. Write t = exp(alpha beta) (the weight w_ii, s_ii = alpha)
and w = exp(alpha beta rho) (the weight w_ij of another token, s_ij = alpha rho; w = 1 at rho = 0).
For token i, f^h_i = alpha t x_i + alpha w S with S = sum_{j != i} x_j. Vectors are kept as
coefficients on (x_i, S), whose Gram matrix is counted from the sum over j != i (the SPEC's Gram
technique): <x_i, S> = (n - 1) rho, <S, S> = (n - 1) + (n - 1)(n - 2) rho. This makes every inner
product below exact and valid for every n and d (d >= n at rho = 0). All heads are equal, so
sum_{h' != h} a^h_i a^h'_i = (H - 1) a_i^2, the same at every token and head.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp
from headflow.identities.closed_forms import tangent_projection

H, n, alpha, t, c, q_star = sp.symbols("H n alpha t c q_star", real=True)
#: The correlation of equiangular tokens and the weight exp(alpha beta rho) of another token.
rho = sp.Symbol("rho", real=True)
w = sp.Symbol("w", positive=True)


def gram(correlation: sp.Expr = 0) -> sp.Matrix:
    """Gram matrix of (x_i, S), S = sum_{j != i} x_j, counted over the n - 1 other tokens (1 term j = k and
    n - 2 terms j != k in <S, S>'s sum for each k): diag(1, n - 1) for orthonormal tokens."""
    cross = (n - 1) * correlation
    return sp.Matrix([[1, cross], [cross, (n - 1) + (n - 1) * (n - 2) * correlation]])


def _inner(correlation: sp.Expr) -> Callable[[sp.Matrix, sp.Matrix], sp.Expr]:
    """The inner product of coefficient columns on (x_i, S) at tokens of this correlation."""
    matrix = gram(correlation)
    return lambda u, v: sp.expand((u.T * matrix * v)[0, 0])


def head_output(other_weight: sp.Expr = 1) -> sp.Matrix:
    """f^h_i = sum_j exp(beta s_ij) alpha x_j = alpha t x_i + alpha w S, on the basis (x_i, S)."""
    return sp.Matrix([alpha * t, alpha * other_weight])


def radial_shadow(correlation: sp.Expr = 0, other_weight: sp.Expr = 1) -> sp.Expr:
    """a_i = <f_i, x_i>."""
    return _inner(correlation)(head_output(other_weight), sp.Matrix([1, 0]))


def tangential_power(correlation: sp.Expr = 0, other_weight: sp.Expr = 1) -> sp.Expr:
    """T_i = |f_i - a_i x_i|^2."""
    inner = _inner(correlation)
    tangent = tangent_projection(sp.Matrix([1, 0]), head_output(other_weight), inner)
    return inner(tangent, tangent)


def output_norm_squared() -> sp.Expr:
    """|f_i|^2 at orthonormal tokens (the other heads' outputs, all equal to this one)."""
    return _inner(0)(head_output(), head_output())


def condition8_margin(correlation: sp.Expr = 0, other_weight: sp.Expr = 1) -> sp.Expr:
    """T_i - sum_{h' != h} a^h_i a^h'_i = T_i - (H - 1) a_i^2 (Condition 8 holds where >= 0)."""
    shadow = radial_shadow(correlation, other_weight)
    return sp.expand(tangential_power(correlation, other_weight) - (H - 1) * shadow**2)


def cauchy_schwarz_condition() -> sp.Boolean:
    """The cruder condition (H - 1) |a^h_i| |f^h'_i| <= T^h_i, squared (both sides are >= 0 here)."""
    return sp.expand((H - 1) ** 2 * radial_shadow() ** 2 * output_norm_squared()) <= sp.expand(tangential_power() ** 2)
