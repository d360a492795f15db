"""The model's rates at an exact configuration as expression trees, for Coq's `interval` (SPEC's definitions).

At rational tokens, heads and beta every score s^h_ij = <x_i, M_h x_j> and every row W_h x_j is an exact
rational (computed here with Fractions, as `ball_model.exact_scores`), so the trees contain only rationals,
`exp` of rational multiples of beta's scores, `log` of a softmax normalizer and the four operations. To keep
the Coq text small the trees are built over named definitions (`Rate.definitions`, in order: each may use the
earlier names): the weights w^h_ij, the velocity components xdot_i[k] and the score rates sdot^h_ij. The
quantities are those of `certificates.kernel.ball_model` (which a test compares with `checks.model.field` in floats):
- dE_h/dt = (1/(2 n^2)) sum_ij exp(beta s^h_ij) sdot^h_ij, dE/dt = sum_h dE_h/dt;
- dH^h_i/dt = -sum_j beta p_j (sdot_j - sum_k p_k sdot_k) (beta (s_j - m_i) - log Z_i), p_j = e_j / Z_i,
  e_j = exp(beta (s_j - m_i)), m_i the exact row maximum;
with w^h_ij = exp(beta s) (usa), p^h_ij (softmax), max(beta s, 0) / n (relu, exact), v_i = sum_h sum_j
w^h_ij W_h x_j (divided by n for usa) and xdot_i = v_i - <v_i, x_i> x_i on the sphere.
`NotTranslatable` beyond MAX_SIZE (n^2 H d).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from certificates.kernel import ball_model
from certificates.kernel.coq.terms import NotTranslatable
from certificates.kernel.exprtree import rational_text

#: The largest n^2 H d a configuration's Coq statement may have. The file proves one bound per definition
#: (`statements`), so coqc's time grows with the number of definitions: about 20 s of CPU at n^2 H d = 216
#: (the largest registry witness); past this bound it would near coqc's time limit.
MAX_SIZE = 512
Value = Fraction | list


def _tree(v: Value) -> list[Any]:
    return ["rat", rational_text(v)] if isinstance(v, Fraction) else v


def add(terms: list[Value]) -> Value:
    """The sum, with its rational parts folded (a rational when every term is one)."""
    constant = sum((t for t in terms if isinstance(t, Fraction)), Fraction(0))
    rest = [t for t in terms if not isinstance(t, Fraction)]
    if not rest:
        return constant
    parts = rest + ([constant] if constant else [])
    return parts[0] if len(parts) == 1 else ["add", *(_tree(t) for t in parts)]


def mul(a: Value, b: Value) -> Value:
    """The product, folded when a factor is rational 0 or 1 or both are rational."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a * b
    for c, other in ((a, b), (b, a)):
        if isinstance(c, Fraction) and c == 0:
            return Fraction(0)
        if isinstance(c, Fraction) and c == 1:
            return other
    return ["mul", _tree(a), _tree(b)]


@dataclass
class Rate:
    """Named definitions (name, tree) in order, and the quantity's tree over them."""

    definitions: list[tuple[str, list[Any]]] = field(default_factory=list)
    value: Value = Fraction(0)

    def define(self, name: str, v: Value) -> Value:
        """A rational stays itself; a tree gets a name, and the name's symbol stands for it."""
        if isinstance(v, Fraction):
            return v
        self.definitions.append((name, v))
        return ["sym", name]


def _dot(u: list[Value], w: list[Value]) -> Value:
    return add([mul(a, b) for a, b in zip(u, w, strict=True)])


def _matvec(M: list[list[Fraction]], x: list[Fraction]) -> list[Fraction]:
    return [sum((m * xi for m, xi in zip(row, x, strict=True)), Fraction(0)) for row in M]


def _check_size(cfg: ball_model.ExactConfiguration) -> None:
    size = cfg.n * cfg.n * len(cfg.score_matrices) * len(cfg.tokens[0])
    if size > MAX_SIZE:
        raise NotTranslatable(f"too large: n^2 H d = {size} (the Coq statement takes at most {MAX_SIZE})")


def _weights(cfg: ball_model.ExactConfiguration, s: list[list[list[Fraction]]], rate: Rate) -> list[list[list[Value]]]:
    out: list[list[list[Value]]] = []
    for h, head in enumerate(s):
        rows = []
        for i, row in enumerate(head):
            if cfg.attention == "relu":
                rows.append([max(cfg.beta * sij, Fraction(0)) / cfg.n for sij in row])
                continue
            if cfg.attention == "usa":
                rows.append(
                    [rate.define(f"w_{h}_{i}_{j}", ["exp", _tree(cfg.beta * sij)]) for j, sij in enumerate(row)]
                )
                continue
            m = max(row)
            e = [rate.define(f"e_{h}_{i}_{j}", ["exp", _tree(cfg.beta * (sij - m))]) for j, sij in enumerate(row)]
            Z = rate.define(f"Z_{h}_{i}", add(e))
            rows.append([rate.define(f"p_{h}_{i}_{j}", ["div", _tree(ej), _tree(Z)]) for j, ej in enumerate(e)])
        out.append(rows)
    return out


def _score_rates(cfg: ball_model.ExactConfiguration, rate: Rate) -> tuple[list[list[list[Fraction]]], list]:
    """The exact scores and sdot^h_ij (named), from the kind's weights and token velocities."""
    _check_size(cfg)
    s = ball_model.exact_scores(cfg)
    w = _weights(cfg, s, rate)
    n, d, tokens = cfg.n, len(cfg.tokens[0]), cfg.tokens
    rows = [[_matvec(W, x) for x in tokens] for W in cfg.values]
    xdot: list[list[Value]] = []
    for i in range(n):
        v = [add([mul(w[h][i][j], rows[h][j][k]) for h in range(len(w)) for j in range(n)]) for k in range(d)]
        if cfg.attention == "usa":
            v = [mul(Fraction(1, n), vk) for vk in v]
        v = [rate.define(f"v_{i}_{k}", vk) for k, vk in enumerate(v)]
        if cfg.geometry == "sphere":
            radial = rate.define(f"r_{i}", _dot(v, list(tokens[i])))
            v = [add([vk, mul(-tokens[i][k], radial)]) for k, vk in enumerate(v)]
        xdot.append([rate.define(f"xdot_{i}_{k}", vk) for k, vk in enumerate(v)])
    sdot = []
    for h, M in enumerate(cfg.score_matrices):
        Mx = [_matvec(M, x) for x in tokens]
        MTx = [_matvec([list(c) for c in zip(*M, strict=True)], x) for x in tokens]
        sdot.append(
            [
                [rate.define(f"sdot_{h}_{i}_{j}", add([_dot(xdot[i], Mx[j]), _dot(MTx[i], xdot[j])])) for j in range(n)]
                for i in range(n)
            ]
        )
    return s, sdot


def head_energy_rate(cfg: ball_model.ExactConfiguration, head: int) -> Rate:
    """dE_h/dt at the configuration, over its definitions."""
    rate = Rate()
    s, sdot = _score_rates(cfg, rate)
    rate.value = _head_energy(cfg, s, sdot, head)
    return rate


def _head_energy(cfg: ball_model.ExactConfiguration, s: list, sdot: list, h: int) -> Value:
    n = cfg.n
    terms = [mul(["exp", _tree(cfg.beta * s[h][i][j])], sdot[h][i][j]) for i in range(n) for j in range(n)]
    return mul(Fraction(1, 2 * n * n), add(terms))


def energy_rate(cfg: ball_model.ExactConfiguration) -> Rate:
    """dE/dt = sum_h dE_h/dt at the configuration, over its definitions."""
    rate = Rate()
    s, sdot = _score_rates(cfg, rate)
    rate.value = add([_head_energy(cfg, s, sdot, h) for h in range(len(s))])
    return rate


def entropy_rate(cfg: ball_model.ExactConfiguration, head: int, token: int) -> Rate:
    """dH^h_i/dt at the configuration (softmax distributions of the scores), over its definitions."""
    rate = Rate()
    s, sdot = _score_rates(cfg, rate)
    row, r = s[head][token], sdot[head][token]
    m = max(row)
    e = [["exp", _tree(cfg.beta * (sj - m))] for sj in row]
    Z = rate.define("Z_row", add(e))
    p = [rate.define(f"q_{j}", ["div", ej, _tree(Z)]) for j, ej in enumerate(e)]
    mean = rate.define("mean", _dot(p, r))
    log_Z = ["log", _tree(Z)]
    terms = [
        mul(
            mul(mul(cfg.beta, pj), add([rj, mul(Fraction(-1), mean)])),
            add([cfg.beta * (sj - m), mul(Fraction(-1), log_Z)]),
        )
        for pj, rj, sj in zip(p, r, row, strict=True)
    ]
    rate.value = mul(Fraction(-1), add(terms))
    return rate


#: The tree builder of each certified model quantity, with the indices its axes take.
BUILDERS = {
    "energy_rate": lambda cfg, at: energy_rate(cfg),
    "head_energy_rate": lambda cfg, at: head_energy_rate(cfg, at["head"]),
    "entropy_rate": lambda cfg, at: entropy_rate(cfg, at["head"], at["token"]),
}
