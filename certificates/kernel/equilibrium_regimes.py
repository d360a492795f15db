"""The token regimes of an `equilibrium` claim as exact data, and their velocity decided exactly.

A regime is a configuration named by its structure: all tokens equal, an antipodal split, a regular simplex,
equiangular tokens <x_i, x_j> = rho, k clusters at the vertices of a regular simplex, tokens split along orthogonal
head subspaces, or the user's own rational unit tokens (`found`: every class a search finds, for spectra only).
Under scalar heads (M_h = lambda_h I, W_h = nu_h I) the field commutes with every rotation, so a configuration is
known up to rotation by its Gram matrix G, which is rational for every structured regime even where no rational
coordinates exist (the regular triangle): the regime exists in dimension d exactly when G is positive semidefinite
of rank <= d with a unit diagonal, decided by the signs of its exact characteristic polynomial and its exact rank,
never by floating eigenvalues.

The velocity in the token basis. With scalar heads, v_i = c sum_h nu_h sum_j w^h_ij x_j (c = 1/n for usa) has the
coefficients a_ij = c sum_h nu_h w^h_ij, the scores are s^h_ij = lambda_h G_ij, and the tangent part is
P_i v_i = sum_j b_ij x_j with b_i = a_i - (sum_j a_ij G_ij) e_i. Since |sum_j b_ij x_j|^2 = b_i^T G b_i and G is
positive semidefinite, P_i v_i = 0 exactly when G b_i = 0: the residual `gram_residuals` returns, in the exact field
of exponential polynomials (`certificates.kernel.exp_field`, where e^q for distinct rationals q are independent, so
zero is decided exactly). Tokens in coordinates (the orthogonal-subspace split, given tokens) use the exact model
itself (`certificates.kernel.exact_model`).

The certificates (`check`): what an `equilibrium` claim's certificate must establish, from its statement and exact
data only. Two certificates, both tied to one instance of the claim's domain (sizes, kind, beta, heads: `contains`),
the domain read from the certificate's statement (`model_statements.regime_of`), never from its description:
- a `witness` ("moving-regime"): the regime's exact configuration at that instance moves; the checker recomputes
  every velocity exactly (the Gram residuals under scalar heads, the exact model for tokens in
  coordinates) and finds a token whose velocity is not 0. It refutes a `critical-point` claim.
- an `equilibrium` certificate (the payload of the registry's `critical-points*` certificates with the instance):
  its heads, beta and kind are the instance's exactly, its centre is the regime's configuration (block Gram
  matrices equal exactly, the fixed set of its symmetries of dimension 0, so the equilibrium is the centre itself),
  and the Krawczyk and Gershgorin test re-run (`equilibrium.recheck_spectrum`) gives the counts of
  zero, negative and positive eigenvalues; the claim's property is then read off those counts. It proves the claim
  at that instance, or refutes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from certificates.kernel import ball_model as bm
from certificates.kernel import equilibrium as eq
from certificates.kernel import exact_model
from certificates.kernel import format as fmt
from certificates.kernel.equilibrium import clusters_gram, rational_matrix, same_configuration
from certificates.kernel.errors import InputError
from certificates.kernel.exact_data import ExactConfiguration, dot
from certificates.kernel.exp_field import ExpFieldError, ExpNumber
from certificates.kernel.exprtree import exact_rational, parse_rational
from certificates.kernel.recheck import Rejected, require_keys
from certificates.kernel.tree_text import term_text

Matrix = list[list[Fraction]]

#: Every equilibrium class a seeded search finds (a spectrum claim about each; no configuration is named).
FOUND = "found"
#: The regimes: a Gram matrix (scalar heads) for the first five, tokens in coordinates for the next two.
REGIMES = ("single-cluster", "antipodal", "simplex", "equiangular", "clusters", "orthogonal-subspaces", "given", FOUND)
PROPERTIES = ("critical-point", "stable", "unstable", "index", "hyperbolic")
SPECTRAL = ("stable", "unstable", "index", "hyperbolic")
HEADS = ("scalar", "orthogonal", "eigenvector")


def equiangular_gram(n: int, rho: Fraction) -> Matrix:
    """1 on the diagonal, rho off it."""
    return [[Fraction(1) if i == j else rho for j in range(n)] for i in range(n)]


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
    tangent = [[a[j] - dot(a, G[i]) if j == i else a[j] for j in range(n)] for i, a in enumerate(coefficients)]
    return [[dot(row, b) for row in G] for b in tangent]


def first_moving(residuals: Sequence[Sequence[ExpNumber]]) -> int | None:
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


# ---------------------------------------------------------------- the domain of a claim
# `fields` is a claim's (`equilibrium_claim`) or a statement's (`model_statements`): regime, property, heads,
# attentions, n_range, d_range, beta, strengths, value_strengths, rho_tree, sizes, points (rows, n, d), index.


class Instance(NamedTuple):
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
        lams, nus = (", ".join(map(str, strengths)) for strengths in (self.strengths, self.value_strengths))
        split = f", split {self.split[0]}+{self.split[1]}" if self.split else ""
        heads = f"{self.heads} heads lambda = ({lams})" + ("" if nus == lams else f", nu = ({nus})")
        return f"n = {self.n}, d = {self.d}{split}, {self.attention}, beta = {self.beta}, {heads}"


def splits(fields: Any, n: int) -> list[tuple[int, ...]]:
    """The antipodal splits (p, q), p >= q, an instance may have: the stated one, or every one (q = 0: one cluster)."""
    every = [(n - q, q) for q in range(n // 2 + 1)]
    return [()] if fields.regime != "antipodal" else [fields.sizes] if fields.sizes else every


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
        return None if gram_failure(G, n) else max(2, rational_matrix(G).rank())
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
    (n_low, n_high), (d_low, d_high) = fields.n_range, fields.d_range
    if not n_low <= inst.n <= (n_high or inst.n):
        return f"n = {inst.n} is outside the claim's range"
    least = least_dimension(fields, inst.n)
    if least is None or not max(d_low, least) <= inst.d <= (d_high or inst.d):
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
    if inst.heads != expected.heads or len(inst.strengths) != len(inst.value_strengths) or not inst.strengths:
        return "the heads are not of the claim's kind"
    if 0 in (*inst.strengths, *inst.value_strengths):
        return "a head has strength 0"
    if inst.heads == "orthogonal" and len(inst.strengths) > inst.d:
        return "more heads than coordinates"
    return None


# ---------------------------------------------------------------- the certificates of an instance
MOVING = "moving-regime"
INSTANCE_KEYS = {"n", "d", "attention", "beta", "strengths", "value_strengths", "heads", "split"}


def instance_from(record: Any) -> Instance:
    """The instance of a certificate record (Rejected when malformed)."""
    require_keys(record, INSTANCE_KEYS, "instance")
    sizes = [record["n"], record["d"], *record["split"]] if isinstance(record["split"], list) else [None]
    if any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= fmt.MAX_TOKENS for v in sizes):
        raise Rejected(f"instance: n, d and the split are integers up to {fmt.MAX_TOKENS}")
    lists = record["strengths"], record["value_strengths"]
    if any(not isinstance(v, list) or not 1 <= len(v) <= 8 for v in lists):
        raise Rejected("instance: 1 to 8 strengths")
    lams, nus = (tuple(parse_rational(v) for v in values) for values in lists)
    beta, split = parse_rational(record["beta"]), tuple(record["split"])
    return Instance(record["n"], record["d"], str(record["attention"]), beta, lams, nus, str(record["heads"]), split)


def moving_token(claim: Any, inst: Instance) -> tuple[int | None, str]:
    """(the first token whose velocity is exactly non-zero, or None when every token rests; how it was computed).
    Rejected (a ValueError) when the instance's configuration has no exact velocity here."""
    tokens = coordinate_tokens(claim, inst.n, inst.d)
    if tokens is not None:
        cfg = ExactConfiguration(tokens, *inst.matrices(), inst.beta, "sphere", inst.attention)
        try:
            velocities = exact_model.velocities(cfg)
        except ExpFieldError as exc:
            raise Rejected(str(exc)) from None
        return first_moving(velocities), "the exact model at the regime's rational tokens"
    G = regime_gram(claim, inst.n, inst.split)
    if G is None or inst.heads != "scalar":
        raise Rejected("the regime has no exact configuration under these heads")
    residuals = gram_residuals(G, inst.strengths, inst.value_strengths, inst.beta, inst.attention)
    return first_moving(residuals), "the tangent velocity in the token basis from the exact Gram matrix"


def structure_failure(claim: Any, inst: Instance, problem: eq.Problem) -> str | None:
    """Why the certified problem is not the regime at this instance (None: it is, exactly): the instance's heads,
    beta, kind and sizes, and (but for `found`: any equilibrium of the instance) a centre with the regime's block
    Gram matrices and no slice, so that the equilibrium is the centre itself."""
    certified = (problem.score_matrices, problem.values, problem.beta, problem.attention, problem.n, problem.d)
    if certified != (*inst.matrices(), inst.beta, inst.attention, inst.n, inst.d):
        return "the heads, beta, kind or sizes are not the instance's"
    if claim.regime == FOUND:
        return None
    if eq.slice_basis(problem):
        return "the fixed set of the symmetries has positive dimension (the equilibrium is not the centre itself)"
    blocks = head_blocks(len(inst.strengths), inst.d) if inst.heads == "orthogonal" else [range(inst.d)]
    tokens = coordinate_tokens(claim, inst.n, inst.d)
    targets = block_grams(tokens, blocks) if tokens is not None else [regime_gram(claim, inst.n, inst.split)]
    return same_configuration(problem.centre, blocks, targets)


def property_holds(claim: Any, zeros: int, negative: int, positive: int) -> bool:
    """The claim's spectral property, read off the decided counts (hyperbolic: a decided spectrum has no eigenvalue
    on the imaginary axis but the zeros)."""
    return {"stable": positive == 0, "unstable": positive > 0, "index": positive == claim.index}.get(
        claim.property, True
    )


def check(claim: Any, kind: str, payload: dict[str, Any]) -> tuple[str, str]:
    """(what the certificate proves or refutes, how it was re-checked); Rejected when it is not one of the claim."""
    spectral = kind == "equilibrium" and claim.property in SPECTRAL
    if kind == "witness" and claim.property != "critical-point":
        raise Rejected(f"a {MOVING} witness refutes a critical-point claim")
    if not spectral and kind != "witness":
        raise Rejected(f"an equilibrium claim has no {kind!r} certificate of its property")
    require_keys(payload, eq.PAYLOAD_KEYS | {"instance"} if spectral else {"witness", "instance"}, f"{kind} payload")
    inst = instance_from(payload["instance"])
    outside = contains(claim, inst)
    if outside:
        raise Rejected(f"not an instance of claim {claim.id!r}: {outside}")
    if not spectral:
        if payload["witness"] != MOVING:
            raise Rejected(f"a {MOVING} witness refutes a critical-point claim")
        token, how = moving_token(claim, inst)
        if token is None:
            raise Rejected("every velocity is exactly 0 at the instance: no refutation")
        return (
            f"refutes claims-file claim {claim.id!r}: at {inst.describe()} token {token} of the regime moves",
            f"{how}: a velocity component is an exactly non-zero exponential polynomial",
        )
    problem = eq.problem_of(payload)
    wrong = structure_failure(claim, inst, problem)
    if wrong:
        raise Rejected(f"not the regime {claim.regime} at the instance: {wrong}")
    spectrum, existence = eq.recheck_spectrum(problem, payload)
    verb = "proves" if property_holds(claim, spectrum.zeros, spectrum.negative, spectrum.positive) else "refutes"
    subject = "a configuration the search found" if claim.regime == FOUND else "the regime"
    return (
        f"{verb} claims-file claim {claim.id!r} ({claim.property}) at {inst.describe()}: {subject} is an "
        f"equilibrium with {spectrum.zeros} rotation zero(s), {spectrum.negative} eigenvalue(s) with Re < 0 and "
        f"{spectrum.positive} with Re > 0",
        f"structure exact; {existence}; {spectrum.reason} (balls)",
    )


def regime_statement(fields: dict[str, Any], rho: str | None, points: str) -> str:
    """An equilibrium claim in words, generated from its fields (`rho` and the given `points` as text)."""
    sizes = fields["sizes"]
    regime = {
        "single-cluster": "all tokens equal",
        "antipodal": f"an antipodal split {sizes[0]}+{sizes[1]}" if sizes else "every antipodal split x_i = +-x",
        "simplex": "the regular simplex <x_i, x_j> = -1/(n-1)",
        "equiangular": f"equiangular tokens <x_i, x_j> = {rho}",
        "clusters": f"clusters of sizes {list(sizes or [])} at the vertices of a regular simplex",
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
        return f"{key} = {low}" if low == high else f"{key} in [{low}, {'oo)' if high is None else f'{high}]'}"

    lams = f"lambda = ({', '.join(map(str, fields['strengths']))})" if fields["strengths"] else "every H and strengths"
    beta = f"beta = {fields['beta']}" if fields["beta"] is not None else "every beta > 0"
    return (
        f"For {span('n')}, {span('d')} (where the tokens exist), {', '.join(fields['attentions'])} attention, "
        f"{beta}, {heads} ({lams}): {regime} {prop}."
    )
