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

The spectrum. At an equilibrium X*, the Jacobian J of the ambient field (`ball_model.velocity_field` over
first-order series, `jacobian`) restricted to the tangent space, B^T J B in orthonormal frames B_i of x_i^perp, is
similar to the linearization of the flow. With P the block-diagonal projection I - x_i x_i^T on the tangent spaces,
P J P is diag(B^T J B, 0) in the orthonormal frames [B, N] (N_i = x_i e_i: P N = 0 and N^T P = 0), so its spectrum
is the tangent one and n zeros, and no frame is needed. Over the box, the balls of P J P hold its value at X*.
Every rotation A commuting with the heads gives J (A X*) = A F(X*) = 0, and A X* is tangent: the writer's
rotations A_k (exact skew matrices, each checked to commute with every head), r of them independent at X* (a
positive definite Gram matrix of A_k X over the box), and the n normal directions are r + n known zero eigenvalues.
After a similarity by recorded eigenvectors V (exact complex dyadics), the Gershgorin discs of V^{-1} (P J P) V
fall in three groups: those that may meet the imaginary axis, those in Re < 0 and those in Re > 0. When each disc
of the first group is apart from every disc of the other two (the last two are apart by the axis), each group's
union holds as many eigenvalues as it has discs (Gershgorin). When the first group has exactly r + n discs, its
eigenvalues are the known zeros (0 lies in no other disc), and the other two count the stable and unstable
directions (the index).

The writer (`headflow.checks.evidence.equilibria`) finds the equilibrium and chooses the box, the preconditioner Y, the
orbit rotations and V; this module only checks them. E and the residual gauge are exact functions of
the data (nullspace and rank from python-flint), the same for the writer and the checker.
"""

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from flint import acb, acb_mat, arb, arb_mat, fmpq_mat

from . import ball_model
from .exact import ball_of, precision
from .exact_data import ExactConfiguration, Matrix, dot
from .exprtree import parse_rational
from .operator_norm import rational_matrix
from .recheck import Rejected, array, exact_configuration, recorded_precision, require_list
from .vocabulary import SMOOTH_KINDS


class Problem(NamedTuple):
    """The exact heads, beta and kind (usa or softmax) on the sphere, with the centre C of the chart as the tokens
    (n x d, d >= 2, not necessarily unit); the symmetries g = (R, pi) that define the slice, (g X)_pi(i) = R x_i."""

    cfg: ExactConfiguration
    symmetries: list[tuple[Matrix, list[int]]]


# ---------------------------------------------------------------- exact linear algebra


def nullspace(matrix: fmpq_mat) -> Matrix:
    """An exact basis of {v : matrix v = 0}: the integer nullspace of the matrix times a common denominator, each
    vector scaled to 1 at its last non-zero entry (its free column: the reduced echelon basis, well scaled)."""
    basis, nullity = matrix.numer_denom()[0].nullspace()
    columns = [[int(basis[r, k]) for r in range(matrix.ncols())] for k in range(nullity)]
    return [[Fraction(v, next(t for t in reversed(column) if t)) for v in column] for column in columns]


def heads(cfg: ExactConfiguration) -> list[fmpq_mat]:
    """Every M_h and W_h, exactly."""
    return [rational_matrix(M) for M in (*cfg.score_matrices, *cfg.values)]


def slice_of(problem: Problem) -> Matrix:
    """An exact basis E of the tangent vectors of Fix at the centre: U (flattened n*d) with g U = U, <u_i, c_i> = 0,
    once the symmetries are checked exactly: each R orthogonal and commuting with every head, with R c_i = c_pi(i)
    (pi a permutation: the payload's reader and the writer make it so), and no centre token zero. Rejected otherwise.
    (A rotation commuting with the heads and every R would move equilibria along the slice: the Krawczyk test then
    fails, as it proves a unique zero in its box.)"""
    centre, d, symmetries = problem.cfg.tokens, len(problem.cfg.tokens[0]), problem.symmetries
    identity, matrices = rational_matrix([[Fraction(i == j) for j in range(d)] for i in range(d)]), heads(problem.cfg)
    for k, (rotation, pi) in enumerate(symmetries):
        R = rational_matrix(rotation)
        moved = rational_matrix(centre) * R.transpose() != rational_matrix([centre[j] for j in pi])
        if moved or R.transpose() * R != identity or any(R * M != M * R for M in matrices):
            raise Rejected(f"symmetry {k} is not an orthogonal R commuting with the heads with R c_i = c_pi(i)")
    pairs = [(j, b) for j in range(len(centre)) for b in range(d)]  # (token, coordinate) of U's entries
    # (R u_i)_a - (u_pi(i))_a = 0 for every symmetry, token i and coordinate a; <c_i, u_i> = 0 for every token i
    rows = [[(j == i and R[a][b]) - (j == p[i] and b == a) for j, b in pairs] for R, p in symmetries for i, a in pairs]
    rows += [[j == i and c[b] for j, b in pairs] for i, c in enumerate(centre)]  # bools, not a Fraction per entry
    return nullspace(rational_matrix(rows))


# ---------------------------------------------------------------- the field on the chart


def _sparse(exact: Sequence[Fraction], values: Sequence[Any]) -> Any:
    """sum_r exact_r values_r (balls or series), skipping the exact zeros (E and the rotations are sparse)."""
    return sum((v * ball_of(q) for q, v in zip(exact, values, strict=True) if q), arb(0))


def chart_tokens(problem: Problem, E: Matrix, z: Sequence[Any]) -> list[list[Any]]:
    """x_i = w_i / |w_i| with w_i = c_i + (E z)_i (balls or series)."""
    d, centre = len(problem.cfg.tokens[0]), problem.cfg.tokens
    w = [[_sparse([e[i * d + a] for e in E], z) + ball_of(ca) for a, ca in enumerate(c)] for i, c in enumerate(centre)]
    return [[wa / norm for wa in x] for x, norm in zip(w, [sum(wa * wa for wa in x).sqrt() for x in w], strict=True)]


class Dual:
    """A value (a ball) and its gradient in every input direction at once (a 1 x N arb_mat): first-order forward
    differentiation, each operation the value type's own with its derivative by the chain rule (a quotient as a
    product with a power -1)."""

    def __init__(self, v: Any, g: arb_mat) -> None:
        self.v, self.g = v, g

    def __add__(self, o: Any) -> "Dual":
        return Dual(self.v + o.v, self.g + o.g) if isinstance(o, Dual) else Dual(self.v + o, self.g)

    def __mul__(self, o: Any) -> "Dual":
        return Dual(self.v * o.v, self.g * o.v + o.g * self.v) if isinstance(o, Dual) else Dual(self.v * o, self.g * o)

    def __truediv__(self, o: Any) -> "Dual":
        return self * (o**-1 if isinstance(o, Dual) else 1 / o)

    def __rtruediv__(self, o: Any) -> "Dual":
        return self**-1 * o

    def __pow__(self, k: int) -> "Dual":
        return Dual(self.v**k, self.g * (k * self.v ** (k - 1)) if k else self.g * 0)

    def exp(self) -> "Dual":
        return Dual(self.v.exp(), self.g * self.v.exp())

    def sqrt(self) -> "Dual":
        return Dual(self.v.sqrt(), self.g / (2 * self.v.sqrt()))

    def log(self) -> "Dual":
        return Dual(self.v.log(), self.g / self.v)

    __radd__, __rmul__ = __add__, __mul__


def jacobian(f: Callable[[list[Any]], list[Any]], point: Sequence[arb]) -> arb_mat:
    """The Jacobian of f over the balls `point`: row i the gradient of f_i over the inputs of `Dual` values (each
    entry encloses the partial derivative at every point of the balls)."""
    n = len(point)
    outputs = f([Dual(v, arb_mat(1, n, [int(j == k) for j in range(n)])) for k, v in enumerate(point)])
    return arb_mat([(o.g if isinstance(o, Dual) else arb_mat(1, n)).entries() for o in outputs])


def box(z0: Sequence[Fraction], radius: Fraction) -> list[arb]:
    """Balls holding z0 + [-radius, radius]^p."""
    return [ball_of(v).union(ball_of(v - radius)).union(ball_of(v + radius)) for v in z0]


def existence(problem: Problem, E: Matrix, z0: Sequence[Fraction], radius: Fraction, Y: Matrix) -> str:
    """How an equilibrium in the box is shown: K(Z) = z0 - Y Psi(z0) + (I - Y Psi'(Z)) (Z - z0) inside the open box
    Z = z0 + [-radius, radius]^p (z0 and Y of the slice's dimension p), Psi(z) = E^T F(X(z)). Holds for any rational
    Y; when it holds, Psi has exactly one zero in Z (Krawczyk 1969, Moore 1977). Rejected when it does not hold."""
    if (p := len(E)) == 0:
        return "the fixed set has dimension 0: F(C/|C|) lies in {0} by symmetry"

    def psi(z: Sequence[Any]) -> list[Any]:
        flat = [v for x in ball_model.velocity_field(chart_tokens(problem, E, z), problem.cfg) for v in x]
        return [_sparse(e, flat) for e in E]

    Yb, width = arb_mat([[ball_of(v) for v in row] for row in Y]), arb_mat([box([0], radius)] * p)
    step = (arb_mat(p, p, 1) - Yb * jacobian(psi, box(z0, radius))) * width - Yb * arb_mat(p, 1, psi(box(z0, 0)))
    if not all(abs(v) < ball_of(radius) for v in step.entries()):  # K(Z) - z0 inside the open box (-r, r)^p
        raise Rejected("existence: the Krawczyk image K(Z) is not inside the box Z")
    return f"Krawczyk: K(Z) inside Z (p = {p}, radius {float(radius):.3g})"


# ---------------------------------------------------------------- the spectrum


def projected_jacobian(cfg: ExactConfiguration, tokens: list[list[arb]]) -> arb_mat:
    """P DF P (nd square) over the token balls: DF the ambient field's Jacobian (`jacobian`), P the block-diagonal
    projection I - x_i x_i^T on the tangent spaces."""
    n, d = len(tokens), len(tokens[0])

    def flat(t: list[Any]) -> list[Any]:
        return [v for x in ball_model.velocity_field([t[i * d : (i + 1) * d] for i in range(n)], cfg) for v in x]

    DF, blocks = jacobian(flat, [t for x in tokens for t in x]), [(i, a) for i in range(n) for a in range(d)]
    P = arb_mat([[int(a == b) - tokens[i][a] * tokens[i][b] if i == j else 0 for j, b in blocks] for i, a in blocks])
    return P * DF * P


def spectrum(problem: Problem, tokens: list[list[arb]], orbit: Sequence[Matrix], V: Sequence) -> dict[str, int]:
    """The counts of eigenvalues of P J P from the Gershgorin discs of V^{-1} (P J P) V (V: rows of [re, im] pairs;
    each disc held in a complex box), given the orbit rotations: each skew and commuting with every head, their
    directions A X independent at every point of the token balls (a positive determinant of their Gram matrix).
    Exactly len(orbit) + n discs may meet the imaginary axis, each apart from every disc in Re < 0 or Re > 0.
    Rejected otherwise."""
    matrices, zeros = heads(problem.cfg), len(orbit) + len(tokens)
    if any(A.transpose() != -A or any(A * M != M * A for M in matrices) for A in map(rational_matrix, orbit)):
        raise Rejected("spectrum: an orbit rotation is not skew or does not commute with every head")
    directions = arb_mat([[_sparse(row, x) for x in tokens for row in A] for A in orbit])
    if orbit and not (directions * directions.transpose()).det() > 0:  # a Gram matrix: definite when its det is > 0
        raise Rejected("spectrum: the orbit directions are not certified independent")
    m, Vm = len(V), acb_mat([[acb(ball_of(re), ball_of(im)) for re, im in row] for row in V])
    try:
        A = Vm.solve(acb_mat(projected_jacobian(problem.cfg, tokens)) * Vm)
    except ZeroDivisionError:
        raise Rejected("spectrum: the eigenvector matrix is not certified invertible") from None
    radii = [sum((abs(A[k, j]) for j in range(m) if j != k), arb(0)).upper() for k in range(m)]
    discs = [A[k, k] + acb(arb(0, r), arb(0, r)) for k, r in enumerate(radii)]  # boxes holding the discs
    axis = [not (disc.real < 0 or disc.real > 0) for disc in discs]  # the discs that may meet the imaginary axis
    apart = all(axis[k] == axis[j] or not discs[k].overlaps(discs[j]) for k, j in itertools.combinations(range(m), 2))
    if sum(axis) != zeros or not apart:
        raise Rejected(f"spectrum: the Gershgorin discs do not separate {zeros} known zeros from Re < 0 and Re > 0")
    negative = sum(disc.real < 0 for disc in discs)
    return {"zeros": len(orbit), "negative": negative, "positive": m - zeros - negative}


# ---------------------------------------------------------------- the certificates of equilibrium statements
# The checker rebuilds the exact problem from the file (sizes bounded by `certificates.kernel.format`), checks on the
# data that it is the configuration its statement is about (`certificates.kernel.equilibrium_statements`), re-runs the
# tests and recomputes the counts.

PAYLOAD_KEYS = frozenset({"configuration", "rotations", "permutations", "point", "radius", "preconditioner"})
PAYLOAD_KEYS |= {"orbit", "eigenvectors", "prec", "spectrum"}
#: Most symmetries a file may list (each is checked exactly).
MAX_SYMMETRIES = 64


def centre_failure(problem: Problem, blocks: Sequence[range], targets: Sequence[Matrix]) -> str | None:
    """Why the centre is not the equilibrium itself with the target Gram matrices of its normalized tokens
    c_i/|c_i| in every block (None: it is): the fixed set of the symmetries has dimension 0, and the block Grams are
    equal exactly, without a square root (the sign and the square of <P_b c_i, P_b c_j> against
    t^2 |c_i|^2 |c_j|^2). Equal block Grams mean the configurations differ by a rotation within each block, which
    commutes with the heads."""
    if slice_of(problem):
        return "the fixed set of the symmetries has positive dimension (the equilibrium is not the centre itself)"
    tokens = list(enumerate(problem.cfg.tokens))
    for (block, target), (i, ci), (j, cj) in itertools.product(zip(blocks, targets, strict=True), tokens, tokens):
        g, t = sum((ci[a] * cj[a] for a in block), Fraction(0)), target[i][j]
        if g * abs(g) != t * abs(t) * dot(ci, ci) * dot(cj, cj):  # x |x| keeps the sign: no square root
            return f"tokens {i} and {j} do not have the inner product {t}"
    return None


def problem_of(payload: dict[str, Any]) -> Problem:
    """The exact problem of a payload (sizes bounded): the configuration and its symmetries, n x d rotations and
    permutations of the n tokens."""
    cfg = exact_configuration(payload["configuration"], negative_beta=None)  # the statement's beta, any sign
    n, d = cfg.n, len(cfg.tokens[0])
    if cfg.attention not in SMOOTH_KINDS or cfg.geometry != "sphere" or d < 2 or not all(map(any, cfg.tokens)):
        raise Rejected("the configuration: usa or softmax attention on the sphere, d >= 2, no centre token zero")
    rotations = require_list(payload["rotations"], MAX_SYMMETRIES, "rotations")
    permutations = require_list(payload["permutations"], len(rotations), "permutations", len(rotations))
    for pi in permutations:
        if not isinstance(pi, list) or any(type(k) is not int for k in pi) or sorted(pi) != list(range(n)):
            raise Rejected(f"a permutation: the {n} token indices, each once")
    return Problem(cfg, list(zip(array(rotations, (len(rotations), d, d), "rotations"), permutations, strict=True)))


def recheck(problem: Problem, payload: dict[str, Any]) -> tuple[dict[str, int], str]:
    """The spectrum of the payload's problem (`problem_of`) and how it was shown, re-derived from the payload's data
    (box, preconditioner, orbit rotations, eigenvectors); Rejected unless existence is re-proved and the spectrum
    decided."""
    n, d, E = problem.cfg.n, len(problem.cfg.tokens[0]), slice_of(problem)
    z0, Y = array(payload["point"], (len(E),), "point"), array(payload["preconditioner"], (len(E),) * 2, "Y")
    radius, V = parse_rational(payload["radius"]), array(payload["eigenvectors"], (n * d, n * d, 2), "eigenvectors")
    orbit = [array(A, (d, d), "orbit") for A in require_list(payload["orbit"], d * (d - 1) // 2, "orbit")]
    with precision(recorded_precision(payload, 512)):
        how = existence(problem, E, z0, radius, Y)
        counts = spectrum(problem, chart_tokens(problem, E, box(z0, radius)), orbit, V)
    return counts, f"{how}; the Gershgorin discs separate (balls)"
