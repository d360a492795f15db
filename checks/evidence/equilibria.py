"""Equilibria of the multi-head field on (S^{d-1})^n: float search, symmetry detection, certification.

The search (floats, `headflow.checks.model.field`) polishes many seeded random starts and the structured candidates
(all tokens equal, antipodal splits, regular simplices, tokens split along orthogonal head
subspaces) with Levenberg-Marquardt on the velocity (`polish`: numpy only, so that the same seed finds the same
classes in every run; SciPy's MINPACK gave different answers to the same start in one process), and keeps one
representative per class modulo
the rotations that commute with the heads and the permutations of tokens. Each representative is
then put in a frame where its symmetries are signed permutations commuting with the heads
(candidate frames from the tokens and their sums and differences), rounded to exact data in the
fixed set of those symmetries, polished by Newton in that slice, and certified by
`headflow.certificates.kernel.equilibrium` (Krawczyk existence, Gershgorin index); the certificate is written by
`headflow.certificates.store`. A float result alone is never reported as certified.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
from flint import fmpq_mat
from headflow.certificates.claims.regimes import head_blocks
from headflow.certificates.exact_records import exact_record
from headflow.certificates.kernel import equilibrium as eq
from headflow.certificates.kernel.coq.model_tree import pivot_coordinates, tangent_frame
from headflow.certificates.kernel.exact import precision
from headflow.certificates.kernel.exact_data import ExactConfiguration, dot
from headflow.certificates.kernel.exprtree import rational_text
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.vocabulary import SMOOTH_KINDS
from headflow.certificates.store import write_certificate
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration

#: Velocity size below which a polished float point counts as an equilibrium candidate.
RESIDUAL = 1e-10
#: Levenberg-Marquardt: most iterations, the first damping, and the damping past which a start is given up; the
#: relative step of the forward differences of the Jacobian.
ITERATIONS = 200
DAMPING = 1e-3
MAX_DAMPING = 1e12
DIFFERENCE_STEP = 1e-8
#: Distance below which two tokens are the same point (clusters) in symmetry detection.
MATCH = 1e-6
#: Working precision of the certificates (bits).
PRECISION = 128
#: Most group elements generated when closing the detected symmetries.
MAX_GROUP = 4096


@dataclass(frozen=True)
class Instance:
    """Exact heads (H x d x d rationals, W_h = M_h), beta and attention kind, for n tokens."""

    n: int
    d: int
    score_matrices: list[list[list[Fraction]]]
    beta: Fraction
    attention: str
    heads: str  # "scalar" or "orthogonal"
    strengths: tuple[Fraction, ...]

    def configuration(self, tokens: np.ndarray) -> Configuration:
        """The instance's configuration at unit `tokens` (n x d, normalized by the caller), moved to from one validated
        configuration of its heads (`Configuration.moved_to`: shape and finiteness checked), so that every evaluation
        shares one block evaluator (`headflow.checks.model.token_blocks.heads_of`): the search and the certification
        evaluate the field many thousand times."""
        return self._base.moved_to(tokens)

    @functools.cached_property
    def _base(self) -> Configuration:
        """The heads with every token at the first axis, validated by `Configuration.create`."""
        tokens = np.tile(np.eye(self.d)[0], (self.n, 1))
        return Configuration.create(tokens, self._float_heads, beta=float(self.beta), attention=self.attention)

    def float_heads(self) -> np.ndarray:
        """The heads in floats (a fresh copy of the array converted once: the search evaluates the field many
        thousand times, and `Configuration.create` copies what it is given)."""
        return self._float_heads.copy()

    @functools.cached_property
    def _float_heads(self) -> np.ndarray:
        return np.array([[[float(v) for v in row] for row in m] for m in self.score_matrices])

    def describe(self) -> str:
        lams = ",".join(str(s) for s in self.strengths)
        return f"n={self.n}, d={self.d}, {self.heads} heads lambda=({lams}), {self.attention}, beta={self.beta}"


def block_ranges(H: int, d: int) -> list[range]:
    """Contiguous coordinate blocks, as even as possible (head h acts on block h): the kernel's one definition."""
    return head_blocks(H, d)


def instance(n: int, d: int, strengths: Sequence[Fraction], attention: str, beta: Fraction, heads: str) -> Instance:
    """Scalar heads lambda_h I, or orthogonal heads lambda_h P_h (P_h the projection on coordinate block h)."""
    H = len(strengths)
    mats = []
    blocks = block_ranges(H, d) if heads == "orthogonal" else [range(d)] * H
    for lam, block in zip(strengths, blocks, strict=True):
        mats.append([[lam if (i == j and i in block) else Fraction(0) for j in range(d)] for i in range(d)])
    return Instance(n, d, mats, Fraction(beta), attention, heads, tuple(Fraction(s) for s in strengths))


# ---------------------------------------------------------------- float search


def velocity(inst: Instance, tokens: np.ndarray) -> np.ndarray:
    """The tangent velocity (n x d) at unit tokens, from the numpy model."""
    return model.token_velocity(inst.configuration(tokens))


def _normalized(Y: np.ndarray) -> np.ndarray:
    return Y / np.linalg.norm(Y, axis=1, keepdims=True)


def polish(inst: Instance, start: np.ndarray) -> np.ndarray | None:
    """Levenberg-Marquardt on the velocity from `start`; the unit tokens when the residual is below RESIDUAL.

    The tokens are free vectors, normalised before the velocity is taken. Each iteration forms the Jacobian by
    forward differences and tries steps (J'J + mu I) s = -J'r, raising the damping mu until the residual drops; it
    stops when the residual is far below RESIDUAL, no step lowers it, or after ITERATIONS."""

    def residual(y: np.ndarray) -> np.ndarray:
        Y = y.reshape(inst.n, inst.d)
        if np.any(np.linalg.norm(Y, axis=1) < 1e-8):
            return np.full(inst.n * inst.d, 1e3)
        return velocity(inst, _normalized(Y)).ravel()

    y = start.ravel().astype(float)
    r, mu = residual(y), DAMPING
    for _ in range(ITERATIONS):
        if np.max(np.abs(r)) < RESIDUAL * 1e-4:
            break
        J = np.empty((r.size, y.size))
        for j in range(y.size):
            moved = y.copy()
            moved[j] += DIFFERENCE_STEP * max(1.0, abs(y[j]))
            J[:, j] = (residual(moved) - r) / (moved[j] - y[j])
        normal, gradient = J.T @ J, J.T @ r
        while mu < MAX_DAMPING:
            trial = y - np.linalg.solve(normal + mu * np.eye(y.size), gradient)
            value = residual(trial)
            if value @ value < r @ r:
                y, r, mu = trial, value, max(mu / 3, 1e-15)
                break
            mu *= 4
        else:
            break
    X = _normalized(y.reshape(inst.n, inst.d))
    return X if np.max(np.abs(velocity(inst, X))) < RESIDUAL else None


def structured_candidates(inst: Instance) -> list[tuple[str, np.ndarray]]:
    """All tokens equal, antipodal splits, a regular simplex, a square, and splits along the head subspaces."""
    n, d = inst.n, inst.d
    e = np.eye(d)
    out: list[tuple[str, np.ndarray]] = [("single cluster", np.tile(e[-1], (n, 1)))]
    for k in range(1, n // 2 + 1):
        out.append((f"antipodal split {n - k}+{k}", np.array([e[-1]] * (n - k) + [-e[-1]] * k)))
    if d >= n:
        out.append(("regular simplex", _normalized(np.eye(n, d) - np.eye(n, d).sum(axis=0) / n)))
    elif d == n - 1 and n == 4:
        out.append(("regular simplex", _normalized(np.array([[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1.0]]))))
    elif d == 2 and n == 3:
        angles = 2 * math.pi * np.arange(3) / 3
        out.append(("regular simplex", np.stack([np.cos(angles), np.sin(angles)], axis=1)))
    if d >= 2 and n == 4:
        out.append(("square (two orthogonal antipodal pairs)", np.array([e[0], e[1], -e[0], -e[1]])))
    if inst.heads == "orthogonal" and len(inst.strengths) >= 2:
        blocks = block_ranges(len(inst.strengths), d)
        X = np.array([e[blocks[i % len(blocks)][0]] * (1 if (i // len(blocks)) % 2 == 0 else -1) for i in range(n)])
        out.append(("split along the head subspaces (antipodal pairs)", X))
    return out


def head_invariants(inst: Instance, X: np.ndarray) -> tuple[float, ...]:
    """Sorted score matrices of every head (a class invariant modulo commuting rotations and permutations)."""
    parts = []
    for M in inst.float_heads():
        S = X @ M @ X.T
        parts.extend(np.sort(np.linalg.eigvalsh(0.5 * (S + S.T))))
        parts.extend(np.sort(S.ravel()))
    return tuple(np.round(parts, 6))


@dataclass
class Found:
    """One equilibrium class: a float representative, how it was found, and later its certification."""

    name: str
    tokens: np.ndarray
    starts: int = 1
    result: dict[str, Any] = field(default_factory=dict)


def search(inst: Instance, rng: np.random.Generator, starts: int) -> list[Found]:
    """Structured candidates and `starts` random starts, polished, one per class (in order of discovery)."""
    found: dict[tuple[float, ...], Found] = {}
    candidates = [*structured_candidates(inst)]
    candidates += [("random start", rng.standard_normal((inst.n, inst.d))) for _ in range(starts)]
    for name, start in candidates:
        X = (
            start
            if name != "random start" and np.max(np.abs(velocity(inst, start))) < RESIDUAL
            else polish(inst, start)
        )
        if X is None:
            continue
        key = head_invariants(inst, X)
        if key in found:
            found[key].starts += 1
        else:
            found[key] = Found(name if name != "random start" else _name(X), X)
    return list(found.values())


def _name(X: np.ndarray) -> str:
    """A plain description of a configuration found from a random start: its distinct points and rank."""
    distinct = len(_clusters(X))
    rank = int(np.linalg.matrix_rank(X, tol=1e-6))
    return f"{distinct} distinct point(s), spanning dimension {rank}"


def _clusters(X: np.ndarray) -> list[list[int]]:
    groups: list[list[int]] = []
    for i, x in enumerate(X):
        for g in groups:
            if np.linalg.norm(X[g[0]] - x) < MATCH:
                g.append(i)
                break
        else:
            groups.append([i])
    return groups


# ---------------------------------------------------------------- symmetry detection


def _allowed_signed_permutations(inst: Instance) -> list[np.ndarray]:
    """Signed permutation matrices that commute with every head (coordinates permuted within head blocks)."""
    d = inst.d
    blocks = [range(d)] if inst.heads == "scalar" else block_ranges(len(inst.strengths), d)
    per_block = []
    for block in blocks:
        options = []
        for perm in itertools.permutations(block):
            for signs in itertools.product((1, -1), repeat=len(block)):
                options.append((perm, signs))
        per_block.append(options)
    out = []
    for choice in itertools.product(*per_block):
        R = np.zeros((d, d))
        for block, (perm, signs) in zip(blocks, choice, strict=True):
            for src, dst, s in zip(block, perm, signs, strict=True):
                R[dst, src] = s
        out.append(R)
    return out


def _match(Y: np.ndarray, X: np.ndarray) -> tuple[int, ...] | None:
    """pi with Y_i = X_pi(i) (a bijection), or None."""
    used: set[int] = set()
    pi = []
    for y in Y:
        j = next((j for j in range(len(X)) if j not in used and np.linalg.norm(y - X[j]) < MATCH), None)
        if j is None:
            return None
        used.add(j)
        pi.append(j)
    return tuple(pi)


def _frames(inst: Instance, X: np.ndarray) -> list[np.ndarray]:
    """Candidate orthogonal frames Q (columns) commuting with the heads: axes from tokens, sums and differences."""
    d = inst.d
    blocks = [range(d)] if inst.heads == "scalar" else block_ranges(len(inst.strengths), d)
    per_block = []
    for block in blocks:
        idx = list(block)
        axes = []
        vectors = [X[i, idx] for i in range(inst.n)]
        vectors += [X[i, idx] + s * X[j, idx] for i, j in itertools.combinations(range(inst.n), 2) for s in (1, -1)]
        for v in vectors:
            if np.linalg.norm(v) > 1e-6:
                u = v / np.linalg.norm(v)
                if all(abs(abs(u @ a) - 1) > 1e-9 for a in axes):
                    axes.append(u)
        frames = []
        for first in axes[:12]:
            basis = [first]
            for a in axes:
                if len(basis) == len(idx):
                    break
                if all(abs(a @ b) < 1e-7 for b in basis):
                    basis.append(a)
            # complete with a Gram-Schmidt of the standard axes
            for k in range(len(idx)):
                if len(basis) == len(idx):
                    break
                v = np.eye(len(idx))[k] - sum((np.eye(len(idx))[k] @ b) * b for b in basis)
                if np.linalg.norm(v) > 1e-6:
                    basis.append(v / np.linalg.norm(v))
            frames.append(np.array(basis).T)
        per_block.append(frames or [np.eye(len(idx))])
    out = []
    for choice in itertools.islice(itertools.product(*per_block), 200):
        Q = np.zeros((d, d))
        for block, q in zip(blocks, choice, strict=True):
            Q[np.ix_(list(block), list(block))] = q
        out.append(Q)
    return out


def _symmetries(inst: Instance, Xf: np.ndarray) -> list[tuple[np.ndarray, tuple[int, ...]]]:
    """Signed permutations (with their token permutation) that map the configuration to itself, and the swaps of
    coinciding tokens."""
    found = []
    for R in _allowed_signed_permutations(inst):
        pi = _match(Xf @ R.T, Xf)
        if pi is not None and not (np.allclose(R, np.eye(inst.d)) and pi == tuple(range(inst.n))):
            found.append((R, pi))
    for group in _clusters(Xf):
        for a, b in itertools.pairwise(group):
            pi = list(range(inst.n))
            pi[a], pi[b] = b, a
            found.append((np.eye(inst.d), tuple(pi)))
    return found


def _compose(g: tuple[np.ndarray, tuple[int, ...]], h: tuple[np.ndarray, tuple[int, ...]]) -> tuple[np.ndarray, tuple]:
    """g after h: (R_g R_h, pi_g o pi_h)."""
    return g[0] @ h[0], tuple(g[1][k] for k in h[1])


def _closure(generators: list[tuple[np.ndarray, tuple[int, ...]]], n: int, d: int) -> list[tuple[np.ndarray, tuple]]:
    """The group the signed permutations generate (at most MAX_GROUP elements), as integer matrices: their products
    are exact, and an element is known by its bytes."""
    identity = (np.eye(d, dtype=np.int64), tuple(range(n)))
    integral = [(np.round(R).astype(np.int64), pi) for R, pi in generators]
    group = {_key(identity): identity}
    frontier = [identity]
    while frontier and len(group) < MAX_GROUP:
        new = []
        for g in frontier:
            for s in integral:
                h = _compose(s, g)
                key = _key(h)
                if key not in group:
                    group[key] = h
                    new.append(h)
        frontier = new
    return list(group.values())


def _key(g: tuple[np.ndarray, tuple]) -> tuple:
    return (g[0].tobytes(), g[1])


def exact_problem(inst: Instance, X: np.ndarray, denominator: int = 2**40) -> tuple[eq.Problem, np.ndarray] | None:
    """Exact data of the slice around X: the frame with the largest symmetry group, the centre rounded and averaged
    over the group (so that it lies exactly in the fixed set), the generators. None when no frame works."""
    best = None
    for Q in _frames(inst, X):
        Xf = X @ Q
        generators = _symmetries(inst, Xf)
        group = _closure(generators, inst.n, inst.d)
        if best is None or len(group) > len(best[3]):
            best = (Q, Xf, generators, group)
    if best is None:
        return None
    Q, Xf, generators, group = best
    # Numerators over `denominator`, summed over the group in Python integers (object arrays: exact, no overflow).
    rounded = np.array([[round(v * denominator) for v in x] for x in Xf], dtype=object)
    total = np.zeros((inst.n, inst.d), dtype=object)
    for R, pi in group:
        total[list(pi)] += rounded @ R.astype(object).T  # row pi(i) gains R c_i
    centre = [[Fraction(int(v), denominator * len(group)) for v in row] for row in total]
    symmetries = [
        ([[Fraction(int(v)) for v in row] for row in np.round(R).astype(int)], list(pi)) for R, pi in generators
    ]
    cfg = ExactConfiguration(centre, inst.score_matrices, inst.score_matrices, inst.beta, "sphere", inst.attention)
    return eq.Problem(cfg, symmetries), Q


# ---------------------------------------------------------------- certification


def _float_slice(problem: eq.Problem, E: list[list[Fraction]]) -> tuple[np.ndarray, np.ndarray]:
    C = np.array([[float(v) for v in c] for c in problem.cfg.tokens])
    Ef = np.array([[float(v) for v in col] for col in E]).reshape(len(E), *C.shape)
    return C, Ef


def _psi(inst: Instance, C: np.ndarray, Ef: np.ndarray, z: np.ndarray) -> np.ndarray:
    W = C + np.tensordot(z, Ef, axes=1) if len(z) else C
    F = velocity(inst, _normalized(W))
    return np.array([np.sum(e * F) for e in Ef])


def _newton(inst: Instance, C: np.ndarray, Ef: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """z* of Psi (float Newton from 0, central differences) and the inverse Jacobian there."""
    p = len(Ef)
    z = np.zeros(p)
    J = np.eye(p)
    for _ in range(12):
        h = 1e-7
        J = np.column_stack(
            [(_psi(inst, C, Ef, z + h * e) - _psi(inst, C, Ef, z - h * e)) / (2 * h) for e in np.eye(p)]
        )
        step = np.linalg.lstsq(J, _psi(inst, C, Ef, z), rcond=None)[0]
        z = z - step
        if np.max(np.abs(step)) < 1e-15:
            break
    return z, np.linalg.pinv(J)


def _dyadic(value: float, bits: int = 50) -> Fraction:
    return Fraction(round(value * 2**bits), 2**bits)


def _skew(d: int, coefficients: Sequence[Fraction]) -> list[list[Fraction]]:
    """sum_k c_k (E_ab - E_ba) over the pairs a < b in order: a general element of so(d)."""
    A = [[Fraction(0)] * d for _ in range(d)]
    for (a, b), c in zip(((i, j) for i in range(d) for j in range(i + 1, d)), coefficients, strict=True):
        A[a][b], A[b][a] = c, -c
    return A


def commutators(d: int, matrices: Sequence[fmpq_mat]) -> fmpq_mat:
    """The linear map A -> (A M - M A for every M) on so(d), one column per basis element E_ab - E_ba (a < b in
    order): its nullspace is the Lie algebra of the rotations that commute with every M."""
    size = d * (d - 1) // 2
    units = [eq.rational_matrix(_skew(d, [Fraction(int(k == j)) for j in range(size)])) for k in range(size)]
    return fmpq_mat([[e for M in matrices for e in (A * M - M * A).entries()] for A in units]).transpose()


def commuting_rotations(d: int, matrices: Sequence[Sequence[Sequence[Fraction]]]) -> list[list[list[Fraction]]]:
    """An exact basis of {A in so(d) : A M = M A for every M}: the Lie algebra of the rotations that commute."""
    return [_skew(d, c) for c in eq.nullspace(commutators(d, [eq.rational_matrix(M) for M in matrices]))]


def _orbit_choice(problem: eq.Problem, X: np.ndarray) -> list[list[list[Fraction]]]:
    """Rotations commuting with the heads whose orbit directions A X are independent at X (greedy, floats)."""
    chosen: list[list[list[Fraction]]] = []
    vectors: list[np.ndarray] = []
    cfg = problem.cfg
    for A in commuting_rotations(X.shape[1], [*cfg.score_matrices, *cfg.values]):
        v = (X @ np.array([[float(a) for a in row] for row in A]).T).ravel()
        trial = np.array([*vectors, v])
        if np.linalg.matrix_rank(trial, tol=1e-7) == len(trial):
            chosen.append(A)
            vectors.append(v)
    return chosen


def residual_gauge(problem: eq.Problem) -> bool:
    """Whether a rotation commutes with every head and every symmetry's R: it would move equilibria along the slice,
    where the Krawczyk test then cannot isolate one."""
    d, rotations = len(problem.cfg.tokens[0]), [eq.rational_matrix(R) for R, _ in problem.symmetries]
    return commutators(d, [*eq.heads(problem.cfg), *rotations]).rank() < d * (d - 1) // 2


def certify(inst: Instance, X: np.ndarray) -> dict[str, Any]:
    """Certification data and outcome for one float equilibrium: existence, zeros, index (or the reason not)."""
    if inst.attention not in SMOOTH_KINDS:
        return {"certified": False, "reason": f"no ball form of {inst.attention} attention (kink of max at 0)"}
    built = exact_problem(inst, X)
    if built is None:
        return {"certified": False, "reason": "no frame found"}
    problem, _ = built
    try:
        E = eq.slice_of(problem)
    except Rejected as exc:
        return {"certified": False, "reason": str(exc)}
    if residual_gauge(problem):
        return {
            "certified": False,
            "reason": "no symmetry of this equilibrium removes every rotation direction (a relative equilibrium, "
            "a rigidly rotating configuration, cannot be excluded by the slice method)",
        }
    C, Ef = _float_slice(problem, E)
    z, Yf = _newton(inst, C, Ef) if len(E) else (np.zeros(0), np.zeros((0, 0)))
    W = C + np.tensordot(z, Ef, axes=1) if len(E) else C
    Xs = _normalized(W)
    if np.max(np.abs(velocity(inst, Xs))) > 1e-9:
        return {"certified": False, "reason": "Newton in the symmetry slice did not converge"}
    z0 = [_dyadic(v) for v in z]
    Y = [[_dyadic(v, 40) for v in row] for row in Yf]
    orbit = _orbit_choice(problem, Xs)
    record = {
        "problem": problem,
        "point": z0,
        "preconditioner": Y,
        "orbit": orbit,
        "tokens": Xs,
        "slice_dimension": len(E),
    }
    for radius in (Fraction(1, 2**30), Fraction(1, 2**24), Fraction(1, 2**16)):
        try:
            with precision(PRECISION):
                existence = eq.existence(problem, E, z0, radius, Y)
            break
        except Rejected as exc:
            failure = str(exc)
    else:
        return {"certified": False, "reason": failure, "record": record | {"radius": radius}}
    V = _eigenvectors(problem, z0, radius, E)
    record |= {"radius": radius, "eigenvectors": V}
    outcome = {"certified": True, "existence": existence, "record": record, "reason": ""}
    try:
        with precision(PRECISION):
            counts = eq.spectrum(problem, eq.chart_tokens(problem, E, eq.box(z0, radius)), orbit, V)
    except Rejected as exc:
        return outcome | {"spectrum_decided": False, "spectrum": str(exc), "index": None}
    spectrum = "the Gershgorin discs separate"
    return outcome | {"spectrum_decided": True, "spectrum": spectrum, **counts, "index": counts["positive"]}


def _eigenvectors(problem: eq.Problem, z0: list[Fraction], radius: Fraction, E: list) -> list[list]:
    """Eigenvectors of the midpoint projected Jacobian (floats), for the Gershgorin similarity."""
    with precision(64):
        J = eq.projected_jacobian(problem.cfg, eq.chart_tokens(problem, E, eq.box(z0, radius)))
    mid = np.array([[float(v.mid()) for v in row] for row in J.tolist()])
    if np.allclose(mid, mid.T, rtol=0, atol=1e-12 * (1 + np.abs(mid).max())):
        return _exact_complex(np.linalg.eigh(0.5 * (mid + mid.T))[1])
    values, vectors = np.linalg.eig(mid)
    # eigenvectors of a repeated eigenvalue may come out nearly parallel: orthonormalize each cluster
    done = np.zeros(len(values), dtype=bool)
    for k in range(len(values)):
        if not done[k]:
            group = np.flatnonzero(~done & (np.abs(values - values[k]) < 1e-5 * (1 + abs(values[k]))))
            vectors[:, group] = np.linalg.qr(vectors[:, group])[0]
            done[group] = True
    return _exact_complex(vectors)


def _exact_complex(vectors: np.ndarray) -> list[list[tuple[Fraction, Fraction]]]:
    """The eigenvector matrix as exact (real, imaginary) dyadics: the data the kernel checks."""
    return [[(Fraction(complex(v).real), Fraction(complex(v).imag)) for v in row] for row in vectors]


def payload(record: dict[str, Any], outcome: dict[str, Any]) -> dict[str, Any]:
    """The certificate's payload: the exact data and the claimed counts (the checker recomputes all of it)."""
    problem: eq.Problem = record["problem"]

    def matrix(rows: Sequence[Sequence[Fraction]]) -> list[list[str]]:
        return [[rational_text(v) for v in row] for row in rows]

    return {
        "configuration": exact_record(problem.cfg),
        "rotations": [matrix(R) for R, _ in problem.symmetries],
        "permutations": [list(pi) for _, pi in problem.symmetries],
        "point": [rational_text(v) for v in record["point"]],
        "radius": rational_text(record["radius"]),
        "preconditioner": matrix(record["preconditioner"]),
        "orbit": [matrix(A) for A in record["orbit"]],
        "eigenvectors": [[[rational_text(re), rational_text(im)] for re, im in row] for row in record["eigenvectors"]],
        "prec": PRECISION,
        "spectrum": {"zeros": outcome["zeros"], "negative": outcome["negative"], "positive": outcome["index"]},
    } | _lyapunov(problem, record, outcome)


def _lyapunov(problem: eq.Problem, record: dict[str, Any], outcome: dict[str, Any]) -> dict[str, Any]:
    """{"lyapunov": X} for Coq's re-check of the spectrum (`certificates.kernel.coq.model_tree`) at an exact centre
    whose tokens have one norm (no point), or in the Krawczyk box of a one-dimensional slice (at its point z0), else
    {}: X the solution of M'^T X + X M' = I (floats, rounded to dyadics), M' = M - K K^T with M the tangent Jacobian
    in the kernel's rational tangent basis (`tangent_frame`, at the chart's w(z0) with the centre's pivots: the
    Jacobian's rows at its coordinates, times the basis) and K the orbit directions A x_i there (A c_i at the scaled
    centre), so that Q = M'^T X + X M' is near I. Its inertia is M''s (Ostrowski-Schneider): the counts' negative +
    zeros and positive, which the kernel checks exactly; {} when rounding lost them."""
    cfg, d = problem.cfg, len(problem.cfg.tokens[0])
    E = eq.slice_of(problem) if record["point"] else []
    if len(E) > 1 or (not E and len({dot(x, x) for x in tangent_frame(cfg.tokens)[0]}) != 1):
        return {}
    z = record["point"][0] if E else Fraction(0)
    at = [[c + z * E[0][i * d + k] if E else c for k, c in enumerate(x)] for i, x in enumerate(cfg.tokens)]
    tokens, basis = tangent_frame(at, pivot_coordinates(cfg.tokens))
    directions = _normalized(np.array(at, dtype=float)) if E else np.array(tokens, dtype=float)
    with precision(PRECISION):
        J = eq.projected_jacobian(cfg, eq.chart_tokens(problem, E, eq.box(record["point"], Fraction(0))))
    U = np.array([[float(u.get((i, k), 0)) for _, u in basis] for i in range(len(tokens)) for k in range(d)])
    rows = [i * d + k for (i, k), _ in basis]
    M = np.array([[float(J[a, b].mid()) for b in range(J.ncols())] for a in rows]) @ U
    orbit = np.array([[[float(v) for v in row] for row in A] for A in record["orbit"]]).reshape(-1, d, d)
    K = np.array([[(A @ directions[i])[k] for A in orbit] for (i, k), _ in basis]).reshape(len(rows), -1)
    shifted, size = M - K @ K.T, len(rows)
    lyapunov = np.kron(np.eye(size), shifted.T) + np.kron(shifted.T, np.eye(size))  # vec(M'^T X + X M')
    X = np.linalg.solve(lyapunov, np.eye(size).ravel()).reshape(size, size)
    exact = [[_dyadic((X[p, q] + X[q, p]) / 2, 40) for q in range(size)] for p in range(size)]
    inertia = np.linalg.eigvalsh(np.array(exact, dtype=float))
    if (sum(inertia < 0), sum(inertia > 0)) != (outcome["negative"] + len(record["orbit"]), outcome["index"]):
        return {}
    return {"lyapunov": [[rational_text(v) for v in row] for row in exact]}


def write(directory: Path, claim_id: str, outcome: dict[str, Any]) -> Path:
    """Write the equilibrium certificate of a certified outcome with a decided spectrum."""
    return write_certificate(directory, claim_id, "equilibrium", payload(outcome["record"], outcome))
