"""The number of modes of the tokens' kernel density on the sphere, found by mean-shift from every token.

The kernel density of the tokens x_1, ..., x_n with the von Mises-Fisher kernel (the Gaussian kernel on the sphere,
bandwidth 1/sqrt(beta); beta is the configuration's own, so an order in beta moves the bandwidth with the dynamics')
is, at a unit vector x,

    f(x) = sum_j exp(beta <x, x_j>),

the row sum of the usa attention weights of a query x against the tokens as keys, with one head of plain inner
products (M = I: the density is of the tokens, whatever the configuration's heads). Its modes are its local maxima on
the unit sphere. With p_j(x) = exp(beta <x, x_j>) / f(x) (the softmax row of x: `formulas.numerators` shifted by its
row maximum, over its sum, `formulas.weights`; never overflowing) and m(x) = sum_j p_j(x) x_j, the Euclidean gradient
of f is beta f m(x), so the critical points of f on the sphere are the fixed points of the mean-shift map

    x <- m(x) / |m(x)|,

and each step increases f (it maximizes the linear minorant of the convex function f at x over the sphere). Up to a
positive factor beta f, the Riemannian Hessian at a critical point x is beta P C P - <m, x> P on the tangent space
(P = I - x x^T, C = sum_j p_j x_j x_j^T).

`kde_mode_count` iterates mean-shift from every token (each normalized; a zero token is no direction and starts no
run) until a step moves less than STEP_TOLERANCE, at most MAX_STEPS steps (counted, not timed; a run still moving
then is an InputError naming the token: a mode near a bifurcation, where mean-shift slows). Generically these limits
are maxima; a limit reached only by symmetry may be a saddle or minimum, so a limit counts only where the tangent
Hessian has no eigenvalue above HESSIAN_TOLERANCE relative to its scale beta |C| + |<m, x>| (a maximum, degenerate
ones included: n equally spaced tokens on the circle are n modes at every beta > 0, their depth 2n I_n(beta) below
float resolution at small beta). The counted limits are then deduplicated by single linkage at chord distance
MERGE_TOLERANCE (`field.merge_heights`, `field.clusters_at`): the count is the number of distinct maxima reached
from the tokens, which is every mode that holds a token in its basin (a mode whose basin holds no token is not
found: f's modes of an empty region, which the tokens' mean-shift never visits).
"""

from __future__ import annotations

import numpy as np
from headflow.certificates.errors import InputError
from headflow.checks.model import field as model
from headflow.checks.model import formulas
from headflow.checks.model.configuration import Configuration

#: A mean-shift run has converged once one step moves the point less than this (Euclidean).
STEP_TOLERANCE = 1e-11
#: The most mean-shift steps of one run (all the runs together take at most this many rounds).
MAX_STEPS = 20_000
#: Limits closer than this (chord distance) are one mode.
MERGE_TOLERANCE = 1e-6
#: A limit is a maximum unless the tangent Hessian has an eigenvalue above this fraction of its scale.
HESSIAN_TOLERANCE = 1e-9


def kernel_rows(queries: np.ndarray, keys: np.ndarray, beta: float) -> np.ndarray:
    """p_j(x) = exp(beta <x, x_j>) / sum_k exp(beta <x, x_k>) for every query row x: the usa attention row of x
    against the keys (one head, M = I) over its sum, i.e. the softmax row (`formulas.numerators`, shifted by the row
    maxima so that no beta overflows, and `formulas.weights`)."""
    z = beta * (queries @ keys.T)
    return formulas.weights(formulas.numerators(z, "softmax", shifted=True), "softmax", keys.shape[0])


def mean_shift(tokens: np.ndarray, beta: float, starts: np.ndarray) -> np.ndarray:
    """The limits of x <- m(x)/|m(x)| from each unit row of `starts` (module docstring); InputError when a run is
    still moving after MAX_STEPS steps or reaches m(x) = 0 (no direction)."""
    Y = starts.copy()
    active = np.ones(Y.shape[0], dtype=bool)
    for _ in range(MAX_STEPS):
        if not active.any():
            return Y
        rows = np.flatnonzero(active)
        m = kernel_rows(Y[rows], tokens, beta) @ tokens
        norms = np.linalg.norm(m, axis=1)
        if np.any(norms == 0.0):
            raise InputError("kde_mode_count", "m(x) = 0", "a mean-shift run reached a point with no mean direction")
        moved = m / norms[:, None]
        steps = np.linalg.norm(moved - Y[rows], axis=1)
        Y[rows] = moved
        active[rows[steps < STEP_TOLERANCE]] = False
    if active.any():
        token = int(np.flatnonzero(active)[0])
        raise InputError(
            "kde_mode_count",
            f"token {token}",
            f"mean-shift still moving after {MAX_STEPS} steps (a mode near a bifurcation: beta = {beta:g})",
        )
    return Y


def is_maximum(tokens: np.ndarray, beta: float, x: np.ndarray) -> bool:
    """Whether the critical point x of f has no tangent Hessian eigenvalue above HESSIAN_TOLERANCE of its scale: the
    Hessian up to beta f > 0 is beta P C P - <m, x> P (module docstring); x's own direction is pushed far below."""
    p = kernel_rows(x[None, :], tokens, beta)[0]
    m = p @ tokens
    C = (tokens * p[:, None]).T @ tokens
    P = np.eye(x.shape[0]) - np.outer(x, x)
    along = float(m @ x)
    scale = beta * float(np.linalg.norm(C, 2)) + abs(along)
    hessian = P @ (beta * C) @ P - along * P - (scale + 1.0) * np.outer(x, x)
    return float(np.linalg.eigvalsh((hessian + hessian.T) / 2.0)[-1]) <= HESSIAN_TOLERANCE * scale


def kde_mode_count(cfg: Configuration) -> float:
    """The number of modes of f(x) = sum_j exp(beta <x, x_j>) on the unit sphere reached by mean-shift from the
    tokens (module docstring): the distinct limits (within MERGE_TOLERANCE) that pass the Hessian test."""
    if not cfg.beta > 0:
        raise InputError("beta", cfg.beta, "kde_mode_count: the kernel's bandwidth 1/sqrt(beta) needs beta > 0")
    X = np.asarray(cfg.tokens, dtype=float)
    norms = np.linalg.norm(X, axis=1)
    if not np.any(norms > 0):
        raise InputError("kde_mode_count", "tokens", "every token is 0: the density is constant, with no mode")
    starts = X[norms > 0] / norms[norms > 0, None]
    limits = mean_shift(X, float(cfg.beta), starts)
    maxima = np.array([y for y in limits if is_maximum(X, float(cfg.beta), y)])
    if maxima.shape[0] == 0:
        return 0.0
    squared = np.sum((maxima[:, None, :] - maxima[None, :, :]) ** 2, axis=-1)
    return float(model.clusters_at(model.merge_heights(squared), MERGE_TOLERANCE**2))
