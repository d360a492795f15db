"""The rescaled tokens z_i(t) = exp(-t V) x_i(t) of the flat softmax dynamics, and the observables read from them.

In flat space the softmax dynamics x_i' = sum_h sum_j P^h_ij W_h x_j has row-stochastic weights (sum_j P^h_ij = 1), so
with V = sum_h W_h (one head: its value matrix)

    x_i' = V x_i + sum_h sum_j P^h_ij W_h (x_j - x_i),

and the linear part V x_i makes the tokens grow like exp(t V). Geshkovski, Letrouit, Polyanskiy and Rigollet (*The
emergence of clusters in self-attention dynamics*, 2023) undo it: z_i(t) = exp(-t V) x_i(t). With one head and V = I,
z_i' = sum_j P_ij (z_j - z_i), where P_ij = softmax_j(beta e^(2t) <Q z_i, K z_j>): every z_i moves towards a convex
combination of the z_j, so the convex hull of the rescaled tokens shrinks, while the attention hardens like
exp(e^(2t)). Their theorem (V = I, Q^T K positive definite, pairwise distinct starts): there is a convex polytope K
such that each z_i(t) converges, as t -> oo, to 0 or to a point of the boundary of K.

A value of the rescaled tokens needs the state's time t, which a configuration does not carry: the evaluators here
take it (`time`, from the start of the trajectory), and the records of a trajectory carry their times
(`headflow.checks.claimsfile.dynamics_starts`, `headflow.checks.evidence.limits.settle`). The model's field is not
repeated: the velocity is `field.token_velocity`, the clusters `field.cluster_count` at the rescaled tokens.

- `rescaled_boundary_distance` (per token): the distance from z_i to the closed set (boundary of conv{z_1, ..., z_n})
  union {0}, i.e. min(|z_i|, depth_i) with depth_i the distance from z_i to the hull's boundary (`hull_depths`).
  The theorem's conclusion is exactly that each z_i converges and this distance tends to 0 (K = the hull of the
  limits: a limit on the boundary of some polytope K that contains every limit is on the boundary of their hull,
  and the hull of the limits is the limit of the hulls). The depth is continuous in the tokens (it is
  min over unit u of max_j <u, z_j - z_i>), so its limit along a converging trajectory is its value at the limit.
- `rescaled_cluster_count` (radius): the number of clusters of the rescaled tokens at that merge radius (single
  linkage, `field.cluster_count`): once the z_i have converged, the number of distinct limit points (those closer
  than the radius counted as one).
"""

from __future__ import annotations

import numpy as np
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from scipy.linalg import expm
from scipy.spatial import ConvexHull, QhullError

#: Relative size of the least singular value of the centred rescaled tokens below which their hull counts as flat
#: (no interior in R^d: every token on its boundary). The hull is then within 2 FLAT_TOLERANCE s_max of a flat set
#: (s_max the largest singular value), which bounds every depth this reading sets to 0.
FLAT_TOLERANCE = 1e-12


def total_value(cfg: Configuration) -> np.ndarray:
    """V = sum_h W_h (d x d): the rate of the flat softmax dynamics' linear growth x_i' = V x_i + ... (one head: its
    value matrix; W_h = M_h when the values are aligned)."""
    return np.asarray(cfg.values, dtype=float).sum(axis=0)


def rescaled_tokens(cfg: Configuration, time: float) -> np.ndarray:
    """z_i = exp(-t V) x_i at t = `time`, as rows (n x d)."""
    return cfg.tokens @ expm(-time * total_value(cfg)).T


def rescaled_velocity(cfg: Configuration, time: float) -> np.ndarray:
    """dz_i/dt = exp(-t V) (x_i' - V x_i), as rows (n x d)."""
    V = total_value(cfg)
    return (model.token_velocity(cfg) - cfg.tokens @ V.T) @ expm(-time * V).T


def rescaled_speed(cfg: Configuration, time: float) -> float:
    """max_i |dz_i/dt|: a limit of a rescaled observable is read only once the rescaled tokens have stopped."""
    return float(np.max(np.linalg.norm(rescaled_velocity(cfg, time), axis=-1)))


def hull_depths(Z: np.ndarray) -> np.ndarray:
    """The distance from each point z_i to the boundary of the convex hull of the points (rows of Z, n x d): 0 for a
    point on the boundary, and for every point when the hull has no interior in R^d (n <= d, or the centred points'
    least singular value is below FLAT_TOLERANCE of the largest). Otherwise min over the hull's facets {<a, z> = b}
    (|a| = 1, the hull in <a, z> <= b, from Qhull) of b - <a, z_i>; d = 1: the distance to the interval's ends."""
    n, d = Z.shape
    if d == 1:
        column = Z[:, 0]
        return np.minimum(column - column.min(), column.max() - column)
    centred = Z - Z.mean(axis=0)
    singular = np.linalg.svd(centred, compute_uv=False)
    if n <= d or singular[-1] <= FLAT_TOLERANCE * max(float(singular[0]), np.finfo(float).tiny):
        return np.zeros(n)
    try:
        facets = ConvexHull(Z).equations  # rows (a, -b): <a, z> - b <= 0 inside, |a| = 1
    except QhullError:  # a hull Qhull finds flat at its own precision: every point within rounding of its boundary
        return np.zeros(n)
    return np.clip(np.min(-(Z @ facets[:, :-1].T + facets[:, -1]), axis=1), 0.0, None)  # rounding below 0


def rescaled_boundary_distance(cfg: Configuration, *, time: float) -> np.ndarray:
    """min(|z_i|, depth_i) per token: the distance from z_i to the boundary of the rescaled tokens' hull or to 0
    (see the module docstring)."""
    Z = rescaled_tokens(cfg, time)
    return np.minimum(np.linalg.norm(Z, axis=-1), hull_depths(Z))


def rescaled_cluster_count(cfg: Configuration, radius: float, *, time: float) -> float:
    """The number of clusters of the rescaled tokens at merge radius `radius` (`field.cluster_count` at z)."""
    return model.cluster_count(cfg.moved_to(rescaled_tokens(cfg, time)), radius)
