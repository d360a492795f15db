"""The attention weights of a configuration a block of query tokens at a time, with work buffers kept between
evaluations: the hot path of the velocity (`headflow.checks.model.field`) and of the integrator's right-hand side.

A `Heads` is built once per configuration (once per trajectory: only the tokens move), folding beta into the
score matrices and transposing the values. `Heads.velocity(X)` then costs the matrix products and the
elementwise pass of the bare numpy evaluation plus O(n d H) work: the (H, b, n) block of scores is formed, turned
into weights in place (exp, shifted exp, max(., 0), the mask, a stated phi) and multiplied at once by the values,
which carry a column of ones so that the same product forms the softmax row sums; past KEY_TILE tokens the velocity
forms each block a tile of keys at a time in the same memory, so that the work stays in cache. Memory is
O(H b n + H n d), b the block of `headflow.checks.model.memory.block_rows`.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator

import numpy as np
from headflow.certificates.errors import InputError
from headflow.checks.model import formulas, memory
from headflow.checks.model import interaction as stated
from headflow.checks.model.configuration import Configuration
from numpy.lib.stride_tricks import as_strided

#: Above this bound on |beta s^h_ij|, softmax numerators are shifted by their row maxima: below it,
#: exp(beta s) and the sums of n <= MAX_TOKENS of them lie far inside the float64 range
#: (exp(300) * 20000 < 1e135, exp(-300) > 1e-131), and the softmax is invariant under the shift.
UNSHIFTED_SOFTMAX_BOUND = 300.0
#: Below this bound on |beta s^h_ij|, exp(beta s) cannot overflow float64 (log of the largest double: 709.78).
EXP_SAFE_BOUND = 709.0
#: Past this many tokens the velocity's blocks are formed a tile of KEY_TILE key tokens at a time (the row sums are
#: sums over keys, so tiles add up): a (b H, KEY_TILE) tile of scores, its exponentials and its product with the
#: values stay in cache, and the cost per H n^2 d stays flat in n (benchmarks/velocity.py --long).
KEY_TILE = 1024


def numerators_in_place(z: np.ndarray, attention: str, bound: float, mask: np.ndarray | None = None) -> np.ndarray:
    """The kind's numerators (`formulas.numerators`) written over the block z; `bound` >= max |z| decides softmax's
    shift (past UNSHIFTED_SOFTMAX_BOUND) and, past EXP_SAFE_BOUND, an exponential's overflow is an InputError (the
    inputs are finite, validated tokens: the maximum shows an overflow without a second full-size array); `mask`
    broadcast against z."""
    shifted = bound > UNSHIFTED_SOFTMAX_BOUND
    if bound <= EXP_SAFE_BOUND or attention != "usa":
        return formulas.numerators(z, attention, shifted, mask)
    with np.errstate(over="ignore", invalid="ignore"):
        result = formulas.numerators(z, attention, shifted, mask)
    if not np.isfinite(np.max(result)):
        raise InputError("beta*scores", "> 709.78", "exp overflows float64; lower beta or the head scale")
    return result


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
        self.norm = abs(cfg.beta) * float(formulas.head_norm(M))
        #: [beta M_1 ... beta M_H] and [M_1 ... M_H] (a stated phi reads the scores s themselves).
        self._factors = np.ascontiguousarray(np.swapaxes(M * cfg.beta, 0, 1).reshape(d, H * d))
        self._raw = np.ascontiguousarray(np.swapaxes(M, 0, 1).reshape(d, H * d))
        self.values_t = np.ascontiguousarray(np.swapaxes(cfg.values, 1, 2))
        #: W_h = mu_h I + W'_h (`formulas.scalar_parts`): the self-weights' tangent part is W'_h x_i (None where
        #: every W'_h = 0).
        self.value_scalars, rest = formulas.scalar_parts(cfg.values)
        self._rest_t = np.ascontiguousarray(np.swapaxes(rest, 1, 2)) if np.any(rest) else None
        #: The same stacked, [W'_1^T; ...; W'_H^T] (H d, d), and a buffer for the rows (w^h_ii x_i)_h (n, H d):
        #: sum_h w^h_ii W'_h x_i is then one product (`velocity_parts`).
        self._rest_stacked = None if self._rest_t is None else self._rest_t.reshape(H * d, d)
        self._own_rows = np.empty((n, H, d))
        #: The self-weights z^h_ii taken out of the blocks by `velocity_parts` (n, H).
        self._diagonal = np.empty((n, H))
        self._lift = False
        self._mean_values_t = self.values_t / n
        self.rows = memory.block_rows(n, d, H, cfg.mask is not None, cfg.memory_budget)
        self._slices = [slice(start, min(start + self.rows, n)) for start in range(0, n, self.rows)]
        self._plain = cfg.mask is None and cfg.interaction is None
        self._softmax = cfg.attention == "softmax"
        self._kind = cfg.attention
        self._along = np.empty((n, d))  # <v_i, x_i> x_i of the tangent projection (`formulas.project`)
        self._Y = np.empty((n, H * d))
        self._block = np.empty((self.rows, H, n))
        #: Per block: the rows (i, h) of X F whose products with X^T are its scores, the block, the block as
        #: (b H, n) (the product's output) and as (b, H n) (the usa and relu velocity's left factor).
        Y_rows = self._Y.reshape(n * H, d)
        self._views = {}
        #: Per block: its self-weights z^h_ii (b, H), a strided view of the block (the entries (i, h, i)), so that
        #: `_lifted` moves them out with two array operations and no index arrays.
        self._own_views = {}
        for rows in self._slices:
            z = self._block[: rows.stop - rows.start]
            flat = (z.reshape(-1, n), z.reshape(z.shape[0], -1))
            self._views[rows.start] = (Y_rows[rows.start * H : rows.stop * H], z, *flat)
            own_strides = (z.strides[0] + z.strides[2], z.strides[1])
            self._own_views[rows.start] = as_strided(z[:, :, rows.start :], (z.shape[0], H), own_strides)
        self._values = np.empty((H, d + 1, n))  # rows W_h X^T and a row of ones (the softmax row sums)
        self._values[:, d] = 1.0
        self._sums = np.empty((H, d + 1, n))  # sum_j z^h_ij (W_h x_j, 1), transposed: (h, k, i)
        #: The stacked values W_h x_j / n (usa and relu: (H, n, d), and (H n, d) for the product).
        work = np.empty(H * n * d)
        self._stacked, self._stacked_rows = work.reshape(H, n, d), work.reshape(-1, d)
        self._one_block = len(self._slices) == 1
        #: The key tiles of `_summed` (None at most KEY_TILE tokens, or with a mask or a stated phi), their tiles as
        #: views of the block's own memory, and the product of one tile with the values.
        self._key_slices = None
        if self._plain and n > KEY_TILE:
            self._key_slices = [slice(start, min(start + KEY_TILE, n)) for start in range(0, n, KEY_TILE)]
            self._partial = np.empty((H, d + 1, self.rows))

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
        cheap = self.norm * frobenius
        return cheap if cheap <= UNSHIFTED_SOFTMAX_BOUND else self._bound(X, frobenius)

    def _block_of(self, X: np.ndarray, rows: slice, bound: float, terms: str) -> np.ndarray:
        """The block (b, H, n) of the query rows, turned in place into the `terms` (`weight_blocks`)."""
        Y_rows, z, flat, _ = self._views[rows.start]
        np.matmul(Y_rows, X.T, out=flat)
        if self._plain and terms == "weights":  # the hot path: no mask, no stated phi
            return self._lifted(numerators_in_place(z, self._kind, bound), rows, 0)
        cfg = self.cfg
        mask = None if cfg.mask is None else cfg.mask[rows]
        if cfg.interaction is not None:
            if terms == "energy":
                z[...] = stated.energies_of(cfg.interaction, z, cfg.beta)
            else:
                normalized = terms == "weights" and cfg.attention == "softmax"
                z[...] = stated.weights_of(cfg.interaction, z, cfg.beta, normalized)
            if mask is not None:  # m_ij phi(s_ij), m_ij Phi(s_ij)
                z *= mask[:, None, :]
            return self._lifted(z, rows, 0) if terms == "weights" else z
        kind = cfg.attention if terms == "weights" else "usa"  # energy and rate terms: m_ij exp(beta s) unshifted
        z = numerators_in_place(z, kind, bound, None if mask is None else mask[:, None, :])
        return self._lifted(z, rows, 0) if terms == "weights" else z

    def _lifted(self, z: np.ndarray, rows: slice, key_start: int) -> np.ndarray:
        """z (b, H, k) of the query rows and the keys from key_start, with the self-weights z^h_ii in it moved to
        `_diagonal` (0 left in z) while `velocity_parts` asks for them; z untouched otherwise."""
        if not self._lift:
            return z
        if key_start == 0 and z is self._views[rows.start][1]:  # the whole block: its strided diagonal
            own = self._own_views[rows.start]
            self._diagonal[rows] = own
            own.fill(0.0)
            return z
        first, last = max(rows.start, key_start), min(rows.stop, key_start + z.shape[2])
        if first < last:
            queries = np.arange(first, last)
            self._diagonal[queries] = z[queries - rows.start, :, queries - key_start]
            z[queries - rows.start, :, queries - key_start] = 0.0
        return z

    def weight_blocks(self, X: np.ndarray, terms: str = "weights") -> Iterator[tuple[slice, np.ndarray]]:
        """(rows, z): z of shape (H, b, n) for the query rows (a view of the heads' buffer). `terms`: "weights",
        the n x n part of the kind's weights (exp, shifted exp, max(., 0), times the mask; phi(s) under a stated
        interaction); "energy", the energy terms m_ij exp(beta s^h_ij) unshifted (Phi(s) under an interaction);
        "rate", the terms of dE/dt: m_ij exp(beta s^h_ij) (phi(s) under an interaction)."""
        return self.bounded_blocks(X, terms)[1]

    def bounded_blocks(self, X: np.ndarray, terms: str = "weights") -> tuple[float, Iterator[tuple[slice, np.ndarray]]]:
        """(bound, `weight_blocks`): with the bound on max |beta s^h_ij| that the blocks' exponentials were decided
        on (0 under a stated phi). At most UNSHIFTED_SOFTMAX_BOUND, the unshifted m_ij exp(beta s^h_ij) over their
        row sums are the softmax distributions, to the last bit (the shift is not taken)."""
        bound = self._prepared(X, terms)
        return bound, self._blocks(X, bound, terms)

    def _blocks(self, X: np.ndarray, bound: float, terms: str) -> Iterator[tuple[slice, np.ndarray]]:
        for rows in self._slices:
            yield rows, np.swapaxes(self._block_of(X, rows, bound, terms), 0, 1)

    def _summed(self, X: np.ndarray, bound: float) -> np.ndarray:
        """sum_j z^h_ij (W_h x_j, 1) transposed, shape (H, d+1, n) (h, k, i), in the heads' buffer (X prepared by
        `_prepared`). Transposed, the product reads the block in place and the division by the row sums (the
        last row) runs along the long axis i."""
        d = self.shape[1]
        values, sums = self._values, self._sums
        np.matmul(self.values_t.swapaxes(1, 2), X.T, out=values[:, :d])  # W_h X^T
        tiled = self._key_slices is not None and (not self._softmax or bound <= UNSHIFTED_SOFTMAX_BOUND)
        for rows in self._slices:
            if tiled:  # (a shifted softmax needs each row's maximum over every key first: whole rows then)
                self._tiled_sums(X, rows, bound, sums[..., rows])
                continue
            z = self._block_of(X, rows, bound, "weights")  # (b, H, n): the product takes z^h as (n, b)
            np.matmul(values, z.transpose(1, 2, 0), out=sums[..., rows])
        return sums

    def _tiled_sums(self, X: np.ndarray, rows: slice, bound: float, out: np.ndarray) -> None:
        """`_summed`'s columns of the query rows, a tile of keys at a time (KEY_TILE): each tile's scores formed and
        turned into weights in place in the block's memory, multiplied by the values' columns of its keys, added."""
        b, H = rows.stop - rows.start, self.cfg.H
        Y_rows, flat, partial = self._views[rows.start][0], self._block.reshape(-1), self._partial[..., :b]
        for index, keys in enumerate(self._key_slices or ()):
            tile = flat[: b * H * (keys.stop - keys.start)].reshape(b * H, -1)
            np.matmul(Y_rows, X[keys].T, out=tile)
            weights = self._lifted(numerators_in_place(tile, self._kind, bound).reshape(b, H, -1), rows, keys.start)
            weights = weights.transpose(1, 2, 0)
            np.matmul(self._values[..., keys], weights, out=out if index == 0 else partial)
            if index:
                out += partial

    def head_outputs(self, X: np.ndarray) -> np.ndarray:
        """f^h_i = sum_j w^h_ij W_h x_j, shape (H, n, d) (fresh)."""
        sums = self._summed(X, self._prepared(X, "weights"))
        n, d = self.shape
        outputs = formulas.normalized(sums[:, :d], sums[:, d:], self._kind, n)
        return np.ascontiguousarray(outputs.transpose(0, 2, 1))

    def velocity(self, X: np.ndarray, tangent: bool = False) -> np.ndarray:
        """v_i: (1/n) sum_h f^h_i for usa, sum_h f^h_i for softmax and relu; shape (n, d) (fresh). With `tangent`,
        P⊥_{x_i}(v_i), the sphere's velocity, from `velocity_parts` (the self-terms' scalar part left out: exactly
        0 after the projection, and the cancellation of the float projection when it dominates, issue 39).

        The hot path of every trajectory: one product for the scores of a block, its elementwise pass in place, one
        product with the values (for usa and relu the sum over heads is inside it: the block as (b, H n) times the
        values stacked as (H n, d); softmax divides by the row sums of the same product and adds the heads)."""
        if not tangent:
            return self._sum(X, self._prepared(X, "weights"))
        _, V = self.velocity_parts(X)
        return formulas.project(X, V, overwrite=True, work=self._along)

    def velocity_parts(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(c, R) with v_i = c_i x_i + R_i exactly (shapes (n,), (n, d); fresh): c_i = sum_h w^h_ii mu_h (times 1/n
        for usa), the scalar part of the token's own terms (`formulas.scalar_parts`), and R_i every other term, the
        self-terms' W'_h x_i among them. P⊥_{x_i}(v_i) = P⊥_{x_i}(R_i) for unit x_i: R_i holds no e^(beta lambda)
        that the projection would cancel."""
        bound = self._prepared(X, "weights")
        self._lift = True
        try:
            R = self._sum(X, bound)
        finally:
            self._lift = False
        z = self._diagonal  # (n, H): softmax's over the row sums (`_sum` put the self-weights back in them)
        if self._softmax:
            z = z / self._sums[:, self.shape[1]].T
        scale = 1.0 if self._softmax else 1.0 / self.cfg.n
        if self._rest_stacked is not None:  # sum_h w^h_ii W'_h x_i: the rows (w^h_ii x_i)_h times the stacked W'_h^T
            np.multiply(z[:, :, None], X[:, None, :], out=self._own_rows)
            own = self._own_rows.reshape(len(X), -1) @ self._rest_stacked
            R += own if scale == 1.0 else scale * own
        return scale * (z @ self.value_scalars), R

    def batchable(self) -> bool:
        """Whether `batched_tangent_velocity` covers these heads: the sphere, no stated phi, at most KEY_TILE tokens."""
        return self.cfg.geometry == "sphere" and self.cfg.interaction is None and self._key_slices is None

    def batched_tangent_velocity(self, X: np.ndarray) -> np.ndarray:
        """`velocity(X, tangent=True)` at B token arrays at once, X of shape (B, n, d) (fresh, (B, n, d)): the
        random starts of one claim integrated together (`checks.integrator.batch`), so that numpy's per-call cost is
        paid once for all of them. The same formulas (`formulas.numerators`, `normalized`'s row sums, `velocity`,
        `project`) and the same split v_i = c_i x_i + R_i as `velocity_parts`, laid out with a leading batch axis:
        each start's scores (n, H, n) are one batched product, its own weights z^h_ii lifted out before the products
        with the values. Softmax is shifted for every start when one start's bound asks it (the same softmax)."""
        B, (n, d), H = X.shape[0], self.shape, self.cfg.H
        if X.shape[1:] != self.shape:
            raise InputError("tokens.shape", X.shape, f"expected (B, {n}, {d})")
        frobenius = float(np.max(np.einsum("bid,bid->b", X, X)))
        if not math.isfinite(frobenius) or not np.all(np.isfinite(X)):
            raise InputError("tokens", "non-finite", "the state left the finite range")
        Y = X @ self._factors  # (B, n, H d): every head's beta M_h^T x_i
        bound = self.norm * frobenius
        if bound > UNSHIFTED_SOFTMAX_BOUND:
            squares = float(np.max(np.einsum("bid,bid->bi", X, X)))
            rows = Y.reshape(B, n, H, d)
            bound = min(bound, math.sqrt(float(np.max(np.einsum("bihd,bihd->bih", rows, rows))) * squares))
        z = np.matmul(Y.reshape(B, n * H, d), X.swapaxes(1, 2)).reshape(B, n, H, n)  # (b, i, h, j)
        mask = None if self.cfg.mask is None else self.cfg.mask[:, None, :]
        z = numerators_in_place(z, self._kind, bound, mask)
        queries = np.arange(n)
        own = z[:, queries, :, queries].transpose(1, 0, 2).copy()  # z^h_ii, (B, n, H)
        z[:, queries, :, queries] = 0.0
        values = np.matmul(X[:, None], self.values_t)  # (B, H, n, d): rows W_h x_j
        outputs = np.matmul(z.transpose(0, 2, 1, 3), values)  # (B, H, n, d): sum_{j != i} z^h_ij W_h x_j
        if self._softmax:
            sums = z.sum(axis=-1).transpose(0, 2, 1) + own.transpose(0, 2, 1)  # (B, H, n), with z^h_ii
            R = formulas.velocity(outputs.swapaxes(0, 1), sums.swapaxes(0, 1)[..., None], self._kind, n)
            own = own / sums.transpose(0, 2, 1)
            scale = 1.0
        else:
            R = formulas.velocity(outputs.swapaxes(0, 1), None, self._kind, n)
            scale = 1.0 / n
        if self._rest_stacked is not None:  # sum_h w^h_ii W'_h x_i
            rows = (own[..., None] * X[:, :, None, :]).reshape(B, n, H * d)
            R += scale * (rows @ self._rest_stacked) if scale != 1.0 else rows @ self._rest_stacked
        return formulas.project(X, R, overwrite=True)

    def _sum(self, X: np.ndarray, bound: float) -> np.ndarray:
        """sum_h sum_j w^h_ij W_h x_j (usa: over n), over the weights the blocks give (with the self-weights lifted
        out while `velocity_parts` asks; softmax then divides by the row sums with them back in)."""
        if self._softmax:
            sums, d = self._summed(X, bound), self.shape[1]
            if self._lift:
                sums[:, d] += self._diagonal.T
            return self._head_sum(sums[:, :d], sums[:, d:])
        if self._key_slices is not None:  # usa and relu: (1/n) sum_h sum_j z^h_ij W_h x_j from the tiled sums
            return self._head_sum(self._summed(X, bound)[:, : self.shape[1]], None)
        np.matmul(X, self._mean_values_t, out=self._stacked)  # rows W_h x_j / n
        if self._one_block:
            self._block_of(X, self._slices[0], bound, "weights")
            return np.matmul(self._views[0][3], self._stacked_rows)
        V = np.empty(self.shape)
        for rows in self._slices:
            self._block_of(X, rows, bound, "weights")
            np.matmul(self._views[rows.start][3], self._stacked_rows, out=V[rows])
        return V

    def _head_sum(self, outputs: np.ndarray, sums: np.ndarray | None) -> np.ndarray:
        """`formulas.velocity` of the heads' outputs (H, d, n) and row sums (H, 1, n) (softmax's quotients written
        over the outputs), as a fresh (n, d) array: summed into a contiguous (d, n) array, then transposed (a sum
        written straight into the transposed view of (n, d) runs several times slower)."""
        return np.ascontiguousarray(formulas.velocity(outputs, sums, self._kind, self.shape[0]).T)


def heads_of(cfg: Configuration) -> Heads:
    """The block evaluator of cfg's heads (`Heads`), built once per configuration and thread and shared with the
    configurations moved to from it (`Configuration.moved_to`: the states of a trajectory): the quantities of one
    state, and the states of one trajectory, share its work buffers; a thread never writes into another thread's."""
    shared = cfg.__dict__.setdefault("_heads", {})  # a cache beside the frozen fields, never compared
    thread = threading.get_ident()
    heads = shared.get(thread)
    if heads is None:
        heads = shared[thread] = Heads(cfg)
    return heads


def row_blocks(cfg: Configuration) -> Iterator[slice]:
    """Slices of query rows whose (H, b, n) blocks fit the configuration's memory budget (`memory.block_rows`)."""
    rows = memory.block_rows(cfg.n, cfg.d, cfg.H, cfg.mask is not None, cfg.memory_budget)
    for start in range(0, cfg.n, rows):
        yield slice(start, min(start + rows, cfg.n))


def require_whole(cfg: Configuration, arrays: int, what: str) -> None:
    """InputError unless `arrays` whole (H, n, n) float arrays fit the configuration's memory budget."""
    memory.require(8 * arrays * cfg.H * cfg.n * cfg.n, cfg.memory_budget, what)
