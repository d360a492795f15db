"""The token velocity of `checks.model.field` written in jax.numpy, float64: the field of the optional jitted backend.

The same function as `field.token_velocity` for the options it covers: usa, softmax and relu attention, H heads
with score matrices M_h (given ones, or Q_h^T K_h) and values W_h, any beta, on the sphere or in flat space:

    v_i = c sum_h sum_j w^h_ij W_h x_j,  w = exp(beta s) (usa, c = 1/n), softmax_j(beta s) (c = 1),
          max(beta s, 0) (relu, c = 1/n),  s^h_ij = <x_i, M_h x_j>;  xdot_i = P⊥_{x_i}(v_i) on the sphere.

Every other option (a mask, a stated interaction function, a normalization scheme, the circle) is refused with an
InputError naming it (`require_supported`). The field is a pure function of arrays, traced once per shape inside a
jitted solve (`checks.integrator.jax_solver`); a configuration's whole (H, n, n) scores are held at once, so the
memory budget must allow them. Float64 is switched on only around the backend's own calls (`float64`), never
globally. jax is the optional extra `headflow[jit]`; without it every entry point raises "install headflow[jit]".
Agreement with `field.token_velocity` to ~1e-13 is pinned by tests/model/test_jax_field.py.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from functools import cache
from types import ModuleType
from typing import Any

import numpy as np

from certificates.kernel.errors import InputError
from checks.model.configuration import Configuration
from checks.model.token_blocks import require_whole

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
    """jax with 64-bit floats inside the block (and the previous setting restored after it)."""
    jax = jax_module()
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


def velocity(X: Any, M: Any, W: Any, beta: Any, attention: str, geometry: str) -> Any:
    """xdot at tokens X (n, d) for score matrices M and values W (H, d, d), in jax.numpy (traceable)."""
    import jax
    import jax.numpy as jnp

    z = beta * jnp.einsum("ik,hkl,jl->hij", X, M, X)  # beta s^h_ij
    values = jnp.einsum("jl,hkl->hjk", X, W)  # rows W_h x_j
    if attention == "softmax":
        weights, scale = jax.nn.softmax(z, axis=-1), 1.0
    elif attention == "usa":
        weights, scale = jnp.exp(z), 1.0 / X.shape[0]
    else:
        weights, scale = jnp.maximum(z, 0.0), 1.0 / X.shape[0]
    V = scale * jnp.einsum("hij,hjk->ik", weights, values)
    if geometry == "sphere":
        return V - jnp.sum(V * X, axis=1, keepdims=True) * X
    return V


@cache
def _compiled(attention: str, geometry: str) -> Callable[..., Any]:
    """The jitted velocity of one kind and geometry (jax caches one compilation per shape)."""
    jax = jax_module()
    return jax.jit(lambda X, M, W, beta: velocity(X, M, W, beta, attention, geometry))


def field_function(cfg: Configuration) -> Callable[[np.ndarray], np.ndarray]:
    """X -> xdot (numpy in and out) by the jitted field, for cfg's heads and options (refused ones: InputError)."""
    require_supported(cfg)
    jax_module()  # installed now, not only when the cached compilation was made
    compiled = _compiled(cfg.attention, cfg.geometry)

    M, W, beta = np.asarray(cfg.score_matrices), np.asarray(cfg.values), np.float64(cfg.beta)

    def evaluate(X: np.ndarray) -> np.ndarray:
        with float64():  # numpy arguments: the jitted call converts them
            return np.asarray(compiled(np.asarray(X, dtype=float), M, W, beta))

    return evaluate
