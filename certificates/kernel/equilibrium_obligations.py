"""What an equilibrium certificate of each `critical-points*` claim must establish, and its re-check.

The checker rebuilds the exact problem from the file (rational heads, beta, kind, centre, symmetries,
box, preconditioner, eigenvectors; sizes bounded by `certificates.kernel.format`), re-runs the whole test of
`certificates.kernel.equilibrium.check` (exact symmetry conditions, no residual rotation, Krawczyk inclusion,
certified orbit dimension, Gershgorin components), compares the recomputed counts with the ones the
file states, and checks the structure the claim is about (a single cluster, a regular simplex,
tokens along orthogonal head subspaces) exactly on the data.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from certificates.kernel import equilibrium as eq
from certificates.kernel import format as fmt
from certificates.kernel.exprtree import parse_rational
from certificates.kernel.recheck import Rejected, recorded_precision, require_keys

PAYLOAD_KEYS = frozenset(
    {
        "scores",
        "values",
        "beta",
        "attention",
        "centre",
        "symmetries",
        "point",
        "radius",
        "preconditioner",
        "orbit",
        "pivots",
        "eigenvectors",
        "prec",
        "spectrum",
    }
)
#: Most symmetries a file may list (each is checked exactly).
MAX_SYMMETRIES = 64


def _dot(u: list[Fraction], w: list[Fraction]) -> Fraction:
    return sum((a * b for a, b in zip(u, w, strict=True)), Fraction(0))


def _aligned_symmetric(problem: eq.Problem) -> str | None:
    if problem.values != problem.score_matrices:
        return "the values are not the score matrices (W_h = M_h is required)"
    if any(M[i][j] != M[j][i] for M in problem.score_matrices for i in range(problem.d) for j in range(problem.d)):
        return "a score matrix is not symmetric"
    return None


def _scalar(problem: eq.Problem) -> str | None:
    for M in problem.score_matrices:
        lam = M[0][0]
        if lam <= 0 or any(M[i][j] != (lam if i == j else 0) for i in range(problem.d) for j in range(problem.d)):
            return "the heads are not lambda_h I with lambda_h > 0"
    return _aligned_symmetric(problem)


def single_cluster(problem: eq.Problem) -> str | None:
    """Scalar positive heads, all centre tokens equal and no slice (the equilibrium is the centre itself)."""
    if any(c != problem.centre[0] for c in problem.centre):
        return "the centre tokens are not all equal"
    return _scalar(problem) or _no_slice(problem)


def regular_simplex(problem: eq.Problem) -> str | None:
    """Scalar positive heads; normalized centre tokens with <x_i, x_j> = -1/(n-1) exactly; no slice."""
    n = problem.n
    norms = [_dot(c, c) for c in problem.centre]
    for i in range(n):
        for j in range(i + 1, n):
            g = _dot(problem.centre[i], problem.centre[j])
            if not (g < 0 and g * g * (n - 1) ** 2 == norms[i] * norms[j]):
                return f"tokens {i} and {j} do not have inner product -1/(n-1)"
    return _scalar(problem) or _no_slice(problem)


def orthogonal_subspaces(problem: eq.Problem) -> str | None:
    """Symmetric aligned heads with M_g M_h = 0 (g != h), every centre token in the range of exactly one head."""
    heads = problem.score_matrices
    d = problem.d
    for g in range(len(heads)):
        for h in range(len(heads)):
            if g != h and any(
                _dot(heads[g][i], [heads[h][k][j] for k in range(d)]) != 0 for i in range(d) for j in range(d)
            ):
                return f"heads {g} and {h} are not orthogonal (M_g M_h != 0)"
    if len(heads) < 2:
        return "at least two heads are needed"
    for i, c in enumerate(problem.centre):
        seen = [h for h, M in enumerate(heads) if any(_dot(row, c) != 0 for row in M)]
        if len(seen) != 1:
            return f"token {i} is seen by {len(seen)} heads, not by exactly one"
    return _aligned_symmetric(problem) or _no_slice(problem)


def _no_slice(problem: eq.Problem) -> str | None:
    return None if not eq.slice_basis(problem) else "the fixed set has positive dimension"


def anything(problem: eq.Problem) -> str | None:
    """Any exact instance (the certificate states what it proves)."""
    return None


@dataclass(frozen=True)
class EquilibriumObligation:
    """The structure the claim is about (None when the data have it, else why not), and its name."""

    structure: Callable[[eq.Problem], str | None]
    subject: str


EQUILIBRIA: dict[str, EquilibriumObligation] = {
    "critical-points": EquilibriumObligation(anything, "the configuration"),
    "critical-points.cluster-stable": EquilibriumObligation(single_cluster, "the single cluster"),
    "critical-points.simplex-index": EquilibriumObligation(regular_simplex, "the regular simplex"),
    "critical-points.orthogonal-subspaces": EquilibriumObligation(
        orthogonal_subspaces, "tokens along orthogonal head subspaces"
    ),
}


def _matrix(rows: object, what: str, max_rows: int, max_cols: int) -> list[list[Fraction]]:
    if not isinstance(rows, list) or not 0 <= len(rows) <= max_rows:
        raise Rejected(f"{what}: at most {max_rows} rows")
    if any(not isinstance(r, list) or len(r) > max_cols for r in rows):
        raise Rejected(f"{what}: rows of at most {max_cols} entries")
    return [[parse_rational(v) for v in row] for row in rows]


def problem_of(payload: dict[str, Any]) -> eq.Problem:
    """The exact problem of a payload (sizes bounded)."""
    centre = _matrix(payload["centre"], "centre", fmt.MAX_TOKENS, fmt.MAX_DIMENSION)
    if len(centre) < 2 or not centre[0] or any(len(c) != len(centre[0]) for c in centre):
        raise Rejected("the centre must be at least two tokens of one dimension")
    d = len(centre[0])
    heads = payload["scores"], payload["values"]
    if any(not isinstance(h, list) or not 1 <= len(h) <= fmt.MAX_HEADS for h in heads) or len(heads[0]) != len(
        heads[1]
    ):
        raise Rejected(f"1 to {fmt.MAX_HEADS} score matrices and as many value matrices")
    scores = [_matrix(M, "scores", d, d) for M in payload["scores"]]
    values = [_matrix(W, "values", d, d) for W in payload["values"]]
    if any(len(M) != d or any(len(r) != d for r in M) for M in scores + values):
        raise Rejected(f"every head matrix must be {d} x {d}")
    beta = parse_rational(payload["beta"])
    if beta <= 0 or payload["attention"] not in eq.KINDS:
        raise Rejected("beta must be positive and the attention usa or softmax")
    symmetries = payload["symmetries"]
    if not isinstance(symmetries, list) or len(symmetries) > MAX_SYMMETRIES:
        raise Rejected(f"at most {MAX_SYMMETRIES} symmetries")
    parsed = []
    for g in symmetries:
        require_keys(g, {"rotation", "permutation"}, "symmetry")
        perm = g["permutation"]
        if not isinstance(perm, list) or any(not isinstance(k, int) or isinstance(k, bool) for k in perm):
            raise Rejected("a permutation is a list of token indices")
        parsed.append(eq.Symmetry(_matrix(g["rotation"], "rotation", d, d), tuple(perm)))
    return eq.Problem(scores, values, beta, payload["attention"], centre, parsed)


def _indices(data: object, what: str, size: int) -> list[int]:
    if (
        not isinstance(data, list)
        or len(data) > size
        or any(not isinstance(k, int) or isinstance(k, bool) for k in data)
    ):
        raise Rejected(f"{what}: a list of at most {size} integers")
    return list(data)


def check_equilibrium(claim_id: str, payload: dict[str, Any]) -> tuple[str, str]:
    """Re-check an equilibrium certificate against the obligation of its claim: (what it proves, how)."""
    obligation = EQUILIBRIA[claim_id]
    require_keys(payload, PAYLOAD_KEYS, "equilibrium payload")
    problem = problem_of(payload)
    wrong = obligation.structure(problem)
    if wrong:
        raise Rejected(f"not {obligation.subject}: {wrong}")
    spectrum, existence = recheck_spectrum(problem, payload)
    n, d = problem.n, problem.d
    kind = f"{problem.attention}, beta = {problem.beta}, H = {len(problem.score_matrices)}"
    proved = (
        f"{obligation.subject} of n = {n} tokens in dimension {d} ({kind}) is an equilibrium (in the certified box), "
        f"with {spectrum.zeros} zero eigenvalue(s) along the rotation orbit, {spectrum.negative} with Re < 0 and "
        f"{spectrum.positive} with Re > 0: index {spectrum.positive}"
        + (", linearly stable modulo rotations" if spectrum.positive == 0 else "")
    )
    return proved, f"{existence}; {spectrum.reason} (balls)"


def recheck_spectrum(problem: eq.Problem, payload: dict[str, Any]) -> tuple[eq.Spectrum, str]:
    """The whole test of `equilibrium.check` re-run on the payload's data (box, preconditioner, orbit, pivots,
    eigenvectors), the decided spectrum and how existence was shown; Rejected unless existence is re-proved, the
    spectrum re-decided and its counts the ones the file states."""
    n, d = problem.n, problem.d
    m = n * (d - 1)
    point = _matrix([payload["point"]], "point", 1, n * d)[0]
    Y = _matrix(payload["preconditioner"], "preconditioner", n * d, n * d)
    vectors = payload["eigenvectors"]
    if (
        not isinstance(vectors, list)
        or len(vectors) != m
        or any(not isinstance(r, list) or len(r) != m for r in vectors)
    ):
        raise Rejected(f"the eigenvector matrix must be {m} x {m}")
    V = []
    for row in vectors:
        if any(not isinstance(v, list) or len(v) != 2 for v in row):
            raise Rejected("an eigenvector entry is [real, imaginary]")
        V.append([(parse_rational(v[0]), parse_rational(v[1])) for v in row])
    stated = payload["spectrum"]
    require_keys(stated, {"zeros", "negative", "positive"}, "spectrum")
    result = eq.check(
        problem,
        point,
        parse_rational(payload["radius"]),
        Y,
        _indices(payload["orbit"], "orbit", d * d),
        _indices(payload["pivots"], "pivots", n),
        V,
        recorded_precision(payload, 512),
    )
    if not result.existence.proved:
        raise Rejected(f"existence not re-proved: {result.existence.reason}")
    spectrum = result.spectrum
    if not spectrum.decided:
        raise Rejected(f"spectrum not re-decided: {spectrum.reason}")
    counts = {"zeros": spectrum.zeros, "negative": spectrum.negative, "positive": spectrum.positive}
    if stated != counts:
        raise Rejected(f"the file states the spectrum {stated}, the re-check finds {counts}")
    return spectrum, result.existence.reason
