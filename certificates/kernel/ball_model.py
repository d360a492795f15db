"""The model (usa, softmax or relu attention) on exact rational data as balls, and the exact hypotheses of a witness.

The quantities at exact data (weights, head outputs, velocities, energies, entropies and their rates, ...) are those
of the configuration's one chain of named definitions (`certificates.kernel.model_chain`), which the Coq writer states
too: here each is that chain evaluated with balls. With rational tokens, heads and beta every score is an exact
rational; only exp(beta s) (and the log of a softmax normalizer) needs a ball, and the sign of every score, which
picks the branch of relu's kink at s = 0, is decided exactly, never by rounding. This model serves witnesses (it is
what makes a counterexample rigorous) and is tested against `checks.model.field` on the same data. It also checks the
hypotheses a witness claims (unit tokens, symmetry of scores and of values, alignment or its failure at every head,
orthogonal, approximately orthogonal (|M_h M_g|_F <= delta) or scalar heads, kind) exactly, and gives the field over
boxes of tokens (`velocity_field`, balls or jets) that the equilibrium certificates need.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from flint import arb

from certificates.kernel.exact import ball_of
from certificates.kernel.exact_data import ExactConfiguration, Matrix, attends
from certificates.kernel.exact_data import dot as _dot
from certificates.kernel.model_chain import Chain
from certificates.kernel.operator_norm import positive_definite
from certificates.kernel.vocabulary import DIRECTION_GEOMETRIES, MIX_LN_PRE_SHARE, SMOOTH_KINDS, SPHERICAL_GEOMETRIES


def _symmetric(matrices: Sequence[Matrix]) -> bool:
    """Every matrix equals its transpose, exactly."""
    return all(M[i][j] == M[j][i] for M in matrices for i in range(len(M)) for j in range(len(M)))


def _scalar(M: Matrix, alpha: Fraction) -> bool:
    """M = alpha I, exactly."""
    return all(M[i][j] == (alpha if i == j else 0) for i in range(len(M)) for j in range(len(M)))


#: Every hypothesis a witness may claim, by name, and its exact check. Theorems, searches, families and
#: the certificate checker name hypotheses from this table only.
HYPOTHESES: dict[str, Callable[[ExactConfiguration], bool]] = {
    "unit-tokens": lambda cfg: cfg.geometry not in SPHERICAL_GEOMETRIES or all(_dot(x, x) == 1 for x in cfg.tokens),
    "symmetric-scores": lambda cfg: _symmetric(cfg.score_matrices),
    "symmetric-values": lambda cfg: _symmetric(cfg.values),
    "aligned-values": lambda cfg: cfg.values == cfg.score_matrices,
    # W_h != M_h at every head (alignment fails at each head, not only at some)
    "misaligned-values": lambda cfg: (
        len(cfg.values) == len(cfg.score_matrices)
        and all(W != M for W, M in zip(cfg.values, cfg.score_matrices, strict=False))
    ),
    "identity-values": lambda cfg: all(_scalar(W, Fraction(1)) for W in cfg.values),
    # symmetric, and every pivot of the LDL^T elimination in rationals positive (Sylvester's criterion)
    "spd-values": lambda cfg: all(_symmetric([W]) and positive_definite(W) for W in cfg.values),
    "orthogonal-heads": lambda cfg: _approximately_orthogonal(cfg, Fraction(0)),
    "scalar-heads": lambda cfg: all(M[0][0] > 0 and _scalar(M, M[0][0]) for M in cfg.score_matrices),
    "identical-heads": lambda cfg: all(_scalar(M, cfg.score_matrices[0][0][0]) for M in cfg.score_matrices),
    "softmax-attention": lambda cfg: cfg.attention == "softmax",
    "spherical-geometry": lambda cfg: cfg.geometry == "sphere",
    "dimension-at-least-2": lambda cfg: len(cfg.tokens[0]) >= 2,
}


#: The hypothesis with a stated bound, in its one written form: `orthogonal-heads(delta=p/q)`, delta > 0 exact,
#: meaning |M_h M_g|_F <= delta for every h != g (delta = 0 is `orthogonal-heads` itself).
_BOUNDED_ORTHOGONALITY = re.compile(r"orthogonal-heads\(delta=([1-9][0-9]*(?:/[1-9][0-9]*)?)\)")


def orthogonality_bound(name: str) -> Fraction | None:
    """The delta of a hypothesis `orthogonal-heads(delta=...)` written in its one form, else None."""
    match = _BOUNDED_ORTHOGONALITY.fullmatch(name)
    if match is None or len(name) > 80:
        return None
    delta = Fraction(match.group(1))
    return delta if str(delta) == match.group(1) else None  # p/q in lowest terms, q > 1 written only


def stated_delta(hypotheses: Sequence[str]) -> Fraction | None:
    """The delta of the hypotheses' `orthogonal-heads(delta=...)` (None when they state none)."""
    return next((b for b in map(orthogonality_bound, hypotheses) if b is not None), None)


def _approximately_orthogonal(cfg: ExactConfiguration, delta: Fraction) -> bool:
    """|M_g M_h|_F^2 <= delta^2 for every g != h, exactly (rationals: no square root is taken; delta = 0: every
    product is 0, the heads are orthogonal)."""
    Ms, bound = cfg.score_matrices, delta * delta

    def squared_norm(A: Matrix, B: Matrix) -> Fraction:  # |A B|_F^2
        return sum((_dot(row, column) ** 2 for row in A for column in zip(*B, strict=True)), Fraction(0))

    return all(squared_norm(Ms[g], Ms[h]) <= bound for g in range(len(Ms)) for h in range(len(Ms)) if g != h)


def tangent_projection(x: Sequence[arb], u: Sequence[arb]) -> list[arb]:
    """P⊥_x(u) = u - <u, x> x in balls (a tangent projection when <x, x> = 1)."""
    radial = _dot(u, x)
    return [uk - radial * xk for uk, xk in zip(u, x, strict=True)]


def hypothesis_failures(cfg: ExactConfiguration, hypotheses: Sequence[str]) -> list[str]:
    """The named hypotheses that the exact data violate (empty when all hold exactly)."""
    bounds = [(name, orthogonality_bound(name)) for name in hypotheses]
    unknown = [name for name, delta in bounds if delta is None and name not in HYPOTHESES]
    if unknown:
        raise ValueError(f"unknown hypothesis {unknown[0]!r}")
    return [
        name
        for name, delta in bounds
        if not (HYPOTHESES[name](cfg) if delta is None else _approximately_orthogonal(cfg, delta))
    ]


def _normalized_rows(exponentials: list[list[list[Any]]]) -> list[list[list[Any]]]:
    """Each row divided by its sum: the softmax normalization, for balls and jets alike."""
    return [[[eij / sum(row[1:], row[0]) for eij in row] for row in head] for head in exponentials]


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
        v = [sum((f[i][k] for f in outputs), arb(0)) for k in range(d)]
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


def _outputs(weights: list[list[list[Any]]], values_of_tokens: list[list[list[Any]]]) -> list[list[list[Any]]]:
    """f^h_i = sum_j w^h_ij W_h x_j (H x n x d), from the weights and the rows W_h x_j."""
    return [
        [
            [sum((w_ij * row[k] for w_ij, row in zip(w_i, rows, strict=True)), arb(0)) for k in range(len(rows[0]))]
            for w_i in w
        ]
        for w, rows in zip(weights, values_of_tokens, strict=True)
    ]


def velocity_field(
    tokens: list[list[Any]],
    score_matrices: Sequence[Matrix],
    values: Sequence[Matrix],
    beta: Fraction,
    attention: str,
    geometry: str = "sphere",
) -> list[list[Any]]:
    """The token velocities at tokens given as balls or jets (`certificates.kernel.jets`), exact heads and beta.

    The weights and combination of the chain's velocities (`model_chain.Chain.velocities`, which
    `token_velocities` evaluates at exact tokens), with the scores computed from the given tokens (which need not be
    exact, nor unit: off the sphere this is the field's ambient extension, P⊥_x(v) = v - <v, x> x). Used over boxes
    by the equilibrium certificates."""
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


def _balls(cfg: ExactConfiguration, read: Callable[[Chain], Any], weighted: bool = True) -> Any:
    """What `read` takes from the configuration's chain, as balls at the current precision; ValueError when the
    quantity is `weighted` (built on the weights) and a value of the stated interaction is not a finite ball."""
    chain = Chain(cfg)
    wanted = read(chain)
    if weighted and cfg.interaction is not None:
        _interaction_values(chain)
    return chain.balls(wanted)


def _interaction_values(chain: Chain) -> list[list[list[arb]]]:
    """m_ij phi(s^h_ij) as balls; ValueError when one is not finite."""
    cfg = chain.cfg
    assert cfg.interaction is not None
    phi = chain.balls(_grid(cfg, chain.interaction_row))
    if not all(v.is_finite() for head in phi for row in head for v in row):
        raise ValueError(f"the interaction {cfg.interaction.text} is not finite at an exact score (balls)")
    return phi


def _grid(cfg: ExactConfiguration, quantity: Callable[[int, int], Any]) -> list[list[Any]]:
    """A quantity of head h and token i at every head and token (H x n)."""
    return [[quantity(h, i) for i in range(cfg.n)] for h in range(len(cfg.score_matrices))]


def interaction_failures(cfg: ExactConfiguration) -> list[str]:
    """Why the stated interaction does not give the weights at the exact data (empty when it does): a value that is
    not a finite ball, or (normalized) a weight that balls do not show > 0."""
    if cfg.interaction is None:
        return []
    try:
        phi = _interaction_values(Chain(cfg))
    except ValueError as exc:
        return [str(exc)]
    seen = [v for head in phi for i, row in enumerate(head) for j, v in enumerate(row) if attends(cfg, i, j)]
    if cfg.attention == "softmax" and not all(v > 0 for v in seen):
        return [f"normalized weights need phi > 0: balls do not show {cfg.interaction.text} > 0 at every score"]
    return []


def softmax_distributions(cfg: ExactConfiguration) -> list[list[list[arb]]]:
    """p^h_ij = softmax_j(beta s^h_ij) (H x n x n) whatever the kind."""
    return _balls(cfg, lambda chain: _grid(cfg, lambda h, i: chain.softmax(h, i)[0]), weighted=False)


def attention_weights(cfg: ExactConfiguration) -> list[list[list[arb]]]:
    """w^h_ij of the configuration's kind, interaction and mask (H x n x n)."""
    return _balls(cfg, Chain.weights)


def head_outputs(cfg: ExactConfiguration) -> list[list[list[arb]]]:
    """f^h_i = sum_j w^h_ij W_h x_j (H x n x d)."""
    return _balls(cfg, Chain.outputs)


def token_velocities(cfg: ExactConfiguration) -> list[list[arb]]:
    """xdot_i, the scheme's update of each token (n x d)."""
    return _balls(cfg, Chain.velocities)


def direction_velocities(cfg: ExactConfiguration) -> list[list[arb]]:
    """dy_i/dt of the tokens attention reads, along which every rate is taken (n x d)."""
    return _balls(cfg, Chain.direction_velocities)


def head_energies(cfg: ExactConfiguration) -> list[arb]:
    """E_h at every head (with an interaction, ValueError when its antiderivative is not finite at a score)."""
    energies = _balls(cfg, lambda chain: [chain.head_energy(h) for h in range(len(cfg.score_matrices))], False)
    if cfg.interaction is not None and not all(e.is_finite() for e in energies):
        raise ValueError(f"the interaction {cfg.interaction.text} is not finite at an exact score (balls)")
    return energies


def head_energy_rates(cfg: ExactConfiguration) -> list[arb]:
    """dE_h/dt at every head."""
    return _balls(cfg, lambda chain: [chain.head_energy_rate(h) for h in range(len(cfg.score_matrices))])


def attention_entropies(cfg: ExactConfiguration) -> list[list[arb]]:
    """H^h_i (H x n; exp(beta s) only)."""
    return _balls(cfg, lambda chain: _grid(cfg, chain.entropy))


def entropy_rates(cfg: ExactConfiguration) -> list[list[arb]]:
    """dH^h_i/dt (H x n; exp(beta s) only)."""
    return _balls(cfg, lambda chain: _grid(cfg, chain.entropy_rate))


def partition_functions(cfg: ExactConfiguration) -> list[list[arb]]:
    """Z^h_i = sum_j m_ij exp(beta s^h_ij) (H x n)."""
    return _balls(cfg, lambda chain: _grid(cfg, chain.partition_function), weighted=False)


def attention_means(cfg: ExactConfiguration) -> list[list[list[arb]]]:
    """xbar^h_i = sum_j p^h_ij x_j (H x n x d), p the softmax of beta s whatever the kind."""
    return _balls(cfg, lambda chain: _grid(cfg, chain.attention_mean), weighted=False)


def token_norm_rates(cfg: ExactConfiguration) -> list[arb]:
    """d|x_i|/dt at every token."""
    return _balls(cfg, lambda chain: [chain.token_norm_rate(i) for i in range(cfg.n)])


def order_parameter(cfg: ExactConfiguration) -> arb:
    """R = |(1/n) sum_j y_j| of the tokens attention reads."""
    return _balls(cfg, Chain.order_parameter, weighted=False)


def order_parameter_rate(cfg: ExactConfiguration) -> arb:
    """dR/dt (the right derivative |mdot| at m = 0)."""
    return _balls(cfg, Chain.order_parameter_rate)
