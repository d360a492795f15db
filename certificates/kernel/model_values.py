"""Model terms at one configuration: floats for the search, balls at exact data for witnesses and `check-cert`.

`NumericAlgebra` interprets the model terms (`certificates.kernel.model_terms`) over numbers: vectors are
sequences, sums are loops over the tokens and heads. Its primitives (tokens, head outputs, energies and their rates,
attention entropies and their rates) come from a `source`: `ball_source` reads them from the ball model at exact data
(`certificates.kernel.ball_model`); the float search gives the numpy model's (`checks.model.field`).

`settle` is the one check of a witness configuration, shared by the prover that writes a witness and the checker
that re-checks it: the claim's kind, geometry and hypotheses hold exactly, every `given` condition holds at every
token (balls), its sizes lie in the claim's ranges (exactly), and `rhs - lhs` has the sign that negates the claim's
relation (a universal claim: a counterexample) or that states it (an existence claim: an instance) at the witness's
token and head (balls; `witnessed`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Any

from flint import arb

from certificates.kernel import ball_model
from certificates.kernel.exact import ball_of, settling_sign
from certificates.kernel.exact_data import exact_scores
from certificates.kernel.masks import claim_mask, mask_text
from certificates.kernel.model_terms import NEGATED, STATED, Relation, evaluate
from certificates.kernel.operator_norm import max_cross_operator_norm, operator_norm


def witnessed(claim: Any) -> str:
    """The relation of `rhs - lhs` to 0 that a witness of the claim settles: the negation of a universal claim's
    relation (a counterexample), the relation itself for an existence claim (an instance; its op is never `=`)."""
    return STATED[claim.relation.op] if claim.exists else NEGATED[claim.relation.op]


@dataclass
class NumericAlgebra:
    """Model terms over numbers (floats or balls); `source(name)` gives a primitive: n, d, H, beta, x (n x d),
    f, xbar (H x n x d), E_h, dE_h_dt (H), entropy, entropy_rate, Z (H x n), the pair scalars s, w, p (H x n x n),
    M, W (H x d x d), cluster_gap, delta, delta_op, misalignment (H); each is
    read once."""

    source: Callable[[str], Any]
    number: Callable[[Fraction], Any]
    attention: str
    geometry: str
    cache: dict[str, Any] = field(default_factory=dict)

    def get(self, name: str) -> Any:
        if name not in self.cache:
            self.cache[name] = self.source(name)
        return self.cache[name]

    def symbol(self, name: str) -> Any:
        """n, d, H as numbers of the algebra (`number`), never Python ints: d / n of two ints is a rounded float."""
        value = self.get(name)
        return self.number(Fraction(value)) if isinstance(value, int) else value

    def vector(self, name: str, token: int, head: int | None) -> Any:
        if name == "x":
            return self.get("x")[token]
        if name in ("f", "xbar"):
            return self.get(name)[head][token]
        heads = self.get("f")
        total = heads[0][token]
        for h in range(1, len(heads)):
            total = self.add(total, heads[h][token])
        return total

    def scalar(self, name: str, token: int | None, head: int | None) -> Any:
        if name in ("E", "dE_dt"):
            values = self.get("E_h" if name == "E" else "dE_h_dt")
            return sum(values[1:], values[0])
        if name in ("E_h", "dE_h_dt"):
            return self.get(name)[head]
        if name == "lambda_h":  # M_h = lambda_h I (the claim assumes scalar-heads, which the witness satisfies)
            return self.get("M")[head][0][0]
        if name == "misalignment_h":  # |W_h - M_h|_op
            return self.get("misalignment")[head]
        if name in ("cluster_gap", "delta", "delta_op"):
            return self.get(name)
        return self.get(name.removesuffix("_h_i"))[head][token]

    def pair_scalar(self, name: str, head: int, first: int, second: int) -> Any:
        return self.get(name)[head][first][second]

    def apply(self, matrix: str, head: int, u: Any) -> list[Any]:
        """M_h u or W_h u."""
        return [self.inner(row, u) for row in self.get(matrix)[head]]

    def root(self, value: Any) -> Any:
        """The square root of a value >= 0 (a squared norm): a ball's own, or for a ball that reaches below 0 (the
        value itself is >= 0) a ball containing [0, sqrt of its upper end]; a float's (rounding below 0 read as 0)."""
        if not hasattr(value, "sqrt"):
            return math.sqrt(max(value, 0.0))
        if value > 0:
            return value.sqrt()
        return arb(0).union(arb(value.upper()).sqrt())

    def log(self, value: Any) -> Any:
        """The logarithm of a ball (its own method) or of a float (NaN off the domain, as numpy gives it)."""
        return value.log() if hasattr(value, "log") else math.log(value) if value > 0 else math.nan

    def add(self, u: Any, w: Any) -> list[Any]:
        return [a + b for a, b in zip(u, w, strict=True)]

    def scale(self, c: Any, u: Any) -> list[Any]:
        return [c * a for a in u]

    def inner(self, u: Any, w: Any) -> Any:
        terms = [a * b for a, b in zip(u, w, strict=True)]
        return sum(terms[1:], terms[0])

    def token_sum(self, body: Callable[[int], Any], vector: bool = False) -> Any:
        return self._total((body(k) for k in range(self.get("n"))), vector)

    def head_sum(self, body: Callable[[int], Any], vector: bool = False) -> Any:
        return self._total((body(h) for h in range(self.get("H"))), vector)

    def _total(self, values: Iterator[Any], vector: bool) -> Any:
        first = next(values)
        for value in values:
            first = self.add(first, value) if vector else first + value
        return first


def ball_algebra(cfg: ball_model.ExactConfiguration, delta: Fraction | None = None) -> NumericAlgebra:
    """The model terms at exact data, as balls (at the working precision of the caller's context); `delta` is the
    claim's stated bound (`ball_model.stated_delta`), for claims that name it."""

    def source(name: str) -> Any:
        sizes = {"n": cfg.n, "d": len(cfg.tokens[0]), "H": len(cfg.score_matrices)}
        if name in sizes:
            return sizes[name]
        readers: dict[str, Callable[[], Any]] = {
            "beta": lambda: ball_of(cfg.beta),
            "x": lambda: [[ball_of(v) for v in x] for x in cfg.tokens],
            "f": lambda: ball_model.head_outputs(cfg),
            "E_h": lambda: ball_model.head_energies(cfg),
            "dE_h_dt": lambda: ball_model.head_energy_rates(cfg),
            "entropy": lambda: ball_model.attention_entropies(cfg),
            "entropy_rate": lambda: ball_model.entropy_rates(cfg),
            "s": lambda: [[[ball_of(v) for v in row] for row in head] for head in exact_scores(cfg)],
            "w": lambda: ball_model.attention_weights(cfg),
            "p": lambda: ball_model.softmax_distributions(cfg),
            "Z": lambda: ball_model.partition_functions(cfg),
            "xbar": lambda: ball_model.attention_means(cfg),
            "M": lambda: [[[ball_of(m) for m in row] for row in M] for M in cfg.score_matrices],
            "W": lambda: [[[ball_of(w) for w in row] for row in W] for W in cfg.values],
            "cluster_gap": lambda: ball_of(exact_cluster_gap(cfg.tokens)),
            "delta": lambda: ball_of(stated_bound(delta)),
            "delta_op": lambda: max_cross_operator_norm(cfg.score_matrices),
            "misalignment": lambda: [
                operator_norm([[w - m for w, m in zip(*rows, strict=True)] for rows in zip(W, M, strict=True)])
                for W, M in zip(cfg.values, cfg.score_matrices, strict=True)
            ],
        }
        return readers[name]()

    return NumericAlgebra(source, ball_of, cfg.attention, cfg.geometry)


def stated_bound(delta: Fraction | None) -> Fraction:
    """The stated delta of a claim that names `delta` (whose fields require the hypothesis)."""
    if delta is None:
        raise ValueError("`delta` is named by a claim that states orthogonal-heads(delta=q)")
    return delta


def exact_cluster_gap(tokens: list[list[Fraction]]) -> Fraction:
    """1 - min_{i != j} <x_i, x_j> of exact tokens, exactly."""
    n = len(tokens)
    products = (
        sum((a * b for a, b in zip(tokens[i], tokens[j], strict=True)), Fraction(0))
        for i in range(n)
        for j in range(n)
        if i != j
    )
    return 1 - min(products)


def residual(relation: Relation, algebra: NumericAlgebra, at: dict[str, int]) -> Any:
    """rhs - lhs of the relation at the token and head of `at`."""
    token, head = at.get("i"), at.get("h")
    return evaluate(relation.rhs, algebra, token, head) - evaluate(relation.lhs, algebra, token, head)


def index_values(free: frozenset[str], at: dict[str, int], sizes: dict[str, int]) -> Iterator[dict[str, int]]:
    """Every binding of the free indices, those of `at` kept: a condition holds for each of them."""
    names = sorted(free)
    ranges = [[at[k]] if k in at else range(sizes[k]) for k in names]
    for values in product(*ranges):
        yield dict(zip(names, values, strict=True))


@dataclass
class Settled:
    """The witness's residual ball and the sign that settled it ("" when none did), and what failed."""

    value: Any = None
    sign: str = ""
    failures: list[str] = field(default_factory=list)


def model_options_failures(claim: Any, cfg: ball_model.ExactConfiguration) -> list[str]:
    """What the exact data violate of the claim's sign of beta and its mask, exactly."""
    failures = []
    if (cfg.beta < 0) != (claim.beta_sign == "negative") or cfg.beta == 0:
        failures.append(f"the claim is about beta {'< 0' if claim.beta_sign == 'negative' else '> 0'}")
    if cfg.mask != claim_mask(claim.mask, getattr(claim, "mask_rows", None), cfg.n):
        failures.append(f"the claim is about {mask_text(claim.mask, getattr(claim, 'mask_rows', None)) or 'no mask'}")
    return failures


def settle(claim: Any, cfg: ball_model.ExactConfiguration, at: dict[str, int]) -> Settled:
    """Whether the exact configuration witnesses the model claim's negation (universal) or the claim (existence)
    at the token and head of `at` (balls at the caller's precision): kind, geometry and hypotheses exactly, every
    given condition, then the relation of `witnessed`."""
    out = Settled()
    if cfg.attention != claim.attention or cfg.geometry != claim.geometry:
        out.failures.append(f"the claim is about {claim.attention} attention and {claim.geometry} dynamics")
    if cfg.n < 2:
        out.failures.append("the claim is about n >= 2 tokens")
    out.failures += model_options_failures(claim, cfg)
    negative = claim.beta_sign == "negative"
    out.failures += claim.sizes.check(cfg.n, len(cfg.tokens[0]), len(cfg.score_matrices), Fraction(cfg.beta), negative)
    out.failures += [f"violates {name}" for name in ball_model.hypothesis_failures(cfg, claim.hypotheses)]
    stated = claim.interaction.tree if claim.interaction is not None else None
    if (cfg.interaction.tree if cfg.interaction is not None else None) != stated:
        out.failures.append("the configuration's interaction function is not the claim's")
    out.failures += ball_model.interaction_failures(cfg)
    sizes = {"i": cfg.n, "h": len(cfg.score_matrices)}
    if set(at) != set(claim.relation.free) or any(not 0 <= at[k] < sizes[k] for k in at):
        out.failures.append(f"the witness must name {sorted(claim.relation.free)} within the sizes")
    elif claim.token == "first" and at.get("i") != 0:
        out.failures.append("the claim is about the first token i = 0")
    if out.failures:
        return out
    algebra = ball_algebra(cfg, ball_model.stated_delta(claim.hypotheses))
    try:
        for condition in claim.given:
            # a given condition holds at EVERY token (for the claim's head), not only at the witness's token
            for binding in index_values(condition.free, {k: v for k, v in at.items() if k == "h"}, sizes):
                if settling_sign(residual(condition, algebra, binding), STATED[condition.op]) is None:
                    out.failures.append(f"given {condition.text} is not settled by balls at {binding}")
                    return out
        out.value = residual(claim.relation, algebra, at)
    except ValueError as exc:  # an interaction's energy without a verified antiderivative
        out.failures.append(str(exc))
        return out
    out.sign = settling_sign(out.value, witnessed(claim)) or ""
    return out
