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

Shared by the writer (`checks.evidence.equilibria`) and the checker (`certificates.kernel.verify`): both compute E, the
residual gauge and the orbit directions with the same exact functions from the same data.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from flint import acb, acb_mat, arb, arb_mat, fmpq, fmpq_mat

from certificates.kernel import ball_model
from certificates.kernel.exact import ball_of, precision
from certificates.kernel.jets import Jet
from certificates.kernel.vocabulary import SMOOTH_KINDS

Matrix = list[list[Fraction]]
Vector = list[Fraction]
#: Kinds the field over boxes evaluates (relu weights are not differentiable at a zero score).
KINDS = SMOOTH_KINDS


@dataclass(frozen=True)
class Symmetry:
    """g = (R, pi): (g X)_pi(i) = R x_i."""

    rotation: Matrix
    permutation: tuple[int, ...]


@dataclass(frozen=True)
class Problem:
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


# ---------------------------------------------------------------- exact linear algebra


def nullspace(rows: Sequence[Sequence[Fraction]], columns: int) -> list[Vector]:
    """An exact basis of {v in Q^columns : rows v = 0} (from the reduced row echelon form)."""
    if not rows:
        return [[Fraction(int(i == j)) for i in range(columns)] for j in range(columns)]
    reduced, rank = _rational_matrix(rows).rref()
    pivots: list[int] = []
    for r in range(rank):
        pivots.append(next(c for c in range(columns) if reduced[r, c] != 0))
    basis = []
    for free in (c for c in range(columns) if c not in pivots):
        v = [Fraction(0)] * columns
        v[free] = Fraction(1)
        for r, c in enumerate(pivots):
            q = reduced[r, free]
            v[c] = -Fraction(int(q.p), int(q.q))
        basis.append(v)
    return basis


def _rational_matrix(rows: Sequence[Sequence[Fraction]]) -> fmpq_mat:
    """The same exact matrix as python-flint's rationals (whose products are exact and much faster)."""
    return fmpq_mat([[fmpq(q.numerator, q.denominator) for q in row] for row in rows])


def _matmul(A: Matrix, B: Matrix) -> Matrix:
    """A B, exactly."""
    product = _rational_matrix(A) * _rational_matrix(B)
    return [[Fraction(int(q.p), int(q.q)) for q in row] for row in product.tolist()]


def _transpose(A: Matrix) -> Matrix:
    return [list(col) for col in zip(*A, strict=True)]


def _identity(d: int) -> Matrix:
    return [[Fraction(int(i == j)) for j in range(d)] for i in range(d)]


def _skew_pairs(d: int) -> list[tuple[int, int]]:
    """(a, b) for a < b, in the order of `skew_basis`."""
    return [(a, b) for a in range(d) for b in range(a + 1, d)]


def skew_basis(d: int) -> list[Matrix]:
    """E_ab - E_ba for a < b: the standard basis of so(d)."""
    basis = []
    for a, b in _skew_pairs(d):
        A = [[Fraction(0)] * d for _ in range(d)]
        A[a][b], A[b][a] = Fraction(1), Fraction(-1)
        basis.append(A)
    return basis


def _commutator_entry(a: int, b: int, M: Matrix, i: int, j: int) -> Fraction | int:
    """(A M - M A)_ij for A = E_ab - E_ba, exactly and without a product: A only moves entries of M,
    (A M)_ij = [i = a] M_bj - [i = b] M_aj and (M A)_ij = [j = b] M_ia - [j = a] M_ib."""
    moved = (M[b][j] if i == a else 0) - (M[a][j] if i == b else 0)
    return moved - (M[i][a] if j == b else 0) + (M[i][b] if j == a else 0)


def commuting_rotations(d: int, matrices: Sequence[Matrix]) -> list[Matrix]:
    """An exact basis of {A in so(d) : A M = M A for every M}: the Lie algebra of the rotations that commute."""
    basis, pairs = skew_basis(d), _skew_pairs(d)
    rows = [[_commutator_entry(a, b, M, i, j) for a, b in pairs] for M in matrices for i in range(d) for j in range(d)]
    combos = nullspace(rows, len(basis))
    return [
        [
            [sum((c * A[i][j] for c, A in zip(combo, basis, strict=True)), Fraction(0)) for j in range(d)]
            for i in range(d)
        ]
        for combo in combos
    ]


def gauge(problem: Problem) -> list[Matrix]:
    """Rotations commuting with every head: the directions A X along which equilibria are never isolated."""
    return commuting_rotations(problem.d, [*problem.score_matrices, *problem.values])


def residual_gauge(problem: Problem) -> list[Matrix]:
    """Rotations commuting with every head and every symmetry's R: they would move along the slice."""
    return commuting_rotations(
        problem.d, [*problem.score_matrices, *problem.values, *(g.rotation for g in problem.symmetries)]
    )


def symmetry_failures(problem: Problem) -> list[str]:
    """What is wrong with the symmetries, exactly: R orthogonal, R commuting with the heads, pi a permutation,
    R c_i = c_pi(i). Empty when every symmetry maps the field and the centre to themselves."""
    failures = []
    n, d = problem.n, problem.d
    for k, g in enumerate(problem.symmetries):
        R = g.rotation
        if len(R) != d or any(len(row) != d for row in R):
            failures.append(f"symmetry {k}: R is not {d} x {d}")
            continue
        if _matmul(_transpose(R), R) != _identity(d):
            failures.append(f"symmetry {k}: R is not orthogonal")
        if any(_matmul(R, M) != _matmul(M, R) for M in [*problem.score_matrices, *problem.values]):
            failures.append(f"symmetry {k}: R does not commute with every head")
        if sorted(g.permutation) != list(range(n)):
            failures.append(f"symmetry {k}: pi is not a permutation of the {n} tokens")
            continue
        for i, c in enumerate(problem.centre):
            image = [sum((R[a][b] * c[b] for b in range(d)), Fraction(0)) for a in range(d)]
            if image != problem.centre[g.permutation[i]]:
                failures.append(f"symmetry {k}: R c_{i} != c_{g.permutation[i]}")
                break
    if any(all(v == 0 for v in c) for c in problem.centre):
        failures.append("a centre token is zero")
    return failures


def slice_basis(problem: Problem) -> list[Vector]:
    """An exact basis E of the tangent vectors of Fix at the centre: U (flattened n*d) with g U = U, <u_i, c_i> = 0."""
    n, d = problem.n, problem.d
    rows: list[list[Fraction]] = []
    for g in problem.symmetries:
        for i in range(n):
            for a in range(d):  # (R u_i)_a - (u_pi(i))_a = 0
                row = [Fraction(0)] * (n * d)
                for b in range(d):
                    row[i * d + b] += g.rotation[a][b]
                row[g.permutation[i] * d + a] -= 1
                rows.append(row)
    for i, c in enumerate(problem.centre):
        row = [Fraction(0)] * (n * d)
        row[i * d : (i + 1) * d] = c
        rows.append(row)
    return nullspace(rows, n * d)


# ---------------------------------------------------------------- the field on the chart


def chart_tokens(problem: Problem, E: Sequence[Vector], z: Sequence[Any]) -> list[list[Any]]:
    """x_i = w_i / |w_i| with w_i = c_i + (E z)_i (balls or jets)."""
    d = problem.d
    tokens = []
    for i, c in enumerate(problem.centre):
        w = []
        for a in range(d):
            entry: Any = ball_of(c[a])
            for k, column in enumerate(E):
                if column[i * d + a] != 0:
                    entry = z[k] * ball_of(column[i * d + a]) + entry
            w.append(entry)
        norm = _norm(w)
        tokens.append([wa / norm for wa in w])
    return tokens


def _norm(w: Sequence[Any]) -> Any:
    total: Any = w[0] * w[0]
    for wa in w[1:]:
        total = total + wa * wa
    return total.sqrt()


def field(problem: Problem, tokens: list[list[Any]]) -> list[list[Any]]:
    """F(X) on the sphere (the ambient extension off it), at balls or jets: the ball model's one formula."""
    return ball_model.velocity_field(tokens, problem.score_matrices, problem.values, problem.beta, problem.attention)


def slice_equations(problem: Problem, E: Sequence[Vector], z: Sequence[Any]) -> list[Any]:
    """Psi(z) = E^T F(X(z))."""
    velocities = field(problem, chart_tokens(problem, E, z))
    flat = [v for row in velocities for v in row]
    out = []
    for column in E:
        total: Any = arb(0)
        for entry, v in zip(column, flat, strict=True):
            if entry != 0:
                total = v * ball_of(entry) + total
        out.append(total)
    return out


# ---------------------------------------------------------------- Krawczyk


@dataclass(frozen=True)
class Existence:
    """Whether the Krawczyk inclusion holds (or Fix has dimension 0), and the enclosure of z*."""

    proved: bool
    reason: str
    enclosure: list[arb]


def krawczyk(
    problem: Problem, E: Sequence[Vector], z0: Sequence[Fraction], radius: Fraction, Y: Sequence[Sequence[Fraction]]
) -> Existence:
    """K(Z) = z0 - Y Psi(z0) + (I - Y Psi'(Z)) (Z - z0) inside the open box Z = z0 + [-radius, radius]^p.

    Holds for any rational Y; when it holds, Psi has exactly one zero in Z (Krawczyk 1969, Moore 1977)."""
    p = len(E)
    if p == 0:
        return Existence(True, "the fixed set has dimension 0: F(C/|C|) lies in {0} by symmetry", [])
    if radius <= 0 or len(z0) != p or len(Y) != p or any(len(row) != p for row in Y):
        return Existence(False, "the box and the preconditioner must match the slice dimension", [])
    at_centre = slice_equations(problem, E, [ball_of(v) for v in z0])
    box = [ball_of(v).union(ball_of(v - radius)).union(ball_of(v + radius)) for v in z0]
    jets = slice_equations(problem, E, Jet.variables(box))
    J = [[jet.grad[k] if isinstance(jet, Jet) else arb(0) for k in range(p)] for jet in jets]
    width = ball_of(0).union(ball_of(radius)).union(ball_of(-radius))
    enclosure = []
    for k in range(p):
        value = ball_of(z0[k])
        for j in range(p):
            value -= ball_of(Y[k][j]) * at_centre[j]
            coefficient = arb(int(k == j))
            for m in range(p):
                coefficient -= ball_of(Y[k][m]) * J[m][j]
            value += coefficient * width
        enclosure.append(value)
        if not (value.lower() > ball_of(z0[k] - radius) and value.upper() < ball_of(z0[k] + radius)):
            return Existence(
                False, f"Krawczyk image of coordinate {k} is {value.str(5)}, not inside the box", enclosure
            )
    return Existence(True, f"Krawczyk: K(Z) inside Z (p = {p}, radius {float(radius):.3g})", enclosure)


def solution_box(problem: Problem, E: Sequence[Vector], z0: Sequence[Fraction], radius: Fraction) -> list[list[arb]]:
    """Balls holding every token X(z), z in the box (the equilibrium's tokens among them)."""
    box = [ball_of(v).union(ball_of(v - radius)).union(ball_of(v + radius)) for v in z0]
    return chart_tokens(problem, E, box)


# ---------------------------------------------------------------- the spectrum


def tangent_frames(tokens: Sequence[Sequence[arb]], pivots: Sequence[int]) -> list[list[list[arb]]]:
    """For each token, d - 1 columns of the Householder reflection H = I - 2 v v^T/<v, v>, v = x + s e_k (k the
    pivot, s the sign of x_k): H is orthogonal and H e_k is parallel to x, so the other columns are an
    orthonormal basis of x^perp (balls holding the exact frame at every point of the token's ball)."""
    frames = []
    for x, k in zip(tokens, pivots, strict=True):
        d = len(x)
        sign = 1 if x[k] > 0 else -1 if x[k] < 0 else 0
        if sign == 0:
            raise ValueError("the pivot coordinate of a token ball contains 0")
        v = [x[a] + (sign if a == k else 0) for a in range(d)]
        vv = sum((va * va for va in v[1:]), v[0] * v[0])
        frames.append([[int(a == b) - 2 * v[a] * v[b] / vv for a in range(d)] for b in range(d) if b != k])
    return frames


def tangent_jacobian(problem: Problem, tokens: list[list[arb]], pivots: Sequence[int]) -> list[list[arb]]:
    """B^T DF B (n(d-1) square) over the token balls, DF the ambient field's Jacobian from jets."""
    n, d = problem.n, problem.d
    flat = [t for row in tokens for t in row]
    variables = Jet.variables(flat)
    jets = field(problem, [variables[i * d : (i + 1) * d] for i in range(n)])
    DF = [[jet.grad[c] for c in range(n * d)] for row in jets for jet in row]
    frames = tangent_frames(tokens, pivots)
    basis = []  # columns of B, flattened n*d
    for i, frame in enumerate(frames):
        for column in frame:
            vector = [arb(0)] * (n * d)
            vector[i * d : (i + 1) * d] = column
            basis.append(vector)
    image = [[_dot_sparse(DF[r], b) for r in range(n * d)] for b in basis]  # DF b, per column b
    return [[_dot_sparse(basis[r], image[c]) for c in range(len(basis))] for r in range(len(basis))]


def _dot_sparse(u: Sequence[arb], w: Sequence[arb]) -> arb:
    total = arb(0)
    for a, b in zip(u, w, strict=True):
        if not (a.is_zero() or b.is_zero()):
            total += a * b
    return total


def orbit_rank(problem: Problem, tokens: list[list[arb]], chosen: Sequence[int]) -> bool:
    """The orbit directions A_k X (k in `chosen`, A_k the gauge basis) are independent at every point of the
    token balls: their Gram matrix has positive leading minors (Sylvester)."""
    basis = gauge(problem)
    if any(not 0 <= k < len(basis) for k in chosen) or len(set(chosen)) != len(chosen):
        return False
    directions = []
    for k in chosen:
        A = basis[k]
        directions.append(
            [sum((ball_of(A[a][b]) * x[b] for b in range(problem.d)), arb(0)) for x in tokens for a in range(problem.d)]
        )
    size = len(directions)
    gram = [[_dot_sparse(directions[i], directions[j]) for j in range(size)] for i in range(size)]
    return all(arb_mat([row[:m] for row in gram[:m]]).det() > 0 for m in range(1, size + 1))


@dataclass(frozen=True)
class Spectrum:
    """Counts of eigenvalues: the symmetry zeros, Re < 0 and Re > 0 (the index); `decided` False with a reason."""

    decided: bool
    reason: str
    zeros: int = 0
    negative: int = 0
    positive: int = 0


def classify(J: list[list[arb]], V: Sequence[Sequence[complex | tuple[Fraction, Fraction]]], zeros: int) -> Spectrum:
    """Gershgorin components of V^{-1} J V: one may contain 0 and must hold exactly `zeros` discs; each other one
    must lie in Re < 0 or in Re > 0."""
    m = len(J)
    if m == 0:
        return Spectrum(True, "no tangent directions", 0, 0, 0)
    entries = [[_complex_ball(v) for v in row] for row in V]
    Vm = acb_mat(entries)
    try:
        A = Vm.solve(acb_mat([[acb(x) for x in row] for row in J]) * Vm)
    except ZeroDivisionError:
        return Spectrum(False, "the eigenvector matrix is not certified invertible")
    centres = [A[k, k] for k in range(m)]
    radii = []
    for k in range(m):
        r = arb(0)
        for j in range(m):
            if j != k:
                r += abs(A[k, j])
        radii.append(r + abs(centres[k] - acb(centres[k].mid())))
    mids = [acb(c.mid()) for c in centres]
    parent = list(range(m))

    def root(k: int) -> int:
        while parent[k] != k:
            k = parent[k]
        return k

    for k in range(m):
        for j in range(k + 1, m):
            apart = abs(mids[k] - mids[j]) > radii[k] + radii[j]
            if not apart:
                parent[root(k)] = root(j)
    components: dict[int, list[int]] = {}
    for k in range(m):
        components.setdefault(root(k), []).append(k)
    zero_components, negative, positive, straddling = [], 0, 0, 0
    for members in components.values():
        if any(not (abs(mids[k]) > radii[k]) for k in members):
            zero_components.append(members)
        elif all((mids[k].real + radii[k]) < 0 for k in members):
            negative += len(members)
        elif all((mids[k].real - radii[k]) > 0 for k in members):
            positive += len(members)
        else:
            straddling += 1
    if straddling:
        return Spectrum(False, f"{straddling} Gershgorin component(s) away from 0 meet the imaginary axis")
    found = sum(len(c) for c in zero_components)
    if len(zero_components) > 1 or found != zeros:
        return Spectrum(
            False,
            f"the discs that may contain 0 hold {found} eigenvalue(s) in {len(zero_components)} component(s); "
            f"{zeros} symmetry zero(s) are known",
        )
    return Spectrum(True, "Gershgorin components separate", zeros, negative, positive)


def _complex_ball(value: complex | tuple[Fraction, Fraction]) -> acb:
    re, im = (Fraction(value.real), Fraction(value.imag)) if isinstance(value, complex) else value
    return acb(ball_of(re), ball_of(im))


@dataclass(frozen=True)
class Certificate:
    """The outcome of the whole check: existence, the orbit dimension used, the spectrum."""

    existence: Existence
    spectrum: Spectrum


def check(
    problem: Problem,
    z0: Sequence[Fraction],
    radius: Fraction,
    Y: Sequence[Sequence[Fraction]],
    orbit: Sequence[int],
    pivots: Sequence[int],
    V: Sequence[Sequence[complex | tuple[Fraction, Fraction]]],
    prec: int,
) -> Certificate:
    """Everything an equilibrium certificate claims, re-derived from its data (the writer and the checker alike)."""
    failures = symmetry_failures(problem)
    if problem.attention not in KINDS:
        failures.append(f"no ball form for {problem.attention!r} attention")
    if failures:
        return Certificate(Existence(False, "; ".join(failures), []), Spectrum(False, "no equilibrium"))
    if residual_gauge(problem):
        reason = "a rotation commuting with the heads commutes with every symmetry: the slice is not transversal"
        return Certificate(Existence(False, reason, []), Spectrum(False, "no equilibrium"))
    E = slice_basis(problem)
    with precision(prec):
        existence = krawczyk(problem, E, z0, radius, Y)
        if not existence.proved:
            return Certificate(existence, Spectrum(False, "no equilibrium"))
        tokens = (
            solution_box(problem, E, z0, radius)
            if E
            else [[ball_of(v) / _norm([ball_of(t) for t in c]) for v in c] for c in problem.centre]
        )
        if len(pivots) != problem.n or any(not 0 <= k < problem.d for k in pivots):
            return Certificate(existence, Spectrum(False, "one pivot coordinate per token is needed"))
        if not orbit_rank(problem, tokens, orbit):
            return Certificate(existence, Spectrum(False, "the chosen orbit directions are not certified independent"))
        try:
            J = tangent_jacobian(problem, tokens, pivots)
        except ValueError as exc:
            return Certificate(existence, Spectrum(False, str(exc)))
        m = problem.n * (problem.d - 1)
        if len(V) != m or any(len(row) != m for row in V):
            return Certificate(existence, Spectrum(False, f"the eigenvector matrix must be {m} x {m}"))
        spectrum = classify(J, V, len(orbit))
    return Certificate(existence, spectrum)
