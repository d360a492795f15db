"""Structured equilibria of the multi-head field, proved for every n, d, H, beta and attention kind.

Each proof writes the velocity v_i = c sum_h sum_j w^h_ij W_h x_j of a token as a formal combination of
named vectors (dimension-free Gram algebra, `headflow.identities.gram`) and shows that it is a scalar multiple
of x_i, so that P⊥_{x_i}(v_i) = 0. Sums over heads and tokens enter only through scalars (row sums of
the weights, the head's eigenvalue): whatever their values, the tangent part vanishes, which is what
makes the statements hold for every kind (usa, softmax, relu) and every H.

- single cluster: every x_i = x, x an eigenvector of every value matrix (W_h x = mu_h x);
- antipodal split: x_i = sigma_i x with sigma_i in {1, -1}, the same hypothesis on x;
- regular simplex: scalar heads M_h = lambda_h I, W_h = nu_h I, <x_i, x_j> = -1/(n-1) for i != j
  (n <= d + 1): then sum_j x_j = 0, and each head's weights take one value on the diagonal and one
  off it, the same in every row, so v_i is a multiple of x_i.
"""

from __future__ import annotations

from typing import Any, TypeVar

import sympy as sp
from headflow.identities.derivation import Derivation
from headflow.identities.gram import GramSpace, Vector

x_name, s_name = sp.symbols("x s")
SPACE = GramSpace.create(unit=[x_name])
X, S = Vector.named(x_name), Vector.named(s_name)
#: K: the scalar sum_h (row sum of head h's weights, signed) * mu_h (times 1/n for usa); sigma: a sign.
K, sigma = sp.symbols("K sigma", real=True)
n = sp.Symbol("n", integer=True, positive=True)
a, b, nu = sp.symbols("a b nu", real=True)
#: The off-diagonal inner product of a regular simplex of n tokens.
SIMPLEX_RHO = -1 / (n - 1)
V = TypeVar("V")


def squared_sum(rho: Any) -> Any:
    """|sum_j x_j|^2 = n + n(n-1) rho for n unit tokens with <x_i, x_j> = rho (i != j): n diagonal terms, n(n-1) off
    it (the simplex's `gram` certificate states this one formula, its rho a symbol then replaced by -1/(n-1))."""
    return n + n * (n - 1) * rho


def simplex_field(token: V, total: V, weights: tuple[Any, Any], nu_h: Any) -> V:
    """One scalar head's field at a token of a regular simplex whose tokens sum to `total`: nu_h (a_h x_i + b_h
    (s - x_i)), the weights (a_h, b_h) on the diagonal and off it (Gram vectors or the certificate's vector trees)."""
    on, off = weights
    return nu_h * (on * token + off * (total - token))  # type: ignore[operator,no-any-return]


def _tangent_vanishes(d: Derivation, velocity: Vector, token: Vector, text: str) -> None:
    """P⊥_token(velocity) = 0: every coefficient of the projected combination reduces to 0 (with sigma^2 = 1)."""
    residuals = list(SPACE.project(token, velocity).terms.values()) or [sp.Integer(0)]
    d.all_zero(text, [sp.expand(r).subs(sigma**2, 1) for r in residuals], r"P^\perp_{x_i}(v_i) = 0")


def prove_single_cluster() -> Derivation:
    """All tokens equal to a unit x that every W_h maps to mu_h x: P⊥_x(v_i) = 0 for every kind."""
    d = Derivation()
    d.note(
        "Hypotheses: x_i = x for every i, <x, x> = 1, W_h x = mu_h x for every head (scalar heads: every x). "
        "Then every score s^h_ij = <x, M_h x> is the same for all i, j, and the weights w^h_ij of any kind "
        "(usa, softmax, relu) are numbers",
        r"x_1 = \dots = x_n = x,\quad W_h x = \mu_h x",
    )
    d.note(
        "v_i = c sum_h sum_j w^h_ij W_h x_j = c sum_h (sum_j w^h_ij) mu_h x = K x, with K = c sum_h mu_h sum_j w^h_ij "
        "a scalar (c = 1/n for usa, 1 otherwise): general in n and H",
        r"v_i = \Big(c \sum_h \mu_h \sum_j w^h_{ij}\Big) x = K x",
    )
    _tangent_vanishes(d, X.scaled(K), X, "P⊥_x(K x) = K x - K <x, x> x = 0 with <x, x> = 1")
    return d


def prove_antipodal() -> Derivation:
    """x_i = sigma_i x (sigma_i = ±1), W_h x = mu_h x: every token is at rest, for every kind and split."""
    d = Derivation()
    d.note(
        "Hypotheses: x_j = sigma_j x with sigma_j in {1, -1}, <x, x> = 1, W_h x = mu_h x for every head",
        r"x_j = \sigma_j x,\ \sigma_j^2 = 1,\quad W_h x = \mu_h x",
    )
    d.note(
        "v_i = c sum_h sum_j w^h_ij sigma_j mu_h x = K x with the scalar K = c sum_h mu_h sum_j w^h_ij sigma_j",
        r"v_i = K x",
    )
    _tangent_vanishes(
        d,
        X.scaled(K),
        X.scaled(sigma),
        "P⊥_{sigma x}(K x) = K x - K sigma^2 <x, x> x = 0 with sigma^2 = 1",
    )
    return d


def prove_simplex(rho: sp.Expr | None = None) -> Derivation:
    """Regular simplex, scalar heads: sum_j x_j = 0, weights equal off the diagonal, v_i parallel to x_i.

    `rho` is the off-diagonal inner product the proof assumes (default -1/(n-1)); equiangular tokens with
    another rho do not sum to zero, and the derivation then does not close."""
    d = Derivation()
    rho = SIMPLEX_RHO if rho is None else rho
    d.note(
        "Hypotheses: n >= 2 unit tokens with <x_i, x_j> = rho = -1/(n-1) for i != j (a regular simplex; needs "
        "d >= n - 1); scalar heads M_h = lambda_h I and W_h = nu_h I",
        r"\langle x_i, x_j\rangle = -\tfrac{1}{n-1}\ (i \ne j),\quad M_h = \lambda_h I,\ W_h = \nu_h I",
    )
    d.zero(
        "|sum_j x_j|^2 = n + n(n-1) rho = 0, so s = sum_j x_j is the zero vector",
        squared_sum(rho),
        r"\Big|\sum_j x_j\Big|^2 = n + n(n-1)\rho = 0",
    )
    d.note(
        "Scores s^h_ii = lambda_h and s^h_ij = lambda_h rho (i != j) take one value on the diagonal and one off it, "
        "in every row; so do the weights of every kind: usa exp(beta s), relu max(beta s, 0)/n, and softmax, whose "
        "row sum exp(beta lambda_h) + (n-1) exp(beta lambda_h rho) is the same for every row. Call them a_h, b_h",
        r"w^h_{ii} = a_h,\quad w^h_{ij} = b_h\ (i \ne j)",
    )
    velocity = simplex_field(X, S, (a, b), nu)  # one head; the sum over heads is a sum of such
    d.note(
        "For one head, f^h_i = nu_h (a_h x_i + b_h sum_{j != i} x_j) = nu_h (a_h x_i + b_h (s - x_i)); v_i is c "
        "times the sum over heads, a linear combination of such terms (general H)",
        r"f^h_i = \nu_h\big(a_h x_i + b_h (s - x_i)\big)",
    )
    at_zero_sum = Vector({atom: c for atom, c in velocity.terms.items() if atom[1] != s_name})
    d.note("With s = 0, f^h_i = nu_h (a_h - b_h) x_i", r"f^h_i = \nu_h (a_h - b_h) x_i")
    _tangent_vanishes(d, at_zero_sum, X, "P⊥_{x_i}(f^h_i) = 0 for each head, hence P⊥_{x_i}(v_i) = 0")
    return d
