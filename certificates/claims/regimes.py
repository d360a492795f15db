"""The token regimes of an `equilibrium` claim as exact data at one instance of the claim's domain.

A regime is a configuration named by its structure: all tokens equal, an antipodal split, a regular simplex,
equiangular tokens <x_i, x_j> = rho, k clusters at the vertices of a regular simplex, tokens split along orthogonal
head subspaces, or the user's own rational unit tokens (`found`: every class a search finds, for spectra only).
Under scalar heads (M_h = lambda_h I, W_h = nu_h I) a configuration is known up to rotation by its Gram matrix G,
which is rational for every structured regime even where no rational coordinates exist (the regular triangle): the
regime exists in dimension d exactly when G is positive semidefinite of rank <= d with a unit diagonal, decided by the
signs of its exact characteristic polynomial and its exact rank. Under orthogonal heads (M_h = W_h = lambda_h P_h,
P_h the projection on head h's block of coordinates) the tokens have rational coordinates and the Gram matrices of
their projections on the blocks fix them up to rotations within the blocks.

This is claims language, outside the kernel: `certificates.statements.equilibrium` elaborates a claim at the instance
a certificate names into the kernel's explicit `equilibrium` statement (`certificates.kernel.equilibrium_statements`:
heads by blocks, block Gram matrices), and `check-cert --claims` repeats that elaboration; here is what an instance
is (`Instance`, `outside`) and which configuration the regime has there (`block_grams`).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from headflow.certificates.kernel import equilibrium as eq
from headflow.certificates.kernel import format as fmt
from headflow.certificates.kernel.exprtree import exact_rational

Matrix = list[list[Fraction]]

#: Every equilibrium class a seeded search finds (a spectrum claim about each; no configuration is named).
FOUND = "found"
#: The regimes: a Gram matrix (scalar heads) for the first five, tokens in coordinates for the next two.
REGIMES = ("single-cluster", "antipodal", "simplex", "equiangular", "clusters", "orthogonal-subspaces", "given", FOUND)
PROPERTIES = ("critical-point", "stable", "unstable", "index", "hyperbolic")
SPECTRAL = ("stable", "unstable", "index", "hyperbolic")
HEADS = ("scalar", "orthogonal", "eigenvector")


class Instance(NamedTuple):
    """One member of a claim's domain: sizes, kind, beta, the strengths lambda_h (exact) and the antipodal split
    (p, q) (p tokens at x, q at -x; () for the other regimes). The heads' kind and nu_h are the claim's."""

    n: int
    d: int
    attention: str
    beta: Fraction
    strengths: tuple[Fraction, ...]
    split: tuple[int, ...] = ()


def head_blocks(H: int, d: int) -> list[range]:
    """Contiguous coordinate blocks, as even as possible (the first d mod H one longer): head h of orthogonal heads
    projects on block h."""
    q, r = divmod(d, H)
    return [range(h * q + min(h, r), (h + 1) * q + min(h + 1, r)) for h in range(H)]


def clusters_gram(sizes: Sequence[int]) -> Matrix:
    """Groups of the given sizes at the vertices of a regular simplex of k = len(sizes) vertices: 1 within a group,
    -1/(k-1) between groups (one group: the single cluster; two: an antipodal split; groups of one: the regular
    simplex)."""
    label = [g for g, size in enumerate(sizes) for _ in range(size)]
    between = Fraction(-1, max(len(sizes) - 1, 1))
    return [[Fraction(1) if a == b else between for b in label] for a in label]


def splits(fields: Any, n: int) -> list[tuple[int, ...]]:
    """The antipodal splits (p, q), p >= q, an instance may have: the stated one, or every one (q = 0: one cluster)."""
    every = [(n - q, q) for q in range(n // 2 + 1)]
    return [()] if fields.regime != "antipodal" else [fields.sizes] if fields.sizes else every


def regime_gram(fields: Any, n: int, split: tuple[int, ...] = ()) -> Matrix | None:
    """The regime's Gram matrix at n tokens (None for tokens in coordinates); ValueError when rho (its tree in n,
    `rho_tree`) is not rational there, by exact rational arithmetic (`exprtree.exact_rational`)."""
    if fields.regime == "equiangular":
        rho = exact_rational(fields.rho_tree, {"n": Fraction(n)})
        if rho is None:
            raise ValueError(f"rho at n = {n} is not a rational number")
        return [[Fraction(1) if i == j else rho for j in range(n)] for i in range(n)]
    antipodal = split or fields.sizes or (n - 1, 1)
    sizes = {"single-cluster": [n], "antipodal": antipodal, "simplex": [1] * n, "clusters": fields.sizes}
    return clusters_gram(sizes[fields.regime]) if fields.regime in sizes else None


def coordinate_tokens(fields: Any, n: int, d: int) -> Matrix | None:
    """The regime's exact unit tokens where it has them in coordinates (None otherwise): the given rows, or token i
    at +-e_k, k the first axis of head (i mod H)'s block, + for i // H even (an antipodal pair in each head's
    subspace for n = 2H)."""
    if fields.regime == "given":
        return [list(row) for row in fields.points.rows]
    if fields.regime == "orthogonal-subspaces":
        H = len(fields.strengths)
        firsts = [block[0] for block in head_blocks(H, d)]
        return [[Fraction((-1) ** (i // H) * (a == firsts[i % H])) for a in range(d)] for i in range(n)]
    return None


def least_dimension(fields: Any, n: int) -> int | None:
    """The least d where the regime exists at n tokens (None: it exists in no dimension). Unit tokens in R^d with
    the Gram matrix G (symmetric, unit diagonal) exist exactly when G is positive semidefinite of rank <= d, which
    is exactly when the coefficients of det(tI - G) alternate in sign (its roots are real, so none is negative iff
    (-1)^n det(-tI - G) has no sign change)."""
    if fields.regime in ("orthogonal-subspaces", FOUND) and fields.heads == "orthogonal":
        return len(fields.strengths)
    G = regime_gram(fields, n)
    if G is None:
        return max(2, fields.points.d) if fields.points is not None else 2
    matrix = eq.rational_matrix(G)
    semidefinite = all((-1) ** (n - k) * c >= 0 for k, c in enumerate(matrix.charpoly().coeffs()))
    return max(2, matrix.rank()) if semidefinite else None


def outside(fields: Any, inst: Instance) -> str | None:
    """Why the instance is not in the claim's domain (None: it is); the heads' kind and nu_h are the claim's."""
    (n_low, n_high), (d_low, d_high) = fields.n_range, fields.d_range
    if not (fmt.MAX_TOKENS >= inst.n >= 2 and fmt.MAX_DIMENSION >= inst.d >= 2):
        return f"n = {inst.n}, d = {inst.d} are not the sizes of an instance"
    least = least_dimension(fields, inst.n) if n_low <= inst.n <= (n_high or inst.n) else None
    if least is None or not max(d_low, least) <= inst.d <= (d_high or inst.d):
        return f"n = {inst.n}, d = {inst.d} is outside its ranges or too small for the regime"
    beta = inst.beta > 0 if fields.beta is None else inst.beta == fields.beta  # absent: every beta > 0
    kind = inst.attention in fields.attentions and beta
    if not kind or inst.split not in splits(fields, inst.n):
        return f"the kind, beta = {inst.beta} or the split {inst.split} is not the claim's"
    nus = fields.value_strengths or inst.strengths
    if (
        not 1 <= len(inst.strengths) <= fmt.MAX_HEADS
        or fields.strengths not in (None, inst.strengths)
        or len(nus) != len(inst.strengths)
        or 0 in (*inst.strengths, *nus)
    ):
        return "the heads are not the claim's (every strength is non-zero)"
    if fields.heads == "orthogonal" and len(inst.strengths) > inst.d:
        return "more orthogonal heads than coordinates"
    if fields.heads == "eigenvector":
        return "heads with a common eigenvector have no instances"
    return None


def blocks(fields: Any, inst: Instance) -> list[range]:
    """The coordinate blocks of the instance's heads: one per head for orthogonal heads, else all of R^d."""
    return head_blocks(len(inst.strengths), inst.d) if fields.heads == "orthogonal" else [range(inst.d)]


def head_strengths(fields: Any, inst: Instance) -> tuple[list[list[Fraction]], list[list[Fraction]]]:
    """m_hb and w_hb (M_h = sum_b m_hb P_b, W_h = sum_b w_hb P_b): lambda_h and nu_h (the claim's, or lambda_h) on
    the one block of scalar heads, lambda_h on head h's own block of orthogonal heads."""
    H, nus = len(inst.strengths), fields.value_strengths or inst.strengths
    if fields.heads == "orthogonal":
        return tuple([[s * (b == h) for b in range(H)] for h, s in enumerate(v)] for v in (inst.strengths, nus))  # type: ignore[return-value]
    return [[lam] for lam in inst.strengths], [[nu] for nu in nus]


def block_grams(fields: Any, inst: Instance) -> list[Matrix] | None:
    """The regime's Gram matrices on the instance's blocks (None for `found`: any equilibrium of the instance)."""
    if fields.regime == FOUND:
        return None
    x = coordinate_tokens(fields, inst.n, inst.d)
    if x is None:
        return [regime_gram(fields, inst.n, inst.split)]  # type: ignore[list-item]
    return [[[sum((xi[a] * xj[a] for a in b), Fraction(0)) for xj in x] for xi in x] for b in blocks(fields, inst)]


def property_holds(claim: Any, zeros: int, negative: int, positive: int) -> bool:
    """The claim's spectral property, read off the decided counts (hyperbolic: a decided spectrum has no eigenvalue
    on the imaginary axis but the zeros)."""
    wanted = {"stable": positive == 0, "unstable": positive > 0, "index": positive == claim.index}
    return wanted.get(claim.property, True)
