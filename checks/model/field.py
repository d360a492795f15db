"""Every quantity of the model (SPEC section 1) in numpy float64, vectorized over tokens.

Shapes: tokens X (n, d); per-head arrays carry the head first: scores (H, n, n), head outputs
(H, n, d), shadows and powers (H, n). Each evaluation costs O(H (n^2 d + n d^2)) through
matrix products; no Python loop runs over tokens.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from functools import partial
from typing import Any

import numpy as np
from headflow.certificates.errors import InputError
from headflow.certificates.kernel.vocabulary import DIRECTION_GEOMETRIES, MIX_LN_PRE_SHARE
from headflow.checks.model import formulas, memory
from headflow.checks.model.configuration import Configuration
from headflow.checks.model.token_blocks import EXP_SAFE_BOUND as EXP_SAFE_BOUND  # re-exported: the float model's bounds
from headflow.checks.model.token_blocks import UNSHIFTED_SOFTMAX_BOUND as UNSHIFTED_SOFTMAX_BOUND
from headflow.checks.model.token_blocks import Heads, heads_of, require_whole, row_blocks
from headflow.identities.measure_distances import w2_squared_to_dirac

#: The geometries whose tokens are unit vectors moving tangentially: <xdot_i, x_i> = 0 exactly, so a score's own rate
#: ds^h_ii/dt = <xdot_i, (M_h + M_h^T) x_i> keeps only the part of M_h beyond its multiple of I (`score_rates`).
TANGENT_GEOMETRIES = ("sphere", "ngpt")


def project(X: np.ndarray, U: np.ndarray) -> np.ndarray:
    """Row-wise tangent projection P⊥_x(u) = u - <u, x> x (X and U of the same shape; `formulas.project`)."""
    return formulas.project(X, U)


def scores(cfg: Configuration) -> np.ndarray:
    """s^h_ij = <x_i, M_h x_j>, shape (H, n, n) (within the memory budget: `token_blocks.require_whole`)."""
    require_whole(cfg, 1, "the scores s^h_ij")
    Y = cfg.tokens @ cfg.score_matrices
    return (Y.reshape(cfg.H * cfg.n, cfg.d) @ cfg.tokens.T).reshape(cfg.H, cfg.n, cfg.n)


def _assembled(cfg: Configuration) -> np.ndarray:
    """The n x n part of the weights (`Heads.weight_blocks`) as one (H, n, n) array, within the memory budget."""
    require_whole(cfg, 2, "the attention weights")
    z = np.empty((cfg.H, cfg.n, cfg.n))
    for rows, block in heads_of(cfg).weight_blocks(cfg.tokens):
        z[:, rows] = block
    return z


def _distribution_blocks(cfg: Configuration) -> Iterator[tuple[slice, np.ndarray]]:
    """(rows, p^h_ij of those rows): the softmax distributions over the unmasked j, a block at a time (not defined
    with an interaction); the blocks are the heads' buffers."""
    if cfg.interaction is not None:
        raise InputError("interaction", cfg.interaction.text, "attention entropies are defined for exp(beta s) only")
    softmax = cfg if cfg.attention == "softmax" else replace(cfg, attention="softmax")
    for rows, z in heads_of(softmax).weight_blocks(cfg.tokens):
        yield rows, formulas.weights(z, "softmax", cfg.n)  # the numerators over their row sums, in place


def attention_distributions(cfg: Configuration) -> np.ndarray:
    """p^h_ij = softmax_j(beta s^h_ij) over the unmasked j, shape (H, n, n), for every attention kind (not defined
    with an interaction)."""
    require_whole(cfg, 2, "the attention distributions")
    p = np.empty((cfg.H, cfg.n, cfg.n))
    for rows, block in _distribution_blocks(cfg):
        p[:, rows] = block
    return p


def weights(cfg: Configuration) -> np.ndarray:
    """The attention weights w^h_ij of the configuration's kind, shape (H, n, n)."""
    return formulas.weights(_assembled(cfg), cfg.attention, cfg.n)


def head_outputs(cfg: Configuration) -> np.ndarray:
    """f^h_i = sum_j w^h_ij W_h x_j, shape (H, n, d), a block of query tokens at a time (`token_blocks.Heads`)."""
    return heads_of(cfg).head_outputs(cfg.tokens)


#: Up to this many products H n^2 d, the tangent velocity and the score rates on the sphere are formed from the
#: differences x_j - x_i (`head_output_parts`): O(H n^2 d) elementwise work, for the configurations of the model
#: claims' search; larger ones (trajectories) leave out the own term only.
CENTERED_SIZE = 200_000


def head_output_parts(cfg: Configuration) -> tuple[np.ndarray, np.ndarray]:
    """(c, R) with f^h_i = c^h_i x_i + R^h_i exactly, shapes (H, n) and (H, n, d): with Z^h_i = sum_j w^h_ij and
    W_h = mu_h I + W'_h (`formulas.scalar_parts`), c^h_i = Z^h_i mu_h and R^h_i = W_h sum_j w^h_ij (x_j - x_i) +
    Z^h_i W'_h x_i, the differences formed before they are weighted. P⊥_{x_i}(f^h_i) = P⊥_{x_i}(R^h_i) at unit
    tokens: a token's own term and those of tokens at or near x_i (weights up to e^(beta lambda)) enter only by
    their small differences, never cancelled after the sum (issue 39)."""
    w, X = weights(cfg), cfg.tokens
    mu, rest = formulas.scalar_parts(cfg.values)
    Z = w.sum(axis=-1)
    pulled = np.einsum("hij,ijd->hid", w, X[None, :, :] - X[:, None, :])
    R = pulled @ np.swapaxes(cfg.values, 1, 2) + Z[..., None] * (X @ np.swapaxes(rest, 1, 2))
    return Z * mu[:, None], R


def centered(cfg: Configuration) -> bool:
    """Whether the sphere's tangent quantities of cfg are formed from differences (`CENTERED_SIZE`)."""
    return cfg.geometry == "sphere" and cfg.H * cfg.n * cfg.n * cfg.d <= CENTERED_SIZE


def velocity(cfg: Configuration) -> np.ndarray:
    """v_i: (1/n) sum_h f^h_i for usa, sum_h f^h_i for softmax and relu; shape (n, d)."""
    return heads_of(cfg).velocity(cfg.tokens)


def token_velocity(cfg: Configuration) -> np.ndarray:
    """dx_i/dt: P⊥_{x_i}(v_i) on the sphere, v_i in flat space, the scheme's update otherwise; shape (n, d). On the
    sphere, up to CENTERED_SIZE, P⊥_{x_i} of the sum of `head_output_parts`' R^h_i."""
    if centered(cfg):
        R = head_output_parts(cfg)[1].sum(axis=0) / (cfg.n if cfg.attention == "usa" else 1)
        return project(cfg.tokens, R)
    return velocity_at(heads_of(cfg), cfg.tokens)


def velocity_function(cfg: Configuration) -> Callable[[np.ndarray], np.ndarray]:
    """X -> dx/dt at tokens X (of cfg's shape) for cfg's heads and options: `token_velocity` with one workspace for
    every call (build it once per trajectory; X is checked for shape and finiteness, never copied)."""
    heads = heads_of(cfg)
    if cfg.geometry == "sphere":  # the hot path, chosen once: no dispatch per call
        return partial(heads.velocity, tangent=True)
    return partial(velocity_at, heads)


def velocity_at(heads: Heads, X: np.ndarray) -> np.ndarray:
    """dx_i/dt at tokens X for the heads and options of `heads.cfg` (`token_velocity`); a fresh array."""
    geometry = heads.cfg.geometry
    if geometry == "sphere":
        return heads.velocity(X, tangent=True)
    if geometry == "flat":
        return heads.velocity(X)
    Y = X / np.linalg.norm(X, axis=1, keepdims=True) if geometry in DIRECTION_GEOMETRIES else X
    return scheme_velocity(X, Y, *heads.velocity_parts(Y), geometry)


def directions(cfg: Configuration) -> Configuration:
    """The tokens attention reads: y_i = x_i / |x_i| for pre-ln, peri-ln and mix-ln (the residual stream's
    directions), the tokens themselves otherwise. Every model quantity of a state is one of these tokens."""
    if cfg.geometry not in DIRECTION_GEOMETRIES:
        return cfg
    state = cfg.__dict__.get("_directions")
    if state is None:  # kept with the state, with the quantities `expect`ed there
        state = cfg.__dict__["_directions"] = cfg.moved_to(cfg.tokens / token_norms(cfg)[:, None])
        state.__dict__["_expected"] = cfg.__dict__.get("_expected", set())
    return state


def _norms(field: str, V: np.ndarray) -> np.ndarray:
    """|V_i| as a column (Norm of a sublayer's output); InputError where some V_i = 0 (Norm undefined)."""
    norms = np.linalg.norm(V, axis=1, keepdims=True)
    if np.any(norms == 0):
        raise InputError(field, int(np.argmin(norms)), "the attention velocity vanishes: Norm(v) is undefined")
    return norms


def _unit_rows(field: str, V: np.ndarray) -> np.ndarray:
    """V_i / |V_i| (Norm of a sublayer's output); InputError where some V_i = 0 (Norm undefined)."""
    return V / _norms(field, V)


def scheme_velocity(X: np.ndarray, Y: np.ndarray, c: np.ndarray, R: np.ndarray, geometry: str) -> np.ndarray:
    """xdot of the normalization scheme from the residual tokens X, the tokens attention reads Y (the directions for
    pre-ln, peri-ln, mix-ln; X for ngpt) and the attention velocity v_i = c_i y_i + R_i (`Heads.velocity_parts`):
    pre-ln v; peri-ln v/|v|; mix-ln (1-a) P⊥_y v + a v; ngpt P⊥_x(v/|v|). Each P⊥_y v is taken as P⊥_y R (exactly
    equal at unit y), free of the self-term's cancellation."""
    V = c[:, None] * Y + R
    if geometry == "pre-ln":
        return V
    if geometry == "peri-ln":
        return _unit_rows("velocity", V)
    if geometry == "ngpt":
        return project(X, R) / _norms("velocity", V)
    if geometry == "mix-ln":
        share = MIX_LN_PRE_SHARE[0] / MIX_LN_PRE_SHARE[1]
        return (1.0 - share) * project(Y, R) + share * V
    raise InputError("geometry", geometry, "not a normalization scheme of scheme_velocity")


def direction_velocity(cfg: Configuration) -> np.ndarray:
    """dy_i/dt of the tokens attention reads (`directions`): P⊥_{y_i}(xdot_i) / |x_i| for pre-ln, peri-ln and
    mix-ln, xdot_i otherwise; the rates of every model quantity are taken along it."""
    if cfg.geometry not in DIRECTION_GEOMETRIES:
        return token_velocity(cfg)
    norms = token_norms(cfg)[:, None]
    Y = cfg.tokens / norms
    c, R = heads_of(cfg).velocity_parts(Y)
    tangent = project(Y, R)  # P⊥_y xdot = P⊥_y R: pre-ln and mix-ln; peri-ln over |v|
    if cfg.geometry == "peri-ln":
        tangent /= _norms("velocity", c[:, None] * Y + R)
    return tangent / norms


def token_norms(cfg: Configuration) -> np.ndarray:
    """|x_i| of the residual tokens, shape (n,) (1 on the sphere; grows under pre-ln)."""
    return np.linalg.norm(cfg.tokens, axis=1)


def token_norm_rates(cfg: Configuration) -> np.ndarray:
    """d|x_i|/dt = <x_i, xdot_i> / |x_i|, shape (n,)."""
    return np.sum(cfg.tokens * token_velocity(cfg), axis=1) / token_norms(cfg)


def head_energies(cfg: Configuration) -> np.ndarray:
    """E_h = (1/(2 beta n^2)) sum_ij m_ij exp(beta s^h_ij), shape (H,) (the usa energy; m = 1 without a mask); with
    an interaction function, (1/(2 n^2)) sum_ij m_ij Phi(s^h_ij), Phi' = phi (`checks.model.interaction.energies_of`).

    Negative for beta < 0; undefined at beta = 0 (its 1/beta), where this raises InputError."""
    if cfg.interaction is None and cfg.beta == 0:
        raise InputError("beta", 0, "the energy (1/(2 beta n^2)) sum exp(beta s) is undefined at beta = 0")
    return _of_state(cfg, "head_energies") / (2.0 * cfg.n**2 * (1.0 if cfg.interaction is not None else cfg.beta))


#: The quantities of a state that one pass over the blocks of the energy terms m_ij exp(beta s^h_ij) gives
#: together (`_shared_pass`): the per-head sums of the energy and, from the same exponentials over their row sums,
#: the attention entropies.
SHARED_PASS = frozenset({"head_energies", "attention_entropies"})


#: The model quantities (`headflow.certificates.model_quantities`) whose values SHARED_PASS gives, by its names.
_PASS_OF = {"energy": "head_energies", "head_energies": "head_energies", "attention_entropy": "attention_entropies"}


def expect(cfg: Configuration, quantities: Iterable[str]) -> None:
    """Declare the model quantities that will be asked at the state cfg (a recorder's): those of SHARED_PASS (the
    energy, the head energies and the attention entropies) then come from one pass over its blocks of scores, at
    the first of them, kept with the state (a configuration is immutable; its tokens are read-only)."""
    cfg.__dict__["_expected"] = {_PASS_OF[name] for name in quantities if name in _PASS_OF}


def _of_state(cfg: Configuration, name: str) -> np.ndarray:
    """The raw value `name` of SHARED_PASS at cfg (energy sums before their factor, entropies; read-only), from the
    state's cache or from one pass that also gives the quantities `expect`ed there that share it."""
    cache = cfg.__dict__.setdefault("_shared_pass", {})
    if name not in cache:
        cache.update(_shared_pass(cfg, name, ({name} | cfg.__dict__.get("_expected", set())) - cache.keys()))
    return cache[name]


def _shared_pass(cfg: Configuration, asked: str, names: set[str]) -> dict[str, np.ndarray]:
    """`asked` and those of `names` that share its pass: the entropies come with the energy sums when the
    exponentials are the softmax numerators unshifted (no stated phi, `Heads.bounded_blocks`), else from their own
    pass over the distributions (the shift taken). The energy is computed for the entropies only when shared (its
    exponentials cannot overflow then), so an energy undefined at cfg never stops the entropies."""
    values: dict[str, np.ndarray] = {}
    if "head_energies" in names:
        bound, blocks = heads_of(cfg).bounded_blocks(cfg.tokens, "energy")
        shared = "attention_entropies" in names and cfg.interaction is None and bound <= UNSHIFTED_SOFTMAX_BOUND
        if shared or asked == "head_energies":
            sums, entropies = np.zeros(cfg.H), np.empty((cfg.H, cfg.n))
            for rows, terms in blocks:
                sums += terms.sum(axis=(1, 2))
                if shared:
                    entropies[:, rows] = _row_entropies(*_log_distributions(terms))
            values["head_energies"] = sums
            if shared:
                values["attention_entropies"] = entropies
    if asked == "attention_entropies" and "attention_entropies" not in values:  # its own pass, only when asked
        entropies = np.empty((cfg.H, cfg.n))
        for rows, p, log_p in _log_distribution_blocks(cfg):
            entropies[:, rows] = _row_entropies(p, log_p)
        values["attention_entropies"] = entropies
    for value in values.values():
        value.flags.writeable = False
    return values


def energy(cfg: Configuration) -> float:
    """E = sum_h E_h."""
    return float(head_energies(cfg).sum())


def _score_rate_blocks(
    cfg: Configuration, token_rates: np.ndarray | None, tangent: bool | None = None
) -> Callable[[slice], np.ndarray]:
    """rows -> ds^h_ij/dt = <xdot_i, M_h x_j> + <x_i, M_h xdot_j> of those rows, shape (H, b, n). With `tangent`
    (default: the geometry is one of TANGENT_GEOMETRIES; the caller says so for rates of unit directions), the own
    rates ds^h_ii/dt are <xdot_i, (M'_h + M'_h^T) x_i>, M'_h = M_h - mu_h I (`formulas.scalar_parts`): mu_h's
    part 2 mu_h <xdot_i, x_i> is exactly 0 there, and in floats the rounding of xdot_i's radial part times
    e^(beta lambda) would swamp dE/dt (issue 39)."""
    X = cfg.tokens
    Xdot = token_velocity(cfg) if token_rates is None else token_rates
    moving, fixed = Xdot @ cfg.score_matrices, X @ cfg.score_matrices
    own = None
    if cfg.geometry in TANGENT_GEOMETRIES if tangent is None else tangent:
        rest = formulas.scalar_parts(cfg.score_matrices)[1]
        if cfg.H * cfg.n * cfg.n * cfg.d <= CENTERED_SIZE:
            return _centered_score_rates(cfg, Xdot, rest)
        own = np.einsum("id,hde,ie->hi", Xdot, rest + np.swapaxes(rest, 1, 2), X)

    def block(rows: slice) -> np.ndarray:
        rates = moving[:, rows] @ X.T + fixed[:, rows] @ Xdot.T
        if own is not None:
            queries = np.arange(rows.start, rows.stop)
            rates[:, queries - rows.start, queries] = own[:, rows]
        return rates

    return block


def _centered_score_rates(cfg: Configuration, Xdot: np.ndarray, rest: np.ndarray) -> Callable[[slice], np.ndarray]:
    """rows -> ds^h_ij/dt of tangent rates at unit tokens, from differences: <xdot_i, M_h (x_j - x_i)> +
    <x_i - x_j, M_h xdot_j> + <xdot_i, M'_h x_i> + <xdot_j, M'_h^T x_j> (M_h = mu_h I + M'_h; the parts mu_h <xdot, x>
    are exactly 0): a pair at or near one point has a small rate, not the rounding of two large ones."""
    X, M = cfg.tokens, cfg.score_matrices
    D = X[None, :, :] - X[:, None, :]  # D_ij = x_j - x_i
    rates = np.einsum("hde,ije,id->hij", M, D, Xdot) - np.einsum("ijd,hde,je->hij", D, M, Xdot)
    rates += np.einsum("id,hde,ie->hi", Xdot, rest, X)[:, :, None]
    rates += np.einsum("jd,hed,je->hj", Xdot, rest, X)[:, None, :]
    return lambda rows: rates[:, rows]


def score_rates(cfg: Configuration, token_rates: np.ndarray | None = None, tangent: bool | None = None) -> np.ndarray:
    """ds^h_ij/dt = <xdot_i, M_h x_j> + <x_i, M_h xdot_j> along the dynamics, shape (H, n, n) (`tangent`: see
    `_score_rate_blocks`)."""
    require_whole(cfg, 2, "the score rates ds^h_ij/dt")
    return _score_rate_blocks(cfg, token_rates, tangent)(slice(0, cfg.n))


def head_energy_rates(
    cfg: Configuration, token_rates: np.ndarray | None = None, tangent: bool | None = None
) -> np.ndarray:
    """dE_h/dt by the chain rule, for any M_h, W_h, kind and mask, shape (H,); m_ij phi(s) for m_ij exp(beta s) with
    an interaction (`tangent`: see `_score_rate_blocks`)."""
    rates_of = _score_rate_blocks(cfg, token_rates, tangent)
    total = np.zeros(cfg.H)
    with np.errstate(all="ignore"):
        for rows, e in heads_of(cfg).weight_blocks(cfg.tokens, "rate"):
            total += (e * rates_of(rows)).sum(axis=(1, 2))
    rates = total / (2.0 * cfg.n**2)
    if cfg.interaction is not None and not np.all(np.isfinite(rates)):
        raise InputError("interaction", cfg.interaction.text, "dE_h/dt leaves float64 at this configuration")
    return rates


def energy_rate(cfg: Configuration, token_rates: np.ndarray | None = None, tangent: bool | None = None) -> float:
    """dE/dt = sum_h dE_h/dt."""
    return float(head_energy_rates(cfg, token_rates, tangent).sum())


def radial_shadows(cfg: Configuration, outputs: np.ndarray | None = None) -> np.ndarray:
    """a^h_i = <f^h_i, x_i>, shape (H, n) (`outputs`: the head outputs f, when already computed)."""
    f = head_outputs(cfg) if outputs is None else outputs
    return np.sum(f * cfg.tokens, axis=-1)


def tangential_powers(cfg: Configuration, outputs: np.ndarray | None = None) -> np.ndarray:
    """T^h_i = |P⊥_{x_i}(f^h_i)|^2, shape (H, n)."""
    tangent = project(cfg.tokens, head_outputs(cfg) if outputs is None else outputs)
    return np.sum(tangent * tangent, axis=-1)


def radial_cross_terms(cfg: Configuration, outputs: np.ndarray | None = None) -> np.ndarray:
    """sum_{h' != h} a^h_i a^h'_i, the radial-shadow coupling of head h at token i, shape (H, n)."""
    a = radial_shadows(cfg, outputs)
    return a * (a.sum(axis=0, keepdims=True) - a)


def condition8_margins(cfg: Configuration) -> np.ndarray:
    """T^h_i - sum_{h' != h} a^h_i a^h'_i per head and token (Condition 8 holds where >= 0)."""
    outputs = head_outputs(cfg)
    return tangential_powers(cfg, outputs) - radial_cross_terms(cfg, outputs)


def _row_entropies(p: np.ndarray, log_p: np.ndarray) -> np.ndarray:
    """-sum_j p_ij log p_ij of a block of distributions and their logarithms, shape (H, b)."""
    with np.errstate(invalid="ignore"):  # 0 * -inf where p = 0, dropped
        return -np.where(p > 0, p * log_p, 0.0).sum(axis=-1)


def _log_distributions(terms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(p, log p) of a block of softmax numerators (H, b, n) (>= 0, each row's largest > 0; shifted or not), in place
    of `terms`: over each row's largest r_j = z_j / z_max, log p_j = log r_j - log1p(sum of the others' r): the
    dominant p_ii = 1 / (1 + rest) keeps log p_ii = -log1p(rest), which log(p_ii) of a rounded p_ii near 1 loses
    (a sharp head's entropy, issue 39). log p is -inf where p = 0."""
    top = np.argmax(terms, axis=-1)[..., None]
    terms /= np.take_along_axis(terms, top, axis=-1)
    np.put_along_axis(terms, top, 0.0, axis=-1)
    rest = terms.sum(axis=-1, keepdims=True)
    np.put_along_axis(terms, top, 1.0, axis=-1)
    with np.errstate(divide="ignore"):
        log_p = np.log(terms) - np.log1p(rest)
    terms /= 1.0 + rest
    return terms, log_p


def _log_distribution_blocks(cfg: Configuration) -> Iterator[tuple[slice, np.ndarray, np.ndarray]]:
    """(rows, p, log p) of those rows (`_log_distributions` of the softmax numerators), a block at a time."""
    if cfg.interaction is not None:
        raise InputError("interaction", cfg.interaction.text, "attention entropies are defined for exp(beta s) only")
    softmax = cfg if cfg.attention == "softmax" else replace(cfg, attention="softmax")
    for rows, z in heads_of(softmax).weight_blocks(cfg.tokens):
        yield rows, *_log_distributions(z)


def attention_entropies(cfg: Configuration) -> np.ndarray:
    """H^h_i = -sum_j p^h_ij log p^h_ij, shape (H, n), each in [0, log n] (fresh)."""
    return _of_state(cfg, "attention_entropies").copy()


def partition_functions(cfg: Configuration) -> np.ndarray:
    """Z^h_i = sum_j m_ij exp(beta s^h_ij), shape (H, n): the softmax normalizer, the row sum of the usa weights
    (m the mask, 1 without one)."""
    sums = np.empty((cfg.H, cfg.n))
    plain = cfg if cfg.interaction is None else replace(cfg, interaction=None)
    for rows, terms in heads_of(plain).weight_blocks(cfg.tokens, "energy"):
        sums[:, rows] = terms.sum(axis=-1)
    return sums


def attention_means(cfg: Configuration) -> np.ndarray:
    """xbar^h_i = sum_j p^h_ij x_j, shape (H, n, d): the tokens averaged by head h's attention distribution."""
    means = np.empty((cfg.H, cfg.n, cfg.d))
    for rows, p in _distribution_blocks(cfg):
        means[:, rows] = p @ cfg.tokens
    return means


def entropy_rates(cfg: Configuration, token_rates: np.ndarray | None = None, tangent: bool | None = None) -> np.ndarray:
    """dH^h_i/dt by differentiating -sum_j p log p through the softmax, shape (H, n) (`tangent`: see
    `_score_rate_blocks`; log p as `_log_distributions` gives it)."""
    rates_of = _score_rate_blocks(cfg, token_rates, tangent)
    rates = np.empty((cfg.H, cfg.n))
    for rows, p, log_p in _log_distribution_blocks(cfg):
        sdot = rates_of(rows)
        mean_rate = np.sum(p * sdot, axis=-1, keepdims=True)
        pdot = cfg.beta * p * (sdot - mean_rate)
        with np.errstate(invalid="ignore"):  # 0 * -inf where p = 0, dropped
            rates[:, rows] = -np.sum(np.where(p > 0, pdot * log_p, 0.0), axis=-1)
    return rates


def gram(cfg: Configuration) -> np.ndarray:
    """The token Gram matrix <x_i, x_j>, shape (n, n)."""
    memory.require(8 * cfg.n * cfg.n, cfg.memory_budget, "the Gram matrix")
    return cfg.tokens @ cfg.tokens.T


def _off_diagonal_extremes(cfg: Configuration) -> tuple[float, float]:
    """(min, max) of <x_i, x_j> over i != j, from blocks of rows of the Gram matrix."""
    X, least, largest = cfg.tokens, np.inf, -np.inf
    for rows in row_blocks(cfg):
        G = X[rows] @ X.T
        diagonal = (np.arange(G.shape[0]), np.arange(rows.start, rows.stop))
        G[diagonal] = np.inf
        least = min(least, float(np.min(G)))
        G[diagonal] = -np.inf
        largest = max(largest, float(np.max(G)))
    return least, largest


def cluster_gap(cfg: Configuration) -> float:
    """max_{i != j} (1 - <x_i, x_j>): equals 1 - rho for equiangular tokens; 0 when collapsed."""
    return 1.0 - _off_diagonal_extremes(cfg)[0]


def first_pair_gap(cfg: Configuration) -> float:
    """1 - <x_1, x_2>: the gap of the first two tokens (under the causal mask they form a closed system)."""
    return float(1.0 - cfg.tokens[0] @ cfg.tokens[1])


def least_inner_product(cfg: Configuration) -> float:
    """min_{i != j} <x_i, x_j>."""
    return _off_diagonal_extremes(cfg)[0]


def largest_inner_product(cfg: Configuration) -> float:
    """max_{i != j} <x_i, x_j>."""
    return _off_diagonal_extremes(cfg)[1]


def squared_distances(cfg: Configuration) -> np.ndarray:
    """|x_i - x_j|^2 = |x_i|^2 + |x_j|^2 - 2 <x_i, x_j>, shape (n, n) (from the Gram matrix)."""
    G = gram(cfg)
    squares = np.diag(G)
    return squares[:, None] + squares[None, :] - 2.0 * G


def merge_heights(squared: np.ndarray) -> list[Any]:
    """The squared single-linkage merge heights h_1 <= ... <= h_(n-1) of points with squared distances `squared`
    (n x n, any ordered number type: floats, or an object array of exact rationals): the edge weights of a minimum
    spanning tree (Prim), sorted. The graph joining the pairs with |x_i - x_j|^2 <= r^2 has exactly
    n - #{k : h_k <= r^2} connected components (Kruskal adds the tree's edges in this order and each joins two
    components), so the number of clusters at merge radius r, the k-th merge and its time all read these heights."""
    n = squared.shape[0]
    inside = np.zeros(n, dtype=bool)
    inside[0] = True
    best = squared[0].copy()
    heights = []
    for _ in range(n - 1):
        outside = np.flatnonzero(~inside)
        j = int(outside[int(np.argmin(best[outside]))])
        heights.append(best[j])
        inside[j] = True
        best = np.minimum(best, squared[j])
    return sorted(heights)


def clusters_at(heights: list[Any], radius_squared: Any) -> int:
    """The number of clusters at merge radius r (r^2 = `radius_squared`): n - #{k : h_k <= r^2} (`merge_heights`)."""
    return len(heights) + 1 - sum(1 for h in heights if h <= radius_squared)


def cluster_count(cfg: Configuration, radius: float) -> float:
    """The number of clusters for merge radius r: the connected components of the graph joining tokens with
    |x_i - x_j| <= r (single linkage, so a chain of close tokens is one cluster; `clusters_at`)."""
    return float(clusters_at(merge_heights(squared_distances(cfg)), radius * radius))


def merge_radius(cfg: Configuration, k: float = 1) -> float:
    """The k-th single-linkage merge height sqrt(h_k) (`merge_heights`): the least merge radius at which the tokens
    form at most n - k clusters; merge_radius(1) (the default) is the least distance between two tokens. The k-th
    merge along a trajectory happens at the first time it falls to the merge radius (`merge_time`)."""
    heights = merge_heights(squared_distances(cfg))
    return float(np.sqrt(max(float(heights[int(k) - 1]), 0.0)))


def closest_pairs(squared: np.ndarray, tolerance: float = 0.0) -> set[tuple[int, int]]:
    """The pairs i < j whose squared distance is within `tolerance` (relative to 1) of the least one (any ordered number
    type; tolerance 0: the exact least pairs)."""
    n = squared.shape[0]
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    least = min(squared[i, j] for i, j in pairs)
    return {(i, j) for i, j in pairs if squared[i, j] <= least + tolerance}


def w2_to_dirac(cfg: Configuration) -> float:
    """The Wasserstein-2 distance from the tokens' empirical measure to the closest Dirac mass on the unit sphere,
    sqrt(s + 1 - 2 |m|) (s the mean squared norm, m the mean; 2 - 2 |m| for unit tokens: the least z is m/|m|, and
    every unit z when m = 0), by `identities.measure_distances.w2_squared_to_dirac` from s and the variance of the
    centred tokens (no cancellation as the tokens collapse); rounding below 0 reads as 0."""
    X = cfg.tokens
    variance = float(np.mean(np.sum((X - X.mean(axis=0)) ** 2, axis=1)))  # from the centred tokens: no cancellation
    mean_square = float(np.mean(np.sum(X**2, axis=1)))
    square = w2_squared_to_dirac(mean_square, variance, lambda q: np.sqrt(max(q, 0.0)))
    return float(np.sqrt(max(square, 0.0)))
