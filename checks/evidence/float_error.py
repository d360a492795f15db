"""A first-order bound on the rounding error of the float model's terms (issue 39 item 3), in one place.

Every float value of a model term carries a magnitude m with |float - exact| <= gamma * m to first order in the unit
roundoff, gamma = `relative_bound` of the configuration: unit roundoff times the number of operations that feed a
term (n + d + H and a few) and the exponent's amplification of the data's rounding (1 + |beta| max |s|), with room to
spare. The magnitudes are those of a running error analysis: a primitive's is the sum of the absolute values of the
terms it sums (`Magnitudes`), and `Rounded` carries them through the term's arithmetic (sums add magnitudes, products
weigh each factor's by the other's size, and every operation adds the size of its own result). The float search of
`model` claims (`headflow.checks.evidence.model_witnesses`) compares each margin with its bound; a margin within it is
decided by balls, never by floats.

What the bound does not cover it says here: it is first order (terms of order gamma^2 are left out), and the data are
the float configuration itself (exact), so the balls that decide a margin within its bound are evaluated at exact
data within 2^-52 of it (`headflow.certificates.provers.witness.round_configuration`).
"""

from __future__ import annotations

import math
from functools import cached_property

import numpy as np
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.model.formulas import scalar_parts
from headflow.checks.model.token_blocks import heads_of

#: The unit roundoff of float64.
UNIT = 2.0**-53


def relative_bound(n: int, d: int, H: int, scaled: float) -> float:
    """gamma: the first-order relative rounding error of a float term of a configuration with n tokens in dimension d,
    H heads and |beta s| <= `scaled` (unit roundoff times the operations that feed it, amplified by the exponent)."""
    return 8.0 * UNIT * (n + d + H + 4) * (1.0 + scaled)


def configuration_bound(cfg: Configuration) -> float:
    """gamma of a float configuration (`relative_bound` at its sizes and its largest |beta s^h_ij|)."""
    return relative_bound(cfg.n, cfg.d, cfg.H, abs(cfg.beta) * float(np.max(np.abs(model.scores(cfg)))))


def magnitude(value: object) -> float:
    """The error magnitude of a number: its own for a `Rounded`, else its size (a plain float is taken as rounded)."""
    return value.mag if isinstance(value, Rounded) else abs(float(value))  # type: ignore[arg-type]


def _quotient(a: float, b: float) -> float:
    """a / b as numpy divides floats (inf or NaN at b = 0, no exception)."""
    with np.errstate(all="ignore"):
        return float(np.float64(a) / np.float64(b))


class Rounded(float):
    """A float with the magnitude `mag` of its rounding error, |value - exact| <= gamma * mag, gamma the relative
    bound of the configuration it was computed at (0 for a constant). A product is bounded with a factor's reach
    |a| + gamma m_a, not |a| alone: at a factor near 0 (a squared norm of a vector that floats round to 0) the
    first order alone would bound nothing."""

    mag: float
    gamma: float

    def __new__(cls, value: float, mag: float, gamma: float = 0.0) -> Rounded:
        out = super().__new__(cls, value)
        out.mag, out.gamma = mag, gamma
        return out

    @staticmethod
    def result(value: float, mag: float, *operands: object) -> Rounded:
        """An operation's result: the operands' propagated magnitude and the result's own rounding."""
        return Rounded(value, mag + abs(value), max(gamma_of(x) for x in operands))

    def reach(self) -> float:
        """|value| + gamma * mag: the largest size the exact value may have."""
        return abs(float(self)) + self.gamma * self.mag

    def __neg__(self) -> Rounded:
        return Rounded(-float(self), self.mag, self.gamma)

    def __add__(self, other: object) -> Rounded:
        return Rounded.result(float(self) + float(other), self.mag + magnitude(other), self, other)  # type: ignore[arg-type]

    __radd__ = __add__

    def __sub__(self, other: object) -> Rounded:
        return Rounded.result(float(self) - float(other), self.mag + magnitude(other), self, other)  # type: ignore[arg-type]

    def __rsub__(self, other: object) -> Rounded:
        return Rounded.result(float(other) - float(self), self.mag + magnitude(other), self, other)  # type: ignore[arg-type]

    def __mul__(self, other: object) -> Rounded:
        a, b = float(self), float(other)  # type: ignore[arg-type]
        return Rounded.result(a * b, self.reach() * magnitude(other) + abs(b) * self.mag, self, other)

    __rmul__ = __mul__

    def __truediv__(self, other: object) -> Rounded:
        return _divided(self, other)

    def __rtruediv__(self, other: object) -> Rounded:
        return _divided(other, self)

    def __pow__(self, k: int) -> Rounded:  # type: ignore[override]
        with np.errstate(all="ignore"):
            value = float(np.float64(float(self)) ** k)
        slope = k * self.reach() ** (k - 1) if k else 0.0
        return Rounded.result(value, slope * self.mag, self)


def gamma_of(value: object) -> float:
    """The relative bound a number was computed at (0 for a plain float)."""
    return value.gamma if isinstance(value, Rounded) else 0.0


def _divided(a: object, b: object) -> Rounded:
    """a / b: (m_a + |a / b| m_b) / (|b| - gamma m_b), unbounded where b may be 0."""
    value = _quotient(float(a), float(b))  # type: ignore[arg-type]
    low = abs(float(b)) - gamma_of(b) * magnitude(b)  # type: ignore[arg-type]
    mag = _quotient(magnitude(a) + abs(value) * magnitude(b), low) if low > 0 else math.inf
    return Rounded.result(value, mag, a, b)


def log(value: float) -> Rounded:
    """The logarithm (NaN off the domain, as numpy gives it): m / |value|."""
    a = float(value)
    return Rounded.result(math.log(a), magnitude(value) / a, value) if a > 0 else Rounded(math.nan, math.inf)


def root(value: float, gamma: float) -> Rounded:
    """The square root of a squared norm (rounding below 0 read as 0): m / (2 sqrt), or at most sqrt(gamma m) (in
    gamma's units sqrt(m / gamma)) where the root is near 0 and the first order fails."""
    r, m = math.sqrt(max(float(value), 0.0)), magnitude(value)
    steep = m / (2.0 * r) if r > 0 else math.inf
    flat = math.sqrt(m / gamma) if gamma > 0 else math.inf if m else 0.0
    return Rounded.result(r, min(steep, flat), value)


def rounded(values: np.ndarray, gamma: float, magnitudes: np.ndarray | None = None) -> list:
    """An array of float values at a configuration of relative bound `gamma` as nested lists of `Rounded`
    (magnitude: their size, or `magnitudes`)."""
    sizes = np.abs(values) if magnitudes is None else np.maximum(magnitudes, np.abs(values))
    if np.ndim(values) == 0:
        return Rounded(float(values), float(sizes), gamma)  # type: ignore[return-value]
    return [rounded(v, gamma, m) for v, m in zip(values, sizes, strict=True)]


class Magnitudes:
    """The magnitudes of a configuration's float primitives: the sums of the absolute values of the terms each one
    sums, as the numpy model (`headflow.checks.model.field`) forms them. On the sphere a head output is c x_i + R
    (`field.head_output_parts`), R formed from the differences x_j - x_i; the tangent velocity and the score rates
    come from R alone, so their magnitudes hold no e^(beta lambda) of a token's own weight."""

    def __init__(self, cfg: Configuration) -> None:
        self.cfg = cfg

    @cached_property
    def _norms(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """|W_h|_F, |M_h|_F, |M'_h|_F (M'_h = M_h - mu_h I), each (H,)."""
        cfg = self.cfg
        frobenius = lambda A: np.linalg.norm(A, axis=(1, 2))  # noqa: E731
        return frobenius(cfg.values), frobenius(cfg.score_matrices), frobenius(scalar_parts(cfg.score_matrices)[1])

    def scores(self) -> np.ndarray:
        """s^h_ij = <x_i, M_h x_j>: |x_i| |M_h x_j|, (H, n, n)."""
        X = self.cfg.tokens
        return np.linalg.norm(X, axis=1)[None, :, None] * np.linalg.norm(X @ self.cfg.score_matrices, axis=-1)[:, None]

    @cached_property
    def _weights(self) -> np.ndarray:
        return np.abs(model.weights(self.cfg))

    def outputs(self) -> np.ndarray:
        """f^h_i = sum_j w^h_ij W_h x_j: sum_j |w^h_ij| |W_h x_j|, (H, n)."""
        values = np.linalg.norm(self.cfg.tokens @ np.swapaxes(self.cfg.values, 1, 2), axis=-1)  # |W_h x_j|, (H, n)
        return np.einsum("hij,hj->hi", self._weights, values)

    @cached_property
    def rests(self) -> np.ndarray:
        """R^h_i = W_h sum_j w^h_ij (x_j - x_i) + Z^h_i W'_h x_i (`field.head_output_parts`): |W_h| sum_j |w^h_ij|
        |x_j - x_i| + Z^h_i |W'_h x_i|, (H, n)."""
        X, w = self.cfg.tokens, self._weights
        gaps = np.linalg.norm(X[None, :, :] - X[:, None, :], axis=-1)  # |x_j - x_i|
        rest = scalar_parts(self.cfg.values)[1]
        own = np.linalg.norm(X @ np.swapaxes(rest, 1, 2), axis=-1)  # |W'_h x_i|, (H, n)
        return self._norms[0][:, None] * np.einsum("hij,ij->hi", w, gaps) + w.sum(axis=-1) * own

    def means(self) -> np.ndarray:
        """xbar^h_i = sum_j p^h_ij x_j: sum_j p^h_ij |x_j|, (H, n)."""
        return model.attention_distributions(self.cfg) @ np.linalg.norm(self.cfg.tokens, axis=1)

    def energies(self) -> np.ndarray:
        """E_h: the sum of the absolute energy terms over the energy's factor, (H,)."""
        cfg = self.cfg
        total = np.zeros(cfg.H)
        for _, terms in heads_of(cfg).weight_blocks(cfg.tokens, "energy"):
            total += np.abs(terms).sum(axis=(1, 2))
        return total / (2.0 * cfg.n**2 * (1.0 if cfg.interaction is not None else abs(cfg.beta)))

    @cached_property
    def velocities(self) -> tuple[np.ndarray, np.ndarray]:
        """(xdot (n, d), the magnitude of each |xdot_i| (n,)): the sum over heads of its parts' magnitudes (R's on the
        sphere, the head outputs' elsewhere) with the usa share, plus its size."""
        cfg = self.cfg
        xdot = model.token_velocity(cfg)
        parts = self.rests if model.centered(cfg) else self.outputs()
        share = 1.0 / cfg.n if cfg.attention == "usa" else 1.0
        return xdot, share * parts.sum(axis=0) + np.linalg.norm(xdot, axis=1)

    @cached_property
    def _score_rates(self) -> tuple[np.ndarray, np.ndarray]:
        """(ds^h_ij/dt, the magnitude of its rounding), each (H, n, n): the velocity's magnitude (its R's on the
        sphere, the head outputs' elsewhere) and its size, through <xdot_i, M_h (x_j - x_i)> - <x_j - x_i, M_h
        xdot_j> + the own parts M'_h on the sphere (`field._centered_score_rates`), <xdot_i, M_h x_j> + <x_i, M_h
        xdot_j> elsewhere."""
        cfg = self.cfg
        xdot, moving = self.velocities
        sphere = model.centered(cfg)
        _, M, rest = self._norms
        X = cfg.tokens
        if sphere:
            gaps = np.linalg.norm(X[None, :, :] - X[:, None, :], axis=-1)
            pair = (moving[:, None] + moving[None, :]) * gaps
            mags = M[:, None, None] * pair[None] + rest[:, None, None] * (moving[:, None] + moving[None, :])[None]
        else:
            norms = np.linalg.norm(X, axis=1)
            pair = moving[:, None] * norms[None, :] + norms[:, None] * moving[None, :]
            mags = M[:, None, None] * pair[None]
        return model.score_rates(cfg, xdot), mags

    def energy_rates(self) -> np.ndarray:
        """dE_h/dt = sum_ij e_ij ds^h_ij/dt / (2 n^2): sum_ij |e_ij| (|sdot| + its magnitude) / (2 n^2), (H,)."""
        cfg = self.cfg
        sdot, mags = self._score_rates
        total = np.zeros(cfg.H)
        with np.errstate(over="ignore", invalid="ignore"):  # a stated phi's overflow: an unbounded magnitude
            for rows, e in heads_of(cfg).weight_blocks(cfg.tokens, "rate"):
                total += (np.abs(e) * (np.abs(sdot[:, rows]) + mags[:, rows])).sum(axis=(1, 2))
        return total / (2.0 * cfg.n**2)

    def entropy_rates(self) -> np.ndarray:
        """dH^h_i/dt = -sum_j beta p_ij (sdot_ij - sum_k p_ik sdot_ik) log p_ij: |beta| sum_j p_ij |log p_ij|
        (|sdot_ij| + m_ij + sum_k p_ik (|sdot_ik| + m_ik)), (H, n)."""
        p = model.attention_distributions(self.cfg)
        sdot, mags = self._score_rates
        sizes = np.abs(sdot) + mags
        with np.errstate(divide="ignore", invalid="ignore"):
            logs = np.where(p > 0, np.abs(np.log(np.where(p > 0, p, 1.0))), 0.0)
        mean = np.sum(p * sizes, axis=-1, keepdims=True)
        return abs(self.cfg.beta) * np.sum(p * logs * (sizes + mean), axis=-1)
