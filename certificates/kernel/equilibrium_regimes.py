"""The token regimes of an `equilibrium` claim as exact data, and their velocity decided exactly.

A regime is a configuration named by its structure: all tokens equal, an antipodal split, a regular simplex,
equiangular tokens <x_i, x_j> = rho, k clusters at the vertices of a regular simplex, tokens split along orthogonal
head subspaces, or the user's own rational unit tokens (`found`: every class a search finds, for spectra only).
Under scalar heads (M_h = lambda_h I, W_h = nu_h I) the field commutes with every rotation, so a configuration is
known up to rotation by its Gram matrix G, which is rational for every structured regime even where no rational
coordinates exist (the regular triangle): the regime exists in dimension d exactly when G is positive semidefinite
of rank <= d with a unit diagonal, decided by the inertia of an exact congruence (LDL^T, Sylvester's law), never by
floating eigenvalues.

The velocity in the token basis. With scalar heads, v_i = c sum_h nu_h sum_j w^h_ij x_j (c = 1/n for usa) has the
coefficients a_ij = c sum_h nu_h w^h_ij, the scores are s^h_ij = lambda_h G_ij, and the tangent part is
P_i v_i = sum_j b_ij x_j with b_i = a_i - (sum_j a_ij G_ij) e_i. Since |sum_j b_ij x_j|^2 = b_i^T G b_i and G is
positive semidefinite, P_i v_i = 0 exactly when G b_i = 0: the residual `gram_residuals` returns, in the exact field
of exponential polynomials (`certificates.kernel.exp_field`, where e^q for distinct rationals q are independent, so
zero is decided exactly). Tokens in coordinates (the orthogonal-subspace split, given tokens) use the exact model
itself (`certificates.kernel.exact_model`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from certificates.kernel import ball_model as bm
from certificates.kernel import exact_model
from certificates.kernel.equilibrium import rational_matrix
from certificates.kernel.errors import InputError
from certificates.kernel.exp_field import ExpNumber
from certificates.kernel.exprtree import exact_rational
from certificates.kernel.tree_text import term_text

Matrix = list[list[Fraction]]

#: The regimes whose configuration is a Gram matrix (scalar heads); the others are tokens in coordinates.
GRAM_REGIMES = ("single-cluster", "antipodal", "simplex", "equiangular", "clusters")
COORDINATE_REGIMES = ("orthogonal-subspaces", "given")
#: Every equilibrium class a seeded search finds (a spectrum claim about each; no configuration is named).
FOUND = "found"
REGIMES = (*GRAM_REGIMES, *COORDINATE_REGIMES, FOUND)
PROPERTIES = ("critical-point", "stable", "unstable", "index", "hyperbolic")
SPECTRAL = ("stable", "unstable", "index", "hyperbolic")
HEADS = ("scalar", "orthogonal", "eigenvector")


def equiangular_gram(n: int, rho: Fraction) -> Matrix:
    """1 on the diagonal, rho off it."""
    return [[Fraction(1) if i == j else rho for j in range(n)] for i in range(n)]


def clusters_gram(sizes: Sequence[int]) -> Matrix:
    """Groups of the given sizes at the vertices of a regular simplex of k = len(sizes) vertices: 1 within a group,
    -1/(k-1) between groups (one group: the single cluster; two: an antipodal split; groups of one: the regular
    simplex)."""
    label = [g for g, size in enumerate(sizes) for _ in range(size)]
    between = Fraction(-1, max(len(sizes) - 1, 1))
    return [[Fraction(1) if a == b else between for b in label] for a in label]


def gram_failure(G: Matrix, d: int) -> str | None:
    """Why no unit tokens in R^d have the Gram matrix G, symmetric with a unit diagonal (None: some do, unique up to
    a rotation). G is positive semidefinite exactly when the coefficients of det(tI - G) alternate in sign (its
    roots are real, so none is negative iff (-1)^m det(-tI - G) has no sign change); the tokens then span its rank."""
    m = len(G)
    matrix = rational_matrix(G)
    if any((-1) ** (m - k) * c < 0 for k, c in enumerate(matrix.charpoly().coeffs())):
        return "the Gram matrix is not positive semidefinite (no such tokens exist)"
    if matrix.rank() > d:
        return f"the tokens span dimension {matrix.rank()}, more than d = {d}"
    return None


def gram_residuals(
    G: Matrix, strengths: Sequence[Fraction], value_strengths: Sequence[Fraction], beta: Fraction, attention: str
) -> list[list[ExpNumber]]:
    """G b_i for every token i (see the module docstring): all exactly zero iff the configuration is at rest under
    scalar heads M_h = lambda_h I, W_h = nu_h I."""
    n = len(G)
    scores = [[[lam * g for g in row] for row in G] for lam in strengths]
    weights = exact_model.weights_of_scores(scores, beta, attention)
    basis = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    rows = [[[nu * e for e in row] for row in basis] for nu in value_strengths]
    coefficients = bm._head_sums(weights, rows, basis, attention, "flat")
    residuals = []
    for i, a in enumerate(coefficients):
        radial = sum((a[j] * G[i][j] for j in range(n)), ExpNumber.rational(0))
        b = [a[j] - radial if j == i else a[j] for j in range(n)]
        residuals.append([sum((G[r][j] * b[j] for j in range(n)), ExpNumber.rational(0)) for r in range(n)])
    return residuals


def moving_token(residuals: Sequence[Sequence[ExpNumber]]) -> int | None:
    """The first token whose residual (or velocity) has an exactly non-zero component (None: every token rests); the
    exact model's sums may start from an exact zero ball, so each component is first made an exact number."""
    zero = ExpNumber.rational(0)
    return next((i for i, row in enumerate(residuals) if any(not (zero + v).is_zero() for v in row)), None)


def head_blocks(H: int, d: int) -> list[range]:
    """Contiguous coordinate blocks, as even as possible (the first d mod H one longer): head h of orthogonal heads
    projects on block h."""
    q, r = divmod(d, H)
    return [range(h * q + min(h, r), (h + 1) * q + min(h + 1, r)) for h in range(H)]


def subspace_tokens(n: int, d: int, H: int) -> Matrix:
    """Token i is +-e_k, k the first axis of head (i mod H)'s block, with the sign + for i // H even: an antipodal
    pair in each head's subspace for n = 2H."""
    firsts = [block[0] for block in head_blocks(H, d)]
    return [[Fraction((-1) ** (i // H) * (a == firsts[i % H])) for a in range(d)] for i in range(n)]


def block_grams(tokens: Matrix, blocks: Sequence[range]) -> list[Matrix]:
    """For each block, the Gram matrix of the tokens' parts in it (one block: the Gram matrix)."""
    return [[[sum((x[a] * y[a] for a in block), Fraction(0)) for y in tokens] for x in tokens] for block in blocks]


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


# ---------------------------------------------------------------- the domain of a claim
# `fields` is a claim's (`equilibrium_claim`) or a statement's (`model_statements`): regime, property, heads,
# attentions, n_range, d_range, beta, strengths, value_strengths, rho_tree, sizes, points (rows, n, d), index.


@dataclass(frozen=True)
class Instance:
    """One member of a claim's domain: sizes, kind, beta and the heads' strengths (exact)."""

    n: int
    d: int
    attention: str
    beta: Fraction
    strengths: tuple[Fraction, ...]
    value_strengths: tuple[Fraction, ...]
    heads: str
    #: The antipodal split (p, q) of this instance (p tokens at x, q at -x); () for the other
    split: tuple[int, ...] = ()

    def matrices(self) -> tuple[list[Matrix], list[Matrix]]:
        """The exact score and value matrices: lambda_h I and nu_h I, or lambda_h P_h for both."""
        d, H = self.d, len(self.strengths)
        blocks = head_blocks(H, d) if self.heads == "orthogonal" else [range(d)] * H

        def diagonals(strengths: tuple[Fraction, ...]) -> list[Matrix]:
            return [
                [[c if i == j and i in b else Fraction(0) for j in range(d)] for i in range(d)]
                for c, b in zip(strengths, blocks, strict=True)
            ]

        return diagonals(self.strengths), diagonals(self.value_strengths)

    def describe(self) -> str:
        lams = ", ".join(str(s) for s in self.strengths)
        nus = "" if self.value_strengths == self.strengths else f", nu = ({', '.join(map(str, self.value_strengths))})"
        split = f", split {self.split[0]}+{self.split[1]}" if self.split else ""
        heads = f"{self.heads} heads lambda = ({lams}){nus}"
        return f"n = {self.n}, d = {self.d}{split}, {self.attention}, beta = {self.beta}, {heads}"


def splits(fields: Any, n: int) -> list[tuple[int, ...]]:
    """The antipodal splits (p, q), p >= q, an instance may have: the stated one, or every one (q = 0: one cluster)."""
    if fields.regime != "antipodal":
        return [()]
    return [fields.sizes] if fields.sizes else [(n - q, q) for q in range(n // 2 + 1)]


def regime_gram(fields: Any, n: int, split: tuple[int, ...] = ()) -> Matrix | None:
    """The regime's Gram matrix at n tokens (None for tokens in coordinates); InputError when rho (its tree in n,
    `rho_tree`) is not rational there, by exact rational arithmetic (`exprtree.exact_rational`)."""
    if fields.regime == "equiangular":
        value = exact_rational(fields.rho_tree, {"n": Fraction(n)})
        if value is None:
            raise InputError("rho", term_text(fields.rho_tree), f"rho at n = {n} is not a rational number")
        return equiangular_gram(n, value)
    antipodal = split or fields.sizes or (n - 1, 1)
    sizes = {"single-cluster": [n], "antipodal": antipodal, "simplex": [1] * n, "clusters": fields.sizes}
    return clusters_gram(sizes[fields.regime]) if fields.regime in sizes else None


def coordinate_tokens(fields: Any, n: int, d: int) -> Matrix | None:
    """The regime's exact unit tokens where it has them in coordinates (None otherwise)."""
    if fields.regime == "given":
        return [list(row) for row in fields.points.rows]
    if fields.regime == "orthogonal-subspaces":
        return subspace_tokens(n, d, len(fields.strengths))
    return None


def least_dimension(fields: Any, n: int) -> int | None:
    """The least d where the regime exists at n tokens (None: it exists in no dimension)."""
    G = regime_gram(fields, n)
    if G is not None:
        if gram_failure(G, n) is not None:
            return None
        return max(2, rational_matrix(G).rank())
    if fields.regime in ("orthogonal-subspaces", FOUND) and fields.heads == "orthogonal":
        return len(fields.strengths)
    return fields.points.d if fields.points is not None else 2


def instance_of(
    fields: Any, n: int, d: int, attention: str, beta: Fraction, strengths: tuple, split: tuple[int, ...] = ()
) -> Instance:
    """The instance with these sizes, kind, beta and strengths (nu_h the claim's, or lambda_h)."""
    nus = fields.value_strengths if fields.value_strengths is not None else strengths
    heads = "orthogonal" if fields.heads == "orthogonal" else "scalar"
    return Instance(n, d, attention, beta, tuple(strengths), tuple(nus), heads, split)


def contains(fields: Any, inst: Instance) -> str | None:
    """Why `inst` is not an instance of the claim's domain (None: it is)."""
    n_low, n_high = fields.n_range
    d_low, d_high = fields.d_range
    if not (n_low <= inst.n and (n_high is None or inst.n <= n_high)):
        return f"n = {inst.n} is outside the claim's range"
    least = least_dimension(fields, inst.n)
    if least is None or not (max(d_low, least) <= inst.d and (d_high is None or inst.d <= d_high)):
        return f"d = {inst.d} is outside the claim's range or too small for the regime"
    if inst.attention not in fields.attentions:
        return f"{inst.attention} attention is not a kind of the claim"
    if inst.beta <= 0 or (fields.beta is not None and inst.beta != fields.beta):
        return f"beta = {inst.beta} is not the claim's"
    if inst.split not in splits(fields, inst.n):
        return f"the split {inst.split} is not one of the claim's"
    expected = instance_of(fields, inst.n, inst.d, inst.attention, inst.beta, fields.strengths or (), inst.split)
    if fields.strengths is not None and inst != expected:
        return "the heads are not the claim's"
    heads = "orthogonal" if fields.heads == "orthogonal" else "scalar"
    if inst.heads != heads or len(inst.strengths) != len(inst.value_strengths) or not inst.strengths:
        return "the heads are not of the claim's kind"
    if 0 in (*inst.strengths, *inst.value_strengths):
        return "a head has strength 0"
    if inst.heads == "orthogonal" and len(inst.strengths) > inst.d:
        return "more heads than coordinates"
    return None


def regime_statement(fields: dict[str, Any], rho: str | None, points: str) -> str:
    """An equilibrium claim in words, generated from its fields (`rho` and the given `points` as text)."""
    regime = {
        "single-cluster": "all tokens equal",
        "antipodal": f"an antipodal split {fields['sizes'][0]}+{fields['sizes'][1]}"
        if fields["sizes"]
        else "every antipodal split x_i = +-x",
        "simplex": "the regular simplex <x_i, x_j> = -1/(n-1)",
        "equiangular": f"equiangular tokens <x_i, x_j> = {rho}",
        "clusters": f"clusters of sizes {list(fields['sizes'] or [])} at the vertices of a regular simplex",
        "orthogonal-subspaces": "tokens split along the head subspaces (+-e of head i mod H's first axis)",
        "given": points,
        "found": "every equilibrium class a seeded search finds (structured candidates and random starts)",
    }[fields["regime"]]
    prop = {
        "critical-point": "is a critical point (every velocity exactly 0)",
        "stable": "is a linearly stable equilibrium modulo rotations (index 0)",
        "unstable": "is an equilibrium with an eigenvalue of positive real part",
        "index": f"is an equilibrium of index {fields['index']}",
        "hyperbolic": "is an equilibrium, hyperbolic modulo rotations (its index is defined)",
    }[fields["property"]]
    heads = {
        "scalar": "scalar heads M_h = lambda_h I, W_h = nu_h I",
        "orthogonal": "orthogonal heads M_h = W_h = lambda_h P_h",
        "eigenvector": "any heads whose value matrices have x as a common eigenvector",
    }[fields["heads"]]

    def span(key: str) -> str:
        low, high = fields[f"{key}_range"]
        return f"{key} = {low}" if low == high else f"{key} in [{low}, {high if high is not None else 'oo'})"

    strengths = fields["strengths"]
    lams = f"lambda = ({', '.join(map(str, strengths))})" if strengths else "every H and strengths"
    beta = f"beta = {fields['beta']}" if fields["beta"] is not None else "every beta > 0"
    return (
        f"For {span('n')}, {span('d')} (where the tokens exist), {', '.join(fields['attentions'])} attention, "
        f"{beta}, {heads} ({lams}): {regime} {prop}."
    )
