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
itself (`certificates.kernel.ball_model.exact_values`).

The certificates (`check`): what an `equilibrium` claim's certificate must establish, from its statement and exact
data only. Two certificates, both tied to one instance of the claim's domain: sizes, kind, beta, the strengths
lambda_h and the split (`instance_from`); the heads' kind and nu_h are the claim's. The domain is read from the
certificate's statement (`model_statements.regime_of`), never from its description:
- a `witness` ("moving-regime"): the regime's exact configuration at that instance moves; the checker recomputes
  every velocity exactly (the Gram residuals under scalar heads, the exact model for tokens in
  coordinates) and finds a token whose velocity is not 0. It refutes a `critical-point` claim.
- an `equilibrium` certificate (the payload of the registry's `critical-points*` certificates with the instance):
  its heads, beta and kind are the instance's exactly, its centre is the regime's configuration (block Gram
  matrices equal exactly, the fixed set of its symmetries of dimension 0, so the equilibrium is the centre itself),
  and the Krawczyk and Gershgorin test re-run (`equilibrium.recheck`) gives the counts of
  zero, negative and positive eigenvalues; the claim's property is then read off those counts. It proves the claim
  at that instance, or refutes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from certificates.kernel import equilibrium as eq
from certificates.kernel import format as fmt
from certificates.kernel.ball_model import exact_values
from certificates.kernel.exact_data import ExactConfiguration, dot
from certificates.kernel.exp_field import ExpNumber
from certificates.kernel.exprtree import exact_rational, parse_rational
from certificates.kernel.model_chain import Chain
from certificates.kernel.recheck import Rejected, natural, require_keys, require_list

Matrix = list[list[Fraction]]

#: Every equilibrium class a seeded search finds (a spectrum claim about each; no configuration is named).
FOUND = "found"
#: The regimes: a Gram matrix (scalar heads) for the first five, tokens in coordinates for the next two.
REGIMES = ("single-cluster", "antipodal", "simplex", "equiangular", "clusters", "orthogonal-subspaces", "given", FOUND)
PROPERTIES = ("critical-point", "stable", "unstable", "index", "hyperbolic")
SPECTRAL = ("stable", "unstable", "index", "hyperbolic")
HEADS = ("scalar", "orthogonal", "eigenvector")
#: The witness of a moving regime, and the fields of an instance record.
MOVING = "moving-regime"
INSTANCE_KEYS = {"n", "d", "attention", "beta", "strengths", "split"}


def gram_residuals(G: Matrix, lams: Sequence, nus: Sequence, beta: Fraction, attention: str) -> list[list[ExpNumber]]:
    """G b_i for every token i (see the module docstring): all exactly zero iff the configuration is at rest under
    scalar heads M_h = lambda_h I, W_h = nu_h I."""
    n = len(G)
    basis = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    heads = [[[lam * g for g in row] for row in G] for lam in lams]  # s^h_ij = <e_i, lambda_h G e_j>
    values = [[[nu * e for e in row] for row in basis] for nu in nus]
    coefficients = exact_values(ExactConfiguration(basis, heads, values, beta, "flat", attention), Chain.velocities)
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


class Instance(NamedTuple):
    """One member of a claim's domain: sizes, kind, beta, the strengths lambda_h (exact) and the antipodal split
    (p, q) (p tokens at x, q at -x; () for the other regimes). The heads' kind and nu_h are the claim's."""

    n: int
    d: int
    attention: str
    beta: Fraction
    strengths: tuple[Fraction, ...]
    split: tuple[int, ...] = ()


def head_matrices(fields: Any, inst: Instance) -> tuple[list[Matrix], list[Matrix]]:
    """The exact score and value matrices of the claim's heads at the instance: lambda_h I and nu_h I (nu_h the
    claim's, or lambda_h), or lambda_h P_h for both (orthogonal heads, P_h the projection on block h)."""
    d, H = inst.d, len(inst.strengths)
    blocks = head_blocks(H, d) if fields.heads == "orthogonal" else [range(d)] * H
    scores, values = (
        [[[c * (i == j and i in b) for j in range(d)] for i in range(d)] for c, b in zip(s, blocks, strict=True)]
        for s in (inst.strengths, fields.value_strengths or inst.strengths)
    )
    return scores, values


# ---------------------------------------------------------------- the domain of a claim
# `fields` is a claim's (`equilibrium_claim`) or a statement's (`model_statements`): regime, property, heads,
# attentions, n_range, d_range, beta, strengths, value_strengths, rho_tree, sizes, points (rows, n, d), index.


def splits(fields: Any, n: int) -> list[tuple[int, ...]]:
    """The antipodal splits (p, q), p >= q, an instance may have: the stated one, or every one (q = 0: one cluster)."""
    every = [(n - q, q) for q in range(n // 2 + 1)]
    return [()] if fields.regime != "antipodal" else [fields.sizes] if fields.sizes else every


def regime_gram(fields: Any, n: int, split: tuple[int, ...] = ()) -> Matrix | None:
    """The regime's Gram matrix at n tokens (None for tokens in coordinates); Rejected when rho (its tree in n,
    `rho_tree`) is not rational there, by exact rational arithmetic (`exprtree.exact_rational`)."""
    if fields.regime == "equiangular":
        rho = exact_rational(fields.rho_tree, {"n": Fraction(n)})
        if rho is None:
            raise Rejected(f"rho at n = {n} is not a rational number")
        return [[Fraction(1) if i == j else rho for j in range(n)] for i in range(n)]
    antipodal = split or fields.sizes or (n - 1, 1)
    sizes = {"single-cluster": [n], "antipodal": antipodal, "simplex": [1] * n, "clusters": fields.sizes}
    return eq.clusters_gram(sizes[fields.regime]) if fields.regime in sizes else None


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


# ---------------------------------------------------------------- the certificates of an instance


def instance_from(record: Any, fields: Any) -> Instance:
    """The instance of a certificate record; Rejected when it is malformed or not an instance of the claim's
    domain (the heads' kind and nu_h are the claim's)."""
    require_keys(record, INSTANCE_KEYS, "instance")
    split = tuple(require_list(record["split"], 2, "instance split"))
    if not all(natural(v, 0, fmt.MAX_TOKENS) for v in (record["n"], record["d"], *split)):
        raise Rejected(f"instance: n, d and the split are integers up to {fmt.MAX_TOKENS}")
    lams = tuple(map(parse_rational, require_list(record["strengths"], fmt.MAX_HEADS, "instance strengths", 1)))
    inst = Instance(record["n"], record["d"], str(record["attention"]), parse_rational(record["beta"]), lams, split)
    (n_low, n_high), (d_low, d_high) = fields.n_range, fields.d_range
    outside = f"not an instance of claim {fields.id!r}"
    least = least_dimension(fields, inst.n) if n_low <= inst.n <= (n_high or inst.n) else None
    if least is None or not max(d_low, least) <= inst.d <= (d_high or inst.d):
        raise Rejected(f"{outside}: n = {inst.n}, d = {inst.d} is outside its ranges or too small for the regime")
    kind = inst.attention in fields.attentions and inst.beta > 0 and fields.beta in (None, inst.beta)
    if not kind or inst.split not in splits(fields, inst.n):
        raise Rejected(f"{outside}: the kind, beta = {inst.beta} or the split {inst.split} is not the claim's")
    nus = fields.value_strengths or lams
    if fields.strengths not in (None, lams) or len(nus) != len(lams) or 0 in (*lams, *nus):
        raise Rejected(f"{outside}: the heads are not the claim's (every strength is non-zero)")
    if fields.heads == "orthogonal" and len(lams) > inst.d:
        raise Rejected(f"{outside}: more orthogonal heads than coordinates")
    return inst


def moving_token(claim: Any, inst: Instance) -> tuple[int | None, str]:
    """(the first token whose velocity is exactly non-zero, or None when every token rests; how it was computed).
    Rejected, or ExpFieldError (both ValueErrors), when the instance's configuration has no exact velocity here."""
    tokens = coordinate_tokens(claim, inst.n, inst.d)
    if tokens is not None:
        cfg = ExactConfiguration(tokens, *head_matrices(claim, inst), inst.beta, "sphere", inst.attention)
        return first_moving(exact_values(cfg, Chain.velocities)), "the exact model at the regime's rational tokens"
    G = regime_gram(claim, inst.n, inst.split)
    if G is None or claim.heads == "orthogonal":
        raise Rejected("the regime has no exact configuration under these heads")
    residuals = gram_residuals(G, inst.strengths, claim.value_strengths or inst.strengths, inst.beta, inst.attention)
    return first_moving(residuals), "the tangent velocity in the token basis from the exact Gram matrix"


def structure_failure(claim: Any, inst: Instance, problem: eq.Problem) -> str | None:
    """Why the certified problem is not the regime at this instance (None: it is, exactly): the instance's heads,
    beta, kind and sizes, and (but for `found`: any equilibrium of the instance) a centre with the regime's block
    Gram matrices and no slice, so that the equilibrium is the centre itself."""
    cfg = problem.cfg
    certified = (cfg.score_matrices, cfg.values, cfg.beta, cfg.attention, cfg.n, len(cfg.tokens[0]))
    if certified != (*head_matrices(claim, inst), inst.beta, inst.attention, inst.n, inst.d):
        return "the heads, beta, kind or sizes are not the instance's"
    if claim.regime == FOUND:
        return None
    blocks = head_blocks(len(inst.strengths), inst.d) if claim.heads == "orthogonal" else [range(inst.d)]
    x = coordinate_tokens(claim, inst.n, inst.d)
    grams = [[[sum((xi[a] * xj[a] for a in b), Fraction(0)) for xj in x] for xi in x] for b in blocks] if x else None
    return eq.centre_failure(problem, blocks, grams or [regime_gram(claim, inst.n, inst.split)])


def property_holds(claim: Any, zeros: int, negative: int, positive: int) -> bool:
    """The claim's spectral property, read off the decided counts (hyperbolic: a decided spectrum has no eigenvalue
    on the imaginary axis but the zeros)."""
    wanted = {"stable": positive == 0, "unstable": positive > 0, "index": positive == claim.index}
    return wanted.get(claim.property, True)


def check(claim: Any, kind: str, payload: dict[str, Any]) -> tuple[str, str]:
    """(what the certificate proves or refutes, how it was re-checked); Rejected when it is not one of the claim: a
    critical-point claim is refuted by a moving-regime witness, a spectral one proved or refuted by an equilibrium
    certificate."""
    spectral = claim.property in SPECTRAL
    if kind != ("equilibrium" if spectral else "witness"):
        raise Rejected(f"a {MOVING} witness refutes a critical-point claim, an equilibrium certificate a spectral one")
    require_keys(payload, eq.PAYLOAD_KEYS | {"instance"} if spectral else {"witness", "instance"}, f"{kind} payload")
    inst = instance_from(payload["instance"], claim)
    at = f"claims-file claim {claim.id!r} ({claim.property}) at the instance {payload['instance']}"
    if not spectral:
        token, how = moving_token(claim, inst) if payload["witness"] == MOVING else (None, "")
        if token is None:
            raise Rejected(f"no {MOVING} witness: every velocity is exactly 0 at the instance, or another witness")
        return f"refutes {at}: token {token} of the regime moves", f"{how}: a velocity component is exactly non-zero"
    _, counts, how = eq.recheck(payload, lambda p: structure_failure(claim, inst, p), f"the regime {claim.regime}")
    verb = "proves" if property_holds(claim, **counts) else "refutes"
    return f"{verb} {at}: the certified equilibrium has {eq.spectrum_text(counts)}", f"structure exact; {how}"
