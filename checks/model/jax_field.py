"""The token velocity of `checks.model.field` written in jax.numpy, float64: the field of the optional jitted backend.

The same function as `field.token_velocity` for the options it covers: usa, softmax and relu attention, H heads
with score matrices M_h (given ones, or Q_h^T K_h) and values W_h, any beta, on the sphere or in flat space:

    v_i = c sum_h sum_j w^h_ij W_h x_j,  w = exp(beta s) (usa, c = 1/n), softmax_j(beta s) (c = 1),
          max(beta s, 0) (relu, c = 1/n),  s^h_ij = <x_i, M_h x_j>;  xdot_i = P⊥_{x_i}(v_i) on the sphere,
          taken as P⊥_{x_i} of v_i less its own term's multiple of x_i (`velocity`).

Every other option (a mask, a stated interaction function, a normalization scheme, the circle) is refused with an
InputError naming it (`require_supported`). The field is a pure function of arrays, traced once per shape inside a
jitted solve (`headflow.checks.integrator.jax_solver`); its (H, n, n) weights are formed in blocks of query rows
(`query_rows`), but the memory budget must allow the whole ones (`require_supported`: XLA may hold several).
Float64 is switched on only around the backend's own calls (`float64`), never globally. jax is the optional
extra `headflow[jit]`; without it every entry point raises "install headflow[jit]".
Agreement with `field.token_velocity` to ~1e-13 is pinned by tests/checks/integrator/test_jax_backend.py.

The formulas are `headflow.checks.model.formulas`' (the numpy field's own, run with xp = jax.numpy); this module
holds what is jax's alone: the import and the float64 context, the options covered, the blocks of query rows as a
`lax.map`, the own weights moved out by indexed updates, and the jitted compilation.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from functools import cache
from types import ModuleType
from typing import Any

import numpy as np
from headflow.certificates.errors import InputError
from headflow.checks.model import formulas
from headflow.checks.model.configuration import Configuration
from headflow.checks.model.token_blocks import UNSHIFTED_SOFTMAX_BOUND, require_whole

#: The jitted field's weights (bytes of H x b x n floats): whole while the (H, n, n) array takes at most WHOLE_BYTES,
#: else in blocks of query rows of at most BLOCK_BYTES. Measured on one core: n = 512, H = 8 (16 MiB) is faster
#: whole than in blocks of 256 rows; n = 2048, H = 4 (128 MiB) twice as fast in blocks of 128 rows (8 MiB; 256: a
#: tenth slower), which stay near the caches between the products.
WHOLE_BYTES = 16 * 2**20
BLOCK_BYTES = 8 * 2**20
#: The attention kinds and geometries the jitted field covers.
JAX_ATTENTION = ("usa", "softmax", "relu")
JAX_GEOMETRIES = ("sphere", "flat")


def jax_module() -> ModuleType:
    """The jax package, or an InputError that says how to install it (the `[jit]` extra)."""
    try:
        import jax
    except ImportError:
        raise InputError("backend", "jax", "jax is not installed: install headflow[jit]") from None
    return jax


@contextlib.contextmanager
def float64() -> Iterator[ModuleType]:
    """jax with 64-bit floats inside the block (and the previous setting restored after it). When they are on
    already (`jax_enable_x64` set globally) the block changes nothing: a jitted call under the context costs tens
    of microseconds more (the override is part of its cache key)."""
    jax = jax_module()
    if jax.config.jax_enable_x64:
        yield jax
        return
    with jax.enable_x64(True):
        yield jax


def require_supported(cfg: Configuration) -> None:
    """InputError naming the first option of cfg that the jitted field does not cover."""
    if cfg.attention not in JAX_ATTENTION:
        raise InputError("attention", cfg.attention, f"the jax backend covers {', '.join(JAX_ATTENTION)}")
    if cfg.geometry not in JAX_GEOMETRIES:
        raise InputError("geometry", cfg.geometry, f"the jax backend covers {', '.join(JAX_GEOMETRIES)}")
    if cfg.mask is not None:
        raise InputError("mask", "given", "the jax backend covers unmasked attention only")
    if cfg.interaction is not None:
        raise InputError("interaction", cfg.interaction.text, "the jax backend covers the kinds' own weights only")
    require_whole(cfg, 2, "the jax backend's scores and weights")


def unshifted(X: np.ndarray, M: np.ndarray) -> bool:
    """Whether softmax's numerators may be exp(s) unshifted at X for score matrices M (beta folded in): the rule of
    the numpy field, |s| <= UNSHIFTED_SOFTMAX_BOUND, on the bound `formulas.score_bound`."""
    return bool(formulas.score_bound(X, M) <= UNSHIFTED_SOFTMAX_BOUND)


def query_rows(n: int, H: int) -> int:
    """The query rows of one block of the jitted field: all n while the (H, n, n) weights take at most
    WHOLE_BYTES, else as many as fit in BLOCK_BYTES."""
    return n if 8 * H * n * n <= WHOLE_BYTES else max(1, BLOCK_BYTES // (8 * H * n))


def velocity(X: Any, M: Any, W: Any, attention: str, geometry: str, shifted: bool = True) -> Any:
    """xdot at tokens X (n, d) for score matrices M (beta folded in: beta M_h) and values W (H, d, d), in
    jax.numpy (traceable). `shifted`: softmax's numerators exp(s - max_j s) (for any scores); False: exp(s)
    itself, the same function to rounding while |s| <= UNSHIFTED_SOFTMAX_BOUND (`unshifted`; the caller
    checks), and faster: no pass for the row maxima.

    Each head is a batched product, (X M_h) X^T, then weights times the rows W_h x_j, summed over heads; the
    softmax's division by its row sums is taken after the product (on H n d entries, not H n n). The query rows
    go in blocks of `query_rows` (a `lax.map` over blocks, the last one padded with zero rows). On the sphere the
    form of `Heads.velocity_parts`: with W_h = mu_h I + W'_h (`formulas.scalar_parts`), a token's own weight
    w^h_ii multiplies W'_h x_i only, and the projection takes P⊥_{x_i} of the rest R_i, never cancelling the own
    term's e^(beta lambda) (issue 39); the same field at unit tokens, and the same off the sphere (the stages of a
    step) as the numpy engine's."""
    import jax
    import jax.numpy as jnp

    n = X.shape[0]
    values = X @ jnp.swapaxes(W, 1, 2)  # rows W_h x_j, (H, n, d)
    sphere = geometry == "sphere"
    if sphere:
        rest_t = jnp.swapaxes(formulas.scalar_parts(W, jnp)[1], 1, 2)  # rows W'_h x_i of the query rows: Q W'_h^T

    def heads(Q: Any, start: Any) -> Any:
        """sum_h of the heads' outputs at the query rows Q (b, d) from row `start` on (on the sphere less their
        own terms' multiples of x_i)."""
        z = formulas.numerators((Q @ M) @ X.T, attention, shifted, xp=jnp)  # of beta s^h_ij, (H, b, n)
        sums = jnp.sum(z, axis=-1, keepdims=True) if attention == "softmax" else None  # with w^h_ii
        if sphere:  # w^h_ii moved out of the weights (H b entries; a padded row's key j = i lies past n)
            queries = jnp.arange(Q.shape[0])
            own = z.at[:, queries, start + queries].get(mode="fill", fill_value=0.0)
            z = z.at[:, queries, start + queries].set(0.0, mode="drop")
            outputs = z @ values + formulas.own_rest(own, Q, rest_t)
        else:
            outputs = z @ values
        return formulas.velocity(outputs, sums, attention, n, xp=jnp)

    rows = query_rows(n, M.shape[0])
    if rows == n:
        V = heads(X, 0)
    else:
        blocks = -(-n // rows)
        queries = jnp.pad(X, ((0, blocks * rows - n), (0, 0))).reshape(blocks, rows, X.shape[1])
        starts = rows * jnp.arange(blocks)
        V = jax.lax.map(lambda block: heads(*block), (queries, starts)).reshape(blocks * rows, X.shape[1])[:n]
    return formulas.project(X, V, xp=jnp) if sphere else V


@cache
def _compiled(attention: str, geometry: str, shifted: bool) -> Callable[..., Any]:
    """The jitted velocity of one kind, geometry and softmax shift (jax caches one compilation per shape)."""
    jax = jax_module()
    return jax.jit(lambda X, M, W: velocity(X, M, W, attention, geometry, shifted))


def field_function(cfg: Configuration) -> Callable[[np.ndarray], np.ndarray]:
    """X -> xdot (numpy in and out) by the jitted field, for cfg's heads and options (refused ones: InputError)."""
    require_supported(cfg)
    jax_module()  # installed now, not only when the cached compilation was made
    M, W = cfg.beta * np.asarray(cfg.score_matrices), np.asarray(cfg.values)
    softmax = cfg.attention == "softmax"

    def evaluate(X: np.ndarray) -> np.ndarray:
        X = np.asarray(X, dtype=float)
        compiled = _compiled(cfg.attention, cfg.geometry, not (softmax and unshifted(X, M)))
        with float64():  # numpy arguments: the jitted call converts them
            return np.asarray(compiled(X, M, W))

    return evaluate
