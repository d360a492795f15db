"""The float model's formulas, written once against an array namespace `xp`: numpy (`headflow.checks.model.field`,
its blocks `token_blocks.Heads`, the circle) or jax.numpy (the jitted field, `headflow.checks.model.jax_field`).

The balls' and the exact values' formulas are the kernel's one chain (`certificates/kernel/model_chain.py`); these
are the same definitions in floats (SPEC section 1), and no other module writes them (the rule of
tests/checks/model/test_formula_layer.py):

    s^h_ij = <x_i, M_h x_j> (beta folded in: z = beta s),  numerators exp(z) (usa), exp(z - max_j z) or exp(z)
    (softmax), max(z, 0) (relu), a mask's m_ij a factor (softmax: z = -inf where m_ij = 0);
    w^h_ij: usa the numerators, softmax over their row sums, relu over n;
    v_i = c sum_h sum_j w^h_ij W_h x_j, c = 1/n (usa), 1 (softmax, relu);  P⊥_x(u) = u - <u, x> x.

Both namespaces run the same lines. Under numpy an elementwise step writes over the array it is given
(`_overwritten`): the blocks of `token_blocks.Heads` are its work buffers, kept between evaluations, so the hot
path allocates no n x n array; under jax it returns a new (traced) array. A caller therefore uses the array a
formula returns, and hands it only a block it owns. What stays specific to one namespace is how the blocks are
laid out and multiplied (numpy: every head's scores in one product, the usa and relu sum over heads inside the
product with the values, the softmax row sums as a column of ones, buffers; jax: `lax.map` over blocks of query
rows under jit), never a formula.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

#: The attention kinds whose weights these formulas give.
KINDS = ("usa", "softmax", "relu")


def _overwritten(xp: ModuleType, ufunc: Callable[..., Any], z: Any, *args: Any) -> Any:
    """ufunc(z, *args) elementwise: over z itself under numpy (the caller's buffer), a new array under jax."""
    return ufunc(z, *args, out=z) if xp is np else ufunc(z, *args)


def numerators(z: Any, attention: str, shifted: bool = False, mask: Any = None, xp: ModuleType = np) -> Any:
    """The n x n part of the kind's weights from z = beta s (any shape, keys last): exp(z) (usa); softmax's
    numerators exp(z - max_j z) when `shifted` (any scores), else exp(z) (the same softmax while the sums stay in
    range: the callers' rule, |z| <= `token_blocks.UNSHIFTED_SOFTMAX_BOUND`); max(z, 0) (relu). `mask`, m_ij
    broadcast against z (false: masked): a factor of usa's and relu's, z = -inf first for softmax (a masked
    numerator is 0 and the maxima are over the unmasked keys). Overflow is the caller's to guard."""
    if attention == "relu":
        z = _overwritten(xp, xp.maximum, z, 0.0)
    else:
        if mask is not None and attention == "softmax":
            z = _masked_in_place(z, mask) if xp is np else xp.where(mask, z, -xp.inf)
        if shifted and attention == "softmax":
            z = _overwritten(xp, xp.subtract, z, z.max(axis=-1, keepdims=True))
        z = _overwritten(xp, xp.exp, z)
    if mask is not None and attention != "softmax":
        z = _overwritten(xp, xp.multiply, z, mask)
    return z


def _masked_in_place(z: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """z with -inf where the mask is false, written over z (numpy's form of `where(mask, z, -inf)`)."""
    np.copyto(z, -np.inf, where=~mask)
    return z


def weights(z: Any, attention: str, n: int, xp: ModuleType = np) -> Any:
    """w^h_ij from the kind's numerators z (`numerators`, keys last) (under numpy written over z)."""
    return normalized(z, z.sum(axis=-1, keepdims=True) if attention == "softmax" else None, attention, n, xp)


def normalized(terms: Any, sums: Any, attention: str, n: int, xp: ModuleType = np) -> Any:
    """The kind's weights applied to unnormalized terms, sum_j z^h_ij (.) or z^h_ij themselves, with the row sums
    sum_j z^h_ij (`sums`, broadcast against terms; read for softmax only): softmax over the row sums, relu over n,
    usa themselves (under numpy written over terms)."""
    if attention == "softmax":
        return _overwritten(xp, xp.divide, terms, sums)
    if attention == "relu":
        return _overwritten(xp, xp.divide, terms, n)
    return terms


def velocity(outputs: Any, sums: Any, attention: str, n: int, xp: ModuleType = np) -> Any:
    """v from the heads' unnormalized outputs sum_j z^h_ij W_h x_j (heads first; any layout after) and the row sums
    sum_j z^h_ij (`sums`, broadcast against outputs; read for softmax only): sum_h outputs_h / sums_h (softmax),
    (1/n) sum_h outputs_h (usa and relu; relu's 1/n is its weights', usa's the velocity's c). Under numpy softmax's
    quotients are written over `outputs`."""
    if attention == "softmax":
        return _overwritten(xp, xp.divide, outputs, sums).sum(axis=0)
    return outputs.sum(axis=0) / n


def project(X: Any, U: Any, overwrite: bool = False, xp: ModuleType = np, work: Any = None) -> Any:
    """Row-wise tangent projection P⊥_x(u) = u - <u, x> x (X and U of the same shape, rows last); with `overwrite`,
    under numpy, written over U, and `work` (numpy, X's shape) holds <u, x> x: the velocity's hot path allocates
    no n x d temporary (a few of an evaluation's 60 microseconds at n = 64, benchmarks/velocity.py --quick)."""
    radial = xp.vecdot(U, X)[..., None]
    along = radial * X if work is None else np.multiply(radial, X, out=work)
    return _overwritten(xp, xp.subtract, U, along) if overwrite else U - along


def scalar_parts(A: Any, xp: ModuleType = np) -> tuple[Any, Any]:
    """(mu_h, A_h - mu_h I) of a stack of square matrices (H, d, d): mu_h = A_h[0, 0] where A_h is exactly that
    multiple of I (the rest then exactly 0), else the mean of A_h's diagonal. On the sphere the tangent projection of
    mu_h x_i at x_i is exactly 0, so a token's own term A_h x_i enters the tangent velocity only through the rest:
    computed that way, the self-term's e^(beta lambda) never meets its own cancellation (issue 39)."""
    d = A.shape[-1]
    corner = A[:, 0, 0]
    scalar = corner[:, None, None] * xp.eye(d)
    exact = xp.all(xp.equal(A, scalar), axis=(1, 2))
    mu = xp.where(exact, corner, xp.trace(A, axis1=1, axis2=2) / d)
    return mu, A - mu[:, None, None] * xp.eye(d)


def own_rest(own: Any, Q: Any, rest_t: Any) -> Any:
    """The self-terms' tangent part w^h_ii W'_h x_i of the query rows Q (b, d), own weights w^h_ii (H, b) and
    rest_t = W'_h^T (H, d, d) (`scalar_parts`), shape (H, b, d)."""
    return own[..., None] * (Q @ rest_t)


def head_norm(M: Any, xp: ModuleType = np) -> Any:
    """max_h ||M_h||_F, which bounds every |<x, M_h y>| / (|x| |y|) (the Frobenius norm bounds the operator norm)."""
    return xp.sqrt(xp.max(xp.sum(M * M, axis=(1, 2))))


def score_bound(X: Any, M: Any, xp: ModuleType = np) -> Any:
    """A bound on max |s^h_ij| = |<x_i, M_h x_j>|: `head_norm`(M) max_i |x_i|^2."""
    return head_norm(M, xp) * xp.max(xp.sum(X * X, axis=1))
