"""An adversarial float search for the worst configuration of a family: the evidence behind CONFIRMED.

A few random draws miss counterexamples that live on thin sets (three tokens on a circle with two
of them mirrored, a near-collision, two tight clusters). Before a float procedure says CONFIRMED it
searches: random members of the family, structured members (antipodal pairs, mirror-symmetric and
regular-polygon tokens, equiangular tokens, near-collisions, a few tight clusters), then local
minimization of the margin (scipy L-BFGS-B) from the most promising starts over the family's free
data: the tokens, parameterized on the sphere as x_i = y_i / |y_i|, and heads the family leaves
free (symmetric or general M_h = W_h, each kept at its drawn Frobenius norm). beta and anything the
family fixes stay fixed. The budget (starts, evaluations, seconds) and the best margin are part of
the result, so the evidence says how hard the search looked. Floats only: a negative margin is a
candidate that a rigorous certifier may turn into a witness.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.optimize import minimize

from checks import families, model
from checks.config import Configuration
from checks.family_names import HEAD_FAMILIES, TOKEN_FAMILIES

#: The margin of one configuration (negative means violated) and where (head, token...) it is worst.
Objective = Callable[[Configuration], tuple[float, tuple[int, ...]]]
#: Sizes below this norm cannot be normalized back onto the sphere; such a point is skipped.
_TINY = 1e-12
#: How many of the most negative distinct configurations are kept for the certifier.
KEPT = 8


@dataclass(frozen=True)
class Budget:
    """How hard the search looks: random starts, local minimizations, objective evaluations, seconds.

    The evaluation count is the deterministic stop (same seed, same result); seconds is a safety cap."""

    starts: int
    local: int
    evaluations: int
    seconds: float

    def record(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


#: The seconds are a safety cap far above what the evaluations take on a quiet machine, so that a loaded
#: machine does not stop the search early and change its result (the evaluation count decides).
BUDGETS = {"quick": Budget(48, 4, 2500, 30.0), "thorough": Budget(400, 16, 40_000, 300.0)}


@dataclass(frozen=True)
class Family:
    """What the search may draw and move: `draw` gives a random member; tokens and heads may be free.

    `free_heads` is "symmetric", "general" or None (fixed heads, such as given scalar strengths)."""

    draw: Callable[[np.random.Generator], Configuration]
    free_tokens: bool = True
    free_heads: str | None = None

    @classmethod
    def of(
        cls, draw: Callable[[np.random.Generator], Configuration], tokens: str, heads: str, aligned: bool = True
    ) -> Family:
        """Members of the named token and head families (`checks.family_names`): the tokens are free when
        their family is, and the heads move as their family allows when W_h = M_h (values drawn apart
        from the heads are not moved, so neither are the heads)."""
        return cls(draw, TOKEN_FAMILIES[tokens].free, HEAD_FAMILIES[heads].moves if aligned else None)


@dataclass(frozen=True)
class Found:
    """One configuration with its margin and the index (head, token...) where the margin is attained."""

    margin: float
    cfg: Configuration
    index: tuple[int, ...]


@dataclass
class SearchResult:
    """The best margins found (most negative first) and the effort spent."""

    budget: Budget
    found: list[Found] = field(default_factory=list)
    starts: int = 0
    structured_starts: int = 0
    #: Starts (random or structured) whose margin was negative.
    negative_starts: int = 0
    local_runs: int = 0
    evaluations: int = 0
    seconds: float = 0.0

    @property
    def worst(self) -> float:
        return self.found[0].margin if self.found else float("inf")

    def include(self, extra: list[Found]) -> None:
        """Add configurations found elsewhere (states along trajectories of the family)."""
        self.found = _distinct(sorted(self.found + extra, key=lambda f: f.margin))[:KEPT]

    @property
    def candidates(self) -> list[Found]:
        """The kept configurations whose margin is negative, most negative first."""
        return [f for f in self.found if f.margin < 0]

    def evidence(self) -> dict[str, Any]:
        """The budget, the effort and the best margin, for the report."""
        return {
            "budget": self.budget.record(),
            "random_starts": self.starts,
            "structured_starts": self.structured_starts,
            "local_minimizations": self.local_runs,
            "evaluations": self.evaluations,
            "seconds": round(self.seconds, 3),
            "best_margin": float(self.worst),
        }


class _Stop(Exception):
    """The evaluation or time budget ran out inside a local minimization."""


def search(
    family: Family,
    objective: Objective,
    budget: Budget,
    rng: np.random.Generator,
    check: Callable[[], None] = lambda: None,
) -> SearchResult:
    """Random and structured starts, then local minimization of `objective` from the best few.

    `check` is called between steps (a procedure passes its deadline check, which raises)."""
    result = SearchResult(budget)
    began = time.monotonic()
    pool: list[Found] = []
    for k in range(budget.starts):
        check()
        template = family.draw(rng)
        shaped = structured(template, rng) if family.free_tokens and k % 4 == 0 else []
        for cfg in [template, *shaped]:
            margin, index = objective(cfg)
            pool.append(Found(margin, cfg, index))
            result.evaluations += 1
            result.negative_starts += margin < 0
        result.starts += 1
        result.structured_starts += len(shaped)
    pool.sort(key=lambda f: f.margin)
    local = [f for f in pool if np.isfinite(f.margin)][: budget.local] if _has_free_data(family) else []
    deadline = began + budget.seconds
    for start in local:
        check()
        if result.evaluations >= budget.evaluations or time.monotonic() >= deadline:
            break
        best = _minimize(family, objective, start, result, deadline)
        result.local_runs += 1
        pool.append(best)
    pool.sort(key=lambda f: f.margin)
    result.found = _distinct(pool)[:KEPT]
    result.seconds = time.monotonic() - began
    return result


def _has_free_data(family: Family) -> bool:
    return family.free_tokens or family.free_heads is not None


def _distinct(found: list[Found]) -> list[Found]:
    """Drop repeats (a local run that did not move returns its start)."""
    out: list[Found] = []
    for f in found:
        if not any(f.margin == g.margin and np.array_equal(f.cfg.tokens, g.cfg.tokens) for g in out):
            out.append(f)
    return out


def _minimize(family: Family, objective: Objective, start: Found, result: SearchResult, deadline: float) -> Found:
    """L-BFGS-B on the free data of `start.cfg` (finite-difference gradients); the best point seen."""
    cfg = start.cfg
    norms = np.linalg.norm(cfg.score_matrices, axis=(1, 2))
    aligned = np.array_equal(cfg.values, cfg.score_matrices)
    best = [start]

    def decode(p: np.ndarray) -> Configuration | None:
        X, M = cfg.tokens, cfg.score_matrices
        offset = 0
        if family.free_tokens:
            Y = p[: cfg.n * cfg.d].reshape(cfg.n, cfg.d)
            offset = Y.size
            size = np.linalg.norm(Y, axis=1, keepdims=True)
            if np.any(size < _TINY):
                return None
            X = Y / size
        if family.free_heads is not None:
            A = p[offset:].reshape(cfg.score_matrices.shape)
            if family.free_heads == "symmetric":
                A = (A + A.transpose(0, 2, 1)) / 2
            size = np.linalg.norm(A, axis=(1, 2))
            if np.any(size < _TINY):
                return None
            M = A * (norms / size)[:, None, None]
        return dataclasses.replace(cfg, tokens=X, score_matrices=M, values=M if aligned else cfg.values)

    def value(p: np.ndarray) -> float:
        if result.evaluations >= result.budget.evaluations or time.monotonic() >= deadline:
            raise _Stop
        result.evaluations += 1
        moved = decode(p)
        if moved is None or not np.all(np.isfinite(moved.tokens)):
            return 1e300
        with np.errstate(all="ignore"):
            margin, index = objective(moved)
        if not np.isfinite(margin):
            return 1e300
        if margin < best[0].margin:
            best[0] = Found(margin, moved, index)
        return margin

    parts = [cfg.tokens.ravel()] if family.free_tokens else []
    if family.free_heads is not None:
        parts.append(cfg.score_matrices.ravel())
    with contextlib.suppress(_Stop):
        minimize(value, np.concatenate(parts), method="L-BFGS-B", options={"maxiter": 200})
    return best[0]


# ---------------------------------------------------------------- structured starts


def structured(template: Configuration, rng: np.random.Generator) -> list[Configuration]:
    """Structured token sets with the template's heads: antipodal, mirror-symmetric, polygon,
    equiangular (d >= n), near-collision, two or three tight clusters; each randomly rotated."""
    n, d = template.n, template.d
    rotation = families.random_rotation(d, rng)
    sets = [_antipodal(n, d, rng), _near_collision(n, d, rng), _clusters(n, d, rng, 2), _clusters(n, d, rng, 3)]
    if d >= 2:
        sets += [_mirror(n, d, rng), _polygon(n, d)]
    if d >= n:
        rho = float(rng.uniform(-1.0 / (n - 1), 1.0)) * 0.98
        sets.append(families.equiangular_tokens(n, d, rho))
    return [template.moved_to(X @ rotation) for X in sets]


def _unit(X: np.ndarray) -> np.ndarray:
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def _antipodal(n: int, d: int, rng: np.random.Generator) -> np.ndarray:
    half = (n + 1) // 2
    base = families.random_sphere_tokens(max(half, 2), d, rng)[:half]
    return np.concatenate([base, -base])[:n]


def _mirror(n: int, d: int, rng: np.random.Generator) -> np.ndarray:
    """x_0 = e_1 and pairs (cos t_k, +-sin t_k) in the plane of e_1, e_2: the shape of the n = 3 entropy witness."""
    X = np.zeros((n, d))
    X[0, 0] = 1.0
    angles = rng.uniform(0.3, np.pi, size=n)
    for i in range(1, n):
        t = angles[(i + 1) // 2]
        X[i, 0], X[i, 1] = np.cos(t), (1 if i % 2 else -1) * np.sin(t)
    return X


def _polygon(n: int, d: int) -> np.ndarray:
    t = 2 * np.pi * np.arange(n) / n
    X = np.zeros((n, d))
    X[:, 0], X[:, 1] = np.cos(t), np.sin(t)
    return X


def _near_collision(n: int, d: int, rng: np.random.Generator) -> np.ndarray:
    X = families.random_sphere_tokens(n, d, rng)
    X[1] = X[0] + 1e-3 * rng.standard_normal(d)
    return _unit(X)


def _clusters(n: int, d: int, rng: np.random.Generator, k: int) -> np.ndarray:
    centers = families.random_sphere_tokens(k, d, rng) if d >= 2 or k <= 2 else np.array([[1.0], [-1.0], [1.0]])
    X = centers[np.arange(n) % k] + 0.05 * rng.standard_normal((n, d))
    return _unit(np.where(np.linalg.norm(X, axis=1, keepdims=True) < _TINY, centers[np.arange(n) % k], X))


# ---------------------------------------------------------------- margins of the model's rates


def rate_margin(quantity: str, head: int | None = None) -> Objective:
    """The least value of a model rate relative to the size of the terms it sums (rounding scale).

    energy_rate / head_energy_rate: sum_ij e^{beta s} sdot / (2 n^2) has terms bounded by
    beta E max|sdot|; entropy_rate: sum_j pdot log p is bounded by 2 beta max|sdot| log n."""

    def margin(cfg: Configuration) -> tuple[float, tuple[int, ...]]:
        sdot = model.score_rates(cfg)
        size = float(np.max(np.abs(sdot)))
        if quantity == "entropy_rate":
            values = model.entropy_rates(cfg)
            scale = 1.0 + 2.0 * cfg.beta * size * np.log(cfg.n)
        else:
            values = model.head_energy_rates(cfg)
            scale = 1.0 + cfg.beta * model.energy(cfg) * size
            if quantity == "energy_rate":
                values = np.array(values.sum())
        if head is not None and values.ndim >= 1:
            values = values[head]
        index = np.unravel_index(int(np.argmin(values)), values.shape) if values.ndim else ()
        return float(values[index]) / scale, tuple(int(i) for i in index)

    return margin
