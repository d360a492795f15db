"""Certified equilibria of the multi-head field on (S^{d-1})^n: existence by a Krawczyk test in a symmetry
slice, and the index from Gershgorin discs of the Jacobian on the tangent space.

The data are exact: rational heads M_h, W_h and beta, a kind (usa or softmax), a rational centre C
(n x d, tokens not necessarily unit) and a list of symmetries g = (R, pi): rational orthogonal R
commuting with every M_h and W_h, and a token permutation pi with R c_i = c_pi(i). Such a g maps the
field to itself, F(g X) = g F(X) with (g X)_pi(i) = R x_i, so F maps the fixed set Fix = {X : g X = X}
into its own tangent vectors.

Why a slice. Rotations A in so(d) that commute with every head move equilibria along orbits, so no
equilibrium is isolated and a Newton test on the whole tangent space must fail. The symmetries
are chosen so that no such A commutes with every R (the *residual gauge* is {0}, checked exactly):
then the rotation orbit meets Fix transversally and the zeros of F on Fix are isolated. On Fix the
chart is X(z) = normalize_i(c_i + (E z)_i), E an exact basis of the tangent vectors of Fix at C
(U with g U = U and <u_i, c_i> = 0), and the equations are Psi(z) = E^T F(X(z)): for X in Fix,
F(X) lies in Fix's tangent space, on which E^T is injective (L = span E + radial part, and a
radial vector (a_i c_i) is tangent at X only when a = 0, since <c_i, x_i> > 0 on the chart).
So Psi(z) = 0 iff F(X(z)) = 0, and the Krawczyk inclusion K(Z) inside the box Z proves exactly
one equilibrium X(z*), z* in Z. When Fix has dimension 0 (E empty), F(X(0)) lies in a zero space:
normalize(C) is an equilibrium by symmetry alone.

The spectrum. At an equilibrium X*, the Jacobian J of the ambient field (`ball_model.velocity_field`
on jets) restricted to the tangent space, in orthonormal Householder frames B_i of x_i^perp, is
similar to the linearization of the flow. Over the box, the balls of B^T J B hold its value at X*.
Every rotation A commuting with the heads gives J (A X*) = A F(X*) = 0: r independent such
directions (r certified by a positive definite Gram matrix of A_k X* over the box) are r known
zero eigenvalues. After a similarity by recorded eigenvectors V (exact complex dyadics), the
Gershgorin discs of V^{-1} (B^T J B) V split into connected components, each holding as many
eigenvalues as it has discs. When exactly one component can contain 0 and it has exactly r discs,
its eigenvalues are the r symmetry zeros; every other component must lie in Re < 0 or in Re > 0,
which counts the stable and unstable directions (the index).

The writer (`checks.evidence.equilibria`) finds the equilibrium and chooses the box, the preconditioner Y, the
orbit directions, the pivots and V; this module only checks them. E, the residual gauge and the rotation basis are
exact functions of the data (integer nullspaces from python-flint), the same for the writer and the checker.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from flint import acb, acb_mat, arb, arb_mat, fmpq, fmpq_mat

from certificates.kernel import ball_model
from certificates.kernel import format as fmt
from certificates.kernel.exact import ball_of, precision
from certificates.kernel.exact_data import ExactConfiguration, dot
from certificates.kernel.exprtree import parse_rational
from certificates.kernel.jets import Jet
from certificates.kernel.recheck import Rejected, recorded_precision, require_keys
from certificates.kernel.vocabulary import SMOOTH_KINDS

Matrix = list[list[Fraction]]
Vector = list[Fraction]
#: Kinds the field over boxes evaluates (relu weights are not differentiable at a zero score).
KINDS = SMOOTH_KINDS


class Symmetry(NamedTuple):
    """g = (R, pi): (g X)_pi(i) = R x_i."""

    rotation: Matrix
    permutation: tuple[int, ...]


class Problem(NamedTuple):
    """Exact heads, beta and kind; the centre C of the chart and the symmetries that define the slice."""

    score_matrices: list[Matrix]
    values: list[Matrix]
    beta: Fraction
    attention: str
    centre: list[Vector]
    symmetries: list[Symmetry]

    @property
    def n(self) -> int:
        return len(self.centre)

    @property
    def d(self) -> int:
        return len(self.centre[0])

    @property
    def heads(self) -> list[Matrix]:
        return [*self.score_matrices, *self.values]


# ---------------------------------------------------------------- exact linear algebra


def rational_matrix(rows: Sequence[Sequence[Fraction]]) -> fmpq_mat:
    """The exact matrix as python-flint rationals (exact and fast products, equality, nullspaces)."""
    return fmpq_mat([[fmpq(q.numerator, q.denominator) for q in row] for row in rows])


def nullspace(matrix: fmpq_mat) -> list[Vector]:
    """An exact basis of {v : matrix v = 0}: the integer nullspace of the matrix times a common denominator, each
    vector scaled to 1 at its last non-zero entry (its free column: the reduced echelon basis, well scaled)."""
    basis, nullity = matrix.numer_denom()[0].nullspace()
    columns = [[int(basis[r, k]) for r in range(matrix.ncols())] for k in range(nullity)]
    return [[Fraction(v, next(t for t in reversed(column) if t)) for v in column] for column in columns]


def _skew(d: int, coefficients: Sequence[Fraction]) -> Matrix:
    """sum_k c_k (E_ab - E_ba) over the pairs a < b in order: a general element of so(d)."""
    A = [[Fraction(0)] * d for _ in range(d)]
    for (a, b), c in zip(((i, j) for i in range(d) for j in range(i + 1, d)), coefficients, strict=True):
        A[a][b], A[b][a] = c, -c
    return A


def commuting_rotations(d: int, matrices: Sequence[Matrix]) -> list[Matrix]:
    """An exact basis of {A in so(d) : A M = M A for every M}: the Lie algebra of the rotations that commute."""
    size = d * (d - 1) // 2
    units = [rational_matrix(_skew(d, [Fraction(int(k == j)) for j in range(size)])) for k in range(size)]
    images = [[e for M in map(rational_matrix, matrices) for e in (A * M - M * A).entries()] for A in units]  # columns
    rows = len(matrices) * d * d
    matrix = fmpq_mat(rows, size, [images[k][r] for r in range(rows) for k in range(size)])
    return [_skew(d, c) for c in nullspace(matrix)]


def gauge(problem: Problem) -> list[Matrix]:
    """Rotations commuting with every head: the directions A X along which equilibria are never isolated."""
    return commuting_rotations(problem.d, problem.heads)


def residual_gauge(problem: Problem) -> list[Matrix]:
    """Rotations commuting with every head and every symmetry's R: they would move along the slice."""
    return commuting_rotations(problem.d, [*problem.heads, *(g.rotation for g in problem.symmetries)])


def symmetry_failures(problem: Problem) -> list[str]:
    """What is wrong with the symmetries, exactly: R orthogonal, R commuting with the heads, pi a permutation,
    R c_i = c_pi(i) (R is d x d: the payload's reader and the writer make it so). Empty when every symmetry maps the
    field and the centre to themselves."""
    failures = []
    n, d = problem.n, problem.d
    heads, centre = [rational_matrix(M) for M in problem.heads], rational_matrix(problem.centre).transpose()
    for k, g in enumerate(problem.symmetries):
        R = rational_matrix(g.rotation)
        if R.transpose() * R != rational_matrix([[Fraction(int(i == j)) for j in range(d)] for i in range(d)]):
            failures.append(f"symmetry {k}: R is not orthogonal")
        if any(R * M != M * R for M in heads):
            failures.append(f"symmetry {k}: R does not commute with every head")
        if sorted(g.permutation) != list(range(n)):
            failures.append(f"symmetry {k}: pi is not a permutation of the {n} tokens")
            continue
        image = (R * centre).transpose().tolist()
        moved = next((i for i in range(n) if image[i] != centre.transpose().tolist()[g.permutation[i]]), None)
        if moved is not None:
            failures.append(f"symmetry {k}: R c_{moved} != c_{g.permutation[moved]}")
    if any(all(v == 0 for v in c) for c in problem.centre):
        failures.append("a centre token is zero")
    return failures


def slice_basis(problem: Problem) -> list[Vector]:
    """An exact basis E of the tangent vectors of Fix at the centre: U (flattened n*d) with g U = U, <u_i, c_i> = 0."""
    n, d, blocks = problem.n, problem.d, [(j, b) for j in range(problem.n) for b in range(problem.d)]
    rows = [  # (R u_i)_a - (u_pi(i))_a = 0
        [(g.rotation[a][b] if j == i else 0) - (j == g.permutation[i] and b == a) for j, b in blocks]
        for g in problem.symmetries
        for i in range(n)
        for a in range(d)
    ]
    rows += [[c[b] if j == i else 0 for j, b in blocks] for i, c in enumerate(problem.centre)]
    return nullspace(rational_matrix(rows))


# ---------------------------------------------------------------- the field on the chart


def _sparse(exact: Sequence[Fraction], values: Sequence[Any]) -> Any:
    """sum_r exact_r values_r (balls or jets), skipping the exact zeros."""
    total: Any = arb(0)
    for q, v in zip(exact, values, strict=True):
        if q != 0:
            total = v * ball_of(q) + total
    return total


def chart_tokens(problem: Problem, E: Sequence[Vector], z: Sequence[Any]) -> list[list[Any]]:
    """x_i = w_i / |w_i| with w_i = c_i + (E z)_i (balls or jets)."""
    d, tokens = problem.d, []
    for i, c in enumerate(problem.centre):
        w = [_sparse([column[i * d + a] for column in E], z) + ball_of(c[a]) for a in range(d)]
        norm = sum(wa * wa for wa in w).sqrt()
        tokens.append([wa / norm for wa in w])
    return tokens


def field(problem: Problem, tokens: list[list[Any]]) -> list[list[Any]]:
    """F(X) on the sphere (the ambient extension off it), at balls or jets: the ball model's one formula."""
    return ball_model.velocity_field(tokens, problem.score_matrices, problem.values, problem.beta, problem.attention)


def slice_equations(problem: Problem, E: Sequence[Vector], z: Sequence[Any]) -> list[Any]:
    """Psi(z) = E^T F(X(z))."""
    flat = [v for row in field(problem, chart_tokens(problem, E, z)) for v in row]
    return [_sparse(column, flat) for column in E]


def _box(z0: Sequence[Fraction], radius: Fraction) -> list[arb]:
    """Balls holding z0 + [-radius, radius]^p."""
    return [ball_of(v).union(ball_of(v - radius)).union(ball_of(v + radius)) for v in z0]


# ---------------------------------------------------------------- Krawczyk


class Existence(NamedTuple):
    """Whether the Krawczyk inclusion holds (or Fix has dimension 0), and why."""

    proved: bool
    reason: str


def krawczyk(
    problem: Problem, E: Sequence[Vector], z0: Sequence[Fraction], radius: Fraction, Y: Sequence[Sequence[Fraction]]
) -> Existence:
    """K(Z) = z0 - Y Psi(z0) + (I - Y Psi'(Z)) (Z - z0) inside the open box Z = z0 + [-radius, radius]^p.

    Holds for any rational Y; when it holds, Psi has exactly one zero in Z (Krawczyk 1969, Moore 1977)."""
    p = len(E)
    if p == 0:
        return Existence(True, "the fixed set has dimension 0: F(C/|C|) lies in {0} by symmetry")
    if radius <= 0 or len(z0) != p or len(Y) != p or any(len(row) != p for row in Y):
        return Existence(False, "the box and the preconditioner must match the slice dimension")
    at_centre = arb_mat([[v] for v in slice_equations(problem, E, [ball_of(v) for v in z0])])
    jets = slice_equations(problem, E, Jet.variables(_box(z0, radius)))
    J = arb_mat([[jet.grad[k] if isinstance(jet, Jet) else arb(0) for k in range(p)] for jet in jets])
    Yb = arb_mat([[ball_of(v) for v in row] for row in Y])
    identity, width = arb_mat([[int(i == j) for j in range(p)] for i in range(p)]), [_box([Fraction(0)], radius)] * p
    image = Yb * at_centre, (identity - Yb * J) * arb_mat(width)
    for k in range(p):
        value = ball_of(z0[k]) - image[0][k, 0] + image[1][k, 0]
        if not (value.lower() > ball_of(z0[k] - radius) and value.upper() < ball_of(z0[k] + radius)):
            return Existence(False, f"Krawczyk image of coordinate {k} is {value.str(5)}, not inside the box")
    return Existence(True, f"Krawczyk: K(Z) inside Z (p = {p}, radius {float(radius):.3g})")


def solution_box(problem: Problem, E: Sequence[Vector], z0: Sequence[Fraction], radius: Fraction) -> list[list[arb]]:
    """Balls holding every token X(z), z in the box (the equilibrium's tokens among them)."""
    return chart_tokens(problem, E, _box(z0, radius))


# ---------------------------------------------------------------- the spectrum


def tangent_frames(tokens: Sequence[Sequence[arb]], pivots: Sequence[int]) -> list[list[list[arb]]]:
    """For each token, d - 1 columns of the Householder reflection H = I - 2 v v^T/<v, v>, v = x + s e_k (k the
    pivot, s the sign of x_k): H is orthogonal and H e_k is parallel to x, so the other columns are an
    orthonormal basis of x^perp (balls holding the exact frame at every point of the token's ball)."""
    frames = []
    for x, k in zip(tokens, pivots, strict=True):
        if not (x[k] > 0 or x[k] < 0):
            raise ValueError("the pivot coordinate of a token ball contains 0")
        v = [xa + ((1 if x[k] > 0 else -1) if a == k else 0) for a, xa in enumerate(x)]
        vv = dot(v, v)
        frames.append([[int(a == b) - 2 * v[a] * v[b] / vv for a in range(len(x))] for b in range(len(x)) if b != k])
    return frames


def tangent_jacobian(problem: Problem, tokens: list[list[arb]], pivots: Sequence[int]) -> list[list[arb]]:
    """B^T DF B (n(d-1) square) over the token balls, DF the ambient field's Jacobian from jets."""
    n, d = problem.n, problem.d
    variables = Jet.variables([t for row in tokens for t in row])
    DF = [jet.grad for row in field(problem, [variables[i * d : (i + 1) * d] for i in range(n)]) for jet in row]
    zero, frames = [arb(0)] * d, tangent_frames(tokens, pivots)
    B = [zero * i + column + zero * (n - 1 - i) for i, frame in enumerate(frames) for column in frame]  # flattened
    image = [[dot(row, b) for row in DF] for b in B]  # DF b, per column b
    return [[dot(b, column) for column in image] for b in B]


def orbit_rank(problem: Problem, tokens: list[list[arb]], chosen: Sequence[int]) -> bool:
    """The orbit directions A_k X (k in `chosen`, A_k the gauge basis) are independent at every point of the
    token balls: their Gram matrix has positive leading minors (Sylvester)."""
    basis = gauge(problem)
    if any(not 0 <= k < len(basis) for k in chosen) or len(set(chosen)) != len(chosen):
        return False
    directions = [[_sparse(row, x) for x in tokens for row in basis[k]] for k in chosen]
    gram = [[dot(u, w) for w in directions] for u in directions]
    return all(arb_mat([row[:m] for row in gram[:m]]).det() > 0 for m in range(1, len(gram) + 1))


class Spectrum(NamedTuple):
    """Counts of eigenvalues: the symmetry zeros, Re < 0 and Re > 0 (the index); `decided` False with a reason."""

    decided: bool
    reason: str
    zeros: int = 0
    negative: int = 0
    positive: int = 0


def classify(J: list[list[arb]], V: Sequence[Sequence[tuple[Fraction, Fraction]]], zeros: int) -> Spectrum:
    """Gershgorin components of V^{-1} J V: one may contain 0 and must hold exactly `zeros` discs; each other one
    must lie in Re < 0 or in Re > 0."""
    m = len(J)
    if m == 0:
        return Spectrum(True, "no tangent directions")
    Vm = acb_mat([[acb(ball_of(re), ball_of(im)) for re, im in row] for row in V])
    try:
        A = Vm.solve(acb_mat([[acb(x) for x in row] for row in J]) * Vm)
    except ZeroDivisionError:
        return Spectrum(False, "the eigenvector matrix is not certified invertible")
    mids = [acb(A[k, k].mid()) for k in range(m)]
    radii = [sum((abs(A[k, j]) for j in range(m) if j != k), abs(A[k, k] - mids[k])) for k in range(m)]
    label = list(range(m))  # connected components of the overlap graph
    for k in range(m):
        for j in range(k + 1, m):
            if not abs(mids[k] - mids[j]) > radii[k] + radii[j] and label[j] != label[k]:
                label = [label[k] if t == label[j] else t for t in label]
    members = [[k for k in range(m) if label[k] == c] for c in sorted(set(label))]
    zero_components = [c for c in members if any(not abs(mids[k]) > radii[k] for k in c)]
    negative = sum(len(c) for c in members if c not in zero_components and all(mids[k].real + radii[k] < 0 for k in c))
    positive = sum(len(c) for c in members if c not in zero_components and all(mids[k].real - radii[k] > 0 for k in c))
    found = sum(len(c) for c in zero_components)
    if found + negative + positive != m:
        return Spectrum(False, "a Gershgorin component away from 0 meets the imaginary axis")
    if len(zero_components) > 1 or found != zeros:
        why = f"the discs that may contain 0 hold {found} eigenvalue(s) in {len(zero_components)} component(s)"
        return Spectrum(False, f"{why}; {zeros} symmetry zero(s) are known")
    return Spectrum(True, "Gershgorin components separate", zeros, negative, positive)


def check(
    problem: Problem,
    z0: Sequence[Fraction],
    radius: Fraction,
    Y: Sequence[Sequence[Fraction]],
    orbit: Sequence[int],
    pivots: Sequence[int],
    V: Sequence[Sequence[tuple[Fraction, Fraction]]],
    prec: int,
) -> tuple[Existence, Spectrum]:
    """Everything an equilibrium certificate claims, re-derived from its data (the writer and the checker alike)."""
    failures = symmetry_failures(problem)  # the kind is one of KINDS: the payload's reader and the writer ask first
    if not failures and residual_gauge(problem):
        failures = ["a rotation commuting with the heads commutes with every symmetry: the slice is not transversal"]
    if failures:
        return Existence(False, "; ".join(failures)), Spectrum(False, "no equilibrium")
    E = slice_basis(problem)
    with precision(prec):
        existence = krawczyk(problem, E, z0, radius, Y)
        if not existence.proved:
            return existence, Spectrum(False, "no equilibrium")
        tokens = solution_box(problem, E, z0 if E else [], radius)
        if len(pivots) != problem.n or any(not 0 <= k < problem.d for k in pivots):
            return existence, Spectrum(False, "one pivot coordinate per token is needed")
        if not orbit_rank(problem, tokens, orbit):
            return existence, Spectrum(False, "the chosen orbit directions are not certified independent")
        try:
            return existence, classify(tangent_jacobian(problem, tokens, pivots), V, len(orbit))
        except ValueError as exc:
            return existence, Spectrum(False, str(exc))


# ---------------------------------------------------------------- the certificates of the registry's claims
# The checker rebuilds the exact problem from the file (sizes bounded by `certificates.kernel.format`), re-runs
# `check`, compares the recomputed counts with the ones the file states, and checks exactly on the data the
# structure the claim is about (a single cluster, a regular simplex, tokens along orthogonal head subspaces).

PAYLOAD_KEYS = frozenset({"scores", "values", "beta", "attention", "centre", "symmetries", "point", "radius"})
PAYLOAD_KEYS |= {"preconditioner", "orbit", "pivots", "eigenvectors", "prec", "spectrum"}
#: Most symmetries a file may list (each is checked exactly).
MAX_SYMMETRIES = 64


def clusters_gram(sizes: Sequence[int]) -> Matrix:
    """Groups of the given sizes at the vertices of a regular simplex of k = len(sizes) vertices: 1 within a group,
    -1/(k-1) between groups (one group: the single cluster; two: an antipodal split; groups of one: the regular
    simplex)."""
    label = [g for g, size in enumerate(sizes) for _ in range(size)]
    between = Fraction(-1, max(len(sizes) - 1, 1))
    return [[Fraction(1) if a == b else between for b in label] for a in label]


def same_configuration(centre: Matrix, blocks: Sequence[range], targets: Sequence[Matrix]) -> str | None:
    """Whether the normalized centre tokens c_i/|c_i| have, in every block, the target Gram matrix (exactly, without a
    square root: the sign and the square of <P_b c_i, P_b c_j> against t^2 |c_i|^2 |c_j|^2). Equal block Grams mean
    the configurations differ by a rotation within each block, which commutes with the heads."""
    norms = [sum((v * v for v in c), Fraction(0)) for c in centre]
    if any(norm == 0 for norm in norms):
        return "a centre token is zero"
    for block, target in zip(blocks, targets, strict=True):
        for i, ci in enumerate(centre):
            for j, cj in enumerate(centre):
                g, t = sum((ci[a] * cj[a] for a in block), Fraction(0)), target[i][j]
                if (g > 0) != (t > 0) or (g < 0) != (t < 0) or g * g != t * t * norms[i] * norms[j]:
                    return f"tokens {i} and {j} do not have the regime's inner product {t}"
    return None


def _orthogonal_subspaces(problem: Problem) -> str | None:
    """Two heads or more, every centre token in the range of exactly one head."""
    if len(problem.score_matrices) < 2:
        return "at least two heads are needed"
    for i, c in enumerate(problem.centre):
        seen = sum(any(dot(row, c) != 0 for row in M) for M in problem.score_matrices)
        if seen != 1:
            return f"token {i} is seen by {seen} heads, not by exactly one"
    return None


class EquilibriumObligation(NamedTuple):
    """The claim's subject; the hypotheses its heads must satisfy (`ball_model.HYPOTHESES`) and the structure of its
    centre (None when the data have it, else why not); a structured claim's equilibrium is the centre itself (no
    slice). No structure: any exact instance (the certificate states what it proves)."""

    subject: str
    hypotheses: tuple[str, ...] = ()
    structure: Callable[[Problem], str | None] | None = None

    def failure(self, problem: Problem) -> str | None:
        if self.structure is None:
            return None
        cfg = ExactConfiguration(problem.centre, problem.score_matrices, problem.values, problem.beta)
        failed = ball_model.hypothesis_failures(cfg, self.hypotheses)
        if failed:
            return f"the heads are not {', '.join(failed)}"
        return self.structure(problem) or ("the fixed set has positive dimension" if slice_basis(problem) else None)


_SCALAR = ("scalar-heads", "aligned-values")
EQUILIBRIA: dict[str, EquilibriumObligation] = {
    "critical-points": EquilibriumObligation("the configuration"),
    "critical-points.cluster-stable": EquilibriumObligation(
        "the single cluster", _SCALAR, lambda p: same_configuration(p.centre, [range(p.d)], [clusters_gram([p.n])])
    ),
    "critical-points.simplex-index": EquilibriumObligation(
        "the regular simplex", _SCALAR, lambda p: same_configuration(p.centre, [range(p.d)], [clusters_gram([1] * p.n)])
    ),
    "critical-points.orthogonal-subspaces": EquilibriumObligation(
        "tokens along orthogonal head subspaces",
        ("orthogonal-heads", "aligned-values", "symmetric-scores"),
        _orthogonal_subspaces,
    ),
}


def _matrix(rows: object, what: str, max_rows: int, max_cols: int, exact: bool = False) -> list[list[Fraction]]:
    """Rows of rationals: at most max_rows of at most max_cols entries (exactly so many when `exact`)."""
    sizes = [len(r) if isinstance(r, list) else max_cols + 1 for r in rows] if isinstance(rows, list) else None
    if sizes is None or len(sizes) > max_rows or any(size > max_cols for size in sizes):
        raise Rejected(f"{what}: at most {max_rows} rows of at most {max_cols} entries")
    if exact and (len(sizes) != max_rows or any(size != max_cols for size in sizes)):
        raise Rejected(f"{what}: {max_rows} rows of {max_cols} entries")
    return [[parse_rational(v) for v in row] for row in rows]


def _indices(data: object, what: str, size: int) -> list[int]:
    if (
        not isinstance(data, list)
        or len(data) > size
        or any(isinstance(k, bool) or not isinstance(k, int) for k in data)
    ):
        raise Rejected(f"{what}: a list of at most {size} integers")
    return list(data)


def _symmetry(data: Any, d: int) -> Symmetry:
    require_keys(data, {"rotation", "permutation"}, "symmetry")
    return Symmetry(
        _matrix(data["rotation"], "rotation", d, d, exact=True),
        tuple(_indices(data["permutation"], "pi", fmt.MAX_TOKENS)),
    )


def problem_of(payload: dict[str, Any]) -> Problem:
    """The exact problem of a payload (sizes bounded)."""
    centre = _matrix(payload["centre"], "centre", fmt.MAX_TOKENS, fmt.MAX_DIMENSION)
    if len(centre) < 2 or not centre[0] or any(len(c) != len(centre[0]) for c in centre):
        raise Rejected("the centre must be at least two tokens of one dimension")
    d, scores, values = len(centre[0]), payload["scores"], payload["values"]
    if not (isinstance(scores, list) and isinstance(values, list) and 1 <= len(scores) == len(values) <= fmt.MAX_HEADS):
        raise Rejected(f"1 to {fmt.MAX_HEADS} score matrices and as many value matrices")
    scores, values = ([_matrix(M, "a head matrix", d, d, exact=True) for M in h] for h in (scores, values))
    beta, symmetries = parse_rational(payload["beta"]), payload["symmetries"]
    if beta <= 0 or payload["attention"] not in KINDS:
        raise Rejected("beta must be positive and the attention usa or softmax")
    if not isinstance(symmetries, list) or len(symmetries) > MAX_SYMMETRIES:
        raise Rejected(f"at most {MAX_SYMMETRIES} symmetries")
    return Problem(scores, values, beta, payload["attention"], centre, [_symmetry(g, d) for g in symmetries])


def recheck_spectrum(problem: Problem, payload: dict[str, Any]) -> tuple[Spectrum, str]:
    """`check` re-run on the payload's data (box, preconditioner, orbit, pivots, eigenvectors): the decided spectrum
    and how existence was shown; Rejected unless existence is re-proved, the spectrum re-decided and its counts the
    ones the file states."""
    n, d, vectors, stated = problem.n, problem.d, payload["eigenvectors"], payload["spectrum"]
    m = n * (d - 1)
    if not isinstance(vectors, list) or len(vectors) != m:
        raise Rejected(f"the eigenvector matrix must be {m} x {m}")
    V = [[(re, im) for re, im in _matrix(row, "an eigenvector row of [re, im]", m, 2, exact=True)] for row in vectors]
    require_keys(stated, {"zeros", "negative", "positive"}, "spectrum")
    point, radius = _matrix([payload["point"]], "point", 1, n * d)[0], parse_rational(payload["radius"])
    Y = _matrix(payload["preconditioner"], "preconditioner", n * d, n * d)
    orbit, pivots = _indices(payload["orbit"], "orbit", d * d), _indices(payload["pivots"], "pivots", n)
    existence, spectrum = check(problem, point, radius, Y, orbit, pivots, V, recorded_precision(payload, 512))
    if not existence.proved:
        raise Rejected(f"existence not re-proved: {existence.reason}")
    if not spectrum.decided:
        raise Rejected(f"spectrum not re-decided: {spectrum.reason}")
    counts = {"zeros": spectrum.zeros, "negative": spectrum.negative, "positive": spectrum.positive}
    if stated != counts:
        raise Rejected(f"the file states the spectrum {stated}, the re-check finds {counts}")
    return spectrum, existence.reason


def check_equilibrium(claim_id: str, payload: dict[str, Any]) -> tuple[str, str]:
    """Re-check an equilibrium certificate against the obligation of its claim: (what it proves, how)."""
    obligation = EQUILIBRIA[claim_id]
    require_keys(payload, PAYLOAD_KEYS, "equilibrium payload")
    problem = problem_of(payload)
    wrong = obligation.failure(problem)
    if wrong:
        raise Rejected(f"not {obligation.subject}: {wrong}")
    spectrum, existence = recheck_spectrum(problem, payload)
    kind = f"{problem.attention}, beta = {problem.beta}, H = {len(problem.score_matrices)}"
    proved = (
        f"{obligation.subject} of n = {problem.n} tokens in dimension {problem.d} ({kind}) is an equilibrium (in the "
        f"certified box), with {spectrum.zeros} zero eigenvalue(s) along the rotation orbit, {spectrum.negative} with "
        f"Re < 0 and {spectrum.positive} with Re > 0: index {spectrum.positive}"
        + (", linearly stable modulo rotations" if spectrum.positive == 0 else "")
    )
    return proved, f"{existence}; {spectrum.reason} (balls)"
