"""The model terms in floats, each value with the first-order bound of its rounding error (`float_error`).

`FloatAlgebra` is the kernel's algebra (`headflow.certificates.kernel.model_values`) over the numpy model
(`checks.model.field`): numbers are `float_error.Rounded` (a float and the magnitude of its error), vectors `Vector`
(an array and the magnitude of its error's norm), and on the sphere the tokens and head outputs are `Split` vectors
c x_i + r: the tangent projection of a token's own term c x_i is exactly 0 there, and the kernel's projection
(`model_values._project`) finds it so without cancelling it (issue 39), the error of c included.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np
from headflow.certificates.claims.model_algebra import NumericAlgebra
from headflow.checks.evidence import float_error
from headflow.checks.evidence.float_error import Magnitudes, Rounded, rounded
from headflow.checks.model import circle, families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration


def _norm(v: np.ndarray) -> float:
    return math.sqrt(float(np.vdot(v, v)))


@dataclass(frozen=True)
class Vector:
    """A float vector and the magnitude of its error: |value - exact| <= gamma * mag."""

    value: np.ndarray
    mag: float


@dataclass(frozen=True)
class Split:
    """The vector c x_i + r at the token x_i (unit on the sphere, exact data), kept in its parts: a head output whose
    own term c x_i = w_ii mu_h x_i is e^(beta lambda) times larger than the rest (`field.head_output_parts`). c is
    kept per source, `coef[h]` head h's own term and `coef[H]` the token itself or a product, with the magnitudes
    `cmag` of their errors, so that a projection or a difference takes a head's term back out exactly (F - f^h, the
    c that P_i added); `mag` is the magnitude of r's error; `unit`: the token x_i itself (c = 1 exactly, r = 0)."""

    token: int
    coef: np.ndarray
    cmag: np.ndarray
    rest: np.ndarray
    x: np.ndarray
    mag: float
    gamma: float
    unit: bool = False

    @cached_property
    def total(self) -> Rounded:
        """c, summed over its sources."""
        return Rounded(float(self.coef.sum()), float(self.cmag.sum() + np.abs(self.coef).sum()), self.gamma)

    def plain(self) -> Vector:
        c, rest = self.total, _norm(self.rest)
        return Vector(float(c) * self.x + self.rest, c.mag + self.mag + abs(c) + rest)


class Radial(Rounded):
    """<u, x_i> = c + <r, x_i> of a `Split` u (x_i a unit token), carrying c (per source, as `Split.coef`) and
    <r, x_i> apart: the kernel's projection u - <u, x_i> x_i then subtracts exactly the c it added, and keeps
    r - <r, x_i> x_i (issue 39)."""

    coef: np.ndarray
    cmag: np.ndarray
    small: Rounded

    def __new__(cls, coef: np.ndarray, cmag: np.ndarray, small: Rounded) -> Radial:
        total = float(coef.sum()) + float(small)
        mag = float(cmag.sum() + np.abs(coef).sum()) + small.mag + abs(total)
        out = super().__new__(cls, total, mag, small.gamma)
        out.coef, out.cmag, out.small = coef, cmag, small
        return out

    def __neg__(self) -> Radial:
        return Radial(-self.coef, self.cmag, -self.small)  # type: ignore[arg-type]


def _vector(u: Any) -> Vector:
    """A vector of the algebra as a `Vector` (a bare array: taken as rounded, its norm the magnitude)."""
    if isinstance(u, Split):
        return u.plain()
    return u if isinstance(u, Vector) else Vector(np.asarray(u), _norm(u))


def _number(q: Fraction) -> Rounded:
    """A constant of a term: exact where float64 holds it, else rounded."""
    value = float(q)
    return Rounded(value, 0.0 if Fraction(value) == q else abs(value))


def _product(u: Split, w: Split) -> tuple[np.ndarray, np.ndarray]:
    """The sources of c_u c_w: those of one factor where the other is the token itself (times 1, exactly), else one
    product in the last source."""
    if w.unit or u.unit:
        return (u.coef, u.cmag) if w.unit else (w.coef, w.cmag)
    cu, cw = u.total, w.total
    coef, cmag = np.zeros_like(u.coef), np.zeros_like(u.cmag)
    coef[-1], cmag[-1] = float(cu) * float(cw), cu.reach() * cw.mag + abs(float(cw)) * cu.mag + abs(cu * cw)
    return coef, cmag


@dataclass
class FloatAlgebra(NumericAlgebra):
    """The kernel's algebra over floats with their error magnitudes; `gamma` the configuration's relative bound
    (`float_error.configuration_bound`): a value v bounds its rounding error by gamma * v.mag (`error`)."""

    gamma: float = 0.0

    def error(self, value: float) -> float:
        """The first-order bound on the rounding error of a float value of this algebra."""
        return self.gamma * float_error.magnitude(value)

    def vector(self, name: str, token: int, head: int | None) -> Any:
        sphere = self.geometry == "sphere"
        if name == "F":  # sum_h f^h_i
            return self._total((self.vector("f", token, h) for h in range(self.get("H"))), True)
        x = self.get("x")[token]
        sources = np.zeros(self.get("H") + 1)
        if name == "x" and sphere:
            sources[-1] = 1.0
            return Split(token, sources, np.zeros_like(sources), np.zeros_like(x), x, 0.0, self.gamma, unit=True)
        if name == "x":
            return Vector(x, 0.0)
        if name == "f" and sphere:
            coef, rest = self.get("f_parts")
            sources[head] = coef[head][token]
            mag = float(self.get("rest_mag")[head][token])
            return Split(token, sources, np.abs(sources), rest[head][token], x, mag, self.gamma)
        return Vector(self.get(name)[head][token], float(self.get(f"{name}_mag")[head][token]))

    def scalar(self, name: str, token: int | None, head: int | None) -> Any:
        value = super().scalar(name, token, head)
        return value if isinstance(value, Rounded) else Rounded(float(value), 0.0, self.gamma)  # data: lambda_h

    def add(self, u: Any, w: Any) -> Any:
        if isinstance(u, Split) and isinstance(w, Split) and u.token == w.token:
            # a source that cancels exactly is one head's own term taken back out: its exact values cancel too
            rest, coef = u.rest + w.rest, u.coef + w.coef
            cmag = np.where(coef == 0.0, 0.0, u.cmag + w.cmag + np.abs(coef))
            return Split(u.token, coef, cmag, rest, u.x, u.mag + w.mag + _norm(rest), self.gamma)
        a, b = _vector(u), _vector(w)
        total = a.value + b.value
        return Vector(total, a.mag + b.mag + _norm(total))

    def scale(self, c: Any, u: Any) -> Any:
        k, km = float(c), float_error.magnitude(c)
        if not isinstance(u, Split):
            v = _vector(u)
            size = _norm(v.value)
            return Vector(k * v.value, abs(k) * v.mag + km * (size + self.gamma * v.mag) + abs(k) * size)
        rest = _norm(u.rest)
        if isinstance(c, Radial):  # (k + e) (a x + r) = k a x + (e a x + (k + e) r)
            e, a = c.small, u.total
            if u.unit:
                coef, cmag = c.coef, c.cmag
            else:
                coef, cmag = np.zeros_like(u.coef), np.zeros_like(u.cmag)
                ka = float(c.coef.sum()) * float(a)
                coef[-1], cmag[-1] = ka, float(c.cmag.sum()) * a.reach() + abs(float(c)) * a.mag + abs(ka)
            fe, fa = float(e), float(a)
            mag = e.mag * a.reach() + abs(fe) * a.mag + abs(fe * fa) + km * (rest + self.gamma * u.mag)
            mag += abs(k) * (u.mag + rest)
            return Split(u.token, coef, cmag, fe * fa * u.x + k * u.rest, u.x, mag, self.gamma)
        coef = k * u.coef
        cmag = abs(k) * u.cmag + km * (np.abs(u.coef) + self.gamma * u.cmag) + np.abs(coef)
        mag = abs(k) * u.mag + km * (rest + self.gamma * u.mag) + abs(k) * rest
        return Split(u.token, coef, cmag, k * u.rest, u.x, mag, self.gamma)

    def inner(self, u: Any, w: Any) -> Any:
        if isinstance(u, Split) and isinstance(w, Split) and u.token == w.token:  # <x_i, x_i> = 1
            x, tu, tw = u.x, u.total, w.total
            cu, cw = float(tu), float(tw)
            a, b, g = float(x @ w.rest), float(u.rest @ x), float(u.rest @ w.rest)
            ru, rw = _norm(u.rest), _norm(w.rest)
            reach_u = ru + self.gamma * u.mag
            mag = tu.reach() * w.mag + tu.mag * abs(a) + tw.reach() * u.mag + tw.mag * abs(b)
            mag += reach_u * w.mag + rw * u.mag + abs(cu) * rw + abs(cw) * ru + ru * rw
            return Radial(*_product(u, w), Rounded(cu * a + cw * b + g, mag, self.gamma))
        a, b = _vector(u), _vector(w)
        na, nb = _norm(a.value), _norm(b.value)
        mag = (na + self.gamma * a.mag) * b.mag + nb * a.mag + na * nb
        return Rounded(float(np.dot(a.value, b.value)), mag, self.gamma)

    def apply(self, matrix: str, head: int, u: Any) -> Any:
        """M_h u or W_h u."""
        A, v = self.get(matrix)[head], _vector(u)
        size = _norm(A)
        return Vector(A @ v.value, size * (v.mag + _norm(v.value)))

    def root(self, value: Any) -> Any:
        """The square root of a squared norm (rounding below 0 read as 0)."""
        return float_error.root(value, self.gamma)

    def log(self, value: Any) -> Any:
        """The logarithm (NaN off the domain, as numpy gives it)."""
        return float_error.log(value)


def float_algebra(cfg: Configuration, delta: Fraction | None = None) -> FloatAlgebra:
    """The model terms at a float configuration (numpy model) with their error magnitudes; `delta` the claim's
    stated bound, if any."""
    mags, gamma = Magnitudes(cfg), float_error.configuration_bound(cfg)
    readers = {
        "n": lambda: cfg.n,
        "d": lambda: cfg.d,
        "H": lambda: cfg.H,
        "beta": lambda: Rounded(float(cfg.beta), 0.0, gamma),
        "x": lambda: cfg.tokens,
        "f": lambda: model.head_outputs(cfg),
        "f_mag": mags.outputs,
        "f_parts": lambda: model.head_output_parts(cfg),
        "rest_mag": lambda: mags.rests,
        "E_h": lambda: rounded(model.head_energies(cfg), gamma, mags.energies()),
        "dE_h_dt": lambda: rounded(model.head_energy_rates(cfg), gamma, mags.energy_rates()),
        "entropy": lambda: rounded(model.attention_entropies(cfg), gamma),
        "entropy_rate": lambda: rounded(model.entropy_rates(cfg), gamma, mags.entropy_rates()),
        "s": lambda: rounded(model.scores(cfg), gamma, mags.scores()),
        "w": lambda: rounded(model.weights(cfg), gamma),
        "p": lambda: rounded(model.attention_distributions(cfg), gamma),
        "Z": lambda: rounded(model.partition_functions(cfg), gamma),
        "xbar": lambda: model.attention_means(cfg),
        "xbar_mag": mags.means,
        "M": lambda: cfg.score_matrices,
        "W": lambda: cfg.values,
        "cluster_gap": lambda: rounded(np.float64(model.cluster_gap(cfg)), gamma, np.float64(2.0)),
        "delta": lambda: _number(_stated_bound(delta)),
        "delta_op": lambda: rounded(np.float64(families.max_cross_product_norm(cfg.score_matrices)), gamma),
        "R": lambda: rounded(np.float64(circle.order_parameter(cfg)), gamma, np.mean(model.token_norms(cfg))),
        "dR_dt": lambda: _order_parameter_rate(cfg, mags, gamma),
        "norm_rate": lambda: rounded(model.token_norm_rates(cfg), gamma, mags.velocities[1]),
        "misalignment": lambda: rounded(
            np.array([np.linalg.norm(D, 2) for D in cfg.values - cfg.score_matrices], dtype=float), gamma
        ),
    }
    return FloatAlgebra(lambda name: readers[name](), _number, cfg.attention, cfg.geometry, gamma=gamma)


def _order_parameter_rate(cfg: Configuration, mags: Magnitudes, gamma: float) -> Rounded:
    """dR/dt = <m, mdot>/R with its magnitude: the mean of the velocities' magnitudes over R (unbounded at R = 0, where
    a margin of the right derivative |mdot| is not certified by floats)."""
    R = circle.order_parameter(cfg)
    spread = float(np.mean(mags.velocities[1])) / R if R > 0 else math.inf
    return rounded(np.float64(circle.order_parameter_rate(cfg)), gamma, np.float64(spread))


def _stated_bound(delta: Fraction | None) -> Fraction:
    """The stated delta of a claim that names `delta` (whose fields require the hypothesis)."""
    if delta is None:
        raise ValueError("`delta` is named by a claim that states orthogonal-heads(delta=q)")
    return delta
