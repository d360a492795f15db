"""The model (usa, softmax or relu attention) on exact rational data, with exact scores and ball exponentials.

With rational tokens, heads and beta every score s^h_ij is an exact rational; only exp(beta s)
(and the log of a softmax normalizer) needs a ball. The relu weight max(beta s, 0) / n is then an
exact rational too: the sign of every score, which picks the branch of the kink at s = 0, is decided
exactly, never by rounding. This small model serves witnesses (it is what
makes a counterexample rigorous) and is tested against `checks.model.field` on the same data: per-head
energy rates dE_h/dt and attention entropy rates dH^h_i/dt. It also checks the hypotheses a
witness claims (unit tokens, symmetry of scores and of values, alignment or its failure at every
head, orthogonal, approximately orthogonal (|M_h M_g|_F <= delta) or scalar heads, kind) exactly.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from flint import arb

from certificates.kernel import exprtree
from certificates.kernel.exact import ball_of
from certificates.kernel.masks import Mask
from certificates.kernel.operator_norm import positive_definite
from certificates.kernel.vocabulary import (
    ATTENTION_KINDS,
    DIRECTION_GEOMETRIES,
    MIX_LN_PRE_SHARE,
    SMOOTH_KINDS,
    SPHERICAL_GEOMETRIES,
)

if TYPE_CHECKING:  # only annotations: the interaction module loads SymPy
    from certificates.kernel.interaction import Interaction

Vector = list[Fraction]
Matrix = list[list[Fraction]]


@dataclass(frozen=True)
class ExactConfiguration:
    """Rational tokens (n x d), score and value matrices (H x d x d), rational beta (either sign: beta < 0 is
    repulsive attention), kind, geometry, and the attention mask (`certificates.kernel.masks`; None: no mask)."""

    tokens: list[Vector]
    score_matrices: list[Matrix]
    values: list[Matrix]
    beta: Fraction
    geometry: str = "sphere"
    attention: str = "usa"
    mask: Mask | None = None
    #: The stated interaction phi(s) of the weights (`certificates.kernel.interaction`; None: the kind's own).
    interaction: Interaction | None = None

    @property
    def n(self) -> int:
        return len(self.tokens)


def _matvec(M: Matrix, x: Sequence[Fraction]) -> Vector:
    return [sum((m * xi for m, xi in zip(row, x, strict=True)), Fraction(0)) for row in M]


def _dot(u: Sequence, w: Sequence):  # type: ignore[no-untyped-def]
    total = 0
    for a, b in zip(u, w, strict=True):
        total = total + a * b
    return total


def _matmul(A: Matrix, B: Matrix) -> Matrix:
    return [
        [sum((A[i][k] * B[k][j] for k in range(len(B))), Fraction(0)) for j in range(len(B[0]))] for i in range(len(A))
    ]


def _unit_tokens(cfg: ExactConfiguration) -> bool:
    return cfg.geometry not in SPHERICAL_GEOMETRIES or all(_dot(x, x) == 1 for x in cfg.tokens)


def _symmetric(matrices: Sequence[Matrix]) -> bool:
    """Every matrix equals its transpose, exactly."""
    return all(M[i][j] == M[j][i] for M in matrices for i in range(len(M)) for j in range(len(M)))


def _misaligned_values(cfg: ExactConfiguration) -> bool:
    """W_h != M_h for every head h (value alignment fails at each head, not only at some)."""
    pairs = zip(cfg.values, cfg.score_matrices, strict=False)
    return len(cfg.values) == len(cfg.score_matrices) and all(W != M for W, M in pairs)


def _identity(M: Matrix) -> bool:
    return all(M[i][j] == (1 if i == j else 0) for i in range(len(M)) for j in range(len(M)))


def _positive_definite(M: Matrix) -> bool:
    """M symmetric positive definite, exactly: symmetric, and every pivot of its Cholesky (LDL^T) elimination in
    rationals positive (equivalently, by Sylvester's criterion, every leading principal minor positive)."""
    return _symmetric([M]) and positive_definite(M)


def _orthogonal_heads(cfg: ExactConfiguration) -> bool:
    d = len(cfg.tokens[0])
    zero = [[Fraction(0)] * d for _ in range(d)]
    heads = range(len(cfg.score_matrices))
    return all(_matmul(cfg.score_matrices[g], cfg.score_matrices[h]) == zero for g in heads for h in heads if g != h)


#: Every hypothesis a witness may claim, by name, and its exact check. Theorems, searches, families and
#: the certificate checker name hypotheses from this table only.
HYPOTHESES: dict[str, Callable[[ExactConfiguration], bool]] = {
    "unit-tokens": _unit_tokens,
    "symmetric-scores": lambda cfg: _symmetric(cfg.score_matrices),
    "symmetric-values": lambda cfg: _symmetric(cfg.values),
    "aligned-values": lambda cfg: cfg.values == cfg.score_matrices,
    "misaligned-values": _misaligned_values,
    "identity-values": lambda cfg: all(_identity(W) for W in cfg.values),
    "spd-values": lambda cfg: all(_positive_definite(W) for W in cfg.values),
    "orthogonal-heads": _orthogonal_heads,
    "scalar-heads": lambda cfg: all(_is_positive_scalar(M) for M in cfg.score_matrices),
    "identical-heads": lambda cfg: _identical_scalar_heads(cfg.score_matrices),
    "softmax-attention": lambda cfg: cfg.attention == "softmax",
    "spherical-geometry": lambda cfg: cfg.geometry == "sphere",
    "dimension-at-least-2": lambda cfg: len(cfg.tokens[0]) >= 2,
}


#: The hypothesis with a stated bound, in its one written form: `orthogonal-heads(delta=p/q)`, delta > 0 exact,
#: meaning |M_h M_g|_F <= delta for every h != g (delta = 0 is `orthogonal-heads` itself).
_BOUNDED_ORTHOGONALITY = re.compile(r"orthogonal-heads\(delta=([1-9][0-9]*(?:/[1-9][0-9]*)?)\)")


def approximate_orthogonality(delta: Fraction) -> str:
    """The name of the hypothesis |M_h M_g|_F <= delta for h != g (`orthogonal-heads` when delta = 0)."""
    if delta < 0:
        raise ValueError("delta is a bound on a norm: >= 0")
    q = Fraction(delta)
    text = str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"
    return "orthogonal-heads" if q == 0 else f"orthogonal-heads(delta={text})"


def orthogonality_bound(name: str) -> Fraction | None:
    """The delta of a hypothesis `orthogonal-heads(delta=...)` written in its one form, else None."""
    match = _BOUNDED_ORTHOGONALITY.fullmatch(name)
    if match is None or len(name) > 80:
        return None
    delta = Fraction(match.group(1))
    return delta if approximate_orthogonality(delta) == name else None


def stated_delta(hypotheses: Sequence[str]) -> Fraction | None:
    """The delta of the hypotheses' `orthogonal-heads(delta=...)` (None when they state none)."""
    return next((b for b in map(orthogonality_bound, hypotheses) if b is not None), None)


def _approximately_orthogonal(cfg: ExactConfiguration, delta: Fraction) -> bool:
    """|M_g M_h|_F^2 <= delta^2 for every g != h, exactly (rationals: no square root is taken)."""
    heads = range(len(cfg.score_matrices))
    products = (_matmul(cfg.score_matrices[g], cfg.score_matrices[h]) for g in heads for h in heads if g != h)
    return all(sum(entry * entry for row in P for entry in row) <= delta * delta for P in products)


def tangent_projection(x: Sequence[arb], u: Sequence[arb]) -> list[arb]:
    """P⊥_x(u) = u - <u, x> x in balls (a tangent projection when <x, x> = 1)."""
    radial = _dot(u, x)
    return [uk - radial * xk for uk, xk in zip(u, x, strict=True)]


def hypothesis_failures(cfg: ExactConfiguration, hypotheses: Sequence[str]) -> list[str]:
    """The named hypotheses that the exact data violate (empty when all hold exactly)."""
    unknown = [name for name in hypotheses if name not in HYPOTHESES and orthogonality_bound(name) is None]
    if unknown:
        raise ValueError(f"unknown hypothesis {unknown[0]!r}")
    return [name for name in hypotheses if not _holds(cfg, name)]


def _holds(cfg: ExactConfiguration, name: str) -> bool:
    delta = orthogonality_bound(name)
    return HYPOTHESES[name](cfg) if delta is None else _approximately_orthogonal(cfg, delta)


def _identical_scalar_heads(matrices: Sequence[Matrix]) -> bool:
    """M_h = alpha I for every head h with one alpha of any sign (0 included), exactly."""
    alpha = matrices[0][0][0]
    size = len(matrices[0])
    return all(M[i][j] == (alpha if i == j else 0) for M in matrices for i in range(size) for j in range(size))


def _is_positive_scalar(M: Matrix) -> bool:
    """M = lambda I with lambda > 0, exactly."""
    lam = M[0][0]
    return lam > 0 and all(M[i][j] == (lam if i == j else 0) for i in range(len(M)) for j in range(len(M)))


def exact_scores(cfg: ExactConfiguration) -> list[list[list[Fraction]]]:
    """s^h_ij = <x_i, M_h x_j>, exactly."""
    return [[[_dot(xi, _matvec(M, xj)) for xj in cfg.tokens] for xi in cfg.tokens] for M in cfg.score_matrices]


def attends(cfg: ExactConfiguration, i: int, j: int) -> bool:
    """Whether token i attends to token j (the mask entry; always without a mask)."""
    return cfg.mask is None or cfg.mask[i][j]


def _exponentials(cfg: ExactConfiguration, s: list[list[list[Fraction]]], shift: bool) -> list[list[list[arb]]]:
    """m_ij exp(beta (s^h_ij - m^h_i)) as balls (an exact 0 where the mask hides j from i), with m^h_i the exact
    maximum of beta s^h_ij over the j token i attends to when `shift` (`softmax_shift`), else 0."""
    beta = ball_of(cfg.beta)
    out = []
    for head in s:
        rows = []
        for i, row in enumerate(head):
            m = softmax_shift(cfg, i, row) if shift else None
            rows.append(
                [
                    ((beta * ball_of(sij)) if m is None else ball_of(cfg.beta * sij - m)).exp() if attends(cfg, i, j)
                    else arb(0)
                    for j, sij in enumerate(row)
                ]
            )  # fmt: skip
        out.append(rows)
    return out


def softmax_shift(cfg: ExactConfiguration, i: int, row: list[Fraction]) -> Fraction:
    """The exact maximum of beta s_ij over the tokens j that token i attends to (the softmax shift, either sign
    of beta)."""
    return max(cfg.beta * sij for j, sij in enumerate(row) if attends(cfg, i, j))


def _normalized_rows(exponentials: list[list[list[Any]]]) -> list[list[list[Any]]]:
    """Each row divided by its sum: the softmax normalization, for balls and jets alike."""
    return [[[eij / sum(row[1:], row[0]) for eij in row] for row in head] for head in exponentials]


def _interaction_values(
    cfg: ExactConfiguration, s: list[list[list[Fraction]]], tree: exprtree.Tree | None = None
) -> list[list[list[arb]]]:
    """m_ij phi(s^h_ij) as balls (or the tree given, Phi for the energy; an exact 0 where the mask hides j from i);
    ValueError when one is not finite."""
    assert cfg.interaction is not None
    beta = ball_of(cfg.beta)
    env = {"beta": beta}
    use = cfg.interaction.tree if tree is None else tree

    def phi(sij: Fraction) -> arb:
        return exprtree.evaluate(use, env | {"s": ball_of(sij)})

    out = [
        [[phi(sij) if attends(cfg, i, j) else arb(0) for j, sij in enumerate(row)] for i, row in enumerate(head)]
        for head in s
    ]
    if not all(v.is_finite() for head in out for row in head for v in row):
        raise ValueError(f"the interaction {cfg.interaction.text} is not finite at an exact score (balls)")
    return out


def interaction_failures(cfg: ExactConfiguration) -> list[str]:
    """Why the stated interaction does not give the weights at the exact data (empty when it does): a value that is
    not a finite ball, or (normalized) a weight that balls do not show > 0."""
    if cfg.interaction is None:
        return []
    try:
        phi = _interaction_values(cfg, exact_scores(cfg))
    except (ValueError, exprtree.TreeError) as exc:
        return [str(exc)]
    seen = [v for head in phi for i, row in enumerate(head) for j, v in enumerate(row) if attends(cfg, i, j)]
    if cfg.attention == "softmax" and not all(v > 0 for v in seen):
        return [f"normalized weights need phi > 0: balls do not show {cfg.interaction.text} > 0 at every score"]
    return []


def softmax_distributions(cfg: ExactConfiguration, s: list[list[list[Fraction]]]) -> list[list[list[arb]]]:
    """p^h_ij = softmax_j(beta s^h_ij) as balls (shifted by the exact row maximum, which cancels)."""
    return _normalized_rows(_exponentials(cfg, s, shift=True))


def attention_weights(cfg: ExactConfiguration, s: list[list[list[Fraction]]]) -> list[list[list[arb]]]:
    """w^h_ij of the configuration's kind: exp(beta s) for usa, softmax_j(beta s) for softmax, and
    max(beta s, 0) / n for relu (exact: the score's sign is a comparison of rationals); with an interaction,
    phi(s) for usa and phi(s_ij) / sum_k phi(s_ik) for softmax."""
    if cfg.interaction is not None:
        phi = _interaction_values(cfg, s)
        return _normalized_rows(phi) if cfg.attention == "softmax" else phi
    if cfg.attention == "usa":
        return _exponentials(cfg, s, shift=False)
    if cfg.attention == "softmax":
        return softmax_distributions(cfg, s)
    if cfg.attention == "relu":
        return [
            [[ball_of(max(cfg.beta * sij, Fraction(0)) / cfg.n if attends(cfg, i, j) else 0)
              for j, sij in enumerate(row)]
             for i, row in enumerate(head)]
            for head in s
        ]  # fmt: skip
    raise ValueError(f"the ball model covers {', '.join(ATTENTION_KINDS)} attention, not {cfg.attention!r}")


def _head_sums(
    weights: list[list[list[Any]]],
    values_of_tokens: list[list[list[Any]]],
    tokens: list[list[Any]],
    attention: str,
    geometry: str,
) -> list[list[Any]]:
    """xdot_i = P⊥_{x_i}(v_i) on the sphere, v_i in flat space (the scheme's update, `scheme_velocity`, otherwise)
    from the weights w^h_ij and the rows W_h x_j.

    v_i = (1/n) sum_h f^h_i for usa and sum_h f^h_i for softmax, f^h_i = sum_j w^h_ij W_h x_j; the one
    combination step of the ball model, for exact tokens (balls) and for tokens over a box (jets)."""
    n, d = len(tokens), len(tokens[0])
    outputs = _outputs(weights, values_of_tokens)
    velocities = []
    for i in range(n):
        v: list[Any] = [arb(0)] * d
        for f in outputs:
            v = [vk + fk for vk, fk in zip(v, f[i], strict=True)]
        if attention == "usa":
            v = [vk / n for vk in v]
        if geometry == "sphere":
            v = tangent_projection(tokens[i], v)
        elif geometry != "flat":
            v = scheme_velocity(tokens[i], v, geometry)
        velocities.append(v)
    return velocities


def _norm(u: Sequence[arb]) -> arb:
    """|u| (a ball of <u, u> that reaches below 0 by rounding gives the enclosure of its non-negative part)."""
    return _dot(u, u).nonnegative_part().sqrt()


def scheme_velocity(x: list[arb], v: list[arb], geometry: str) -> list[arb]:
    """xdot of a normalization scheme from the residual token x and the attention velocity v (balls): pre-ln v,
    peri-ln v/|v|, mix-ln (1-a) P⊥_y v + a v (y = x/|x|), ngpt P⊥_x(v/|v|) (`checks.model.field.scheme_velocity`)."""
    if geometry == "pre-ln":
        return v
    if geometry in ("peri-ln", "ngpt"):
        length = _norm(v)
        unit = [vk / length for vk in v]
        return unit if geometry == "peri-ln" else tangent_projection(x, unit)
    if geometry == "mix-ln":
        share = arb(MIX_LN_PRE_SHARE[0]) / MIX_LN_PRE_SHARE[1]
        length = _norm(x)
        tangent = tangent_projection([xk / length for xk in x], v)
        return [(1 - share) * tk + share * vk for tk, vk in zip(tangent, v, strict=True)]
    raise ValueError(f"{geometry!r} is not a normalization scheme")


def _require_directions(cfg: ExactConfiguration) -> None:
    """Pre-ln, peri-ln and mix-ln attend to y = x/|x|, which exact data give exactly only at unit tokens (y = x)."""
    if cfg.geometry in DIRECTION_GEOMETRIES and not all(_dot(x, x) == 1 for x in cfg.tokens):
        raise ValueError(f"exact data of {cfg.geometry} need unit tokens (the directions x/|x| exactly)")


def _outputs(weights: list[list[list[Any]]], values_of_tokens: list[list[list[Any]]]) -> list[list[list[Any]]]:
    """f^h_i = sum_j w^h_ij W_h x_j (H x n x d), from the weights and the rows W_h x_j."""
    outputs = []
    for w, rows in zip(weights, values_of_tokens, strict=True):
        head = []
        for w_i in w:
            f: list[Any] = [arb(0)] * len(rows[0])
            for w_ij, row in zip(w_i, rows, strict=True):
                f = [fk + w_ij * rk for fk, rk in zip(f, row, strict=True)]
            head.append(f)
        outputs.append(head)
    return outputs


def head_outputs(cfg: ExactConfiguration) -> list[list[list[arb]]]:
    """f^h_i = sum_j w^h_ij W_h x_j at exact data (H x n x d balls), weights of the configuration's kind."""
    values_of_tokens = [[[ball_of(f) for f in _matvec(W, x)] for x in cfg.tokens] for W in cfg.values]
    return _outputs(attention_weights(cfg, exact_scores(cfg)), values_of_tokens)


def head_energies(cfg: ExactConfiguration) -> list[arb]:
    """E_h = (1/(2 beta n^2)) sum_ij m_ij exp(beta s^h_ij) (the usa energy; m the mask, 1 without one), as balls;
    with an interaction, (1/(2 n^2)) sum_ij Phi(s^h_ij), Phi its verified antiderivative (ValueError when there is
    none)."""
    if cfg.interaction is not None:
        tree = cfg.interaction.energy_tree()
        if tree is None:
            raise ValueError(f"no verified antiderivative of {cfg.interaction.text}: the energy is unavailable")
        Phi = _interaction_values(cfg, exact_scores(cfg), tree)
        return [sum((e for row in head for e in row), arb(0)) / (2 * cfg.n * cfg.n) for head in Phi]
    scale = 2 * ball_of(cfg.beta) * cfg.n * cfg.n
    return [
        sum((e for row in head for e in row), arb(0)) / scale for head in _exponentials(cfg, exact_scores(cfg), False)
    ]


def token_velocities(cfg: ExactConfiguration, weights: list[list[list[arb]]]) -> list[list[arb]]:
    """xdot_i = P⊥_{x_i}(v_i) on the sphere, v_i in flat space, the scheme's update otherwise (balls), at exact
    tokens (unit tokens for pre-ln, peri-ln and mix-ln)."""
    _require_directions(cfg)
    values_of_tokens = [[[ball_of(f) for f in _matvec(W, x)] for x in cfg.tokens] for W in cfg.values]
    tokens = [[ball_of(t) for t in x] for x in cfg.tokens]
    return _head_sums(weights, values_of_tokens, tokens, cfg.attention, cfg.geometry)


def velocity_field(
    tokens: list[list[Any]],
    score_matrices: Sequence[Matrix],
    values: Sequence[Matrix],
    beta: Fraction,
    attention: str,
    geometry: str = "sphere",
) -> list[list[Any]]:
    """The token velocities at tokens given as balls or jets (`certificates.kernel.jets`), exact heads and beta.

    The same weights and combination as `token_velocities`, with the scores computed from the given
    tokens (which need not be exact, nor unit: off the sphere this is the field's ambient extension,
    P⊥_x(v) = v - <v, x> x). Used over boxes by the equilibrium certificates."""
    if attention not in SMOOTH_KINDS:
        raise ValueError(f"the field over boxes covers usa and softmax attention, not {attention!r}")
    b = ball_of(beta)
    residual = tokens
    if geometry in DIRECTION_GEOMETRIES:  # attention reads the directions (balls only: no square root of a jet)
        tokens = [[xk / _norm(x) for xk in x] for x in tokens]

    def apply(M: Matrix, x: list[Any]) -> list[Any]:
        return [_dot([ball_of(m) for m in row], x) for row in M]

    scores = [[[_dot(xi, apply(M, xj)) for xj in tokens] for xi in tokens] for M in score_matrices]
    exponentials = [[[(sij * b).exp() for sij in row] for row in head] for head in scores]
    weights = _normalized_rows(exponentials) if attention == "softmax" else exponentials
    values_of_tokens = [[apply(W, x) for x in tokens] for W in values]
    return _head_sums(weights, values_of_tokens, residual, attention, geometry)


def direction_velocities(cfg: ExactConfiguration, weights: list[list[list[arb]]]) -> list[list[arb]]:
    """dy_i/dt of the tokens attention reads: at the unit tokens of pre-ln, peri-ln and mix-ln P⊥_{x_i}(xdot_i)
    (y = x, |x| = 1), xdot_i otherwise; every rate of a model quantity is taken along it."""
    xdot = token_velocities(cfg, weights)
    if cfg.geometry not in DIRECTION_GEOMETRIES:
        return xdot
    return [tangent_projection([ball_of(t) for t in x], u) for x, u in zip(cfg.tokens, xdot, strict=True)]


def token_norm_rates(cfg: ExactConfiguration) -> list[arb]:
    """d|x_i|/dt = <x_i, xdot_i> / |x_i| (balls, n of them)."""
    xdot = token_velocities(cfg, attention_weights(cfg, exact_scores(cfg)))
    tokens = [[ball_of(t) for t in x] for x in cfg.tokens]
    return [_dot(x, u) / _norm(x) for x, u in zip(tokens, xdot, strict=True)]


def _mean(rows: Sequence[Sequence[Any]], n: int) -> list[Any]:
    return [sum(column[1:], column[0]) / n for column in zip(*rows, strict=True)]


def order_parameter(cfg: ExactConfiguration) -> arb:
    """R = |(1/n) sum_j y_j| of the tokens attention reads (exact mean, one square root)."""
    _require_directions(cfg)
    m = _mean(cfg.tokens, cfg.n)
    return ball_of(_dot(m, m)).sqrt()


def order_parameter_rate(cfg: ExactConfiguration) -> arb:
    """dR/dt = <m, mdot>/R for m != 0 (exactly), the right derivative |mdot| at m = 0 (`checks.model.circle`)."""
    m = _mean(cfg.tokens, cfg.n)
    mdot = _mean(direction_velocities(cfg, attention_weights(cfg, exact_scores(cfg))), cfg.n)
    if all(mk == 0 for mk in m):
        return _norm(mdot)
    return _dot([ball_of(mk) for mk in m], mdot) / ball_of(_dot(m, m)).sqrt()


def score_rates(cfg: ExactConfiguration, xdot: list[list[arb]]) -> list[list[list[arb]]]:
    """ds^h_ij/dt = <xdot_i, M_h x_j> + <M_h^T x_i, xdot_j> along the dynamics (balls)."""
    rates = []
    for M in cfg.score_matrices:
        Mx = [[ball_of(v) for v in _matvec(M, x)] for x in cfg.tokens]
        MTx = [[ball_of(v) for v in _matvec([list(col) for col in zip(*M, strict=True)], x)] for x in cfg.tokens]
        rates.append([[_dot(xdot[i], Mx[j]) + _dot(MTx[i], xdot[j]) for j in range(cfg.n)] for i in range(cfg.n)])
    return rates


def head_energy_rates(cfg: ExactConfiguration) -> list[arb]:
    """dE_h/dt = (1/(2 n^2)) sum_ij exp(beta s^h_ij) ds^h_ij/dt (usa energy, the kind's dynamics), as balls;
    phi(s^h_ij) for exp(beta s^h_ij) with an interaction."""
    s = exact_scores(cfg)
    exponentials = _exponentials(cfg, s, shift=False) if cfg.interaction is None else _interaction_values(cfg, s)
    sdot = score_rates(cfg, direction_velocities(cfg, attention_weights(cfg, s)))
    n = cfg.n
    rates = []
    for e, r in zip(exponentials, sdot, strict=True):
        total = arb(0)
        for i in range(n):
            for j in range(n):
                total += e[i][j] * r[i][j]
        rates.append(total / (2 * n * n))
    return rates


def attention_entropies(cfg: ExactConfiguration) -> list[list[arb]]:
    """H^h_i = -sum_j p^h_ij log p^h_ij (H x n balls), log p_ij = beta s_ij - m_i - log Z_i as in `entropy_rates`."""
    if cfg.interaction is not None:
        raise ValueError("attention entropies are defined for exp(beta s) only, not with an interaction function")
    s = exact_scores(cfg)
    out = []
    for s_h, e_h in zip(s, _exponentials(cfg, s, shift=True), strict=True):
        row = []
        for i, (s_i, e_i) in enumerate(zip(s_h, e_h, strict=True)):
            Z = sum(e_i[1:], e_i[0])
            m, log_Z = softmax_shift(cfg, i, s_i), Z.log()
            terms = (e / Z * (ball_of(cfg.beta * sj - m) - log_Z) for e, sj in zip(e_i, s_i, strict=True))
            row.append(-sum(terms, arb(0)))
        out.append(row)
    return out


def entropy_rates(cfg: ExactConfiguration) -> list[list[arb]]:
    """dH^h_i/dt = -sum_j pdot^h_ij log p^h_ij (H x n balls), p = softmax_j(beta s^h_ij).

    pdot_ij = beta p_ij (sdot_ij - sum_k p_ik sdot_ik) by the chain rule through the softmax, with
    sdot from the kind's token velocities; log p_ij = beta s_ij - m_i - log sum_k exp(beta s_ik - m_i)
    with the exact row maximum m_i of beta s_ik (`softmax_shift`; the same number as log of the ball p_ij, with a
    tighter radius). A masked j has p_ij = 0 exactly, so its term vanishes."""
    if cfg.interaction is not None:
        raise ValueError("attention entropies are defined for exp(beta s) only, not with an interaction function")
    s = exact_scores(cfg)
    beta = ball_of(cfg.beta)
    shifted = _exponentials(cfg, s, shift=True)
    sdot = score_rates(cfg, direction_velocities(cfg, attention_weights(cfg, s)))
    rates = []
    for s_h, e_h, r_h in zip(s, shifted, sdot, strict=True):
        row_rates = []
        for i, (s_i, e_i, r_i) in enumerate(zip(s_h, e_h, r_h, strict=True)):
            Z = sum(e_i[1:], e_i[0])
            p = [e / Z for e in e_i]
            mean = _dot(p, r_i)
            m = softmax_shift(cfg, i, s_i)
            log_Z = Z.log()
            total = arb(0)
            for pj, rj, sj in zip(p, r_i, s_i, strict=True):
                total += beta * pj * (rj - mean) * (ball_of(cfg.beta * sj - m) - log_Z)
            row_rates.append(-total)
        rates.append(row_rates)
    return rates


def partition_functions(cfg: ExactConfiguration) -> list[list[arb]]:
    """Z^h_i = sum_j m_ij exp(beta s^h_ij) (H x n balls): the softmax normalizer, the row sum of the usa weights
    (m the mask, 1 without one)."""
    return [[sum(row[1:], row[0]) for row in head] for head in _exponentials(cfg, exact_scores(cfg), shift=False)]


def attention_means(cfg: ExactConfiguration) -> list[list[list[arb]]]:
    """xbar^h_i = sum_j p^h_ij x_j (H x n x d balls), p^h_ij = softmax_j(beta s^h_ij) whatever the kind."""
    tokens = [[ball_of(t) for t in x] for x in cfg.tokens]
    return _outputs(softmax_distributions(cfg, exact_scores(cfg)), [tokens] * len(cfg.score_matrices))
