"""The model at exact rational data: its quantities as balls and as exact numbers, the exact hypotheses of a witness,
and the velocity field over boxes of tokens.

Every quantity (weights, head outputs, velocities, energies, entropies and their rates, ...) is the configuration's
one chain of named definitions (`certificates.kernel.model_chain`), which the Coq writer states too: `Chain.balls`
evaluates it with balls, `exact_values` in the exact field of exponential polynomials (`certificates.kernel.exp_field`,
where an equality such as a velocity exactly 0 is decided exactly, which balls never do), and `velocity_field` over
tokens given as balls or first-order series (python-flint's arb_series), which the equilibrium certificates need. With
rational tokens, heads and beta every score is an exact rational: the sign of every score, which picks the branch of
relu's kink at s = 0, is decided exactly, never by rounding. The balls are tested against `checks.model.field` on the
same data. The hypotheses a witness claims (unit tokens, symmetry of scores and of values, alignment or its failure at
every head, orthogonal, approximately orthogonal (|M_h M_g|_F <= delta) or scalar heads, kind, an equilibrium: every
velocity exactly 0) are checked exactly; unit tokens are unit in every geometry (a flat start on the sphere too).
"""

import re
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import permutations
from typing import Any

from .exact import ball_of
from .exact_data import ExactConfiguration, Matrix, dot
from .exp_field import ExpFieldError, ExpNumber
from .model_chain import Chain
from .operator_norm import positive_definite
from .vocabulary import SMOOTH_KINDS


def _symmetric(matrices: Sequence[Matrix]) -> bool:
    """Every matrix equals its transpose, exactly."""
    return all(M[i][j] == M[j][i] for M in matrices for i in range(len(M)) for j in range(len(M)))


def _scalar(M: Matrix, alpha: Fraction) -> bool:
    """M = alpha I, exactly."""
    return all(M[i][j] == (alpha if i == j else 0) for i in range(len(M)) for j in range(len(M)))


#: Every hypothesis a witness may claim, by name, and its exact check. Theorems, searches, families and
#: the certificate checker name hypotheses from this table only. `stationary`: every velocity exactly 0 (the
#: trajectory from the configuration is constant).
HYPOTHESES: dict[str, Callable[[ExactConfiguration], bool]] = {"stationary": lambda cfg: stationary(cfg)}
HYPOTHESES |= {"unit-tokens": lambda cfg: all(dot(x, x) == 1 for x in cfg.tokens)}
HYPOTHESES |= {"symmetric-scores": lambda cfg: _symmetric(cfg.score_matrices)}
HYPOTHESES |= {"symmetric-values": lambda cfg: _symmetric(cfg.values)}
HYPOTHESES |= {"aligned-values": lambda cfg: cfg.values == cfg.score_matrices}
# W_h != M_h at every head (alignment fails at each head, not only at some)
HYPOTHESES["misaligned-values"] = lambda cfg: (
    len(cfg.values) == len(cfg.score_matrices)
    and all(W != M for W, M in zip(cfg.values, cfg.score_matrices, strict=False))
)
HYPOTHESES |= {"identity-values": lambda cfg: all(_scalar(W, Fraction(1)) for W in cfg.values)}
# symmetric, and every pivot of the LDL^T elimination in rationals positive (Sylvester's criterion)
HYPOTHESES |= {"spd-values": lambda cfg: all(_symmetric([W]) and positive_definite(W) for W in cfg.values)}
HYPOTHESES |= {"orthogonal-heads": lambda cfg: _approximately_orthogonal(cfg, Fraction(0))}
HYPOTHESES |= {"scalar-heads": lambda cfg: all(M[0][0] > 0 and _scalar(M, M[0][0]) for M in cfg.score_matrices)}
HYPOTHESES |= {"identical-heads": lambda cfg: all(_scalar(M, cfg.score_matrices[0][0][0]) for M in cfg.score_matrices)}
HYPOTHESES |= {"softmax-attention": lambda cfg: cfg.attention == "softmax"}
HYPOTHESES |= {"spherical-geometry": lambda cfg: cfg.geometry == "sphere"}
HYPOTHESES |= {"dimension-at-least-2": lambda cfg: len(cfg.tokens[0]) >= 2}

#: The hypothesis with a stated bound, in its one written form: `orthogonal-heads(delta=p/q)`, delta > 0 exact,
#: meaning |M_h M_g|_F <= delta for every h != g (delta = 0 is `orthogonal-heads` itself).
_BOUNDED_ORTHOGONALITY = re.compile(r"orthogonal-heads\(delta=([1-9][0-9]*(?:/[1-9][0-9]*)?)\)")


def orthogonality_bound(name: str) -> Fraction | None:
    """The delta of a hypothesis `orthogonal-heads(delta=...)` written in its one form, else None."""
    match = _BOUNDED_ORTHOGONALITY.fullmatch(name) if len(name) <= 80 else None
    # p/q in lowest terms, q > 1 written only: the text is the Fraction's own
    return Fraction(match.group(1)) if match and str(Fraction(match.group(1))) == match.group(1) else None


def stated_delta(hypotheses: Sequence[str]) -> Fraction | None:
    """The delta of the hypotheses' `orthogonal-heads(delta=...)` (None when they state none)."""
    return next((b for b in map(orthogonality_bound, hypotheses) if b is not None), None)


def _approximately_orthogonal(cfg: ExactConfiguration, delta: Fraction) -> bool:
    """|M_g M_h|_F^2 <= delta^2 for every g != h, exactly (rationals: no square root is taken; delta = 0: every
    product is 0, the heads are orthogonal)."""
    pairs = permutations(cfg.score_matrices, 2)  # (M_g, M_h), g != h; |A B|_F^2 = sum of <row of A, column of B>^2
    return all(sum(dot(r, c) ** 2 for r in A for c in zip(*B, strict=True)) <= delta * delta for A, B in pairs)


def hypothesis_failures(cfg: ExactConfiguration, hypotheses: Sequence[str]) -> list[str]:
    """The named hypotheses that the exact data violate (empty when all hold exactly); ValueError naming the first
    unknown one, before any is checked."""
    if unknown := [name for name in hypotheses if name not in HYPOTHESES and orthogonality_bound(name) is None]:
        raise ValueError(f"unknown hypothesis {unknown[0]!r}")
    return [name for name in hypotheses if not _holds(cfg, name)]


def _holds(cfg: ExactConfiguration, name: str) -> bool:
    """Whether the exact data satisfy the known hypothesis `name` (a bounded orthogonality by its delta)."""
    delta = orthogonality_bound(name)
    return HYPOTHESES[name](cfg) if delta is None else _approximately_orthogonal(cfg, delta)


def velocity_field(tokens: list[list[Any]], cfg: ExactConfiguration, geometry: str = "sphere") -> list[list[Any]]:
    """The token velocities at tokens given as balls or first-order series (arb_series), with the exact heads, beta
    and kind of `cfg` (its tokens, mask and interaction unread) in the geometry: the chain's velocities
    (`Chain.velocities`) over symbolic tokens, evaluated at the given ones (which need not be exact, nor unit: off
    the sphere this is the field's ambient extension, P⊥_x(v) = v - <v, x> x, and the direction schemes read x/|x|).
    Used over boxes by the equilibrium certificates. The symbolic chain and its velocity trees depend on the sizes,
    heads, beta, geometry and kind alone: those of the last configuration are kept (`_LAST_FIELD`, keyed by their
    exact text), since a Krawczyk test evaluates the same field again over its box (`equilibrium.existence`)."""
    if cfg.attention not in SMOOTH_KINDS:
        raise ValueError(f"the field over boxes covers usa and softmax attention, not {cfg.attention!r}")
    env = {f"x_{i}_{k}": t for i, x in enumerate(tokens) for k, t in enumerate(x)}
    key = repr((list(env), cfg.score_matrices, cfg.values, cfg.beta, geometry, cfg.attention))
    if (last := _LAST_FIELD[0])[0] != key:  # built once, its velocities included, before another thread can read it
        symbols = [[["sym", f"x_{i}_{k}"] for k in range(len(x))] for i, x in enumerate(tokens)]
        chain = Chain(ExactConfiguration(symbols, cfg.score_matrices, cfg.values, cfg.beta, geometry, cfg.attention))
        _LAST_FIELD[0] = last = (key, chain.compiled(chain.velocities(), ball_of))
    return last[1](env)


#: (key, its velocities as a function of the tokens, `Chain.compiled`) of the last field `velocity_field` built: one
#: slot, replaced whole.
_LAST_FIELD: list[tuple[Any, ...]] = [(None,)]


def exact_values(cfg: ExactConfiguration, read: Callable[[Chain], Any]) -> Any:
    """What `read` takes from the configuration's chain, exactly (`certificates.kernel.exp_field`); ExpFieldError
    where it has no exact value here: a stated interaction, a square root or a logarithm, a value the chain does
    not define."""
    if cfg.interaction is not None:
        raise ExpFieldError("the exact model has exp(beta s) weights (no interaction)")
    try:
        return (chain := Chain(cfg)).compiled(read(chain), ExpNumber.rational)({})
    except ValueError as exc:  # ExpFieldError among them
        raise ExpFieldError(str(exc)) from None


def stationary(cfg: ExactConfiguration) -> bool:
    """Whether every token's velocity is exactly 0 (the configuration is an equilibrium of the dynamics); False
    where a velocity has no exact value (a stated interaction, a norm's square root: peri-ln, ngpt)."""
    try:
        return all(c.is_zero() for v in exact_values(cfg, Chain.velocities) for c in v)
    except ExpFieldError:
        return False


def interaction_failures(cfg: ExactConfiguration) -> list[str]:
    """Why the stated interaction does not give the weights at the exact data (empty when it does): a value that is
    not a finite ball, or (normalized) a weight that balls do not show > 0 (`Chain.balls`)."""
    if cfg.interaction is None:
        return []
    chain = Chain(cfg)
    try:
        chain.balls([chain.interaction_row(h, i) for h in range(len(chain.scores)) for i in range(cfg.n)])
    except ValueError as exc:
        return [str(exc)]
    return []
