"""Model terms at one configuration: their one interpreter, and the check of a witness with balls or exactly.

`evaluate` interprets a model term (`certificates.kernel.model_terms`) in an algebra with the methods of
`NumericAlgebra`: vectors are lists, sums are loops over the tokens and heads, and what the named quantities mean
(a_h_i = <f_h_i, x_i>, xdot_i = P_i v_i, ...) is written once, here. An algebra supplies only the primitives (tokens,
head outputs, energies and their rates, entropies, scores, weights, ...) from a `source`: `ball_algebra` reads them
from the ball model at exact data (`certificates.kernel.ball_model`), `exact_algebra` from the exact model
(`ball_model.exact_values`: exponential polynomials). The float search (`checks.evidence.model_witnesses`), the
prover's symbolic algebra (`checks.claimsfile.model_reduction`) and the Coq writer (`certificates.kernel.coq`) bring
their own algebras with these methods.

`settle` is the one check of a witness configuration, shared by the prover that writes a witness and the checker
that re-checks it: the claim's kind and geometry hold, its hypotheses exactly, every `given` condition at every token
(balls), its sizes lie in the claim's ranges (exactly), and `rhs - lhs` has the sign that negates the claim's
relation (a universal claim: a counterexample) or that states it (an existence claim: an instance) at the witness's
token and head (balls; `witnessed`). `equality_failures` checks a witness of an existence claim of an equality: the
same conditions, and `rhs - lhs` exactly 0 in the exponential-polynomial field (balls never show an equality). The
entropies (a logarithm) and the norms (a square root) have no exact value there, so a claim about them has no exact
witness.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Any

from flint import arb

from certificates.kernel import ball_model
from certificates.kernel.ball_model import grid, per_head
from certificates.kernel.exact import ball_of, precision, settling_sign
from certificates.kernel.exact_data import ExactConfiguration, dot
from certificates.kernel.exp_field import ExpFieldError, ExpNumber
from certificates.kernel.masks import claim_mask, mask_text
from certificates.kernel.model_chain import Chain
from certificates.kernel.model_indices import TOKENS
from certificates.kernel.model_terms import NEGATED, OPERATORS, PAIRS, PRIMITIVE_SCALARS, STATED, SUMS, Relation, Term
from certificates.kernel.operator_norm import max_cross_operator_norm, operator_norm

#: The name of an exact witness of an existence claim of an equality.
WITNESS = "model-configuration-exact"
#: Working precision (bits) of the balls that settle an exact witness's `given` conditions.
PRECISION = 256
#: The primitives that are definitions of a configuration's chain (`certificates.kernel.model_chain`), as nested
#: lists over heads, tokens and coordinates; p^h_ij = softmax_j(beta s^h_ij) whatever the kind, xbar^h_i = sum_j
#: p^h_ij x_j. An exact witness reads only those of EXACT exactly (the others: balls only).
CHAINED: dict[str, Callable[[Chain], Any]] = {
    "beta": lambda chain: chain.cfg.beta,
    "x": lambda chain: chain.cfg.tokens,
    "f": Chain.outputs,
    "E_h": per_head(Chain.head_energy),
    "dE_h_dt": per_head(Chain.head_energy_rate),
    "entropy": grid(Chain.entropy),
    "entropy_rate": grid(Chain.entropy_rate),
    "s": lambda chain: chain.scores,
    "w": Chain.weights,
    "p": grid(lambda chain, h, i: chain.softmax(h, i)[0]),
    "Z": grid(Chain.partition_function),
    "xbar": grid(Chain.attention_mean),
    "M": lambda chain: chain.cfg.score_matrices,
    "W": lambda chain: chain.cfg.values,
    "cluster_gap": lambda chain: 1 - min(token_products(chain.cfg.tokens)),
    "R": Chain.order_parameter,
    "dR_dt": Chain.order_parameter_rate,
    "norm_rate": lambda chain: [chain.token_norm_rate(i) for i in range(chain.cfg.n)],
}
EXACT = ("beta", "x", "f", "E_h", "dE_h_dt")


def witnessed(claim: Any) -> str:
    """The relation of `rhs - lhs` to 0 that a witness of the claim settles: the negation of a universal claim's
    relation (a counterexample), the relation itself for an existence claim (an instance; its op is never `=`)."""
    return STATED[claim.relation.op] if claim.exists else NEGATED[claim.relation.op]


@dataclass
class NumericAlgebra:
    """Model terms over numbers (balls or exact numbers); `source(name)` gives a primitive: n, d, H, beta,
    x (n x d), f, xbar (H x n x d), E_h, dE_h_dt (H), entropy, entropy_rate, Z (H x n), the pair scalars s, w, p
    (H x n x n), M, W (H x d x d), cluster_gap, delta, delta_op, R, dR_dt, misalignment (H), norm_rate (n), each
    read once (KeyError: the algebra has no value for it)."""

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
        if name == "F":  # sum_h f^h_i
            return self._total((f[token] for f in self.get("f")), True)
        return self.get(name)[head][token]

    def scalar(self, name: str, token: int | None, head: int | None) -> Any:
        if name in ("E", "dE_dt"):
            values = self.get("E_h" if name == "E" else "dE_h_dt")
            return sum(values[1:], values[0])
        if name == "lambda_h":  # M_h = lambda_h I (the claim assumes scalar-heads, which the witness satisfies)
            return self.get("M")[head][0][0]
        if name in ("cluster_gap", "delta", "delta_op", "R", "dR_dt"):
            return self.get(name)
        if name == "norm_rate_i":
            return self.get("norm_rate")[token]
        if name in ("E_h", "dE_h_dt"):
            return self.get(name)[head]
        if name == "misalignment_h":  # |W_h - M_h|_op
            return self.get("misalignment")[head]
        return self.get(name.removesuffix("_h_i"))[head][token]

    def pair_scalar(self, name: str, head: int, first: int, second: int) -> Any:
        return self.get(name)[head][first][second]

    def apply(self, matrix: str, head: int, u: Any) -> list[Any]:
        """M_h u or W_h u."""
        return [self.inner(row, u) for row in self.get(matrix)[head]]

    def root(self, value: Any) -> Any:
        """The square root of a ball >= 0 (a squared norm): its own, or for a ball that reaches below 0 (the value
        itself is >= 0) a ball containing [0, sqrt of its upper end]; KeyError for an exact number."""
        if not isinstance(value, arb):
            raise KeyError("a square root")
        return value.sqrt() if value > 0 else arb(0).union(arb(value.upper()).sqrt())

    def log(self, value: Any) -> Any:
        """The logarithm of a ball; KeyError for an exact number."""
        if not isinstance(value, arb):
            raise KeyError("a logarithm")
        return value.log()

    def add(self, u: Any, w: Any) -> list[Any]:
        return [a + b for a, b in zip(u, w, strict=True)]

    def scale(self, c: Any, u: Any) -> list[Any]:
        return [c * a for a in u]

    def inner(self, u: Any, w: Any) -> Any:
        terms = [a * b for a, b in zip(u, w, strict=True)]
        return sum(terms[1:], terms[0])

    def token_sum(self, body: Callable[[int], Any], vector: bool = False) -> Any:
        return self._total(map(body, range(self.get("n"))), vector)

    def head_sum(self, body: Callable[[int], Any], vector: bool = False) -> Any:
        return self._total(map(body, range(self.get("H"))), vector)

    def _total(self, values: Iterator[Any], vector: bool) -> Any:
        first = next(values)
        for value in values:
            first = self.add(first, value) if vector else first + value
        return first


def evaluate(term: Term, algebra: Any, token: Any = None, head: Any = None) -> Any:
    """The value of `term` in `algebra` (the methods of `NumericAlgebra`) with the free token and head bound to
    `token` and `head` (the second indices j and g are bound by their sums)."""

    def ev(t: Term, at: dict[str, Any]) -> Any:
        op, args = t.op, t.args
        if op == "num":
            return algebra.number(args[0])
        if op == "symbol":
            return algebra.symbol(args[0])
        if op in ("vector", "scalar"):
            slots = args[2]
            tok, hd = at.get(slots.token or "i"), at.get(slots.head or "h")
            return _vector(args[0], algebra, tok, hd) if op == "vector" else _scalar(args[0], algebra, tok, hd)
        if op == "pair":
            first, second = args[2].pair
            return algebra.pair_scalar(PAIRS[args[0]], at.get(args[2].head or "h"), at[first], at[second])
        if op == "pow":
            return ev(args[0], at) ** args[1]
        if op in SUMS:
            index = op.removeprefix("sum_")
            total = algebra.token_sum if index in TOKENS else algebra.head_sum
            return total(lambda k: ev(args[0], at | {index: k}), t.vector)
        values = [ev(a, at) for a in args]
        if op in ("inner", "norm2", "norm"):
            value = algebra.inner(values[0], values[-1])
            return algebra.root(value) if op == "norm" else value
        if op == "proj":
            return _project(algebra, values[0], at.get("i"))
        if op in OPERATORS:
            return algebra.apply(OPERATORS[op], at.get("h"), values[0])
        if op == "log":
            return algebra.log(values[0])
        return _arithmetic(op, t, values, algebra)

    return ev(term, {"i": token, "h": head})


_SCALAR_OPERATORS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}


def _arithmetic(op: str, t: Term, values: list[Any], algebra: Any) -> Any:
    """neg, + - * / of numbers (Python operators) or of vectors (the algebra's add and scale)."""
    if not t.vector:
        return -values[0] if op == "neg" else _SCALAR_OPERATORS[op](*values)
    left, right = values[0], values[-1]
    if op in ("neg", "-"):
        minus = algebra.scale(algebra.number(Fraction(-1)), right)
        return minus if op == "neg" else algebra.add(left, minus)
    if op == "+":
        return algebra.add(left, right)
    if op == "/":
        return algebra.scale(algebra.number(Fraction(1)) / right, left)
    return algebra.scale(right, left) if t.args[0].vector else algebra.scale(left, right)


def _project(algebra: Any, u: Any, token: Any) -> Any:
    """P_i u = u - <u, x_i> x_i."""
    x = algebra.vector("x", token, None)
    return algebra.add(u, algebra.scale(-algebra.inner(u, x), x))


def _vector(name: str, algebra: Any, token: Any, head: Any) -> Any:
    if name in ("x", "f", "F", "xbar"):
        return algebra.vector(name, token, head if name in ("f", "xbar") else None)
    total = algebra.vector("F", token, None)
    v = algebra.scale(algebra.number(Fraction(1)) / algebra.symbol("n"), total) if algebra.attention == "usa" else total
    if name == "v" or algebra.geometry != "sphere":
        return v
    return _project(algebra, v, token)


def _scalar(name: str, algebra: Any, token: Any, head: Any) -> Any:
    if name in PRIMITIVE_SCALARS:
        return algebra.scalar(name, token, head)
    x, f = algebra.vector("x", token, None), algebra.vector("f", token, head)
    if name == "a_h_i":
        return algebra.inner(f, x)
    if name == "T_h_i":
        tangent = _project(algebra, f, token)
        return algebra.inner(tangent, tangent)
    others = algebra.add(algebra.vector("F", token, None), algebra.scale(algebra.number(Fraction(-1)), f))
    return algebra.inner(others, x)  # A_h_i


def _algebra(
    cfg: ExactConfiguration,
    number: Callable[[Fraction], Any],
    read: Callable[[ExactConfiguration, Callable[[Chain], Any]], Any],
    names: Iterable[str],
    own: dict[str, Callable[[], Any]],
) -> NumericAlgebra:
    """The primitives `names` of `CHAINED` as `read` evaluates the chain's definitions (balls or exact numbers), n,
    d, H as integers, and the algebra's `own` others (KeyError for any other name)."""
    sizes = {"n": cfg.n, "d": len(cfg.tokens[0]), "H": len(cfg.score_matrices)}

    def source(name: str) -> Any:
        if name in sizes or name in own:
            return sizes[name] if name in sizes else own[name]()
        if name not in names:
            raise KeyError(name)
        return read(cfg, CHAINED[name])

    return NumericAlgebra(source, number, cfg.attention, cfg.geometry)


def ball_algebra(cfg: ExactConfiguration, delta: Fraction | None = None) -> NumericAlgebra:
    """The model terms at exact data, as balls (at the working precision of the caller's context); `delta` is the
    claim's stated bound (`ball_model.stated_delta`), for claims that name it."""
    norms: dict[str, Callable[[], Any]] = {
        "delta": lambda: ball_of(stated_bound(delta)),
        "delta_op": lambda: max_cross_operator_norm(cfg.score_matrices),
        "misalignment": lambda: [
            operator_norm([[w - m for w, m in zip(*rows, strict=True)] for rows in zip(W, M, strict=True)])
            for W, M in zip(cfg.values, cfg.score_matrices, strict=True)
        ],
    }
    return _algebra(cfg, ball_of, ball_model.balls, CHAINED, norms)


def exact_algebra(cfg: ExactConfiguration) -> NumericAlgebra:
    """The model terms at exact data, as exact numbers (`certificates.kernel.exp_field`; KeyError for a primitive
    with no exact value here)."""
    return _algebra(cfg, ExpNumber.rational, ball_model.exact_values, EXACT, {})


def stated_bound(delta: Fraction | None) -> Fraction:
    """The stated delta of a claim that names `delta` (whose fields require the hypothesis)."""
    if delta is None:
        raise ValueError("`delta` is named by a claim that states orthogonal-heads(delta=q)")
    return delta


def token_products(tokens: list[list[Fraction]]) -> list[Fraction]:
    """<x_i, x_j> for i != j, exactly."""
    return [dot(x, y) for i, x in enumerate(tokens) for j, y in enumerate(tokens) if i != j]


def residual(relation: Relation, algebra: Any, at: dict[str, int]) -> Any:
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


def configuration_failures(claim: Any, cfg: ExactConfiguration, at: dict[str, int]) -> list[str]:
    """What the exact data and the token and head of `at` violate of the claim, exactly: its kind, geometry, mask,
    sizes (and sign of beta), hypotheses, interaction phi and token."""
    failures = []
    if cfg.attention != claim.attention or cfg.geometry != claim.geometry:
        failures.append(f"the claim is about {claim.attention} attention and {claim.geometry} dynamics")
    if cfg.mask != claim_mask(claim.mask, claim.mask_rows, cfg.n):
        failures.append(f"the claim is about {mask_text(claim.mask, claim.mask_rows) or 'no mask'}")
    negative = claim.beta_sign == "negative"
    failures += claim.sizes.check(cfg.n, len(cfg.tokens[0]), len(cfg.score_matrices), Fraction(cfg.beta), negative)
    failures += [f"violates {name}" for name in ball_model.hypothesis_failures(cfg, claim.hypotheses)]
    stated = claim.interaction.tree if claim.interaction is not None else None
    if (cfg.interaction.tree if cfg.interaction is not None else None) != stated:
        failures.append("the configuration's interaction function is not the claim's")
    failures += ball_model.interaction_failures(cfg)
    sizes = {"i": cfg.n, "h": len(cfg.score_matrices)}
    if set(at) != set(claim.relation.free) or any(not 0 <= at[k] < sizes[k] for k in at):
        failures.append(f"the witness must name {sorted(claim.relation.free)} within the sizes")
    elif claim.token == "first" and at.get("i") != 0:
        failures.append("the claim is about the first token i = 0")
    return failures


def given_failures(claim: Any, algebra: NumericAlgebra, at: dict[str, int]) -> list[str]:
    """The first `given` condition that balls do not settle at some token (for the claim's head): a given condition
    holds at EVERY token, not only at the witness's token."""
    sizes = {"i": algebra.get("n"), "h": algebra.get("H")}
    for condition in claim.given:
        for binding in index_values(condition.free, {k: v for k, v in at.items() if k == "h"}, sizes):
            if settling_sign(residual(condition, algebra, binding), STATED[condition.op]) is None:
                return [f"given {condition.text} is not settled by balls at {binding}"]
    return []


def settle(claim: Any, cfg: ExactConfiguration, at: dict[str, int]) -> Settled:
    """Whether the exact configuration witnesses the model claim's negation (universal) or the claim (existence)
    at the token and head of `at` (balls at the caller's precision): `configuration_failures`, every given
    condition, then the relation of `witnessed`."""
    out = Settled(failures=configuration_failures(claim, cfg, at))
    if out.failures:
        return out
    algebra = ball_algebra(cfg, ball_model.stated_delta(claim.hypotheses))
    try:
        out.failures = given_failures(claim, algebra, at)
        if out.failures:
            return out
        out.value = residual(claim.relation, algebra, at)
    except ValueError as exc:  # an interaction's energy without a verified antiderivative
        out.failures.append(str(exc))
        return out
    out.sign = settling_sign(out.value, witnessed(claim)) or ""
    return out


def equality_failures(claim: Any, cfg: ExactConfiguration, at: dict[str, int]) -> list[str]:
    """Why `cfg` (at the token and head of `at`) is not an exact witness of the existence claim `lhs = rhs`
    (empty: it is one): `configuration_failures`, the given conditions by balls, rhs - lhs exactly 0."""
    if not claim.exists or claim.relation.op != "=":
        return [f"claim {claim.id!r} is not an existence claim of an equality"]
    if claim.interaction is not None:
        return ["the exact model has exp(beta s) weights: a stated interaction phi has no exact witness here"]
    if failures := configuration_failures(claim, cfg, at):
        return failures
    try:
        with precision(PRECISION):
            if failures := given_failures(claim, ball_algebra(cfg, ball_model.stated_delta(claim.hypotheses)), at):
                return failures
        value = residual(claim.relation, exact_algebra(cfg), at)
    except KeyError as missing:
        return [f"{missing} has no exact value (only balls): an equality needs exact values"]
    except ExpFieldError as exc:
        return [f"rhs - lhs has no exact value: {exc}"]
    except ValueError as exc:  # `delta` named without the hypothesis that states it
        return [str(exc)]
    if not isinstance(value, ExpNumber) or not value.is_zero():
        return ["rhs - lhs is not exactly 0"]
    return []
