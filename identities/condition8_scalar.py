"""Condition 8 in the scalar-head, orthogonal-token regime, derived from the model's formulas.

Regime: M_h = W_h = alpha I for every head, usa, orthonormal tokens (s^h_ij = alpha delta_ij).
Write t = exp(alpha beta). For token i the weights are w_ii = t and w_ij = 1 (j != i), so
f^h_i = alpha t x_i + alpha S with S = sum_{j != i} x_j. Vectors are kept as coefficients on
(x_i, S) with Gram matrix diag(1, n - 1) (the SPEC's Gram technique), which makes every inner
product below exact and valid for every n and d >= n. All heads are equal, so
sum_{h' != h} a^h_i a^h'_i = (H - 1) a_i^2.
"""

from __future__ import annotations

import sympy as sp

from identities.closed_forms import tangent_projection

H, n, alpha, t, c, q_star = sp.symbols("H n alpha t c q_star", real=True)

#: Gram matrix of (x_i, S): <x_i, x_i> = 1, <x_i, S> = 0, <S, S> = n - 1 (orthonormal tokens).
GRAM = sp.Matrix([[1, 0], [0, n - 1]])


def _inner(u: sp.Matrix, w: sp.Matrix) -> sp.Expr:
    return sp.expand((u.T * GRAM * w)[0, 0])


def head_output() -> sp.Matrix:
    """f^h_i = sum_j exp(beta s_ij) alpha x_j = alpha t x_i + alpha S, on the basis (x_i, S)."""
    return sp.Matrix([alpha * t, alpha])


def radial_shadow() -> sp.Expr:
    """a_i = <f_i, x_i>."""
    return _inner(head_output(), sp.Matrix([1, 0]))


def tangential_power() -> sp.Expr:
    """T_i = |f_i - a_i x_i|^2."""
    tangent = tangent_projection(sp.Matrix([1, 0]), head_output(), _inner)
    return _inner(tangent, tangent)


def output_norm_squared() -> sp.Expr:
    """|f_i|^2 (the other heads' outputs, all equal to this one)."""
    return _inner(head_output(), head_output())


def condition8_margin() -> sp.Expr:
    """T_i - sum_{h' != h} a^h_i a^h'_i = T_i - (H - 1) a_i^2 (Condition 8 holds where >= 0)."""
    return sp.expand(tangential_power() - (H - 1) * radial_shadow() ** 2)


def cauchy_schwarz_condition() -> sp.Boolean:
    """The cruder condition (H - 1) |a^h_i| |f^h'_i| <= T^h_i, squared (both sides are >= 0 here)."""
    return sp.expand((H - 1) ** 2 * radial_shadow() ** 2 * output_norm_squared()) <= sp.expand(tangential_power() ** 2)
