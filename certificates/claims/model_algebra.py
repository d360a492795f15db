"""Model terms in an algebra: the one interpreter of the float search and of the prover's symbolic reduction.

`evaluate` interprets a model term (`headflow.certificates.kernel.model_terms`) in an algebra with the methods of
`NumericAlgebra`: vectors are lists, sums are loops over the tokens and heads, and what the named quantities mean
(a_h_i = <f_h_i, x_i>, xdot_i = P_i v_i, ...) is written here for them. An algebra supplies only the primitives
(tokens, head outputs, energies and their rates, entropies, scores, weights, ...) from a `source`, and `root` and
`log` of its own numbers: the float search's (`checks.evidence.model_witnesses.FloatAlgebra`, over the numpy model)
and the prover's symbolic one (`headflow.checks.claimsfile.model_reduction.SymbolicAlgebra`, over Gram atoms).

Nothing here is trusted: the kernel turns a witness's terms into trees of its exact configuration's chain
(`headflow.certificates.kernel.model_values.Trees`) and checks those; the tests compare both readings of every name.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from headflow.certificates.kernel.model_terms import OPERATORS, PAIRS, PRIMITIVE_SCALARS, SUMS, TOKENS, Relation, Term


@dataclass
class NumericAlgebra:
    """Model terms over numbers; `source(name)` gives a primitive: n, d, H, beta, x (n x d), f, xbar (H x n x d),
    E_h, dE_h_dt (H), entropy, entropy_rate, Z (H x n), the pair scalars s, w, p (H x n x n), M, W (H x d x d),
    cluster_gap, delta, delta_op, R, dR_dt, misalignment (H), norm_rate (n), each read once. A subclass supplies
    `root` and `log`."""

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


def residual(relation: Relation, algebra: Any, at: dict[str, int]) -> Any:
    """rhs - lhs of the relation at the token and head of `at`."""
    token, head = at.get("i"), at.get("h")
    return evaluate(relation.rhs, algebra, token, head) - evaluate(relation.lhs, algebra, token, head)


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
