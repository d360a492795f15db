"""Every quantity of the model (SPEC section 1) in numpy float64, vectorized over tokens.

Shapes: tokens X (n, d); per-head arrays carry the head first: scores (H, n, n), head outputs
(H, n, d), shadows and powers (H, n). Each evaluation costs O(H (n^2 d + n d^2)) through
matrix products; no Python loop runs over tokens.
"""

from __future__ import annotations

import numpy as np

from checks.config import Configuration
from checks.errors import InputError


def project(X: np.ndarray, U: np.ndarray) -> np.ndarray:
    """Row-wise tangent projection P⊥_x(u) = u - <u, x> x (X and U of the same shape)."""
    return U - np.sum(U * X, axis=-1, keepdims=True) * X


def scores(cfg: Configuration) -> np.ndarray:
    """s^h_ij = <x_i, M_h x_j>, shape (H, n, n)."""
    X = cfg.tokens
    return X @ cfg.score_matrices @ X.T


def _scaled_scores(cfg: Configuration) -> np.ndarray:
    """beta * s^h_ij as a fresh array (scaled in place: one allocation for n x n arrays)."""
    z = scores(cfg)
    z *= cfg.beta
    return z


def _exp_in_place(values: np.ndarray) -> np.ndarray:
    """exp(values), written over `values` (no new n x n array).

    The inputs are finite (validated configurations), so the result is finite unless some entry
    overflowed, which its maximum shows without a second full-size array.
    """
    with np.errstate(over="ignore"):
        result = np.exp(values, out=values)
    if not np.isfinite(np.max(result)):
        raise InputError("beta*scores", "> 709.78", "exp overflows float64; lower beta or the head scale")
    return result


def attention_distributions(cfg: Configuration) -> np.ndarray:
    """p^h_ij = softmax_j(beta s^h_ij), shape (H, n, n), for every attention kind."""
    z = _scaled_scores(cfg)
    z -= z.max(axis=-1, keepdims=True)
    np.exp(z, out=z)
    z /= z.sum(axis=-1, keepdims=True)
    return z


def weights(cfg: Configuration) -> np.ndarray:
    """The attention weights w^h_ij of the configuration's kind, shape (H, n, n)."""
    if cfg.attention == "usa":
        return _exp_in_place(_scaled_scores(cfg))
    if cfg.attention == "softmax":
        return attention_distributions(cfg)
    z = _scaled_scores(cfg)
    np.maximum(z, 0.0, out=z)
    z /= cfg.n
    return z


def head_outputs(cfg: Configuration) -> np.ndarray:
    """f^h_i = sum_j w^h_ij W_h x_j, shape (H, n, d)."""
    values_of_tokens = cfg.tokens @ np.swapaxes(cfg.values, 1, 2)  # (H, n, d): rows W_h x_j
    return weights(cfg) @ values_of_tokens


def velocity(cfg: Configuration) -> np.ndarray:
    """v_i: (1/n) sum_h f^h_i for usa, sum_h f^h_i for softmax and relu; shape (n, d)."""
    total = head_outputs(cfg).sum(axis=0)
    return total / cfg.n if cfg.attention == "usa" else total


def token_velocity(cfg: Configuration) -> np.ndarray:
    """dx_i/dt: P⊥_{x_i}(v_i) on the sphere, v_i in flat space; shape (n, d)."""
    v = velocity(cfg)
    return project(cfg.tokens, v) if cfg.geometry == "sphere" else v


def head_energies(cfg: Configuration) -> np.ndarray:
    """E_h = (1/(2 beta n^2)) sum_ij exp(beta s^h_ij), shape (H,) (the usa energy)."""
    return _exp_in_place(_scaled_scores(cfg)).sum(axis=(1, 2)) / (2.0 * cfg.beta * cfg.n**2)


def energy(cfg: Configuration) -> float:
    """E = sum_h E_h."""
    return float(head_energies(cfg).sum())


def score_rates(cfg: Configuration, token_rates: np.ndarray | None = None) -> np.ndarray:
    """ds^h_ij/dt = <xdot_i, M_h x_j> + <x_i, M_h xdot_j> along the dynamics, shape (H, n, n)."""
    X = cfg.tokens
    Xdot = token_velocity(cfg) if token_rates is None else token_rates
    return Xdot @ cfg.score_matrices @ X.T + X @ cfg.score_matrices @ Xdot.T


def head_energy_rates(cfg: Configuration, token_rates: np.ndarray | None = None) -> np.ndarray:
    """dE_h/dt by the chain rule, for any M_h, W_h and kind, shape (H,)."""
    e = _exp_in_place(_scaled_scores(cfg))
    return (e * score_rates(cfg, token_rates)).sum(axis=(1, 2)) / (2.0 * cfg.n**2)


def energy_rate(cfg: Configuration, token_rates: np.ndarray | None = None) -> float:
    """dE/dt = sum_h dE_h/dt."""
    return float(head_energy_rates(cfg, token_rates).sum())


def radial_shadows(cfg: Configuration) -> np.ndarray:
    """a^h_i = <f^h_i, x_i>, shape (H, n)."""
    return np.sum(head_outputs(cfg) * cfg.tokens, axis=-1)


def tangential_powers(cfg: Configuration) -> np.ndarray:
    """T^h_i = |P⊥_{x_i}(f^h_i)|^2, shape (H, n)."""
    tangent = project(cfg.tokens, head_outputs(cfg))
    return np.sum(tangent * tangent, axis=-1)


def radial_cross_terms(cfg: Configuration) -> np.ndarray:
    """sum_{h' != h} a^h_i a^h'_i, the radial-shadow coupling of head h at token i, shape (H, n)."""
    a = radial_shadows(cfg)
    return a * (a.sum(axis=0, keepdims=True) - a)


def condition8_margins(cfg: Configuration) -> np.ndarray:
    """T^h_i - sum_{h' != h} a^h_i a^h'_i per head and token (Condition 8 holds where >= 0)."""
    return tangential_powers(cfg) - radial_cross_terms(cfg)


def attention_entropies(cfg: Configuration) -> np.ndarray:
    """H^h_i = -sum_j p^h_ij log p^h_ij, shape (H, n), each in [0, log n]."""
    p = attention_distributions(cfg)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * np.log(p), 0.0)
    return -terms.sum(axis=-1)


def entropy_rates(cfg: Configuration, token_rates: np.ndarray | None = None) -> np.ndarray:
    """dH^h_i/dt by differentiating -sum_j p log p through the softmax, shape (H, n)."""
    p = attention_distributions(cfg)
    sdot = score_rates(cfg, token_rates)
    mean_rate = np.sum(p * sdot, axis=-1, keepdims=True)
    pdot = cfg.beta * p * (sdot - mean_rate)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_p = np.where(p > 0, np.log(p), 0.0)
    return -np.sum(pdot * log_p, axis=-1)


def gram(cfg: Configuration) -> np.ndarray:
    """The token Gram matrix <x_i, x_j>, shape (n, n)."""
    return cfg.tokens @ cfg.tokens.T


def cluster_gap(cfg: Configuration) -> float:
    """max_{i != j} (1 - <x_i, x_j>): equals 1 - rho for equiangular tokens; 0 when collapsed."""
    G = gram(cfg)
    off_diagonal = ~np.eye(cfg.n, dtype=bool)
    return float(np.max(1.0 - G[off_diagonal]))
