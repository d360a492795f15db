"""Seeded, reproducible draws of tokens and heads used by every numerical check.

The families a claims file names are records of `headflow.certificates.families`; DRAWS holds the draw
registered for each record (`draws`), and `draw_tokens` / `draw_heads` draw a named family: every check
that draws a named family goes through them. Whole configurations of
a regime that several theorems share (`equiangular_softmax_configuration`) are drawn here too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np
from headflow.certificates.errors import InputError
from headflow.certificates.families import HEAD_FAMILIES, RHO, TOKEN_FAMILIES, Family, Options
from headflow.certificates.provers.rational_sphere import stereographic_lift
from headflow.certificates.vocabulary import MAX_DIMENSION, MAX_HEADS, MAX_TOKENS
from headflow.checks.model.circle import tokens_at_angles
from headflow.checks.model.configuration import MAX_ARRAY_ELEMENTS, Configuration

# ---------------------------------------------------------------- tokens


def random_sphere_tokens(n: int, d: int, rng: np.random.Generator) -> np.ndarray:
    """n tokens drawn uniformly on S^{d-1}."""
    check_sizes(n=n, d=d)
    X = rng.standard_normal((n, d))
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def orthogonal_tokens(n: int, d: int, rng: np.random.Generator | None = None) -> np.ndarray:
    """n orthonormal tokens (needs d >= n); randomly rotated when `rng` is given."""
    check_sizes(n=n, d=d)
    _require(d >= n, "d", d, f"orthogonal tokens need d >= n = {n}")
    X = np.eye(d)[:n]
    return X @ random_rotation(d, rng) if rng is not None else X


def equiangular_tokens(n: int, d: int, rho: float, rng: np.random.Generator | None = None) -> np.ndarray:
    """n unit tokens with <x_i, x_j> = rho for i != j (needs d >= n, rho in the domain of RHO: (-1/(n-1), 1))."""
    check_sizes(n=n, d=d)
    _require(d >= n, "d", d, f"equiangular tokens need d >= n = {n}")
    domain = RHO.domain
    number = isinstance(rho, int | float) and not isinstance(rho, bool) and math.isfinite(rho)
    _require(number and domain.contains(Fraction(rho), n), "rho", rho, f"must be a number in {domain.text()}")
    G = (1.0 - rho) * np.eye(n) + rho * np.ones((n, n))
    values, vectors = np.linalg.eigh(G)
    X = np.zeros((n, d))
    X[:, :n] = vectors * np.sqrt(np.clip(values, 0.0, None))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    return X @ random_rotation(d, rng) if rng is not None else X


def rational_sphere_tokens(n: int, d: int, rng: np.random.Generator, denominator: int = 16) -> list[list[Fraction]]:
    """n exactly-unit rational tokens in Q^d, from random rational stereographic coordinates."""
    check_sizes(n=n, d=d)
    _require(d >= 2, "d", d, "rational points on the sphere need d >= 2")
    _require(isinstance(denominator, int) and 1 <= denominator <= 2**62, "denominator", denominator, "an integer >= 1")
    points = []
    for _ in range(n):
        t = [Fraction(int(k), denominator) for k in rng.integers(-2 * denominator, 2 * denominator + 1, d - 1)]
        points.append(stereographic_lift(t))
    return points


def hemisphere_tokens(n: int, d: int, rng: np.random.Generator) -> np.ndarray:
    """n tokens uniform on the open hemisphere {<x, e> > 0} of a random pole e (each uniform token reflected
    through the origin when it falls on the other side; d >= 2)."""
    _require(d >= 2, "d", d, "a hemisphere of S^{d-1} needs d >= 2")
    X, pole = random_sphere_tokens(n, d, rng), rng.standard_normal(d)
    side = X @ pole
    _require(bool(np.all(side != 0.0)), "tokens", "hemisphere", "a token fell on the boundary; draw again")
    return X * np.sign(side)[:, None]


#: Candidate centres per group among which `group_tokens` picks its centres far apart.
CANDIDATES_PER_GROUP = 32


def group_tokens(n: int, d: int, groups: int, spread: float, rng: np.random.Generator) -> np.ndarray:
    """n tokens in k = `groups` separated groups: token i lies at angle `spread`, in a random direction, from centre
    i mod k. The centres are picked far apart among uniform candidates (each next one the farthest from those
    picked) and must be more than 4 spread apart in angle, so no token is nearer another group's centre than its
    own; InputError when k such centres do not fit."""
    check_sizes(n=n, d=d)
    _require(isinstance(groups, int) and 1 <= groups <= n, "groups", groups, f"an integer from 1 to n = {n}")
    _require(0 < spread < 3 / 8, "spread", spread, "an angle in (0, 3/8)")
    candidates = rng.standard_normal((CANDIDATES_PER_GROUP * groups, d))
    candidates /= np.linalg.norm(candidates, axis=1, keepdims=True)
    picked, nearest = [0], np.full(len(candidates), np.inf)
    for _ in range(groups - 1):
        nearest = np.minimum(nearest, np.arccos(np.clip(candidates @ candidates[picked[-1]], -1.0, 1.0)))
        picked.append(int(np.argmax(nearest)))
    centres = candidates[picked]
    angles = np.arccos(np.clip(centres @ centres.T, -1.0, 1.0))[~np.eye(groups, dtype=bool)]
    _require(angles.size == 0 or float(np.min(angles)) > 4 * spread, "groups", groups,
             f"{groups} centres more than 4 spread = {4 * spread:g} apart do not fit in S^{d - 1}")  # fmt: skip
    return np.array([_at_angle(centres[i % groups], spread, rng) for i in range(n)])


def near_collision_tokens(n: int, d: int, separation: float, rng: np.random.Generator) -> np.ndarray:
    """n uniform tokens except x_1, placed at distance `separation` from x_0 (in a random tangent direction)."""
    check_sizes(n=n, d=d)
    _require(0 < separation < 2, "separation", separation, "a distance in (0, 2)")
    X = random_sphere_tokens(n, d, rng)
    X[1] = _at_angle(X[0], 2 * math.asin(separation / 2), rng)
    return X


def _at_angle(x: np.ndarray, angle: float, rng: np.random.Generator) -> np.ndarray:
    """A unit vector at `angle` from the unit vector x, in a random tangent direction (d >= 2)."""
    tangent = rng.standard_normal(x.shape)
    tangent -= (tangent @ x) * x
    tangent /= np.linalg.norm(tangent)
    return math.cos(angle) * x + math.sin(angle) * tangent


def equally_spaced_tokens(n: int, d: int, rng: np.random.Generator | None = None) -> np.ndarray:
    """n tokens at the angles 2 pi k / n of a great circle (the circle itself for d = 2; d >= 2), randomly
    rotated when `rng` is given: one configuration up to rotation, an equilibrium of scalar heads."""
    check_sizes(n=n, d=d)
    _require(d >= 2, "d", d, "a circle needs d >= 2")
    angles = 2 * np.pi * np.arange(n) / n
    X = np.zeros((n, d))
    X[:, 0], X[:, 1] = np.cos(angles), np.sin(angles)
    return X @ random_rotation(d, rng) if rng is not None else X


def rational_to_float(points: Sequence[Sequence[Fraction]]) -> np.ndarray:
    """The float64 array of a rational matrix (for running the numpy model on exact data)."""
    return np.array([[float(v) for v in row] for row in points], dtype=float)


# ---------------------------------------------------------------- heads


def scalar_heads(lambdas: Sequence[float], d: int) -> np.ndarray:
    """M_h = lambda_h I, shape (H, d, d)."""
    try:
        lam = np.asarray(lambdas, dtype=float)
    except (TypeError, ValueError):
        raise InputError("lambdas", lambdas, "a non-empty list of numbers") from None
    _require(lam.ndim == 1 and lam.size >= 1, "lambdas", lambdas, "a non-empty list of numbers")
    check_sizes(H=lam.size, d=d)
    return lam[:, None, None] * np.eye(d)[None]


def random_symmetric_heads(H: int, d: int, rng: np.random.Generator, scale: float = 1.0) -> np.ndarray:
    """H random symmetric score matrices with entries of size about scale/sqrt(d)."""
    check_sizes(H=H, d=d)
    A = rng.standard_normal((H, d, d)) * (scale / np.sqrt(d))
    return 0.5 * (A + np.swapaxes(A, 1, 2))


def random_general_heads(H: int, d: int, rng: np.random.Generator, scale: float = 1.0) -> np.ndarray:
    """H random (not symmetric) score matrices with entries of size about scale/sqrt(d)."""
    check_sizes(H=H, d=d)
    return rng.standard_normal((H, d, d)) * (scale / np.sqrt(d))


def random_spd_values(H: int, d: int, rng: np.random.Generator) -> np.ndarray:
    """H random symmetric positive definite value matrices A A^T / d + I / 4 (eigenvalues at least 1/4)."""
    check_sizes(H=H, d=d)
    A = rng.standard_normal((H, d, d))
    return A @ np.swapaxes(A, 1, 2) / d + np.eye(d) / 4


def value_matrices(kind: str, H: int, d: int, rng: np.random.Generator, options: Options | None = None) -> np.ndarray:
    """Value matrices of a named kind other than aligned (W = M): "identity" (W_h = I), "spd" (random SPD) or
    "given" (the claim's own, `options["value_matrices"]`)."""
    if kind == "given" and options is not None:
        return np.array(options["value_matrices"].floats(), dtype=float)
    if kind == "identity":
        return np.broadcast_to(np.eye(d), (H, d, d)).copy()
    if kind == "spd":
        return random_spd_values(H, d, rng)
    raise InputError("values", kind, "expected aligned, identity or spd")


def block_sizes(H: int, d: int) -> list[int]:
    """Split d coordinates into H contiguous blocks as evenly as possible (needs d >= H)."""
    check_sizes(H=H, d=d)
    _require(d >= H, "d", d, f"orthogonal-subspace heads need d >= H = {H}")
    return [d // H + (1 if h < d % H else 0) for h in range(H)]


def orthogonal_subspace_heads(H: int, d: int, rng: np.random.Generator, scale: float = 1.0) -> np.ndarray:
    """Symmetric heads on disjoint coordinate blocks, so M_h M_h' = 0 exactly for h != h'."""
    sizes = block_sizes(H, d)
    M = np.zeros((H, d, d))
    start = 0
    for h, size in enumerate(sizes):
        block = rng.standard_normal((size, size)) * (scale / np.sqrt(size))
        M[h, start : start + size, start : start + size] = 0.5 * (block + block.T)
        start += size
    return M


def max_cross_product_norm(M: np.ndarray) -> float:
    """delta = max_{h != h'} |M_h' M_h|_op (0 for orthogonal heads)."""
    H = M.shape[0]
    norms = [np.linalg.norm(M[g] @ M[h], 2) for g in range(H) for h in range(H) if g != h]
    return float(max(norms, default=0.0))


def max_cross_frobenius_norm(M: np.ndarray) -> float:
    """max_{h != h'} |M_h' M_h|_F (0 for orthogonal heads; at least the operator norm's maximum)."""
    H = M.shape[0]
    return float(max((np.linalg.norm(M[g] @ M[h]) for g in range(H) for h in range(H) if g != h), default=0.0))


def approximately_orthogonal_heads(
    H: int,
    d: int,
    delta: float,
    rng: np.random.Generator,
    scale: float = 1.0,
    norm: Callable[[np.ndarray], float] = max_cross_product_norm,
) -> np.ndarray:
    """Orthogonal-subspace heads plus a symmetric perturbation tuned so that `norm` (by default
    max |M_h' M_h|_op; `max_cross_frobenius_norm` for the Frobenius norm) is delta (from below)."""
    _require(isinstance(delta, int | float) and delta >= 0, "delta", delta, "must be a non-negative number")
    base = orthogonal_subspace_heads(H, d, rng, scale)
    if delta == 0 or H == 1:
        return base
    noise = random_symmetric_heads(H, d, rng, scale)
    low, high = 0.0, 1.0
    while norm(base + high * noise) < delta:
        high *= 2.0
        _require(high < 1e12, "delta", delta, "too large to reach by perturbation")
    for _ in range(60):
        mid = 0.5 * (low + high)
        if norm(base + mid * noise) < delta:
            low = mid
        else:
            high = mid
    return base + low * noise


# ---------------------------------------------------------------- configurations


def equiangular_softmax_configuration(
    rng: np.random.Generator, rho: float | None = None, max_n: int = 7, max_heads: int = 3
) -> tuple[Configuration, np.ndarray]:
    """Softmax, scalar heads lambda_h in [0.2, 2], equiangular tokens (randomly rotated), and the lambdas.

    The scalar regime of the clustering and entropy theorems, whose closed forms (the rate phi, the
    limit log n) both checks compare with the model. `rho=None` draws the common inner product
    uniformly from (-0.9/(n-1), 0.9).
    """
    n = int(rng.integers(3, max_n + 1))
    rho = float(rng.uniform(-0.9 / (n - 1), 0.9)) if rho is None else rho
    d = n + int(rng.integers(0, 3))
    lambdas = rng.uniform(0.2, 2.0, size=int(rng.integers(1, max_heads + 1)))
    X = equiangular_tokens(n, d, rho, rng)
    cfg = Configuration.create(X, scalar_heads(lambdas, d), beta=float(rng.uniform(0.3, 2.0)), attention="softmax")
    return cfg, lambdas


# ---------------------------------------------------------------- the draws of the named families

#: A family's draw: (n, d, rng, options) -> tokens (n x d), or (H, d, rng, options) -> score matrices (H x d x d).
Draw = Callable[[int, int, np.random.Generator, Options], np.ndarray]

DRAWS: dict[Family, Draw] = {}
"""The draw of each record of `headflow.certificates.families`, registered once by `draws`."""


def draws(family: Family) -> Callable[[Draw], Draw]:
    """Register the decorated function as the one draw of `family` (a second draw of a family is an error)."""

    def register(draw: Draw) -> Draw:
        if family in DRAWS:
            raise ValueError(f"{family.name} has a draw already")
        DRAWS[family] = draw
        return draw

    return register


@draws(TOKEN_FAMILIES["random-sphere"])
def _random_sphere(n: int, d: int, rng: np.random.Generator, options: Options) -> np.ndarray:
    return random_sphere_tokens(n, d, rng)


@draws(TOKEN_FAMILIES["orthogonal"])
def _orthogonal(n: int, d: int, rng: np.random.Generator, options: Options) -> np.ndarray:
    return orthogonal_tokens(n, d, rng)


@draws(TOKEN_FAMILIES["equiangular"])
def _equiangular(n: int, d: int, rng: np.random.Generator, options: Options) -> np.ndarray:
    return equiangular_tokens(n, d, options.get("rho", 0.0), rng)


@draws(TOKEN_FAMILIES["rational-sphere"])
def _rational_sphere(n: int, d: int, rng: np.random.Generator, options: Options) -> np.ndarray:
    return rational_to_float(rational_sphere_tokens(n, d, rng))


@draws(TOKEN_FAMILIES["given"])
def _given(n: int, d: int, rng: np.random.Generator, options: Options) -> np.ndarray:
    return np.array(options["points"].floats(), dtype=float)


@draws(TOKEN_FAMILIES["hemisphere"])
def _hemisphere(n: int, d: int, rng: np.random.Generator, options: Options) -> np.ndarray:
    return hemisphere_tokens(n, d, rng)


@draws(TOKEN_FAMILIES["groups"])
def _groups(n: int, d: int, rng: np.random.Generator, options: Options) -> np.ndarray:
    return group_tokens(n, d, options["groups"], options["spread"], rng)


@draws(TOKEN_FAMILIES["near-collision"])
def _near_collision(n: int, d: int, rng: np.random.Generator, options: Options) -> np.ndarray:
    return near_collision_tokens(n, d, options["separation"], rng)


@draws(TOKEN_FAMILIES["equally-spaced"])
def _equally_spaced(n: int, d: int, rng: np.random.Generator, options: Options) -> np.ndarray:
    return equally_spaced_tokens(n, d, rng)


@draws(TOKEN_FAMILIES["angles"])
def _angles(n: int, d: int, rng: np.random.Generator, options: Options) -> np.ndarray:
    return tokens_at_angles(np.array(options["angles"].floats()))


@draws(HEAD_FAMILIES["scalar"])
def _scalar(H: int, d: int, rng: np.random.Generator, options: Options) -> np.ndarray:
    return scalar_heads(options.get("lambdas", []), d)


@draws(HEAD_FAMILIES["random-symmetric"])
def _random_symmetric(H: int, d: int, rng: np.random.Generator, options: Options) -> np.ndarray:
    return random_symmetric_heads(H, d, rng, options["scale"])


@draws(HEAD_FAMILIES["random-general"])
def _random_general(H: int, d: int, rng: np.random.Generator, options: Options) -> np.ndarray:
    return random_general_heads(H, d, rng, options["scale"])


@draws(HEAD_FAMILIES["orthogonal-subspace"])
def _orthogonal_subspace(H: int, d: int, rng: np.random.Generator, options: Options) -> np.ndarray:
    return orthogonal_subspace_heads(H, d, rng, options["scale"])


@draws(HEAD_FAMILIES["approximately-orthogonal"])
def _approximately_orthogonal(H: int, d: int, rng: np.random.Generator, options: Options) -> np.ndarray:
    return approximately_orthogonal_heads(H, d, options.get("delta", 0.0), rng, options["scale"])


@draws(HEAD_FAMILIES["given"])
def _given_heads(H: int, d: int, rng: np.random.Generator, options: Options) -> np.ndarray:
    return np.array(options["scores"].floats(), dtype=float)


def draw_tokens(family: str, n: int, d: int, rng: np.random.Generator, options: Options) -> np.ndarray:
    """n tokens in R^d drawn by the named token family with its parameters (`options`)."""
    return DRAWS[TOKEN_FAMILIES[family]](n, d, rng, options)


def draw_heads(family: str, H: int, d: int, rng: np.random.Generator, options: Options) -> np.ndarray:
    """H score matrices (d x d) drawn by the named head family with its parameters (`options`)."""
    return DRAWS[HEAD_FAMILIES[family]](H, d, rng, options)


# ---------------------------------------------------------------- helpers


def random_rotation(d: int, rng: np.random.Generator) -> np.ndarray:
    """A random orthogonal d x d matrix (Haar-distributed: QR of a Gaussian matrix with R's signs fixed)."""
    Q, R = np.linalg.qr(rng.standard_normal((d, d)))
    return Q * np.sign(np.diag(R))


#: Inclusive ranges of the sizes a family accepts (the limits of checks.model.configuration.Configuration).
SIZE_RANGES = {"n": (2, MAX_TOKENS), "d": (1, MAX_DIMENSION), "H": (1, MAX_HEADS)}


def check_sizes(**sizes: object) -> None:
    """Each size an integer within SIZE_RANGES, and the family's array within MAX_ARRAY_ELEMENTS (InputError
    otherwise: what a family draws and what a claims file states are held to it)."""
    for field, value in sizes.items():
        low, high = SIZE_RANGES[field]
        ok = isinstance(value, int | np.integer) and not isinstance(value, bool) and low <= value <= high
        _require(ok, field, value, f"must be an integer from {low} to {high}")
    n, d, H = (int(sizes.get(k, 1)) for k in ("n", "d", "H"))  # type: ignore[call-overload]
    _require(H * max(n, d) * d <= MAX_ARRAY_ELEMENTS, "sizes", sizes, f"more than {MAX_ARRAY_ELEMENTS} array entries")


def _require(condition: bool, field: str, value: object, reason: str) -> None:
    if not condition:
        raise InputError(field, value, reason)
