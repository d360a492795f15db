"""The closed forms and defining equations of the scalar-head regimes, written once in SymPy.

Everything else (constants tables, certificates, numerical checks, claims files) takes its
formulas from here. Conventions: u = beta * lambda, m = n - 1.

- c*(H) is the positive root of c^2 + (H - 1) c - 1 = 0.
- beta*(H, n, alpha) = (1/(2 alpha)) ln(c*^2 (n - 1) / (1 - c*^2)).
- phi(lambda) = 2 lambda / (exp(lambda beta) + n - 1), the early clustering rate.
- lambda_max: phi' = 0  <=>  (u - 1) e^u = n - 1  <=>  u = 1 + W((n - 1)/e).
- lambda_c: phi'' = 0  <=>  (u - 2) e^u = (n - 1)(u + 2), with no elementary or single-W form.
- P⊥_x u = u - <u, x> x, the tangent projection at a unit vector x, for any vector representation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import sympy as sp

V = TypeVar("V")

H, n, alpha, beta, lam, c, u = sp.symbols("H n alpha beta lambda c u", positive=True)

golden = (1 + sp.sqrt(5)) / 2


def c_star_polynomial(c_symbol: sp.Expr = c, heads: sp.Expr = H) -> sp.Expr:
    """The defining polynomial c^2 + (H - 1) c - 1 of c*(H)."""
    return c_symbol**2 + (heads - 1) * c_symbol - 1


def c_star(heads: sp.Expr = H) -> sp.Expr:
    """c*(H) = (sqrt((H - 1)^2 + 4) - (H - 1)) / 2."""
    return (sp.sqrt((heads - 1) ** 2 + 4) - (heads - 1)) / 2


def beta_star(heads: sp.Expr = H, tokens: sp.Expr = n, scale: sp.Expr = alpha) -> sp.Expr:
    """beta*(H, n, alpha) = (1/(2 alpha)) ln(c*(H)^2 (n - 1) / (1 - c*(H)^2)), as the summary states it."""
    cs = c_star(heads)
    return sp.log(cs**2 * (tokens - 1) / (1 - cs**2)) / (2 * scale)


def rate(strength: sp.Expr = lam, tokens: sp.Expr = n, inverse_temperature: sp.Expr = beta) -> sp.Expr:
    """phi(lambda) = 2 lambda / (exp(lambda beta) + n - 1)."""
    return 2 * strength / (sp.exp(strength * inverse_temperature) + tokens - 1)


def lambda_max(tokens: sp.Expr = n, inverse_temperature: sp.Expr = beta) -> sp.Expr:
    """The maximiser of phi: (1 + W((n - 1)/e)) / beta, W the principal Lambert W branch."""
    return (1 + sp.LambertW((tokens - 1) / sp.E)) / inverse_temperature


def lambda_max_equation(u_symbol: sp.Expr = u, tokens: sp.Expr = n) -> sp.Expr:
    """phi'(lambda) = 0 in u = beta lambda: (u - 1) e^u - (n - 1) = 0."""
    return (u_symbol - 1) * sp.exp(u_symbol) - (tokens - 1)


def lambda_c_equation(u_symbol: sp.Expr = u, tokens: sp.Expr = n) -> sp.Expr:
    """phi''(lambda) = 0 in u = beta lambda: (u - 2) e^u - (n - 1)(u + 2) = 0 (root u_c > 2)."""
    return (u_symbol - 2) * sp.exp(u_symbol) - (tokens - 1) * (u_symbol + 2)


def lambertw(x: sp.Expr) -> sp.Expr:
    """The principal branch W_0 of the Lambert W function."""
    return sp.LambertW(x)


def tangent_projection(x: V, vector: V, inner: Callable[[V, V], sp.Expr]) -> V:
    """P⊥_x(u) = u - <u, x> x, with `inner` the bilinear form of the representation (Gram vectors,
    coefficient columns): a tangent projection when <x, x> = 1."""
    return vector - inner(vector, x) * x  # type: ignore[operator]
