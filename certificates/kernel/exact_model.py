"""The model at exact rational data in exact arithmetic (`certificates.kernel.exp_field`): values, not balls.

Where the ball model (`certificates.kernel.ball_model`) encloses exp(beta s) in a ball, this evaluates the same
quantities exactly, as quotients of exponential polynomials, so that an equality (a velocity exactly 0, a rate
exactly 0) is decided exactly, which balls never do. It reuses the exact scores (`certificates.kernel.exact_data`)
and the ball model's one combination of weights into head outputs and velocities (`_outputs`, `_head_sums`, generic
in the number type); only the weights (the attention kinds' definitions) and the energies and their rates are written
here, in the chain's terms (`certificates.kernel.model_chain`):
E_h = (1/(2 beta n^2)) sum_ij e^(beta s^h_ij) and dE_h/dt = (1/(2 n^2)) sum_ij e^(beta s^h_ij)
ds^h_ij/dt with ds^h_ij/dt = <xdot_i, M_h x_j> + <M_h^T x_i, xdot_j>, each term and weight times the mask entry
m_ij (`certificates.kernel.masks`) where the configuration has one. Entropies need a logarithm and have no exact
value here.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from certificates.kernel import ball_model as bm
from certificates.kernel.exact_data import attends, dot, exact_scores, matvec
from certificates.kernel.exp_field import ExpFieldError, ExpNumber

Grid = list[list[list[ExpNumber]]]


def weights(cfg: bm.ExactConfiguration) -> Grid:
    """w^h_ij of the configuration's kind, exactly: e^(beta s) (usa), e^(beta s) / sum_k e^(beta s_k) (softmax),
    max(beta s, 0) / n (relu), each times the mask entry m_ij (softmax: normalized over the unmasked k)."""
    if cfg.interaction is not None:  # not the weights written here
        raise ExpFieldError("the exact model has exp(beta s) weights (no interaction)")
    return weights_of_scores(exact_scores(cfg), cfg.beta, cfg.attention, lambda i, j: attends(cfg, i, j))


def weights_of_scores(
    scores: list[list[list[Fraction]]],
    beta: Fraction,
    attention: str,
    attends: Callable[[int, int], bool] = lambda i, j: True,
) -> Grid:
    """The weights of `attention` from exact scores s^h_ij (H x n x n), 0 where token i does not attend to j: the one
    definition of the exact weights, for tokens in coordinates and for tokens known by their Gram matrix
    (`claims.equilibrium_regimes`)."""
    n = len(scores[0])

    def weight(s: Fraction) -> ExpNumber:
        return ExpNumber.rational(max(beta * s, Fraction(0)) / n) if attention == "relu" else ExpNumber.exp(beta * s)

    zero = ExpNumber.rational(0)
    grid = [
        [[weight(s) if attends(i, j) else zero for j, s in enumerate(row)] for i, row in enumerate(head)]
        for head in scores
    ]
    if attention in ("usa", "relu"):
        return grid
    if attention == "softmax":
        return bm._normalized_rows(grid)
    raise ValueError(f"no exact weights for {attention!r} attention")


def _rows(cfg: bm.ExactConfiguration) -> list[list[list[Fraction]]]:
    """W_h x_j (H x n x d), exactly."""
    return [[matvec(W, x) for x in cfg.tokens] for W in cfg.values]


def head_outputs(cfg: bm.ExactConfiguration) -> Grid:
    """f^h_i = sum_j w^h_ij W_h x_j (H x n x d), exactly."""
    return bm._outputs(weights(cfg), _rows(cfg))


def velocities(cfg: bm.ExactConfiguration) -> list[list[ExpNumber]]:
    """xdot_i (n x d), exactly: P_i v_i on the sphere, v_i in flat space."""
    return bm._head_sums(weights(cfg), _rows(cfg), cfg.tokens, cfg.attention, cfg.geometry)


def stationary(cfg: bm.ExactConfiguration) -> bool:
    """Whether every token's velocity is exactly 0 (the configuration is an equilibrium of the dynamics)."""
    return all(c.is_zero() if isinstance(c, ExpNumber) else c == 0 for v in velocities(cfg) for c in v)


Factor = Callable[[int, int], Any] | None


def _exp_sum(cfg: bm.ExactConfiguration, s: list[list[Fraction]], factor: Factor = None) -> Any:
    """sum_ij m_ij e^(beta s_ij) factor(i, j) (no factor: 1) over the pairs where token i attends to j, exactly."""
    pairs = ((i, j) for i in range(cfg.n) for j in range(cfg.n) if attends(cfg, i, j))
    exps = ((ExpNumber.exp(cfg.beta * s[i][j]), i, j) for i, j in pairs)
    terms = (e if factor is None else e * factor(i, j) for e, i, j in exps)
    return sum(terms, ExpNumber.rational(0))


def head_energies(cfg: bm.ExactConfiguration) -> list[ExpNumber]:
    """E_h = (1/(2 beta n^2)) sum_ij m_ij e^(beta s^h_ij), exactly (m = 1 without a mask)."""
    if cfg.interaction is not None:
        raise ExpFieldError("the exact model's energy has exp(beta s) weights")
    return [_exp_sum(cfg, s) / (2 * cfg.beta * cfg.n * cfg.n) for s in exact_scores(cfg)]


def head_energy_rates(cfg: bm.ExactConfiguration) -> list[ExpNumber]:
    """dE_h/dt = (1/(2 n^2)) sum_ij m_ij e^(beta s^h_ij) (<xdot_i, M_h x_j> + <M_h^T x_i, xdot_j>), exactly."""
    xdot = velocities(cfg)

    def rate(M: bm.Matrix, s: list[list[Fraction]]) -> Any:
        Mx = [matvec(M, x) for x in cfg.tokens]
        MTx = [matvec([list(column) for column in zip(*M, strict=True)], x) for x in cfg.tokens]
        return _exp_sum(cfg, s, lambda i, j: dot(xdot[i], Mx[j]) + dot(MTx[i], xdot[j])) / (2 * cfg.n * cfg.n)

    return [rate(M, s) for M, s in zip(cfg.score_matrices, exact_scores(cfg), strict=True)]
