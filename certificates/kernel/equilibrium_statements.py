"""Equilibrium statements (form `equilibrium`): an exact configuration is, or is not, an equilibrium of the field.

A claims-file `equilibrium` claim (a regime named by its structure, ranges of sizes) is elaborated outside the kernel
(`headflow.certificates.statements.equilibrium`) at the instance its certificate is about into this data:

    {"form": "equilibrium", "claim": id, "attention": kind, "beta": "p/q", "n": n, "blocks": [d_1, ..., d_B],
     "scores": H x B rationals m_hb, "values": H x B rationals w_hb, "grams": null or B Gram matrices (n x n),
     "spectrum": null or {"zeros": z, "negative": k, "positive": m}}

The heads are M_h = sum_b m_hb P_b and W_h = sum_b w_hb P_b, P_b the projection on the b-th block of contiguous
coordinates of R^d (d = d_1 + ... + d_B): scalar heads have one block, orthogonal heads one per head. A rotation
within each block commutes with every head, so the field maps such a rotated configuration to the rotated field, and
unit tokens are fixed up to those rotations by the Gram matrices G^b_ij = <P_b x_i, P_b x_j> (rational where the
tokens have no rational coordinates: the regular triangle). They exist exactly when each G^b is symmetric positive
semidefinite of rank <= d_b (the signs of its exact characteristic polynomial, its exact rank) and sum_b G^b_ii = 1.

- `spectrum` null (a `witness` certificate): the tokens with these Gram matrices are not an equilibrium. The velocity
  in the basis P_b x_j: under such heads v_i = sum_(b,j) a_i(b,j) P_b x_j, with a_i the velocity of the flat model at
  the tokens t_i = sum_b e_(b,i) of R^(nB) with heads blockdiag(m_hb G^b) and blockdiag(w_hb I) (its scores are
  sum_b m_hb G^b_ij = <x_i, M_h x_j>). The tangent part is sum b_i(b,j) P_b x_j, b_i = a_i - (a_i^T G t_i) t_i with
  G = blockdiag(G^b), and |P⊥ v_i|^2 = b_i^T G b_i, zero exactly when G b_i = 0 (G semidefinite): decided in exponential
  polynomials (`headflow.certificates.kernel.exp_field`), the kernel finds a token with G b_i not 0.
- `spectrum` given (an `equilibrium` certificate, the payload of `certificates.kernel.equilibrium`): its problem has
  the statement's heads, beta, kind and sizes, and (with `grams`) a centre whose normalized tokens have the stated
  block Gram matrices with a fixed set of dimension 0, so the certified equilibrium is that configuration; without
  `grams` it is the certificate's own (in its box). The Krawczyk and Gershgorin re-check gives exactly the counts.

The link "this is the claim's regime at an instance of its domain" is the elaborator's: `check-cert --claims FILE`
elaborates the file's claim at the payload's `instance` (which the kernel does not read) and compares. The registry's
equilibrium claims (`critical-points*`) carry this form too (elaborated from the payload by
`certificates.statements.registry`), and for them the kernel makes the link itself: the statement must be of the
regime the kernel's table names for the claim (`registry_failure`), and the payload names no instance.
"""

import itertools
import json
from collections.abc import Callable
from fractions import Fraction
from typing import Any, NamedTuple

from . import equilibrium as eq, format as fmt
from .ball_model import exact_values
from .exact_data import ExactConfiguration, Matrix, dot
from .exp_field import ExpNumber
from .model_chain import Chain
from .recheck import Rejected, natural, require_keys, require_list
from .registry_statements import table
from .vocabulary import ATTENTION_KINDS

FORM = "equilibrium"
KEYS = {"form", "claim", "attention", "beta", "n", "blocks", "scores", "values", "grams", "spectrum"}
#: The witness of a configuration that moves, and of one at rest (the statement's `spectrum` then AT_REST); its
#: payload also names the claim's instance (for the elaborator).
MOVING, AT_REST = "moving-regime", "at-rest"


class Statement(NamedTuple):
    """The statement's exact data; `grams` None: the certificate's own equilibrium; `spectrum` None: a witness that
    the configuration moves, else the counts as stated (held equal to the re-check's)."""

    attention: str
    beta: Fraction
    n: int
    blocks: list[range]
    scores: list[list[Fraction]]
    values: list[list[Fraction]]
    grams: list[Matrix] | None
    spectrum: object

    def heads(self, strengths: list[list[Fraction]]) -> list[Matrix]:
        """sum_b s_hb P_b for each head h."""
        block = [b for b, coordinates in enumerate(self.blocks) for _ in coordinates]  # the block of each coordinate
        return [[[s[block[i]] * (i == j) for j in range(len(block))] for i in range(len(block))] for s in strengths]


def statement_of(data: dict[str, Any]) -> Statement:
    """The statement's data; Rejected when malformed (sizes bounded) or when the tokens with its Gram matrices do
    not exist."""
    require_keys(data, KEYS, "equilibrium statement")
    sizes = require_list(data["blocks"], fmt.MAX_DIMENSION, "blocks", 1)
    n, d = data["n"], sum(sizes) if all(natural(s, 1) for s in sizes) else 0  # 0: a size that is not positive
    if not (natural(n, 2, fmt.MAX_TOKENS) and 0 < d <= fmt.MAX_DIMENSION and data["attention"] in ATTENTION_KINDS):
        raise Rejected(f"n: 2 to {fmt.MAX_TOKENS}; blocks > 0, d <= {fmt.MAX_DIMENSION}; kind in {ATTENTION_KINDS}")
    H, B = len(require_list(data["scores"], fmt.MAX_HEADS, "scores", 1)), len(sizes)
    heads = [eq.array(data[key], (H, B), key) for key in ("scores", "values")]
    grams = None if data["grams"] is None else eq.array(data["grams"], (B, n, n), "grams")
    blocks = [range(sum(sizes[:b]), sum(sizes[: b + 1])) for b in range(B)]
    if grams is not None and (why := absent(grams, sizes)):
        raise Rejected(f"no unit tokens have the stated Gram matrices: {why}")
    return Statement(data["attention"], eq.array(data["beta"], (), "beta"), n, blocks, *heads, grams, data["spectrum"])


def absent(grams: list[Matrix], sizes: list[int]) -> str | None:
    """Why no unit tokens have these block Gram matrices (None: they exist). A symmetric G is positive semidefinite
    exactly when the coefficients of det(tI - G) alternate in sign (its roots are real)."""
    for G, size in zip(grams, sizes, strict=True):
        matrix = eq.rational_matrix(G)
        signs = [(-1) ** (len(G) - k) * c for k, c in enumerate(matrix.charpoly().coeffs())]
        if matrix != matrix.transpose() or min(signs) < 0 or matrix.rank() > size:
            return f"a Gram matrix is not symmetric positive semidefinite of rank at most its block's dimension {size}"
    return "a token's norm is not 1" if any(sum(G[i][i] for G in grams) != 1 for i in range(len(grams[0]))) else None


def flat_model(stated: Statement) -> tuple[ExactConfiguration, Matrix, Matrix]:
    """The flat model of the statement's block Gram algebra (module docstring): its configuration at the tokens t_i
    of R^(nB), G = blockdiag(G^b), and the t_i."""
    grams, n, N = stated.grams, stated.n, stated.n * len(stated.blocks)
    assert grams is not None

    def blockwise(entry: Callable[[int, int, int], Fraction]) -> Matrix:  # (b, i, j) -> row (b, i), column (b, j)
        return [[entry(r // n, r % n, c % n) if r // n == c // n else Fraction(0) for c in range(N)] for r in range(N)]

    tokens = [[Fraction(int(r % n == i)) for r in range(N)] for i in range(n)]
    scores = [blockwise(lambda b, i, j, m=m: m[b] * grams[b][i][j]) for m in stated.scores]
    values = [blockwise(lambda b, i, j, w=w: w[b] * (i == j)) for w in stated.values]
    flat = ExactConfiguration(tokens, scores, values, stated.beta, "flat", stated.attention)
    return flat, blockwise(lambda b, i, j: grams[b][i][j]), tokens


def moving_token(stated: Statement) -> int | None:
    """The first token whose tangent velocity is exactly not 0 (None: every token rests), by the block Gram
    algebra of the module docstring; ExpFieldError (a ValueError) where the exact model has no value."""
    (flat, G, tokens), zero = flat_model(stated), ExpNumber.rational(0)
    for i, (a, t) in enumerate(zip(exact_values(flat, Chain.velocities), tokens, strict=True)):
        along = dot(a, [dot(row, t) for row in G])
        tangent = [ak - along * tk for ak, tk in zip(a, t, strict=True)]
        if any(not (zero + dot(row, tangent)).is_zero() for row in G):
            return i
    return None


def structure_failure(stated: Statement, problem: eq.Problem) -> str | None:
    """Why the certified problem is not the statement's configuration (None: it is): its heads, beta, kind and sizes,
    and with `grams` a centre with those block Gram matrices and a fixed set of dimension 0."""
    cfg = problem.cfg
    certified = (cfg.score_matrices, cfg.values, cfg.beta, cfg.attention, cfg.n, len(cfg.tokens[0]))
    mine = (stated.heads(stated.scores), stated.heads(stated.values), stated.beta, stated.attention, stated.n)
    if certified != (*mine, stated.blocks[-1].stop):
        return "the heads, beta, kind or sizes are not the statement's"
    return None if stated.grams is None else eq.centre_failure(problem, stated.blocks, stated.grams)


def registry_failure(entry: dict[str, Any], stated: Statement) -> str | None:
    """Why the statement is not one of the registry claim whose table entry is `entry` (None: it is): an equilibrium
    claim's, with a spectrum, W_h = M_h, beta > 0 (the paper's), and the entry's regime: `found` the certificate's
    own equilibrium of any such heads; `single-cluster` and `simplex` that Gram matrix on one block, under scalar
    heads lambda_h I, lambda_h > 0; `orthogonal-subspaces` two heads or more with M_h M_h' = 0 (no block shared) and
    each token seen by exactly one head (M_h x_i != 0: m_hb != 0 and |P_b x_i|^2 = G^b_ii != 0 for some b)."""
    regime, heads, n, grams = entry.get("regime"), stated.scores, stated.n, stated.grams or []
    if entry["kind"] != FORM or stated.spectrum is None or stated.values != heads or stated.beta <= 0:
        return "its statement is an equilibrium with a spectrum, W_h = M_h and beta > 0"
    if regime in ("single-cluster", "simplex"):
        G = [[1 if regime == "single-cluster" or i == j else Fraction(-1, n - 1) for j in range(n)] for i in range(n)]
        return None if grams == [G] and all(m[0] > 0 for m in heads) else f"positive scalar heads at the {regime}"
    seen = [sum(any(m[b] and G[i][i] for b, G in enumerate(grams)) for m in heads) for i in range(n)]
    shared = any(a and b for m, w in itertools.combinations(heads, 2) for a, b in zip(m, w, strict=True))
    if regime == "orthogonal-subspaces" and (len(heads) < 2 or shared or seen != [1] * n):
        return f"two orthogonal heads or more, each token seen by exactly one (the tokens are seen by {seen} heads)"
    return None


def check(data: dict[str, Any], claim_id: str, kind: str, payload: dict[str, Any], seconds: float) -> tuple[str, str]:
    """(what the certificate proves, how it was re-checked); Rejected unless a `witness` shows the statement's
    configuration moves, or an `equilibrium` certificate that it is an equilibrium with the stated counts. The
    statement of a registry claim must be one of its (`registry_failure`); its payload names no instance (a claims
    file's claim, whose payload names its instance, may share a registry claim's id: it proves its own statement)."""
    stated = statement_of(data)
    witness = stated.spectrum in (None, AT_REST)  # moving or at rest, else an equilibrium certificate's counts
    if kind != ("witness" if witness else "equilibrium"):
        raise Rejected(f"a {MOVING} witness shows a configuration moves, an equilibrium certificate its spectrum")
    entry = None if "instance" in payload else table().get(claim_id)  # with an instance: a claims file's claim
    if entry is not None and (why := registry_failure(entry, stated)):
        raise Rejected(f"not a statement of the registry's claim {claim_id}: {why}")
    keys = {"witness"} if witness else eq.PAYLOAD_KEYS | {"lyapunov"} & {*payload}  # lyapunov: Coq's (coq.model_tree)
    require_keys(payload, keys | (set() if entry else {"instance"}), f"{kind} payload")
    tokens = "" if stated.grams is None else f"the unit tokens with the block Gram matrices {json.dumps(data['grams'])}"
    sizes, m, w = [len(b) for b in stated.blocks], json.dumps(data["scores"]), json.dumps(data["values"])
    heads = f"M_h = sum_b m_hb P_b, W_h = sum_b w_hb P_b on coordinate blocks of sizes {sizes}, m = {m}, w = {w}"
    at = f"at {stated.n} tokens in R^{sum(sizes)}, {stated.attention} attention, beta = {stated.beta}, {heads}"
    if witness:
        resting = stated.spectrum == AT_REST
        if stated.grams is None or payload["witness"] != (AT_REST if resting else MOVING):
            raise Rejected(f"a {MOVING} witness of a statement without a spectrum, an {AT_REST} one of one {AT_REST}")
        if ((token := moving_token(stated)) is None) != resting:
            found = f"token {token} moves" if resting else "every velocity is exactly 0 at the configuration"
            raise Rejected(f"the velocities are not as the witness says: {found}")
        if resting:
            return f"{at}: {tokens} are an equilibrium (every tangent velocity exactly 0)", "exact velocities"
        proved = f"{at}: {tokens} are not an equilibrium (token {token} moves)"
        return proved, "a tangent velocity is exactly non-zero (exact)"
    problem = eq.problem_of(payload)
    if wrong := structure_failure(stated, problem):
        raise Rejected(f"not the stated configuration: {wrong}")
    counts, how = eq.recheck(problem, payload)
    texts = {json.dumps(s, sort_keys=True) for s in (counts, stated.spectrum, payload["spectrum"])}
    if len(texts) > 1:  # the statement's and the payload's counts are the re-check's (1, not true nor 1.0)
        raise Rejected(f"the file states the spectrum {str(stated.spectrum)[:200]}, the re-check finds {counts}")
    which = f"{tokens} are an equilibrium" if tokens else "some equilibrium (the certificate's, in its box) exists"
    stable = ", linearly stable modulo rotations" if counts["positive"] == 0 else ""
    spectrum = "{zeros} rotation zero(s), {negative} with Re < 0, {positive} with Re > 0".format(**counts) + stable
    return f"{at}: {which} with {spectrum}", f"structure exact; {how}"
