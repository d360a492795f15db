"""An adversarial float search for the worst configuration of a family: the evidence behind CONFIRMED.

A few random draws miss counterexamples that live on thin sets (three tokens on a circle with two
of them mirrored, a near-collision, two tight clusters, a cluster with one antipodal token). Before a
float procedure says CONFIRMED it searches: random members of the family, structured members
(antipodal pairs, mirror-symmetric and regular-polygon tokens, equiangular tokens, near-collisions, a
few tight clusters; for a family that names them, `Family.shapes`, at every small draw also repeated
tokens and mirrored pairs on a great circle at spread opening angles), then local minimization of the margin
(scipy L-BFGS-B, which follows the finite-difference gradient) over the family's free data: the tokens,
parameterized on the sphere as x_i = y_i / |y_i|, and heads the family leaves free (symmetric or
general M_h = W_h, each kept at its drawn Frobenius norm; scalar strengths as log lambda_h). beta and
anything the family fixes stay fixed.

Structured members often have a margin of exactly 0 and a zero gradient (a symmetric set is a
critical point of every symmetric quantity), so a minimization started there does not move: the
search starts its minimizations from the best random members and from *perturbed* structured
members, and once those are spent it keeps restarting (perturbations of the best state found, of
new structured sets, fresh draws) until a violation (a margin below -tolerance) is found after at
least `Budget.local` minimizations, a clear violation (below -CLEAR_VIOLATION) is found (among the starts: then no
minimization runs), or the evaluation budget is gone. A search cut short by a clear violation is the first of
`until_certified`'s searches: when none of its candidates certifies, the caller runs the full one (same seed).
For relu attention, whose weights max(beta s, 0) have a kink where a score vanishes, every minimum also seeds starts
on the other side of each of its nearest kinks (the score reflected through 0 by moving one token).

The budget stops on evaluation counts only (same seed, same result, on any machine); the evaluations
spent and the best margin are part of the result, so the evidence says how hard the search looked.
Floats only: a negative margin is a candidate that a rigorous certifier may turn into a witness.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import numpy as np
from headflow.certificates.families import HEAD_FAMILIES, TOKEN_FAMILIES
from headflow.checks.model import families, formulas
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from scipy.optimize import minimize

#: The margin of one configuration (negative means violated) and where (head, token...) it is worst.
Objective = Callable[[Configuration], tuple[float, tuple[int, ...]]]
#: Sizes below this norm cannot be normalized back onto the sphere; such a point is skipped.
_TINY = 1e-12
#: How many of the most negative distinct configurations are kept for the certifier.
KEPT = 8
#: Relative sizes of the perturbations of a restart (cycled): far enough to leave a symmetric critical
#: point, near enough to stay in the basin of the state perturbed.
PERTURBATIONS = (3e-2, 3e-1, 3e-3, 1e-1)
#: Opening angles of the circle shape's mirrored pair, one in each of this many slices of (0, pi); the family's shapes
#: are tried at every draw of at most SHAPED_TOKENS tokens (where witnesses are cheap to certify), at every fourth
#: draw of more.
CIRCLE_ANGLES = 8
SHAPED_TOKENS = 5
#: Iterations of one local minimization; the nearest relu kinks of each minimum that seed new starts.
MAX_ITERATIONS = 60
KINKS = 3
#: The least number of gradients one local minimization may take before the next restart.
RUN_GRADIENTS = 20
#: Free scalar strengths stay in [e^MIN_LOG_STRENGTH, MAX_SCALED_STRENGTH / |beta|]. Past |beta| lambda = 8 the float
#: model once lost every digit (a token's own weight e^(beta lambda) cancelled in the tangent projection); it now leaves
#: the own term's scalar part out of the projection (`checks.model.token_blocks.scalar_parts`) and agrees with balls
#: up to |beta| lambda = 50 (tests/soundness/test_large_strengths.py), where e^(beta lambda) ~ 5e21 is far inside
#: float64 and the exact route still certifies witnesses (issue 39).
MIN_LOG_STRENGTH = -4.0
MAX_SCALED_STRENGTH = 50.0
#: A margin below -VIOLATION is a violation (rounding noise of an exact zero is far smaller).
VIOLATION = 1e-8
#: A margin below -CLEAR_VIOLATION among the starts (or met later) ends the search before its next minimization: it is
#: far from float noise, and the certifier's rounding to exact data keeps its sign, so the minimizations that would
#: deepen it only slow a refutation down (over the test suite, 104 of 123 searches met a violation at their first
#: evaluation, then spent about 2,300 more evaluations on the `Budget.local` minimizations).
CLEAR_VIOLATION = 1e-3


def log_strengths(beta: float) -> tuple[float, float]:
    """The range of log lambda_h of free scalar strengths at this beta: [MIN_LOG_STRENGTH, log(MAX_SCALED_STRENGTH /
    |beta|)], where the search draws them and moves them (the last unit of log below the top when |beta| is so large
    that the top is within 1 of MIN_LOG_STRENGTH)."""
    top = float(np.log(MAX_SCALED_STRENGTH / max(abs(beta), 1e-300)))
    return min(MIN_LOG_STRENGTH, top - 1.0), top


@dataclass(frozen=True)
class Budget:
    """How hard the search looks: random starts, the least number of local minimizations, evaluations.

    The search stops on the evaluation count (deterministic: same seed, same result), or earlier once a
    violation is found and at least `local` minimizations have run, or a clear violation is found."""

    starts: int
    local: int
    evaluations: int

    def record(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


BUDGETS = {"quick": Budget(48, 4, 2500), "thorough": Budget(400, 16, 40_000)}


@dataclass(frozen=True)
class Family:
    """What the search may draw and move: `draw` gives a random member; tokens and heads may be free.

    `free_heads` is "symmetric", "general", "scalar" (M_h = lambda_h I with lambda_h > 0 free: a statement for every
    strength, as a model claim's `scalar-heads`) or None (fixed heads, such as a dynamics claim's given strengths)."""

    draw: Callable[[np.random.Generator], Configuration]
    free_tokens: bool = True
    free_heads: str | None = None
    #: Structured sets added to the ones every family gets (`EXTRA_SHAPES`): the model claims' search asks for
    #: repeated tokens and great circles, where claims about every configuration fail and random draws never land.
    shapes: tuple[str, ...] = ()

    @classmethod
    def of(
        cls, draw: Callable[[np.random.Generator], Configuration], tokens: str, heads: str, aligned: bool = True
    ) -> Family:
        """Members of the named token and head families (`headflow.certificates.families`): the tokens are free when
        their family is, and the heads move as their family allows when W_h = M_h (values drawn apart
        from the heads are not moved, so neither are the heads)."""
        return cls(draw, TOKEN_FAMILIES[tokens].free, HEAD_FAMILIES[heads].moves if aligned else None)

    @property
    def movable(self) -> bool:
        """Whether the family leaves any data free (else only its draws are searched)."""
        return self.free_tokens or self.free_heads is not None


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
    #: Local minimizations started from a perturbed state, and from the other side of a relu kink.
    perturbed_runs: int = 0
    kink_runs: int = 0
    evaluations: int = 0
    #: Why the search stopped: "violation found", "evaluation budget spent" or "nothing free to move".
    stopped: str = ""
    #: Every start evaluated (random and structured draws, not the minimizations' steps): the broad sample of the
    #: family, for evidence about its members (the model claims' rounding-error estimates).
    starts_found: list[Found] = field(default_factory=list)
    #: Whether a clear violation ended it before its least number of minimizations (`until_certified`).
    cut_short: bool = False

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
            "perturbed_restarts": self.perturbed_runs,
            "kink_restarts": self.kink_runs,
            "evaluations": self.evaluations,
            "stopped": self.stopped,
            "best_margin": float(self.worst),
        }

    def spent(self) -> bool:
        return self.evaluations >= self.budget.evaluations


class _Stop(Exception):
    """The evaluation budget ran out inside a local minimization."""


def search(
    family: Family,
    objective: Objective,
    budget: Budget,
    rng: np.random.Generator,
    check: Callable[[], None] = lambda: None,
    tolerance: float = VIOLATION,
    stop_at_clear: bool = True,
) -> SearchResult:
    """Random and structured starts, then local minimizations of `objective` until a margin below
    -`tolerance` is found (after at least `budget.local` of them; with `stop_at_clear`, a clear one ends it before)
    or the evaluation budget is spent.

    `check` is called between steps (a procedure passes its deadline check, which raises)."""
    result = SearchResult(budget)
    pool: list[Found] = []
    structured_pool: list[Found] = []
    for k in range(budget.starts):
        check()
        template = family.draw(rng)
        shaped: list[Configuration] = []
        if family.free_tokens and k % 4 == 0:  # every fourth template the structured sets with the family's shapes
            shaped = structured(template, rng, family.shapes)
        elif family.free_tokens and template.n <= SHAPED_TOKENS:  # the other small ones the family's shapes
            shaped = extra_sets(template, rng, family.shapes)
        for cfg in [template, *shaped]:
            margin, index = objective(cfg)
            (pool if cfg is template else structured_pool).append(Found(margin, cfg, index))
            result.evaluations += 1
            result.negative_starts += margin < 0
        result.starts += 1
        result.structured_starts += len(shaped)
    everything = pool + structured_pool
    result.starts_found = list(everything)
    if not family.movable:
        result.stopped = "nothing free to move"
    else:
        for start, how in _restarts(family, pool, structured_pool, everything, rng):
            check()
            least = _best(everything)
            deep_enough = result.local_runs >= budget.local and least < -tolerance
            # a clear violation is never short of what the caller counts as a violation
            clear = stop_at_clear and least < -max(CLEAR_VIOLATION, tolerance)
            result.cut_short = clear and not (deep_enough or result.spent())
            if result.spent() or result.cut_short or deep_enough:
                break
            if start is None:
                continue
            best = _minimize(family, objective, start, result)
            result.local_runs += 1
            result.perturbed_runs += how == "perturbed"
            result.kink_runs += how == "kink"
            everything.append(best)
    if not result.stopped:
        result.stopped = "violation found" if _best(everything) < -tolerance else "evaluation budget spent"
    everything.sort(key=lambda f: f.margin)
    result.found = _distinct(everything)[:KEPT]
    return result


class _Searched(Protocol):
    cut_short: bool


Searched = TypeVar("Searched", bound=_Searched)


def until_certified(run: Callable[[bool], Searched]) -> Iterator[Searched]:
    """`run(stop_at_clear=True)`'s search; then, only when the caller asks for the next (none of its candidates
    certified) and that search was cut short by a clear violation, `run(False)`: the full search from the same seed,
    whose minimizations may find a state that certifies where the first's did not."""
    first = run(True)
    yield first
    if first.cut_short:
        yield run(False)


def _best(found: list[Found]) -> float:
    return min((f.margin for f in found), default=float("inf"))


def _finite(found: list[Found]) -> list[Found]:
    return sorted((f for f in found if np.isfinite(f.margin)), key=lambda f: f.margin)


def _restarts(
    family: Family,
    pool: list[Found],
    structured_pool: list[Found],
    everything: list[Found],
    rng: np.random.Generator,
) -> Iterator[tuple[Found | None, str]]:
    """The starts of the local minimizations, in order, without end (the caller stops on its budget).

    First the best random members and perturbations of the best structured ones, alternately; then, in
    turn, a perturbation of the best state found so far, the other sides of the relu kinks nearest to
    the last minimum, a perturbed new structured set and a fresh draw."""
    randoms, shaped = _finite(pool), _finite(structured_pool)
    for k in range(max(len(randoms), len(shaped))):
        if k < len(randoms):
            yield randoms[k], "random"
            yield from _kink_sides(family, everything[-1], rng)
        if k < len(shaped):
            yield _perturbed(family, shaped[k], PERTURBATIONS[k % len(PERTURBATIONS)], rng), "perturbed"
            yield from _kink_sides(family, everything[-1], rng)
    for k in range(10**9):
        sigma = PERTURBATIONS[k % len(PERTURBATIONS)]
        finite = _finite(everything)
        yield (_perturbed(family, finite[0], sigma, rng) if finite else None), "perturbed"
        yield from _kink_sides(family, everything[-1], rng)
        template = family.draw(rng)
        if family.free_tokens:
            options = structured(template, rng, family.shapes)
            choice = options[int(rng.integers(len(options)))]
            yield _perturbed(family, Found(np.inf, choice, ()), sigma, rng), "perturbed"
        yield Found(np.inf, template, ()), "random"


def _kink_sides(family: Family, found: Found, rng: np.random.Generator) -> Iterator[tuple[Found | None, str]]:
    """For relu attention with free tokens: `found` moved to the other side of its KINKS nearest kinks.

    A kink is a score s^h_ij = 0 (i != j) of the weight max(beta s, 0). Moving x_i along the tangent
    gradient g = P_x_i(M_h x_j) of s^h_ij by -2 s^h_ij g / |g|^2 reflects that score through 0 to first
    order; the margin on that side is a different branch, which a minimization on this side never sees."""
    cfg = found.cfg
    if cfg.attention != "relu" or not family.free_tokens or not np.all(np.isfinite(cfg.tokens)):
        return
    s = model.scores(cfg)
    off = np.abs(s) + np.where(np.eye(cfg.n, dtype=bool), np.inf, 0.0)
    for flat in np.argsort(off, axis=None)[:KINKS]:
        h, i, j = np.unravel_index(int(flat), s.shape)
        g = model.project(cfg.tokens[i], cfg.score_matrices[h] @ cfg.tokens[j])
        size = float(g @ g)
        if size < _TINY:
            continue
        X = np.array(cfg.tokens)
        X[i] = X[i] - (2.0 * s[h, i, j] + 1e-3 * np.sign(s[h, i, j] or 1.0)) * g / size
        norm = np.linalg.norm(X[i])
        if norm < _TINY:
            continue
        X[i] /= norm
        yield Found(np.inf, cfg.moved_to(X), ()), "kink"


def _parameters(family: Family, cfg: Configuration) -> np.ndarray:
    """The free data of `cfg` as one vector: the tokens, then the heads (as the family lets them move)."""
    parts = [cfg.tokens.ravel()] if family.free_tokens else []
    if family.free_heads == "scalar":  # log lambda_h: every real is a positive strength
        parts.append(np.log(cfg.score_matrices[:, 0, 0]))
    elif family.free_heads is not None:
        parts.append(cfg.score_matrices.ravel())
    return np.concatenate(parts)


def _decode(family: Family, cfg: Configuration, p: np.ndarray) -> Configuration | None:
    """The configuration of free data `p` (tokens normalized onto the sphere, heads symmetrized as the
    family requires and rescaled to the Frobenius norms of `cfg`'s heads); None where that fails."""
    X, M = cfg.tokens, cfg.score_matrices
    offset = 0
    if family.free_tokens:
        Y = p[: cfg.n * cfg.d].reshape(cfg.n, cfg.d)
        offset = Y.size
        size = np.linalg.norm(Y, axis=1, keepdims=True)
        if np.any(size < _TINY) or not np.all(np.isfinite(Y)):
            return None
        X = Y / size
    if family.free_heads == "scalar":
        strengths = np.exp(np.clip(p[offset:], *log_strengths(cfg.beta)))
        M = strengths[:, None, None] * np.eye(cfg.d)
    elif family.free_heads is not None:
        A = p[offset:].reshape(cfg.score_matrices.shape)
        if family.free_heads == "symmetric":
            A = (A + A.transpose(0, 2, 1)) / 2
        size = np.linalg.norm(A, axis=(1, 2))
        if np.any(size < _TINY):
            return None
        M = A * (np.linalg.norm(cfg.score_matrices, axis=(1, 2)) / size)[:, None, None]
    aligned = np.array_equal(cfg.values, cfg.score_matrices)
    return dataclasses.replace(cfg, tokens=X, score_matrices=M, values=M if aligned else cfg.values)


def _perturbed(family: Family, found: Found, sigma: float, rng: np.random.Generator) -> Found | None:
    """`found`'s configuration with its free data moved by Gaussian noise of relative size `sigma`."""
    p = _parameters(family, found.cfg)
    scale = max(float(np.max(np.abs(p))), 1.0)
    moved = _decode(family, found.cfg, p + sigma * scale * rng.standard_normal(p.shape))
    return None if moved is None else Found(np.inf, moved, ())


def _distinct(found: list[Found]) -> list[Found]:
    """Drop repeats (a local run that did not move returns its start)."""
    out: list[Found] = []
    for f in found:
        if not any(f.margin == g.margin and np.array_equal(f.cfg.tokens, g.cfg.tokens) for g in out):
            out.append(f)
    return out


def _minimize(family: Family, objective: Objective, start: Found, result: SearchResult) -> Found:
    """L-BFGS-B on the free data of `start.cfg` (finite-difference gradients); the best point seen
    (the start itself is evaluated first, so a start of unknown margin gets one)."""
    cfg = start.cfg
    best = [start]

    def value(p: np.ndarray) -> float:
        if result.spent():
            raise _Stop
        result.evaluations += 1
        moved = _decode(family, cfg, p)
        if moved is None:
            return 1e300
        with np.errstate(all="ignore"):
            margin, index = objective(moved)
        if not np.isfinite(margin):
            return 1e300
        if margin < best[0].margin:
            best[0] = Found(margin, moved, index)
        return margin

    p0 = _parameters(family, cfg)
    stop = min(result.budget.evaluations, result.evaluations + _run_share(result.budget, p0.size))

    def capped(p: np.ndarray) -> float:
        if result.evaluations >= stop:
            raise _Stop
        return value(p)

    with contextlib.suppress(_Stop):
        minimize(capped, p0, method="L-BFGS-B", options={"maxiter": MAX_ITERATIONS})
    return best[0]


def _run_share(budget: Budget, unknowns: int) -> int:
    """The evaluations one local minimization may spend: an even share of the budget over twice the least
    number of minimizations, but at least RUN_GRADIENTS finite-difference gradients (unknowns + 1 each)."""
    return max(budget.evaluations // (2 * max(budget.local, 1)), RUN_GRADIENTS * (unknowns + 1))


# ---------------------------------------------------------------- structured starts


def structured(template: Configuration, rng: np.random.Generator, extra: tuple[str, ...] = ()) -> list[Configuration]:
    """Structured token sets with the template's heads: antipodal, mirror-symmetric, polygon,
    equiangular (d >= n), near-collision, two or three tight clusters, then the `extra` shapes
    (`extra_sets`); each randomly rotated."""
    n, d = template.n, template.d
    rotation = families.random_rotation(d, rng)
    sets = [_antipodal(n, d, rng), _near_collision(n, d, rng), _clusters(n, d, rng, 2), _clusters(n, d, rng, 3)]
    if d >= 2:
        sets += [_mirror(n, d, rng), _polygon(n, d)]
    if d >= n:
        rho = float(rng.uniform(-1.0 / (n - 1), 1.0)) * 0.98
        sets.append(families.equiangular_tokens(n, d, rho))
    return [template.moved_to(X @ rotation) for X in sets] + extra_sets(template, rng, extra)


def extra_sets(template: Configuration, rng: np.random.Generator, names: tuple[str, ...]) -> list[Configuration]:
    """The sets of the named `EXTRA_SHAPES` with the template's heads, randomly rotated (n >= 3; the circle needs
    d >= 2); no draw at all without names, so a family that names none searches exactly as before they existed."""
    n, d = template.n, template.d
    if not names or n < 3:  # two tokens at one point are an equilibrium; a pair alone is the mirror set
        return []
    rotation = families.random_rotation(d, rng)
    sets = [X for name in names if d >= 2 or name != "circle" for X in EXTRA_SHAPES[name](n, d, rng)]
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


def _coincident(n: int, d: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Random tokens of which a random group of two or more, not all, sit at exactly one point (n >= 3).

    A near-collision keeps the pair apart by 1e-3, and a minimization started there keeps it apart; a repeated
    token is a different configuration (its weight counts twice in every other token's sum)."""
    X = families.random_sphere_tokens(n, d, rng)
    group = rng.permutation(n)[: int(rng.integers(2, max(n - 1, 2) + 1))]
    X[group] = X[group[0]]
    return [X]


def _circle(n: int, d: int, rng: np.random.Generator) -> list[np.ndarray]:
    """CIRCLE_ANGLES sets on the great circle of e_1, e_2 (d >= 2): n - 2 copies of x_0 = e_1 (a repeated token) and
    a mirrored pair (cos t, +-sin t), the opening angles t stratified over (0, pi) (one uniform in each slice).

    The repeated token weighs n - 2 times in every mean, the pair's nearer partner more under sharper weights: heads
    of different strengths pull the pair's tokens against each other at some openings t (the planar witnesses of
    claims about every configuration, dE/dt >= 0 with W_h = I among them, lie in slices a few degrees wide, which
    one random angle per draw misses most of the time)."""
    sets = []
    for t in np.pi * (np.arange(CIRCLE_ANGLES) + rng.random(CIRCLE_ANGLES)) / CIRCLE_ANGLES:
        X = np.zeros((n, d))
        X[:, 0] = 1.0
        X[n - 2 :, 0], X[n - 2 :, 1] = np.cos(t), [np.sin(t), -np.sin(t)]
        sets.append(X)
    return sets


def _clusters(n: int, d: int, rng: np.random.Generator, k: int) -> np.ndarray:
    centers = families.random_sphere_tokens(k, d, rng) if d >= 2 or k <= 2 else np.array([[1.0], [-1.0], [1.0]])
    X = centers[np.arange(n) % k] + 0.05 * rng.standard_normal((n, d))
    return _unit(np.where(np.linalg.norm(X, axis=1, keepdims=True) < _TINY, centers[np.arange(n) % k], X))


#: The structured sets a family may add (`Family.shapes`) to the ones `structured` always gives.
EXTRA_SHAPES: dict[str, Callable[[int, int, np.random.Generator], list[np.ndarray]]] = {
    "coincident": _coincident,
    "circle": _circle,
}


# ---------------------------------------------------------------- margins of the model's rates


#: The rates `rate_margin` measures (the others are searched by their value).
MEASURED_RATES = ("energy_rate", "head_energy_rate", "entropy_rate")


def rate_margin(quantity: str, head: int | None = None, tolerance: float = VIOLATION) -> Objective:
    """The least value of a model rate relative to the size of the terms it sums and to its float error.

    energy_rate / head_energy_rate: sum_ij e^{beta s} sdot / (2 n^2) has terms bounded by
    beta E max|sdot|; entropy_rate: sum_j pdot log p is bounded by 2 beta max|sdot| log n. The scale also
    holds `rate_error_bound / tolerance`, so a value within its rounding error has a margin within
    `tolerance` of 0 and float noise is never a violation; the sign is the computed value's, so a negative
    margin of any size is still a candidate for the ball certifier."""

    def margin(cfg: Configuration) -> tuple[float, tuple[int, ...]]:
        xdot = model.direction_velocity(cfg)  # the rates of the tokens attention reads (`field.directions`)
        tangent = cfg.geometry != "flat"  # unit directions moving tangentially
        cfg = model.directions(cfg)
        sdot = model.score_rates(cfg, xdot, tangent)
        size = float(np.max(np.abs(sdot)))
        errors = rate_error_bounds(cfg, xdot, sdot, quantity)
        if quantity == "entropy_rate":
            values = model.entropy_rates(cfg, xdot, tangent)
            scale = 1.0 + 2.0 * cfg.beta * size * np.log(cfg.n)
        else:
            values = model.head_energy_rates(cfg, xdot, tangent)
            scale = 1.0 + cfg.beta * model.energy(cfg) * size
            if quantity == "energy_rate":
                values, errors = np.array(values.sum()), np.array(errors.sum())
        margins = values / (scale + errors / tolerance)
        if head is not None and margins.ndim >= 1:
            margins = margins[head]
        index = np.unravel_index(int(np.argmin(margins)), margins.shape) if margins.ndim else ()
        return float(margins[index]), tuple(int(i) for i in index)

    return margin


def rate_error_bounds(cfg: Configuration, xdot: np.ndarray, sdot: np.ndarray, quantity: str) -> np.ndarray:
    """A first-order bound on the rounding error of the float rates (per head, or per head and token for
    entropy_rate): unit roundoff times the condition of each sum, i.e. the sums of absolute values of its
    terms, with the number of operations that feed each term (n, d, H, and beta max|s| through exp).

    At a nearly collapsed usa state the terms e^{beta s} sdot are as large as their sum, and sdot itself is
    computed from a velocity that sums n terms of size up to e^{beta max s} |W|: this is what the bound
    measures (a relative tolerance on the terms alone calls that noise a violation)."""
    u = np.finfo(float).eps
    X = cfg.tokens
    norms = np.linalg.norm(X, axis=1)
    absolute_scores = np.abs(X) @ np.abs(cfg.score_matrices) @ np.abs(X).T  # (H, n, n), >= |s|
    smax = float(np.max(absolute_scores))
    ops = cfg.n + cfg.d + cfg.H + cfg.beta * smax + 4.0
    w = np.abs(model.weights(cfg))
    if cfg.attention == "relu":
        w = w + cfg.beta * absolute_scores / cfg.n  # the kink: the rounding of beta s is absolute there
    absolute_values = np.abs(X) @ np.swapaxes(np.abs(cfg.values), 1, 2)  # rows |W_h| |x_j|, (H, n, d)
    v_size = np.linalg.norm(w @ absolute_values, axis=-1).sum(axis=0)  # (n,)
    if cfg.attention == "usa":
        v_size = v_size / cfg.n
    xdot_error = 2.0 * u * ops * v_size * (1.0 + norms**2)
    m = np.linalg.norm(cfg.score_matrices, axis=(1, 2))[:, None, None]
    xdot_norms = np.linalg.norm(xdot, axis=1)
    sdot_error = m * (xdot_error[:, None] * norms[None, :] + norms[:, None] * xdot_error[None, :])
    sdot_error += 2.0 * u * cfg.d * m * (xdot_norms[:, None] * norms[None, :] + norms[:, None] * xdot_norms[None, :])
    relative = u * ops * (1.0 + cfg.beta * smax)
    if quantity == "entropy_rate":
        p = model.attention_distributions(cfg)
        with np.errstate(divide="ignore", invalid="ignore"):
            log_p = np.abs(np.where(p > 0, np.log(p), 0.0))
        mean_error = np.max(sdot_error, axis=-1, keepdims=True)
        terms = cfg.beta * p * (np.abs(sdot) + np.max(np.abs(sdot), axis=-1, keepdims=True))
        return np.sum(cfg.beta * p * log_p * (sdot_error + mean_error) + terms * (log_p * relative + ops * u), axis=-1)
    e = formulas.numerators(cfg.beta * model.scores(cfg), "usa")  # exp(beta s)
    return np.sum(e * (sdot_error + np.abs(sdot) * relative), axis=(1, 2)) / (2.0 * cfg.n**2)
