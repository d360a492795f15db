"""Model terms at one configuration: each turned once into a tree of the configuration's chain, and the check of a
witness with balls or exactly.

`Trees` turns a model term (`certificates.kernel.model_terms`) at the exact data of a witness, at its token and head,
into a value of the configuration's one chain of definitions (`certificates.kernel.model_chain`): sums over the n
tokens and H heads unrolled, vectors componentwise, every name resolved to the chain's definition of it (f_h_i the
head outputs, v_i and xdot_i the velocities, E_h and its rate, entropies, scores, weights, the softmax, ...; a_h_i =
<f_h_i, x_i>, T_h_i = |P_i f_h_i|^2, A_h_i = <F_i - f_h_i, x_i>). That one tree is what balls read (`Chain.balls`),
what the exact field reads (`Chain.compiled` in `headflow.certificates.kernel.exp_field`) and what Coq states
(`headflow.certificates.kernel.coq.model_tree`). The operator norms (delta_op, misalignment_h) have balls only.

`settle` is the one check of a witness configuration of a statement (`headflow.certificates.kernel.model_statements`),
shared by the provers that write a witness and the checker that re-checks it: the statement's exact data, head, kind
and geometry hold, its hypotheses exactly, every `given` condition at every token (balls), its sizes lie in its
ranges (exactly), and `rhs - lhs` has the sign that negates the relation (a universal statement: a counterexample)
or that states it (an existence statement: an instance) at the witness's token and head (balls; `witnessed`); for an
existence statement of an equality, `rhs - lhs` is exactly 0 in the exponential-polynomial field instead (balls
never show an equality). A logarithm, a square root that is not rational and an operator norm have no exact
value there, so a statement that needs one has no exact witness.
"""

from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Any

from flint import fmpq_mat

from . import ball_model, recheck
from .exact import precision, settling_sign
from .exact_data import ExactConfiguration, dot
from .masks import claim_mask
from .model_chain import Chain, Value, add, matvec, mul, root, tree_of, vector_dot
from .model_terms import NEGATED, OPERATORS, PAIRS, STATED, SUMS, TOKENS, Relation, Term
from .operator_norm import cross_products, rational_matrix

#: The name of an exact witness of an existence claim of an equality.
WITNESS = "model-configuration-exact"
#: Working precision (bits) of the balls that settle an exact witness's `given` conditions.
PRECISION = 256
#: The exact data a statement may fix: the configuration's field each names, and the depth of its rows.
DATA = {"tokens": ("tokens", 2), "scores": ("score_matrices", 3), "values": ("values", 3), "beta": ("beta", 0)}


def witnessed(claim: Any) -> str:
    """The relation of `rhs - lhs` to 0 that a witness of the claim settles: the negation of a universal claim's
    relation (a counterexample), the relation itself for an existence claim (an instance; `=` for an equation, which
    only the exact test settles, never balls)."""
    op = claim.relation.op
    return ("=" if op == "=" else STATED[op]) if claim.exists else NEGATED[op]


class Trees:
    """Model terms at the exact data of one chain as its values (a rational or a tree; a vector: a list of them).
    Each quantity, sum and inner product is a named definition of the chain, once (Coq's `interval` then sees short
    terms, and balls evaluate each once); `delta` is the claim's stated bound, for claims that name it."""

    def __init__(self, chain: Chain, delta: Fraction | None = None) -> None:
        self.chain, self.delta = chain, delta
        self.defined: dict[str, Value] = {}

    def _define(self, key: str, build: Callable[[], Value], name: str | None = None) -> Value:
        """The value `build` gives, defined once under `key` (named `name`, by default the key)."""
        if key not in self.defined:
            self.defined[key] = self.chain.define(name or key, build())
        return self.defined[key]

    def _shared(self, prefix: str, value: Value) -> Value:
        """A sum or an inner product, named once per value."""
        return self._define(repr(value), lambda: value, f"{prefix}_{len(self.defined)}")

    def residual(self, relation: Relation, at: dict[str, int]) -> Value:
        """rhs - lhs of the relation at the token and head of `at`."""
        return add([self.tree(relation.rhs, at), mul(Fraction(-1), self.tree(relation.lhs, at))])

    def tree(self, term: Term, at: dict[str, int]) -> Any:
        """The value of `term` with its free token i and head h at `at` (j and g are bound by their sums)."""
        op, args, cfg = term.op, term.args, self.chain.cfg
        if op == "num":
            return args[0]
        if op == "symbol":
            sizes = {"n": cfg.n, "d": len(cfg.tokens[0]), "H": len(cfg.score_matrices)}
            return Fraction(sizes[args[0]]) if args[0] in sizes else cfg.beta
        if op in ("vector", "scalar", "pair"):
            slots = args[2]
            letters = (slots.token or "i", slots.head or "h", *(slots.pair or ()))
            return self._named(PAIRS.get(args[0], args[0]), *(at.get(k) for k in letters))
        if op in SUMS:
            index = op.removeprefix("sum_")
            count = cfg.n if index in TOKENS else len(cfg.score_matrices)
            parts = [self.tree(args[0], at | {index: k}) for k in range(count)]
            return [add(list(c)) for c in zip(*parts, strict=True)] if term.vector else self._shared("sum", add(parts))
        values = [self.tree(a, at) for a in args if isinstance(a, Term)]
        if op == "norm":  # the square root of a sum of squares, named (balls read its non-negative part)
            return self._shared("norm", root(vector_dot(values[0], values[0])))
        if op in ("inner", "norm2"):
            return self._shared("ip", vector_dot(values[0], values[-1]))
        if op == "proj":
            return self._project(values[0], at["i"])
        if op in OPERATORS:
            return matvec((cfg.score_matrices if op == "M_h" else cfg.values)[at["h"]], values[0])
        if op == "log":
            return ["log", tree_of(values[0])]
        if op == "pow":
            return values[0] ** args[1] if isinstance(values[0], Fraction) else ["pow", values[0], args[1]]
        return _arithmetic(op, term, values)

    def _project(self, u: list[Value], token: int) -> list[Value]:
        """P_i u = u - <u, x_i> x_i, <u, x_i> named."""
        return self.chain._project(f"pr_{len(self.chain.definitions)}", list(self.chain.cfg.tokens[token]), u)

    def _named(self, name: str, token: int, head: int, first: int = 0, second: int = 0) -> Any:
        """A named quantity (a vector x, f, F, xbar, v, xdot; a scalar; a pair scalar s, w, p at tokens `first`,
        `second`) at the token and head."""
        chain, cfg, heads, define = self.chain, self.chain.cfg, range(len(self.chain.scores)), self._define
        named, shared, outputs, tokens = self._named, self._shared, chain.outputs, cfg.tokens
        # the vectors at the token: x, the head's output f, their sum F over the heads, xbar, v, xdot
        readers: dict[str, Callable[[], Any]] = {"x": lambda: list(tokens[token])}
        readers |= {"f": lambda: outputs()[head][token], "xdot": lambda: chain.velocities()[token]}
        readers |= {"F": lambda: [add(list(c)) for c in zip(*(f[token] for f in outputs()), strict=True)]}
        readers |= {"xbar": lambda: chain.attention_mean(head, token), "v": lambda: chain.attention_velocity(token)}
        # the pair scalars at tokens `first`, `second`
        readers |= {"s": lambda: chain.scores[head][first][second], "w": lambda: chain.weights()[head][first][second]}
        readers |= {"p": lambda: chain.softmax(head, first)[0][second]}
        # a_h_i = <f_h_i, x_i>, T_h_i = |P_i f_h_i|^2, A_h_i = <F_i - f_h_i, x_i> = the sum of a_g_i over g != h
        readers |= {"a_h_i": lambda: shared("ip", vector_dot(outputs()[head][token], list(tokens[token])))}
        readers |= {"T_h_i": lambda: shared("ip", vector_dot(*[self._project(outputs()[head][token], token)] * 2))}
        readers |= {"A_h_i": lambda: add([named("a_h_i", token, g) for g in heads if g != head])}
        # a head's energy and its rate, and their sums over the heads
        readers |= {"E_h": lambda: define(f"E_{head}", lambda: chain.head_energy(head))}
        readers |= {"dE_h_dt": lambda: define(f"dE_{head}_dt", lambda: chain.head_energy_rate(head))}
        readers |= {"E": lambda: add([named("E_h", token, g) for g in heads])}
        readers |= {"dE_dt": lambda: add([named("dE_h_dt", token, g) for g in heads])}
        # a head's entropy at a token, its rate and its partition function
        readers |= {"entropy_h_i": lambda: define(f"H_{head}_{token}", lambda: chain.entropy(head, token))}
        readers["entropy_rate_h_i"] = lambda: define(f"dH_{head}_{token}_dt", lambda: chain.entropy_rate(head, token))
        readers |= {"Z_h_i": lambda: define(f"Zs_{head}_{token}", lambda: chain.partition_function(head, token))}
        # lambda_h: M_h = lambda_h I (the claim assumes scalar-heads); delta: a statement naming it states
        # orthogonal-heads(delta=q)
        readers |= {"lambda_h": lambda: cfg.score_matrices[head][0][0], "delta": lambda: self.delta}
        readers |= {"cluster_gap": lambda: 1 - min(dot(x, y) for i, x in enumerate(tokens) for y in tokens[i + 1 :])}
        # the order parameter R, its rate, and the rate of a token's norm
        readers |= {"R": lambda: define("R", chain.order_parameter)}
        readers |= {"dR_dt": lambda: define("dR_dt", chain.order_parameter_rate)}
        readers |= {"norm_rate_i": lambda: define(f"dnx_{token}_dt", lambda: chain.token_norm_rate(token))}
        # the operator norms (balls only)
        readers |= {"misalignment_h": lambda: chain.measured(f"mis_{head}", [_misalignment(cfg, head)])}
        readers |= {"delta_op": lambda: chain.measured("delta_op", cross_products(cfg.score_matrices))}
        return readers[name]()


def _arithmetic(op: str, term: Term, values: list[Any]) -> Any:
    """neg, + - * / of numbers or vectors (a quotient's divisor is a non-zero rational: a monomial of numbers and the
    positive sizes, `model_terms.make`)."""
    left, right = values[0], values[-1]
    if op in ("neg", "-"):
        right = [mul(Fraction(-1), r) for r in right] if term.vector else mul(Fraction(-1), right)
        if op == "neg":
            return right
    if op == "/":
        op, right = "*", 1 / right
    if op == "*":
        scalar, vector = (right, left) if term.args[0].vector else (left, right)
        return [mul(scalar, v) for v in vector] if term.vector else mul(left, right)
    return [add([a, b]) for a, b in zip(left, right, strict=True)] if term.vector else add([left, right])


def _misalignment(cfg: ExactConfiguration, head: int) -> fmpq_mat:
    """W_h - M_h, exactly (misalignment_h is its operator norm)."""
    return rational_matrix(cfg.values[head]) - rational_matrix(cfg.score_matrices[head])


def given_rows(claim: Any, trees: Trees, at: dict[str, int]) -> list[tuple[Relation, dict[str, int], Value]]:
    """(condition, binding, rhs - lhs) of every `given` condition at every binding of its free indices (the
    statement's head kept): a given condition holds at EVERY token, not only at the witness's token."""
    cfg = trees.chain.cfg
    ranges = {"i": range(cfg.n), "h": [at["h"]] if "h" in at else range(len(cfg.score_matrices))}
    every = [(c, values) for c in claim.given for values in product(*(ranges[k] for k in sorted(c.free)))]
    bindings = [(condition, dict(zip(sorted(condition.free), values, strict=True))) for condition, values in every]
    return [(condition, binding, trees.residual(condition, binding)) for condition, binding in bindings]


@dataclass
class Settled:
    """The witness's residual ball and the sign that settled it ("" when none did), and what failed."""

    value: Any = None
    sign: str = ""
    failures: list[str] = field(default_factory=list)


def configuration_failures(claim: Any, cfg: ExactConfiguration, at: dict[str, int]) -> list[str]:
    """What the exact data and the token and head of `at` violate of the statement, exactly: its exact data, fixed token
    and head, kind, geometry, sign of beta, mask, hypotheses and interaction phi (its sizes are given conditions)."""
    failures = [f"the stated {key}" for key, value in claim.data.items() if getattr(cfg, DATA[key][0]) != value]
    if any(at.get(index) != value for index, value in claim.fixed.items()):
        failures.append(f"the statement is at {claim.fixed}")
    if cfg.attention != claim.attention or cfg.geometry != claim.geometry:
        failures.append(f"the claim is about {claim.attention} attention and {claim.geometry} dynamics")
    if cfg.beta == 0 or (cfg.beta < 0) != (claim.beta_sign == "negative"):
        failures.append(f"the claim is about beta {'<' if claim.beta_sign == 'negative' else '>'} 0")
    if cfg.mask != claim_mask(claim.mask, claim.mask_rows, cfg.n):
        failures.append(f"the claim is about {'no' if claim.mask == 'none' else 'the ' + claim.mask} mask")
    failures += [f"violates {name}" for name in ball_model.hypothesis_failures(cfg, claim.hypotheses)]
    if getattr(cfg.interaction, "tree", None) != getattr(claim.interaction, "tree", None):
        failures.append("the configuration's interaction function is not the claim's")
    failures += ball_model.interaction_failures(cfg)
    sizes = {"i": cfg.n, "h": len(cfg.score_matrices)}
    if set(at) != claim.relation.free or not all(recheck.natural(at[k], 0, sizes[k] - 1) for k in at):
        failures.append(f"the witness must name {sorted(claim.relation.free)} within the sizes, not {str(at)[:80]}")
    return failures


def settle(claim: Any, cfg: ExactConfiguration, at: dict[str, int]) -> Settled:
    """Whether the exact configuration witnesses the statement's negation (universal) or the statement (existence)
    at the token and head of `at`: `configuration_failures`, every given condition by balls over one chain of the
    configuration (the first one they do not settle at some token is the failure), then the relation of `witnessed`
    by balls at the caller's precision; for an existence statement of an equality, `rhs - lhs` exactly 0 in the
    exponential-polynomial field (its sign "=")."""
    out = Settled(failures=configuration_failures(claim, cfg, at))
    exact, delta = claim.exists and claim.relation.op == "=", ball_model.stated_delta(claim.hypotheses)
    if out.failures:
        return out
    try:
        with precision(PRECISION) if exact else nullcontext():
            trees = Trees(Chain(cfg), delta)
            rows = given_rows(claim, trees, at)
            gaps = [gap for _, _, gap in rows] + ([] if exact else [trees.residual(claim.relation, at)])
            values = trees.chain.balls(gaps) if gaps else []
        for (condition, binding, _), ball in zip(rows, values, strict=False):
            if settling_sign(ball, STATED[condition.op]) is None:
                out.failures = [f"given {condition.text} is not settled by balls at {binding}"]
                return out
        if exact:
            value = ball_model.exact_values(cfg, lambda chain: Trees(chain, delta).residual(claim.relation, at))
            out.failures, out.sign = ([], "=") if value.is_zero() else (["rhs - lhs is not exactly 0"], "")
        else:
            out.value = values[-1]
            out.sign = settling_sign(out.value, witnessed(claim)) or ""
    except ValueError as exc:  # no verified antiderivative, a value not finite, no exact logarithm, root or norm
        out.failures = [f"rhs - lhs has no exact value: {exc}" if exact else str(exc)]
    return out
