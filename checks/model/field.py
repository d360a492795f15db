"""Every quantity of the model (SPEC section 1) in numpy float64, vectorized over tokens.

Shapes: tokens X (n, d); per-head arrays carry the head first: scores (H, n, n), head outputs
(H, n, d), shadows and powers (H, n). Each evaluation costs O(H (n^2 d + n d^2)) through
matrix products; no Python loop runs over tokens.
"""

from __future__ import annotations

import numpy as np

from certificates.kernel.errors import InputError
from certificates.kernel.vocabulary import DIRECTION_GEOMETRIES, MIX_LN_PRE_SHARE
from checks.model import interaction as stated
from checks.model.configuration import Configuration


def project(X: np.ndarray, U: np.ndarray) -> np.ndarray:
    """Row-wise tangent projection P⊥_x(u) = u - <u, x> x (X and U of the same shape)."""
    return U - np.sum(U * X, axis=-1, keepdims=True) * X


def _score_factors(cfg: Configuration, factor: float) -> np.ndarray:
    """factor * X M_h, shape (H, n, d): row i of head h is factor * M_h^T x_i, so s^h_ij = <row i, x_j> / factor."""
    Y = cfg.tokens @ cfg.score_matrices
    if factor != 1.0:
        Y *= factor
    return Y


def _products_with_tokens(Y: np.ndarray, X: np.ndarray) -> np.ndarray:
    """<Y^h_i, x_j> for every head, shape (H, n, n): one matrix product of the stacked (H n) x d rows with X^T."""
    H, n, d = Y.shape
    return (Y.reshape(H * n, d) @ X.T).reshape(H, n, X.shape[0])


def scores(cfg: Configuration) -> np.ndarray:
    """s^h_ij = <x_i, M_h x_j>, shape (H, n, n)."""
    return _products_with_tokens(_score_factors(cfg, 1.0), cfg.tokens)


#: Above this bound on |beta s^h_ij|, softmax numerators are shifted by their row maxima: below it,
#: exp(beta s) and the sums of n <= MAX_TOKENS of them lie far inside the float64 range
#: (exp(300) * 20000 < 1e135, exp(-300) > 1e-131), and the softmax is invariant under the shift.
UNSHIFTED_SOFTMAX_BOUND = 300.0
#: Below this bound on |beta s^h_ij|, exp(beta s) cannot overflow float64 (log of the largest double: 709.78).
EXP_SAFE_BOUND = 709.0


def _scaled_scores(cfg: Configuration) -> tuple[np.ndarray, float]:
    """beta * s^h_ij as a fresh (H, n, n) array, and a bound on its largest magnitude.

    beta is folded into the n x d factors X M_h, so no pass runs over an n x n array; the bound
    |beta s^h_ij| <= |beta M_h^T x_i| |x_j| costs O(H n d) and spares the n x n array a max pass
    whenever the exponentials are known to stay in range.
    """
    Y = _score_factors(cfg, cfg.beta)
    X = cfg.tokens
    bound = float(np.sqrt(np.max(np.einsum("hid,hid->hi", Y, Y)) * np.max(np.einsum("id,id->i", X, X))))
    return _products_with_tokens(Y, X), bound


def _exp_in_place(values: np.ndarray, bound: float) -> np.ndarray:
    """exp(values), written over `values` (no new n x n array); `bound` >= max |values|.

    The inputs are finite (validated configurations), so the result is finite unless some entry
    overflowed; below EXP_SAFE_BOUND none can, above it the maximum shows it without a second
    full-size array.
    """
    with np.errstate(over="ignore"):
        result = np.exp(values, out=values)
    if bound > EXP_SAFE_BOUND and not np.isfinite(np.max(result)):
        raise InputError("beta*scores", "> 709.78", "exp overflows float64; lower beta or the head scale")
    return result


def _softmax_numerators(z: np.ndarray, bound: float, mask: np.ndarray | None = None) -> np.ndarray:
    """exp(z - shift) in place, shift = the row maxima when `bound` (>= max |z|) allows overflow, else 0; a masked
    entry (mask false) is set to -inf first, so its numerator is 0 and the row maxima are over the unmasked ones."""
    if mask is not None:
        z[:, ~mask] = -np.inf
    if bound > UNSHIFTED_SOFTMAX_BOUND:
        z -= z.max(axis=-1, keepdims=True)
    return np.exp(z, out=z)


def attention_distributions(cfg: Configuration) -> np.ndarray:
    """p^h_ij = softmax_j(beta s^h_ij) over the unmasked j, shape (H, n, n), for every attention kind (not defined
    with an interaction)."""
    if cfg.interaction is not None:
        raise InputError("interaction", cfg.interaction.text, "attention entropies are defined for exp(beta s) only")
    z = _softmax_numerators(*_scaled_scores(cfg), cfg.mask)
    z /= z.sum(axis=-1, keepdims=True)
    return z


def _unnormalized_weights(cfg: Configuration) -> np.ndarray:
    """The n x n part of the weights, in place on beta s: exp (usa), shifted exp (softmax), max(., 0) (relu),
    times the mask m_ij where the configuration has one.

    What remains of w^h_ij is a factor per row (1 / the row sum for softmax) or a constant (1/n for
    relu), which `weights` and `head_outputs` apply where it is cheapest.
    """
    if cfg.interaction is not None:
        phi = stated.weights_of(cfg.interaction, scores(cfg), cfg.beta, cfg.attention == "softmax")
        return phi if cfg.mask is None else phi * cfg.mask
    z, bound = _scaled_scores(cfg)
    if cfg.attention == "softmax":
        return _softmax_numerators(z, bound, cfg.mask)
    z = _exp_in_place(z, bound) if cfg.attention == "usa" else np.maximum(z, 0.0, out=z)
    if cfg.mask is not None:
        z *= cfg.mask
    return z


def weights(cfg: Configuration) -> np.ndarray:
    """The attention weights w^h_ij of the configuration's kind, shape (H, n, n)."""
    z = _unnormalized_weights(cfg)
    if cfg.attention == "softmax":
        z /= z.sum(axis=-1, keepdims=True)
    elif cfg.attention == "relu":
        z /= cfg.n
    return z


def head_outputs(cfg: Configuration) -> np.ndarray:
    """f^h_i = sum_j w^h_ij W_h x_j, shape (H, n, d).

    The hot path of the dynamics: two matrix products around one elementwise pass over the
    (H, n, n) scores. The values W_h x_j carry an extra column of ones, so the same product
    that forms sum_j e_ij W_h x_j also forms the softmax row sums sum_j e_ij; the per-row and
    constant factors of the weights are then applied to the n x d results, not to n x n arrays.
    """
    z = _unnormalized_weights(cfg)
    H, n, d = cfg.H, cfg.n, cfg.d
    values = np.empty((H, n, d + 1))
    np.matmul(cfg.tokens, np.swapaxes(cfg.values, 1, 2), out=values[..., :d])  # rows W_h x_j
    values[..., d] = 1.0
    products = z @ values
    outputs = products[..., :d]
    if cfg.attention == "softmax":
        return outputs / products[..., d:]
    if cfg.attention == "relu":
        outputs /= n
    return outputs


def velocity(cfg: Configuration) -> np.ndarray:
    """v_i: (1/n) sum_h f^h_i for usa, sum_h f^h_i for softmax and relu; shape (n, d)."""
    total = head_outputs(cfg).sum(axis=0)
    if cfg.attention == "usa":
        total /= cfg.n
    return total


def token_velocity(cfg: Configuration) -> np.ndarray:
    """dx_i/dt: P⊥_{x_i}(v_i) on the sphere, v_i in flat space, the scheme's update otherwise; shape (n, d)."""
    if cfg.geometry == "sphere":
        return project(cfg.tokens, velocity(cfg))
    if cfg.geometry == "flat":
        return velocity(cfg)
    return scheme_velocity(cfg.tokens, velocity(directions(cfg)), cfg.geometry)


def directions(cfg: Configuration) -> Configuration:
    """The tokens attention reads: y_i = x_i / |x_i| for pre-ln, peri-ln and mix-ln (the residual stream's
    directions), the tokens themselves otherwise. Every model quantity of a state is one of these tokens."""
    if cfg.geometry not in DIRECTION_GEOMETRIES:
        return cfg
    return cfg.moved_to(cfg.tokens / token_norms(cfg)[:, None])


def _unit_rows(field: str, V: np.ndarray) -> np.ndarray:
    """V_i / |V_i| (Norm of a sublayer's output); InputError where some V_i = 0 (Norm undefined)."""
    norms = np.linalg.norm(V, axis=1, keepdims=True)
    if np.any(norms == 0):
        raise InputError(field, int(np.argmin(norms)), "the attention velocity vanishes: Norm(v) is undefined")
    return V / norms


def scheme_velocity(X: np.ndarray, V: np.ndarray, geometry: str) -> np.ndarray:
    """xdot of the normalization scheme from the residual tokens X and the attention velocity V (at the directions
    for pre-ln, peri-ln, mix-ln): pre-ln v; peri-ln v/|v|; mix-ln (1-a) P⊥_y v + a v; ngpt P⊥_x(v/|v|)."""
    if geometry == "pre-ln":
        return V
    if geometry == "peri-ln":
        return _unit_rows("velocity", V)
    if geometry == "ngpt":
        return project(X, _unit_rows("velocity", V))
    if geometry == "mix-ln":
        share = MIX_LN_PRE_SHARE[0] / MIX_LN_PRE_SHARE[1]
        Y = X / np.linalg.norm(X, axis=1, keepdims=True)
        return (1.0 - share) * project(Y, V) + share * V
    raise InputError("geometry", geometry, "not a normalization scheme of scheme_velocity")


def direction_velocity(cfg: Configuration) -> np.ndarray:
    """dy_i/dt of the tokens attention reads (`directions`): P⊥_{y_i}(xdot_i) / |x_i| for pre-ln, peri-ln and
    mix-ln, xdot_i otherwise; the rates of every model quantity are taken along it."""
    xdot = token_velocity(cfg)
    if cfg.geometry not in DIRECTION_GEOMETRIES:
        return xdot
    norms = token_norms(cfg)[:, None]
    return project(cfg.tokens / norms, xdot) / norms


def token_norms(cfg: Configuration) -> np.ndarray:
    """|x_i| of the residual tokens, shape (n,) (1 on the sphere; grows under pre-ln)."""
    return np.linalg.norm(cfg.tokens, axis=1)


def token_norm_rates(cfg: Configuration) -> np.ndarray:
    """d|x_i|/dt = <x_i, xdot_i> / |x_i|, shape (n,)."""
    return np.sum(cfg.tokens * token_velocity(cfg), axis=1) / token_norms(cfg)


def _energy_terms(cfg: Configuration) -> np.ndarray:
    """m_ij exp(beta s^h_ij), shape (H, n, n): the terms of the (masked) usa energy."""
    e = _exp_in_place(*_scaled_scores(cfg))
    if cfg.mask is not None:
        e *= cfg.mask
    return e


def head_energies(cfg: Configuration) -> np.ndarray:
    """E_h = (1/(2 beta n^2)) sum_ij m_ij exp(beta s^h_ij), shape (H,) (the usa energy; m = 1 without a mask); with
    an interaction function, (1/(2 n^2)) sum_ij m_ij Phi(s^h_ij), Phi' = phi (`checks.model.interaction.energies_of`).

    Negative for beta < 0; undefined at beta = 0 (its 1/beta), where this raises InputError."""
    if cfg.interaction is not None:
        Phi = stated.energies_of(cfg.interaction, scores(cfg), cfg.beta)
        return (Phi if cfg.mask is None else Phi * cfg.mask).sum(axis=(1, 2)) / (2.0 * cfg.n**2)
    if cfg.beta == 0:
        raise InputError("beta", 0, "the energy (1/(2 beta n^2)) sum exp(beta s) is undefined at beta = 0")
    return _energy_terms(cfg).sum(axis=(1, 2)) / (2.0 * cfg.beta * cfg.n**2)


def energy(cfg: Configuration) -> float:
    """E = sum_h E_h."""
    return float(head_energies(cfg).sum())


def score_rates(cfg: Configuration, token_rates: np.ndarray | None = None) -> np.ndarray:
    """ds^h_ij/dt = <xdot_i, M_h x_j> + <x_i, M_h xdot_j> along the dynamics, shape (H, n, n)."""
    X = cfg.tokens
    Xdot = token_velocity(cfg) if token_rates is None else token_rates
    return Xdot @ cfg.score_matrices @ X.T + X @ cfg.score_matrices @ Xdot.T


def head_energy_rates(cfg: Configuration, token_rates: np.ndarray | None = None) -> np.ndarray:
    """dE_h/dt by the chain rule, for any M_h, W_h, kind and mask, shape (H,); m_ij phi(s) for m_ij exp(beta s) with
    an interaction."""
    if cfg.interaction is None:
        e = _energy_terms(cfg)
        return (e * score_rates(cfg, token_rates)).sum(axis=(1, 2)) / (2.0 * cfg.n**2)
    e = stated.weights_of(cfg.interaction, scores(cfg), cfg.beta, False)
    e = e if cfg.mask is None else e * cfg.mask
    with np.errstate(all="ignore"):
        rates = (e * score_rates(cfg, token_rates)).sum(axis=(1, 2)) / (2.0 * cfg.n**2)
    if not np.all(np.isfinite(rates)):
        raise InputError("interaction", cfg.interaction.text, "dE_h/dt leaves float64 at this configuration")
    return rates


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


def partition_functions(cfg: Configuration) -> np.ndarray:
    """Z^h_i = sum_j m_ij exp(beta s^h_ij), shape (H, n): the softmax normalizer, the row sum of the usa weights
    (m the mask, 1 without one)."""
    return _energy_terms(cfg).sum(axis=-1)


def attention_means(cfg: Configuration) -> np.ndarray:
    """xbar^h_i = sum_j p^h_ij x_j, shape (H, n, d): the tokens averaged by head h's attention distribution."""
    return attention_distributions(cfg) @ cfg.tokens


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


def first_pair_gap(cfg: Configuration) -> float:
    """1 - <x_1, x_2>: the gap of the first two tokens (under the causal mask they form a closed system)."""
    return float(1.0 - cfg.tokens[0] @ cfg.tokens[1])


def _off_diagonal_products(cfg: Configuration) -> np.ndarray:
    G = gram(cfg)
    return G[~np.eye(cfg.n, dtype=bool)]


def least_inner_product(cfg: Configuration) -> float:
    """min_{i != j} <x_i, x_j>."""
    return float(np.min(_off_diagonal_products(cfg)))


def largest_inner_product(cfg: Configuration) -> float:
    """max_{i != j} <x_i, x_j>."""
    return float(np.max(_off_diagonal_products(cfg)))


def cluster_count(cfg: Configuration, radius: float) -> float:
    """The number of clusters for merge radius r: the connected components of the graph joining tokens with
    |x_i - x_j| <= r (single linkage, so a chain of close tokens is one cluster)."""
    G = gram(cfg)
    squares = np.diag(G)
    close = squares[:, None] + squares[None, :] - 2.0 * G <= radius * radius
    seen = np.zeros(cfg.n, dtype=bool)
    count = 0
    for root in range(cfg.n):
        if seen[root]:
            continue
        count += 1
        frontier = [root]
        seen[root] = True
        while frontier:
            reached = close[frontier].any(axis=0) & ~seen
            seen |= reached
            frontier = list(np.flatnonzero(reached))
    return float(count)
