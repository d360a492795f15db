"""The usa model on exact rational data, evaluated with exact scores and ball exponentials.

With rational tokens, heads and beta every score s^h_ij is an exact rational; only exp(beta s)
needs a ball. This small model serves witnesses (it is what makes a counterexample rigorous)
and is tested against `checks.model` on the same data. It also checks the hypotheses a
witness claims (unit tokens, symmetry, alignment, orthogonal heads) exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from flint import arb

from certificates.exprtree import ball_of

Vector = list[Fraction]
Matrix = list[list[Fraction]]
HYPOTHESES = ("unit-tokens", "symmetric-scores", "aligned-values", "orthogonal-heads")


@dataclass(frozen=True)
class ExactConfiguration:
    """Rational tokens (n x d), score and value matrices (H x d x d), rational beta > 0."""

    tokens: list[Vector]
    scores: list[Matrix]
    values: list[Matrix]
    beta: Fraction
    geometry: str = "sphere"

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


def hypothesis_failures(cfg: ExactConfiguration, hypotheses: Sequence[str]) -> list[str]:
    """The named hypotheses that the exact data violate (empty when all hold exactly)."""
    failures = []
    for name in hypotheses:
        if name == "unit-tokens":
            ok = cfg.geometry != "sphere" or all(_dot(x, x) == 1 for x in cfg.tokens)
        elif name == "symmetric-scores":
            ok = all(M[i][j] == M[j][i] for M in cfg.scores for i in range(len(M)) for j in range(len(M)))
        elif name == "aligned-values":
            ok = cfg.values == cfg.scores
        elif name == "orthogonal-heads":
            d = len(cfg.tokens[0])
            zero = [[Fraction(0)] * d for _ in range(d)]
            ok = all(
                _matmul(cfg.scores[g], cfg.scores[h]) == zero
                for g in range(len(cfg.scores))
                for h in range(len(cfg.scores))
                if g != h
            )
        else:
            raise ValueError(f"unknown hypothesis {name!r}")
        if not ok:
            failures.append(name)
    return failures


def exact_scores(cfg: ExactConfiguration) -> list[list[list[Fraction]]]:
    """s^h_ij = <x_i, M_h x_j>, exactly."""
    return [[[_dot(xi, _matvec(M, xj)) for xj in cfg.tokens] for xi in cfg.tokens] for M in cfg.scores]


def token_velocities(cfg: ExactConfiguration, weights: list[list[list[arb]]]) -> list[list[arb]]:
    """xdot_i = P⊥_{x_i}((1/n) sum_h f^h_i) on the sphere, the plain v_i in flat space (balls)."""
    n, d = cfg.n, len(cfg.tokens[0])
    values_of_tokens = [[_matvec(W, x) for x in cfg.tokens] for W in cfg.values]
    velocities = []
    for i in range(n):
        v = [arb(0)] * d
        for h, w in enumerate(weights):
            for j in range(n):
                v = [vk + w[i][j] * ball_of(fk) for vk, fk in zip(v, values_of_tokens[h][j], strict=True)]
        v = [vk / n for vk in v]
        if cfg.geometry == "sphere":
            x = [ball_of(t) for t in cfg.tokens[i]]
            radial = _dot(v, x)
            v = [vk - radial * xk for vk, xk in zip(v, x, strict=True)]
        velocities.append(v)
    return velocities


def head_energy_rates(cfg: ExactConfiguration) -> list[arb]:
    """dE_h/dt = (1/(2 n^2)) sum_ij exp(beta s^h_ij) (<xdot_i, M_h x_j> + <x_i, M_h xdot_j>), as balls."""
    s = exact_scores(cfg)
    beta = ball_of(cfg.beta)
    weights = [[[(beta * ball_of(sij)).exp() for sij in row] for row in head] for head in s]
    xdot = token_velocities(cfg, weights)
    n = cfg.n
    rates = []
    for h, M in enumerate(cfg.scores):
        Mx = [[ball_of(v) for v in _matvec(M, x)] for x in cfg.tokens]
        MTx = [[ball_of(v) for v in _matvec([list(col) for col in zip(*M, strict=True)], x)] for x in cfg.tokens]
        total = arb(0)
        for i in range(n):
            for j in range(n):
                rate = _dot(xdot[i], Mx[j]) + _dot(MTx[i], xdot[j])
                total += weights[h][i][j] * rate
        rates.append(total / (2 * n * n))
    return rates
