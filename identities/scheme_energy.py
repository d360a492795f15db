"""The energy of the directions under the normalization schemes: non-decreasing wherever the heads make it a gradient.

Every scheme moves the direction y_i = x_i/|x_i| of a token along the Post-LN field times a positive speed:

    y_i' = sigma_i P⊥_{y_i} v_i(Y),  sigma_i = 1/r_i (pre-ln, mix-ln), 1/(r_i |v_i|) (peri-ln), 1/|v_i| (ngpt),

with r_i = |x_i| (`direction_motion` derives it from each scheme's x_i' in coordinates: y' = P⊥_y x' / r is the
derivative of x/|x|). For one head with M_h = M_h^T and W_h = M_h, the gradient lemma (`identities.energy`) gives
dE_h/dt = (1/n^2) sum_k <y_k', f^h_k> for every motion of unit tokens, f^h_k = sum_j e^{beta s^h_kj} M_h y_j. Then

- usa, any number of heads: v_k = (1/n) sum_h f^h_k, so dE/dt = (1/n) sum_k <y_k', v_k>;
- softmax, one head: v_k = f_k / Z_k with Z_k = sum_j e^{beta s_kj} > 0, so dE/dt = (1/n^2) sum_k Z_k <y_k', v_k>;

and <sigma P⊥_y v, v> = sigma |P⊥_y v|^2 >= 0 (|y| = 1), so dE/dt is a sum of non-negative terms: the energy of the
directions never decreases along the flow, on the interval where it is defined (r_i > 0; v_i != 0 where Norm(v_i)
is taken). With several softmax heads the Z^h_k differ per head and no such sum appears (false in general), as
without symmetric aligned heads; those claims are left to the search, whose certified witnesses refute them.
"""

from __future__ import annotations

import functools

import sympy as sp
from headflow.identities.derivation import Derivation
from headflow.identities.energy import gradient_lemma
from headflow.identities.signs import facts

#: The schemes and the speed sigma of their directions (the Post-LN field times sigma).
SPEEDS = {"pre-ln": "1/r", "mix-ln": "1/r", "peri-ln": "1/(r |v|)", "ngpt": "1/|v|"}
MIX_SHARE = sp.Rational(3, 4)

_x = sp.symbols("x_1:4", real=True)
_xdot = sp.symbols("xdot_1:4", real=True)
_v = sp.symbols("v_1:4", real=True)


def _dot(u: tuple[sp.Expr, ...], w: tuple[sp.Expr, ...]) -> sp.Expr:
    return sum((a * b for a, b in zip(u, w, strict=True)), sp.Integer(0))


def _tangent(u: tuple[sp.Expr, ...], y: tuple[sp.Expr, ...]) -> tuple[sp.Expr, ...]:
    """P⊥_y u = u - <u, y> y."""
    along = _dot(u, y)
    return tuple(a - along * b for a, b in zip(u, y, strict=True))


def direction_motion(derivation: Derivation, geometry: str, factor: sp.Expr | int = 1) -> None:
    """y' = sigma P⊥_y v for the scheme, each step checked exactly in coordinates of R^3 (the computation is the
    same coordinate by coordinate in every d). The true statement has `factor` 1 (sigma as in SPEEDS); other
    values are accepted so that tests can check that a wrong speed does not prove."""
    r = sp.sqrt(_dot(_x, _x))
    y = tuple(a / r for a in _x)
    derivative = tuple(sum((sp.diff(yk, xj) * dj for xj, dj in zip(_x, _xdot, strict=True)), sp.Integer(0)) for yk in y)
    derivation.all_zero(
        "the derivative of y = x/|x| along x' is P⊥_y x' / r, r = |x|",
        [d - t / r for d, t in zip(derivative, _tangent(_xdot, y), strict=True)],
        r"\dot y = P^\perp_y \dot x / r",
    )
    norm_v = sp.sqrt(_dot(_v, _v))
    on_sphere = tuple(a / r for a in _x)  # nGPT keeps r = 1: its x is y
    updates = {
        "pre-ln": (tuple(_v), 1 / r),
        "mix-ln": (tuple((1 - MIX_SHARE) * p + MIX_SHARE * a for p, a in zip(_tangent(_v, y), _v, strict=True)), 1 / r),
        "peri-ln": (tuple(a / norm_v for a in _v), 1 / (r * norm_v)),
        "ngpt": (tuple(p / norm_v for p in _tangent(_v, on_sphere)), 1 / norm_v),
    }
    update, sigma = updates[geometry]
    sigma = factor * sigma
    scale = sp.Integer(1) if geometry == "ngpt" else r  # nGPT's tokens are unit vectors: y' = x'
    derivation.all_zero(
        f"{geometry}: with its update x' (docs/models.md) the directions move as y' = sigma P⊥_y v(Y), "
        f"sigma = {SPEEDS[geometry]} > 0",
        [t / scale - sigma * p for t, p in zip(_tangent(update, y), _tangent(_v, y), strict=True)],
        r"\dot y_i = \sigma_i P^\perp_{y_i} v_i(Y)",
    )


@functools.cache
def _lemma(beta_sign: str) -> Derivation:
    """The gradient lemma for beta of that sign, derived once per process (`Derivation.include` only reads it)."""
    return gradient_lemma(beta_sign=beta_sign)


def energy_rate(derivation: Derivation, geometry: str, attention: str, heads: int, beta_sign: str) -> None:
    """The steps that make dE/dt a sum of non-negative terms under the scheme (module docstring); a failure in
    `derivation` when the kind and number of heads are outside the statement."""
    derivation.holds(
        f"{attention} attention with {heads} head(s): usa, or softmax with one head (a common normaliser per token)",
        attention == "usa" or (attention == "softmax" and heads == 1),
    )
    direction_motion(derivation, geometry)
    derivation.include(_lemma(beta_sign), "gradient lemma (M_h symmetric, W_h = M_h)")
    derivation.note(
        "usa: v_k = (1/n) sum_h f^h_k, so dE/dt = sum_h dE_h/dt = (1/n) sum_k <y_k', v_k>"
        if attention == "usa"
        else "softmax, one head: f_k = Z_k v_k with Z_k = sum_j e^(beta s_kj) > 0, so dE/dt = (1/n^2) sum_k Z_k "
        "<y_k', v_k>",
        r"\frac{dE}{dt} = \sum_k c_k \langle \dot y_k, v_k\rangle,\ c_k > 0",
    )
    y = tuple(a / sp.sqrt(_dot(_x, _x)) for a in _x)
    projected = _tangent(_v, y)
    derivation.zero(
        "<P⊥_y v, v> = |P⊥_y v|^2 for a unit y, so each term c_k sigma_k <P⊥_{y_k} v_k, v_k> = c_k sigma_k "
        "|P⊥_{y_k} v_k|^2",
        _dot(projected, _v) - _dot(projected, projected),
    )
    weight, square = sp.symbols("c_sigma q", positive=True)
    derivation.sign(
        "c_k sigma_k > 0 and |P⊥ v_k|^2 >= 0: every term is >= 0, so dE/dt >= 0 where the flow is defined "
        "(r_k > 0, and v_k != 0 where Norm(v_k) is taken)",
        weight * square,
        ">=0",
        facts(positive=[weight, square]),
        r"\frac{dE}{dt} \ge 0",
    )
