"""The model's rates at an exact configuration as expression trees, for Coq's `interval` (SPEC's definitions).

At rational tokens, heads and beta every score s^h_ij = <x_i, M_h x_j> and every row W_h x_j is an exact
rational (computed here with Fractions, as `ball_model.exact_scores`), so the trees contain only rationals,
`exp` of rational multiples of beta's scores, `log` of a softmax normalizer and the four operations. To keep
the Coq text small the trees are built over named definitions (`Rate.definitions`, in order: each may use the
earlier names), which one `Chain` per configuration builds on first use: the weights w^h_ij, the head outputs
f^h_i[k], the velocity components xdot_i[k], the score rates sdot^h_ij and the softmax rows. The quantities are those
of `certificates.kernel.ball_model` (which a test compares with `checks.model.field` in floats):
- dE_h/dt = (1/(2 n^2)) sum_ij exp(beta s^h_ij) sdot^h_ij, dE/dt = sum_h dE_h/dt, E_h = (1/(2 beta n^2)) sum_ij
  exp(beta s^h_ij);
- dH^h_i/dt = -sum_j beta p_j (sdot_j - sum_k p_k sdot_k) (beta (s_j - m_i) - log Z_i), p_j = e_j / Z_i,
  e_j = exp(beta (s_j - m_i)), m_i the exact row maximum; H^h_i = -sum_j p_j (beta (s_j - m_i) - log Z_i);
with w^h_ij = exp(beta s) (usa), p^h_ij (softmax), max(beta s, 0) / n (relu, exact), v_i = sum_h sum_j
w^h_ij W_h x_j (divided by n for usa) and xdot_i = v_i - <v_i, x_i> x_i on the sphere.
`NotTranslatable` beyond MAX_SIZE (n^2 H d).
"""

from __future__ import annotations

from collections.abc import Callable
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


def tree_of(v: Value) -> list[Any]:
    """The tree of a value (a rational becomes a `rat` node)."""
    return ["rat", rational_text(v)] if isinstance(v, Fraction) else v


def add(terms: list[Value]) -> Value:
    """The sum, with its rational parts folded (a rational when every term is one)."""
    constant = sum((t for t in terms if isinstance(t, Fraction)), Fraction(0))
    rest = [t for t in terms if not isinstance(t, Fraction)]
    if not rest:
        return constant
    parts = rest + ([constant] if constant else [])
    return parts[0] if len(parts) == 1 else ["add", *(tree_of(t) for t in parts)]


def mul(a: Value, b: Value) -> Value:
    """The product, folded when a factor is rational 0 or 1 or both are rational."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a * b
    for c, other in ((a, b), (b, a)):
        if isinstance(c, Fraction) and c == 0:
            return Fraction(0)
        if isinstance(c, Fraction) and c == 1:
            return other
    return ["mul", tree_of(a), tree_of(b)]


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


class Chain:
    """One configuration's definitions, each built on first use and once, in one `Rate`: the weights, the head
    outputs, the velocities and score rates, the softmax rows, and the quantities over them. Every quantity a
    statement needs (the registry's rates, a claims-file model claim's terms) shares these names."""

    def __init__(self, cfg: ball_model.ExactConfiguration) -> None:
        _check_size(cfg)
        self.cfg, self.rate = cfg, Rate()
        self.scores = ball_model.exact_scores(cfg)
        self._weights: list[list[list[Value]]] | None = None
        self._outputs: list[list[list[Value]]] | None = None
        self._sdot: list[list[list[Value]]] | None = None
        self._softmax: dict[tuple[int, int], tuple[list[Value], Value]] = {}

    def weights(self) -> list[list[list[Value]]]:
        """w^h_ij of the configuration's kind (named; relu's are exact rationals)."""
        if self._weights is None:
            self._weights = [[self._weight_row(h, i) for i in range(self.cfg.n)] for h in range(len(self.scores))]
        return self._weights

    def _weight_row(self, h: int, i: int) -> list[Value]:
        cfg, row = self.cfg, self.scores[h][i]
        if cfg.attention == "relu":
            return [max(cfg.beta * sij, Fraction(0)) / cfg.n for sij in row]
        if cfg.attention == "usa":
            return [self.rate.define(f"w_{h}_{i}_{j}", ["exp", tree_of(cfg.beta * sij)]) for j, sij in enumerate(row)]
        m = max(row)
        e = [self.rate.define(f"e_{h}_{i}_{j}", ["exp", tree_of(cfg.beta * (sij - m))]) for j, sij in enumerate(row)]
        Z = self.rate.define(f"Z_{h}_{i}", add(e))
        p = [self.rate.define(f"p_{h}_{i}_{j}", ["div", tree_of(ej), tree_of(Z)]) for j, ej in enumerate(e)]
        self._softmax[h, i] = (p, Z)
        return p

    def softmax(self, h: int, i: int) -> tuple[list[Value], Value]:
        """(p^h_i., Z^h_i): softmax_j(beta s^h_ij) shifted by the exact row maximum, the attention weights themselves
        for softmax attention, else named q_h_i_j over Zq_h_i."""
        if self.cfg.attention == "softmax":
            self.weights()
        if (h, i) not in self._softmax:
            row = self.scores[h][i]
            m = max(row)
            Z = self.rate.define(f"Zq_{h}_{i}", add([["exp", tree_of(self.cfg.beta * (sj - m))] for sj in row]))
            p = [
                self.rate.define(f"q_{h}_{i}_{j}", ["div", ["exp", tree_of(self.cfg.beta * (sj - m))], tree_of(Z)])
                for j, sj in enumerate(row)
            ]
            self._softmax[h, i] = (p, Z)
        return self._softmax[h, i]

    def _log_weight(self, h: int, i: int, j: int) -> Value:
        """log p^h_ij = beta (s_ij - m_i) - log Z_i."""
        row, Z = self.scores[h][i], self.softmax(h, i)[1]
        return add([self.cfg.beta * (row[j] - max(row)), mul(Fraction(-1), ["log", tree_of(Z)])])

    def outputs(self) -> list[list[list[Value]]]:
        """f^h_i[k] = sum_j w^h_ij (W_h x_j)[k] (named f_h_i_k)."""
        if self._outputs is None:
            w, cfg = self.weights(), self.cfg
            rows = [[_matvec(W, x) for x in cfg.tokens] for W in cfg.values]
            self._outputs = [
                [
                    [
                        self.rate.define(f"f_{h}_{i}_{k}", add([mul(w[h][i][j], rows[h][j][k]) for j in range(cfg.n)]))
                        for k in range(len(cfg.tokens[0]))
                    ]
                    for i in range(cfg.n)
                ]
                for h in range(len(w))
            ]
        return self._outputs

    def score_rates(self) -> list[list[list[Value]]]:
        """sdot^h_ij (named), from the kind's weights and the token velocities v_i, xdot_i (named)."""
        if self._sdot is None:
            self._sdot = self._score_rates()
        return self._sdot

    def _score_rates(self) -> list[list[list[Value]]]:
        cfg, rate, w = self.cfg, self.rate, self.weights()
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
                    [
                        rate.define(f"sdot_{h}_{i}_{j}", add([_dot(xdot[i], Mx[j]), _dot(MTx[i], xdot[j])]))
                        for j in range(n)
                    ]
                    for i in range(n)
                ]
            )
        return sdot

    def _exp_score(self, h: int, i: int, j: int) -> Value:
        """exp(beta s^h_ij): the named weight for usa attention, else the term itself."""
        if self.cfg.attention == "usa":
            return self.weights()[h][i][j]
        return ["exp", tree_of(self.cfg.beta * self.scores[h][i][j])]

    def head_energy(self, h: int) -> Value:
        """E_h = (1/(2 beta n^2)) sum_ij exp(beta s^h_ij) (the usa energy)."""
        n, beta = self.cfg.n, self.cfg.beta
        terms = [self._exp_score(h, i, j) for i in range(n) for j in range(n)]
        return mul(1 / (2 * beta * n * n), add(terms))

    def head_energy_rate(self, h: int) -> Value:
        """dE_h/dt = (1/(2 n^2)) sum_ij exp(beta s^h_ij) sdot^h_ij."""
        n, sdot = self.cfg.n, self.score_rates()
        terms = [mul(self._exp_score(h, i, j), sdot[h][i][j]) for i in range(n) for j in range(n)]
        return mul(Fraction(1, 2 * n * n), add(terms))

    def entropy(self, h: int, i: int) -> Value:
        """H^h_i = -sum_j p^h_ij log p^h_ij."""
        p = self.softmax(h, i)[0]
        return mul(Fraction(-1), add([mul(pj, self._log_weight(h, i, j)) for j, pj in enumerate(p)]))

    def entropy_rate(self, h: int, i: int) -> Value:
        """dH^h_i/dt = -sum_j beta p_j (sdot_j - sum_k p_k sdot_k) log p_j."""
        r, beta = self.score_rates()[h][i], self.cfg.beta
        p = self.softmax(h, i)[0]
        mean = self.rate.define(f"mean_{h}_{i}", _dot(p, r))
        terms = [
            mul(mul(mul(beta, pj), add([rj, mul(Fraction(-1), mean)])), self._log_weight(h, i, j))
            for j, (pj, rj) in enumerate(zip(p, r, strict=True))
        ]
        return mul(Fraction(-1), add(terms))


def _rate(cfg: ball_model.ExactConfiguration, quantity: Callable[[Chain], Value]) -> Rate:
    chain = Chain(cfg)
    chain.rate.value = quantity(chain)
    return chain.rate


def head_energy_rate(cfg: ball_model.ExactConfiguration, head: int) -> Rate:
    """dE_h/dt at the configuration, over its definitions."""
    return _rate(cfg, lambda chain: chain.head_energy_rate(head))


def energy_rate(cfg: ball_model.ExactConfiguration) -> Rate:
    """dE/dt = sum_h dE_h/dt at the configuration, over its definitions."""
    return _rate(cfg, lambda chain: add([chain.head_energy_rate(h) for h in range(len(cfg.score_matrices))]))


def entropy_rate(cfg: ball_model.ExactConfiguration, head: int, token: int) -> Rate:
    """dH^h_i/dt at the configuration (softmax distributions of the scores), over its definitions."""
    return _rate(cfg, lambda chain: chain.entropy_rate(head, token))


#: The tree builder of each certified model quantity, with the indices its axes take.
BUILDERS = {
    "energy_rate": lambda cfg, at: energy_rate(cfg),
    "head_energy_rate": lambda cfg, at: head_energy_rate(cfg, at["head"]),
    "entropy_rate": lambda cfg, at: entropy_rate(cfg, at["head"], at["token"]),
}
