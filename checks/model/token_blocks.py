"""The attention weights of a configuration a block of query tokens at a time, with work buffers kept between
evaluations: the hot path of the velocity (`checks.model.field`) and of the integrator's right-hand side.

A `Heads` is built once per configuration (once per trajectory: only the tokens move), folding beta into the
score matrices and transposing the values. `Heads.velocity(X)` then costs the matrix products and the
elementwise pass of the bare numpy evaluation plus O(n d H) work: the (H, b, n) block of scores is formed, turned
into weights in place (exp, shifted exp, max(., 0), the mask, a stated phi) and multiplied at once by the values,
which carry a column of ones so that the same product forms the softmax row sums. Memory is O(H b n + H n d),
b the block of `checks.model.memory.block_rows`.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator

import numpy as np

from certificates.kernel.errors import InputError
from checks.model import interaction as stated
from checks.model import memory
from checks.model.configuration import Configuration

#: Above this bound on |beta s^h_ij|, softmax numerators are shifted by their row maxima: below it,
#: exp(beta s) and the sums of n <= MAX_TOKENS of them lie far inside the float64 range
#: (exp(300) * 20000 < 1e135, exp(-300) > 1e-131), and the softmax is invariant under the shift.
UNSHIFTED_SOFTMAX_BOUND = 300.0
#: Below this bound on |beta s^h_ij|, exp(beta s) cannot overflow float64 (log of the largest double: 709.78).
EXP_SAFE_BOUND = 709.0


def exp_in_place(values: np.ndarray, bound: float) -> np.ndarray:
    """exp(values), written over `values` (no new n x n array); `bound` >= max |values|.

    The inputs are finite (validated tokens), so the result is finite unless some entry overflowed; below
    EXP_SAFE_BOUND none can, above it the maximum shows it without a second full-size array.
    """
    with np.errstate(over="ignore"):
        result = np.exp(values, out=values)
    if bound > EXP_SAFE_BOUND and not np.isfinite(np.max(result)):
        raise InputError("beta*scores", "> 709.78", "exp overflows float64; lower beta or the head scale")
    return result


def softmax_numerators(z: np.ndarray, bound: float, mask: np.ndarray | None = None) -> np.ndarray:
    """exp(z - shift) in place on a block z of shape (b, H, n), shift = the row maxima when `bound` (>= max |z|)
    allows overflow, else 0; a masked entry (mask (b, n) false) is set to -inf first, so its numerator is 0 and
    the row maxima are over the unmasked ones."""
    if mask is not None:
        np.copyto(z, -np.inf, where=~mask[:, None, :])
    if bound > UNSHIFTED_SOFTMAX_BOUND:
        z -= z.max(axis=-1, keepdims=True)
    return np.exp(z, out=z)


def finite_tokens(X: np.ndarray) -> float:
    """||X||_F^2, which bounds every |x_i|^2; InputError when some entry of X is not finite."""
    total = float(np.vdot(X, X))
    if not math.isfinite(total) and not np.all(np.isfinite(X)):
        raise InputError("tokens", "non-finite", "the state left the finite range")
    return total


class Heads:
    """The heads of one configuration and the work buffers of its evaluations at any tokens of its shape.

    Build it once per configuration or trajectory (`heads_of`); its methods take the tokens X (n x d), validated
    once here: the shape, and finiteness by one O(n d) product per call. The arrays it returns are fresh (an
    integrator may keep them); the blocks it yields are its own buffers, valid until the next call.

    Layout: the heads' score factors side by side, F = [beta M_1 ... beta M_H] (d x H d), so that one product
    X F gives every head's X beta M_h and one more, (X F)_rows reshaped to (b H) x d times X^T, the block of
    scores in the order (i, h, j). For usa and relu the velocity is then one product of the block, (b, H n),
    with the stacked values W_h x_j / n, (H n, d): the sum over heads is inside the product.
    """

    def __init__(self, cfg: Configuration) -> None:
        self.cfg = cfg
        self.shape = cfg.tokens.shape
        n, d, H = cfg.n, cfg.d, cfg.H
        M = cfg.score_matrices
        #: |beta s^h_ij| <= norm * |x_i| |x_j| (the Frobenius norm bounds the operator norm).
        self.norm = abs(cfg.beta) * float(np.sqrt(np.max(np.einsum("hij,hij->h", M, M))))
        #: [beta M_1 ... beta M_H] and [M_1 ... M_H] (a stated phi reads the scores s themselves).
        self._factors = np.ascontiguousarray(np.swapaxes(M * cfg.beta, 0, 1).reshape(d, H * d))
        self._raw = np.ascontiguousarray(np.swapaxes(M, 0, 1).reshape(d, H * d))
        self.values_t = np.ascontiguousarray(np.swapaxes(cfg.values, 1, 2))
        self._mean_values_t = self.values_t / n
        self.rows = memory.block_rows(n, d, H, cfg.mask is not None, cfg.memory_budget)
        self._slices = [slice(start, min(start + self.rows, n)) for start in range(0, n, self.rows)]
        self._plain = cfg.mask is None and cfg.interaction is None
        self._Y = np.empty((n, H * d))
        self._values = np.empty((H, n, d + 1))
        self._values[..., d] = 1.0
        self._stacked = np.empty((H, n, d))
        self._block = np.empty((self.rows, H, n))
        self._sums = np.empty((H, n, d + 1))

    def _bound(self, X: np.ndarray, frobenius: float) -> float:
        """A bound on max |beta s^h_ij| at least as tight as the shift and overflow decisions need: the cheap
        bounds norm * ||X||_F^2 and norm * max |x_i|^2 when they are <= UNSHIFTED_SOFTMAX_BOUND, else
        max |beta M_h^T x_i| max |x_j| (O(H n d), from the scaled factors X F). Every decision taken on it is the
        one the tight bound takes."""
        cheap = self.norm * frobenius
        if cheap <= UNSHIFTED_SOFTMAX_BOUND:
            return cheap
        squares = float(np.max(np.einsum("id,id->i", X, X)))
        if self.norm * squares <= UNSHIFTED_SOFTMAX_BOUND:
            return self.norm * squares
        n, d = self.shape
        Y = self._Y.reshape(n, -1, d)
        return math.sqrt(float(np.max(np.einsum("ihd,ihd->ih", Y, Y))) * squares)

    def _prepared(self, X: np.ndarray, terms: str) -> float:
        """Validate X, form X F (scaled, or raw for a stated phi) and return the bound of the exponentials."""
        if X.shape != self.shape:
            raise InputError("tokens.shape", X.shape, f"expected {self.shape}")
        frobenius = finite_tokens(X)
        if self.cfg.interaction is not None:
            np.matmul(X, self._raw, out=self._Y)
            return 0.0
        np.matmul(X, self._factors, out=self._Y)
        return self._bound(X, frobenius)

    def _block_of(self, X: np.ndarray, rows: slice, bound: float, terms: str) -> np.ndarray:
        """The block (b, H, n) of the query rows, turned in place into the `terms` (`weight_blocks`)."""
        cfg, (n, d) = self.cfg, self.shape
        b = rows.stop - rows.start
        z = self._block[:b]
        np.matmul(self._Y[rows].reshape(b * cfg.H, d), X.T, out=z.reshape(b * cfg.H, n))
        if self._plain and terms == "weights":  # the hot path: no mask, no stated phi
            if cfg.attention == "relu":
                return np.maximum(z, 0.0, out=z)
            return softmax_numerators(z, bound) if cfg.attention == "softmax" else exp_in_place(z, bound)
        mask = None if cfg.mask is None else cfg.mask[rows]
        if cfg.interaction is not None:
            if terms == "energy":
                z[...] = stated.energies_of(cfg.interaction, z, cfg.beta)
            else:
                normalized = terms == "weights" and cfg.attention == "softmax"
                z[...] = stated.weights_of(cfg.interaction, z, cfg.beta, normalized)
            if mask is not None:  # m_ij phi(s_ij), m_ij Phi(s_ij)
                z *= mask[:, None, :]
            return z
        if terms == "weights" and cfg.attention == "softmax":
            return softmax_numerators(z, bound, mask)
        if terms == "weights" and cfg.attention == "relu":
            np.maximum(z, 0.0, out=z)
        else:
            exp_in_place(z, bound)
        if mask is not None:
            z *= mask[:, None, :]
        return z

    def weight_blocks(self, X: np.ndarray, terms: str = "weights") -> Iterator[tuple[slice, np.ndarray]]:
        """(rows, z): z of shape (H, b, n) for the query rows (a view of the heads' buffer). `terms`: "weights",
        the n x n part of the kind's weights (exp, shifted exp, max(., 0), times the mask; phi(s) under a stated
        interaction); "energy", the energy terms m_ij exp(beta s^h_ij) unshifted (Phi(s) under an interaction);
        "rate", the terms of dE/dt: m_ij exp(beta s^h_ij) (phi(s) under an interaction)."""
        bound = self._prepared(X, terms)
        for rows in self._slices:
            yield rows, np.swapaxes(self._block_of(X, rows, bound, terms), 0, 1)

    def head_sums(self, X: np.ndarray) -> np.ndarray:
        """sum_j z^h_ij (W_h x_j, 1), shape (H, n, d+1): the unnormalized head outputs and the row sums (a
        buffer of the heads)."""
        d = self.shape[1]
        bound = self._prepared(X, "weights")
        np.matmul(X, self.values_t, out=self._values[..., :d])  # rows W_h x_j
        for rows in self._slices:
            z = self._block_of(X, rows, bound, "weights")
            np.matmul(np.swapaxes(z, 0, 1), self._values, out=self._sums[:, rows])
        return self._sums

    def head_outputs(self, X: np.ndarray) -> np.ndarray:
        """f^h_i = sum_j w^h_ij W_h x_j, shape (H, n, d) (fresh)."""
        sums = self.head_sums(X)
        d = self.shape[1]
        if self.cfg.attention == "softmax":
            return sums[..., :d] / sums[..., d:]
        if self.cfg.attention == "relu":
            return sums[..., :d] / self.shape[0]
        return sums[..., :d].copy()

    def velocity(self, X: np.ndarray) -> np.ndarray:
        """v_i: (1/n) sum_h f^h_i for usa, sum_h f^h_i for softmax and relu; shape (n, d) (fresh)."""
        n, d = self.shape
        if self.cfg.attention == "softmax":
            sums = self.head_sums(X)
            return np.einsum("hik,hi->ik", sums[..., :d], np.reciprocal(sums[..., d]))
        bound = self._prepared(X, "weights")
        np.matmul(X, self._mean_values_t, out=self._stacked)  # rows W_h x_j / n, stacked over heads
        stacked = self._stacked.reshape(-1, d)
        V = np.empty((n, d))
        for rows in self._slices:
            z = self._block_of(X, rows, bound, "weights")
            np.matmul(z.reshape(z.shape[0], -1), stacked, out=V[rows])
        return V


def heads_of(cfg: Configuration) -> Heads:
    """The block evaluator of cfg's heads (`Heads`), built once per configuration and thread: the quantities of one
    state share its work buffers, and a thread never writes into another thread's."""
    thread = threading.get_ident()
    cached = cfg.__dict__.get("_heads")
    if cached is None or cached[0] != thread:
        cached = (thread, Heads(cfg))
        object.__setattr__(cfg, "_heads", cached)  # a cache beside the frozen fields, never compared or copied
    return cached[1]


def row_blocks(cfg: Configuration) -> Iterator[slice]:
    """Slices of query rows whose (H, b, n) blocks fit the configuration's memory budget (`memory.block_rows`)."""
    rows = memory.block_rows(cfg.n, cfg.d, cfg.H, cfg.mask is not None, cfg.memory_budget)
    for start in range(0, cfg.n, rows):
        yield slice(start, min(start + rows, cfg.n))


def require_whole(cfg: Configuration, arrays: int, what: str) -> None:
    """InputError unless `arrays` whole (H, n, n) float arrays fit the configuration's memory budget."""
    memory.require(8 * arrays * cfg.H * cfg.n * cfg.n, cfg.memory_budget, what)
