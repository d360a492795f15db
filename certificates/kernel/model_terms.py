"""Model terms: expressions over the model's named quantities, their typing and their one interpreter.

The grammar of a `model` claim's sides (and of its `given` conditions). Names (SPEC section 1):

- symbols `n`, `d`, `H`, `beta` (positive);
- token vectors at token i: `x_i` (the token), `f_h_i` (head h's output f^h_i), `F_i` (sum_h f^h_i), `v_i` (the
  velocity field: F_i / n for usa, F_i for softmax and relu), `xdot_i` (P_i v_i on the sphere, v_i in flat space),
  `xbar_h_i` (the attention mean sum_j p^h_ij x_j, p^h_ij = softmax_j(beta s^h_ij) for every kind);
- scalars at token i and head h: `a_h_i` (radial shadow <f^h_i, x_i>), `T_h_i` (tangential power |P_i f^h_i|^2),
  `A_h_i` (the other heads' shadow sum_{g != h} a^g_i), `entropy_h_i`, `entropy_rate_h_i` (H^h_i, dH^h_i/dt),
  `Z_h_i` (the softmax normalizer sum_j exp(beta s^h_ij), the usa row sum);
- per head: `lambda_h` (the strength of a scalar head M_h = lambda_h I; a claim using it assumes scalar-heads);
- global scalars: `E`, `E_h` (the usa energies, whatever the attention kind), `dE_dt`, `dE_h_dt` (their rates along
  the kind's dynamics), `cluster_gap` (1 - min_{i != j} <x_i, x_j>), `delta` (the bound of a claim's
  `orthogonal-heads(delta=q)`: the number q), `delta_op` (max_{h != g} |M_h M_g|_op of the configuration, 0 for one
  head: Theorem 39's delta, `certificates.kernel.operator_norm`);
- pair scalars of head h at tokens (i, j): `s_h_ij` (the score <x_i, M_h x_j>), `w_h_ij` (the attention weight of
  the claim's kind), `p_h_ij` (the softmax distribution softmax_j(beta s^h_ij));
- per head also `misalignment_h` (|W_h - M_h|_op, Theorem 12's |Delta_h|_op, `certificates.kernel.operator_norm`);
- functions: `inner(u, w)`, `norm2(u)` (= <u, u>), `norm(u)` (= |u| = sqrt(<u, u>)),
  `proj(u)` (P_i u = u - <u, x_i> x_i), `M_h(u)` and `W_h(u)`
  (head h's score and value matrices applied to a vector), `log(q)` (q one of LOG_ARGUMENTS, positive everywhere),
  `sum_i(e)`, `sum_j(e)` (over the tokens), `sum_h(e)`, `sum_g(e)` (over the heads); a sum of vectors is a vector
  (`sum_i(x_i) / n`);
- numbers (exact rationals from their text), `+ - *`, `/` by a monomial of numbers and symbols (always defined:
  the symbols are positive), `**` a non-negative integer literal up to MAX_POWER.

Indices (`certificates.kernel.model_indices`): every name is written with its own indices, the tokens i, j and
the heads h, g (`x_j`, `f_g_i`, `a_g_j`, `s_h_ji`, `E_g`). An index not bound by a sum is free: the statement is meant
for every token i and every head h; the second indices j and g must be bound by `sum_j` / `sum_g`. A sum does not
rebind its own index inside itself (`sum_i(sum_i(...))`), different indices nest (`sum_i(sum_j(inner(x_i, x_j)))`).
Anything else (other names, attributes, keywords, comparisons, ...) is an ExpressionError at its column.

Every node is built by `make`, which types it (a vector or a number, its free indices, what may divide) or says why
it is outside the grammar: the claims-file parser (`certificates.claims.model_claim.parse_term`) builds its
terms with it from text, the kernel (`certificates.kernel.model_statements.term_of`) from a statement's JSON trees.
`evaluate` interprets a term in an `Algebra`: floats (the adversarial search), balls at exact data (witnesses and
`check-cert`) and the symbolic per-token algebra of the prover each supply only the primitive quantities; what the
named quantities mean (a_h_i = <f_h_i, x_i>, ...) is written once, here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from certificates.kernel.model_indices import HEADS, TOKENS, resolve, unbound

MAX_POWER = 8
SYMBOLS = ("n", "d", "H", "beta")
#: Vectors by name: (primitive or defined name, uses head h).
VECTORS = {
    "x_i": ("x", False),
    "f_h_i": ("f", True),
    "F_i": ("F", False),
    "v_i": ("v", False),
    "xdot_i": ("xdot", False),
    "xbar_h_i": ("xbar", True),
}
#: Scalars by name: (uses token i, uses head h).
SCALARS = {
    "a_h_i": (True, True),
    "T_h_i": (True, True),
    "A_h_i": (True, True),
    "entropy_h_i": (True, True),
    "entropy_rate_h_i": (True, True),
    "E": (False, False),
    "E_h": (False, True),
    "dE_dt": (False, False),
    "dE_h_dt": (False, True),
    "Z_h_i": (True, True),
    "lambda_h": (False, True),
    "cluster_gap": (False, False),
    "delta": (False, False),
    "delta_op": (False, False),
    "misalignment_h": (False, True),
}
#: Scalars the algebras supply (the others are defined from vectors by `evaluate`).
PRIMITIVE_SCALARS = tuple(name for name in SCALARS if name not in ("a_h_i", "T_h_i", "A_h_i"))
#: Scalars of head h at a pair of tokens (i, j), all supplied by the algebras: the score, the kind's weight, softmax.
PAIRS = {"s_h_ij": "s", "w_h_ij": "w", "p_h_ij": "p"}
SUMS = tuple(f"sum_{k}" for k in (*TOKENS, *HEADS))
#: Head h's matrices as operators on vectors: `M_h(u)` = M_h u (scores), `W_h(u)` = W_h u (values).
OPERATORS = {"M_h": "M", "W_h": "W"}
#: What `log` may take: quantities positive at every configuration (so that the logarithm is always defined).
LOG_ARGUMENTS = ("Z_h_i", "E", "E_h", "n", "d", "H", "beta")
FUNCTIONS = {"inner": 2, "norm2": 1, "norm": 1, "proj": 1, "M_h": 1, "W_h": 1, "log": 1} | dict.fromkeys(SUMS, 1)
ARITHMETIC = ("+", "-", "*", "/")
RELATIONS = ("=", "<=", "<", ">=", ">")
#: The relation of `rhs - lhs` to 0 that refutes `lhs op rhs`, and the one that states it.
NEGATED = {"=": "!=", "<=": "<", "<": "<=", ">=": ">", ">": ">="}
STATED = {"<=": ">=", "<": ">", ">=": "<=", ">": "<"}


class TermError(ValueError):
    """A term outside the grammar of model terms (the reason)."""


@dataclass(frozen=True)
class Term:
    """A node: `op` ("num", "symbol", "scalar", "vector", "pair", "+", "-", "*", "/", "neg", "pow", a function name),
    its arguments (terms, or a Fraction / name / integer; a named quantity: its declared name, its written name and
    its `Slots`), whether it is a vector, and its free indices ("i", "j", "h", "g")."""

    op: str
    args: tuple[Any, ...]
    vector: bool = False
    free: frozenset[str] = frozenset()

    @property
    def sums(self) -> frozenset[str]:
        """The sums ("sum_i", "sum_j", "sum_h", "sum_g") that occur in this term."""
        own = {self.op} if self.op in SUMS else set()
        return frozenset(own).union(*(a.sums for a in self.args if isinstance(a, Term)))

    @property
    def names(self) -> frozenset[str]:
        """The declared names of the quantities the term uses (`a_h_i`, `lambda_h`, ...)."""
        own = {self.args[0]} if self.op in ("scalar", "pair") else set()
        return frozenset(own).union(*(a.names for a in self.args if isinstance(a, Term)))


def make(op: str, args: tuple[Any, ...]) -> Term:
    """The term `op(args)`, typed (vector or number, free indices); TermError when it is outside the grammar.
    `num` takes a Fraction, `name` a written name, `pow` a term and an integer, the others terms."""
    if op == "num":
        return Term("num", (Fraction(args[0]),))
    if op == "name":
        return _named(args[0])
    if any(not isinstance(a, Term) for a in args[: 1 if op == "pow" else None]):
        raise TermError(f"{op} takes terms")
    free = frozenset().union(*(a.free for a in args if isinstance(a, Term)))
    if op == "neg" and len(args) == 1:
        return Term("neg", args, args[0].vector, free)
    if op == "pow" and len(args) == 2:
        if type(args[1]) is not int or not 0 <= args[1] <= MAX_POWER:
            raise TermError(f"an exponent is an integer literal from 0 to {MAX_POWER}")
        if args[0].vector:
            raise TermError("a vector has no power (use norm2)")
        return Term("pow", args, False, free)
    if op in ARITHMETIC and len(args) == 2:
        return _arithmetic_term(op, args[0], args[1], free)
    if op not in FUNCTIONS:
        raise TermError(f"unknown function (model expressions call {', '.join(FUNCTIONS)})")
    if len(args) != FUNCTIONS[op]:
        raise TermError(f"{op} takes {FUNCTIONS[op]} argument(s)")
    if op in ("inner", "norm2", "norm", "proj", *OPERATORS) and not all(a.vector for a in args):
        raise TermError(f"{op} takes vectors")
    if op in OPERATORS:
        return Term(op, args, True, free | {"h"})
    if op == "log":
        if args[0].op not in ("scalar", "symbol") or args[0].args[0] not in LOG_ARGUMENTS:
            raise TermError(f"log takes one of {', '.join(LOG_ARGUMENTS)} (positive everywhere)")
        return Term("log", args, False, free)
    if op == "proj":
        return Term("proj", args, True, free | {"i"})
    if op in ("inner", "norm2", "norm"):
        return Term(op, args, False, free)
    if op in args[0].sums:
        raise TermError(f"{op} inside {op}: sums over the same index do not nest")
    return Term(op, args, args[0].vector, free - {op.removeprefix("sum_")})


def _named(written: object) -> Term:
    if written in SYMBOLS:
        return Term("symbol", (written,))
    resolved = resolve(written, {**VECTORS, **SCALARS, **PAIRS}) if isinstance(written, str) else None
    if resolved is None:
        known = ", ".join([*SYMBOLS, *VECTORS, *SCALARS, *PAIRS])
        raise TermError(
            f"unknown name {str(written)[:40]!r} (model expressions know {known}, at tokens i, j and heads h, g)"
        )
    declared, slots = resolved
    if declared in VECTORS:
        return Term("vector", (VECTORS[declared][0], written, slots), True, slots.letters)
    return Term("pair" if declared in PAIRS else "scalar", (declared, written, slots), False, slots.letters)


def _arithmetic_term(op: str, left: Term, right: Term, free: frozenset[str]) -> Term:
    if op in ("+", "-"):
        if left.vector != right.vector:
            raise TermError("a vector and a number cannot be added")
        return Term(op, (left, right), left.vector, free)
    if op == "*":
        if left.vector and right.vector:
            raise TermError("two vectors cannot be multiplied (use inner)")
        return Term("*", (left, right), left.vector or right.vector, free)
    if right.vector or not _monomial(right):
        raise TermError("divide only by a product of non-zero numbers and n, d, H, beta")
    return Term("/", (left, right), left.vector, free)


def _monomial(term: Term) -> bool:
    """A non-zero number or symbol, or a product, quotient or power of such: positive or non-zero everywhere."""
    if term.op == "num":
        return term.args[0] != 0
    if term.op == "symbol":
        return True
    if term.op in ("*", "/"):
        return all(_monomial(a) for a in term.args)
    if term.op == "neg":
        return _monomial(term.args[0])
    return term.op == "pow" and _monomial(term.args[0])


def scalar_term(term: Term) -> Term:
    """`term` when it may be a side of a statement (a number whose second indices j, g are bound); TermError else."""
    if term.vector:
        raise TermError("a side is a number, not a vector (use inner or norm2)")
    reason = unbound(term.free)
    if reason is not None:
        raise TermError(reason)
    return term


class Algebra(Protocol):
    """What an interpretation supplies: numbers, symbols, the primitive vectors and scalars at a token and head, the
    pair scalars at a head and two tokens, vector arithmetic, inner products and the sums over tokens and over heads
    (of numbers, or of vectors when `vector`). Scalars support + - * / and ** by Python operators."""

    attention: str
    geometry: str

    def number(self, value: Fraction) -> Any: ...
    def symbol(self, name: str) -> Any: ...
    def vector(self, name: str, token: Any, head: Any) -> Any: ...
    def scalar(self, name: str, token: Any, head: Any) -> Any: ...
    def add(self, u: Any, w: Any) -> Any: ...
    def scale(self, c: Any, u: Any) -> Any: ...
    def pair_scalar(self, name: str, head: Any, first: Any, second: Any) -> Any: ...
    def inner(self, u: Any, w: Any) -> Any: ...
    def apply(self, matrix: str, head: Any, u: Any) -> Any: ...
    def log(self, value: Any) -> Any: ...
    def root(self, value: Any) -> Any: ...
    def token_sum(self, body: Callable[[Any], Any], vector: bool = False) -> Any: ...
    def head_sum(self, body: Callable[[Any], Any], vector: bool = False) -> Any: ...


def evaluate(term: Term, algebra: Algebra, token: Any = None, head: Any = None) -> Any:
    """The value of `term` in `algebra` with the free token and head bound to `token` and `head` (the second indices
    j and g are bound by their sums). What each named quantity means (a_h_i = <f_h_i, x_i>, ...) is written here once:
    floats (the search), balls (witnesses) and the symbolic per-token algebra of the prover supply only primitives."""

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
        if op == "neg":
            value = ev(args[0], at)
            return algebra.scale(algebra.number(Fraction(-1)), value) if t.vector else -value
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


def _arithmetic(op: str, t: Term, values: list[Any], algebra: Algebra) -> Any:
    left, right = values
    if op in ("+", "-"):
        if not t.vector:
            return left + right if op == "+" else left - right
        return algebra.add(left, right if op == "+" else algebra.scale(algebra.number(Fraction(-1)), right))
    if op == "*":
        if t.args[0].vector:
            return algebra.scale(right, left)
        return algebra.scale(left, right) if t.args[1].vector else left * right
    return algebra.scale(algebra.number(Fraction(1)) / right, left) if t.vector else left / right


def _project(algebra: Algebra, u: Any, token: Any) -> Any:
    """P_i u = u - <u, x_i> x_i."""
    x = algebra.vector("x", token, None)
    return algebra.add(u, algebra.scale(-algebra.inner(u, x), x))


def _vector(name: str, algebra: Algebra, token: Any, head: Any) -> Any:
    if name in ("x", "f", "F", "xbar"):
        return algebra.vector(name, token, head if name in ("f", "xbar") else None)
    total = algebra.vector("F", token, None)
    v = algebra.scale(algebra.number(Fraction(1)) / algebra.symbol("n"), total) if algebra.attention == "usa" else total
    if name == "v" or algebra.geometry != "sphere":
        return v
    return _project(algebra, v, token)


def _scalar(name: str, algebra: Algebra, token: Any, head: Any) -> Any:
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


_INFIX = {"+": " + ", "-": " - ", "*": "*", "/": "/"}


def term_text(term: Term) -> str:
    """The term as text, rendered from its tree (what the checker prints is what it evaluated)."""
    op, args = term.op, term.args
    if op == "num":
        return str(args[0]) if args[0] >= 0 else f"({args[0]})"
    if op == "symbol":
        return str(args[0])
    if op in ("vector", "scalar", "pair"):
        return str(args[1])
    if op == "neg":
        return f"-({term_text(args[0])})"
    if op == "pow":
        return f"({term_text(args[0])})**{args[1]}"
    if op in _INFIX:
        return f"({term_text(args[0])}{_INFIX[op]}{term_text(args[1])})"
    return f"{op}({', '.join(term_text(a) for a in args)})"


@dataclass(frozen=True)
class Relation:
    """`lhs op rhs` between two scalar terms, with its text (as written in a claims file, or rendered)."""

    lhs: Term
    op: str
    rhs: Term
    text: str

    @property
    def free(self) -> frozenset[str]:
        return self.lhs.free | self.rhs.free
