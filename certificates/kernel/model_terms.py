"""Model terms: expressions over the model's named quantities, their typing and their text.

The grammar of a `model` claim's sides (and of its `given` conditions). Names (SPEC section 1):

- symbols `n`, `d`, `H`, `beta` (positive);
- token vectors at token i: `x_i` (the token), `f_h_i` (head h's output f^h_i), `F_i` (sum_h f^h_i), `v_i` (the
  velocity field: F_i / n for usa, F_i for softmax and relu), `xdot_i` (the geometry's velocity: P_i v_i on the
  sphere, v_i in flat space), `xbar_h_i` (the attention mean sum_j p^h_ij x_j, p^h_ij = softmax_j(beta s^h_ij) for
  every kind);
- scalars at token i and head h: `a_h_i` (radial shadow <f^h_i, x_i>), `T_h_i` (tangential power |P_i f^h_i|^2),
  `A_h_i` (the other heads' shadow sum_{g != h} a^g_i), `entropy_h_i`, `entropy_rate_h_i` (H^h_i, dH^h_i/dt),
  `Z_h_i` (the softmax normalizer sum_j exp(beta s^h_ij), the usa row sum);
- per head: `lambda_h` (the strength of a scalar head M_h = lambda_h I; a claim using it assumes scalar-heads);
- global scalars: `E`, `E_h` (the usa energies, whatever the attention kind), `dE_dt`, `dE_h_dt` (their rates along
  the kind's dynamics), `cluster_gap` (1 - min_{i != j} <x_i, x_j>), `delta` (the bound of a claim's
  `orthogonal-heads(delta=q)`: the number q), `delta_op` (max_{h != g} |M_h M_g|_op of the configuration, 0 for one
  head: Theorem 39's delta, `certificates.kernel.operator_norm`), `R`, `dR_dt` (the order parameter and its rate);
- at token i: `norm_rate_i` (d|x_i|/dt along the geometry's own velocity);
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

Indices: a quantity is declared once under its name at the free token i and head h (`x_i`, `f_h_i`, `E_h`, `s_h_ij`
for a pair of tokens); it is written with its own indices in those slots, the tokens i, j and the heads h, g (`x_j`,
`f_g_i`, `a_g_j`, `s_h_ji`, `E_g`): `INDEX_SEGMENTS` reads such a spelling, nothing else is a name. An index not
bound by a sum is free: the statement is meant for every token i and every head h; the second indices j and g must be
bound by `sum_j` / `sum_g`. A sum does not rebind its own index inside itself (`sum_i(sum_i(...))`), different
indices nest (`sum_i(sum_j(inner(x_i, x_j)))`).
Anything else (other names, attributes, keywords, comparisons, ...) is an ExpressionError at its column.

Every node is built by `make`, which types it (a vector or a number, its free indices, what may divide) or says why
it is outside the grammar: the claims-file parser (`headflow.certificates.claims.model_claim.parse_term`) builds its
terms with it from text, the kernel (`certificates.kernel.model_statements.term_of`) from a statement's JSON trees.
`term_text` renders a term from its tree. What a term is worth at an exact configuration is its tree of the
configuration's chain (`model_values.Trees`).
"""

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

MAX_POWER = 8
SYMBOLS = ("n", "d", "H", "beta")
#: Vectors by declared name: the primitive (x, f, xbar) or defined (F, v, xdot) vector it is.
VECTORS = {"x_i": "x", "f_h_i": "f", "F_i": "F", "v_i": "v", "xdot_i": "xdot", "xbar_h_i": "xbar"}
#: Scalars defined from vectors (`model_values.Trees`): a_h_i, T_h_i, A_h_i.
DEFINED_SCALARS = ("a_h_i", "T_h_i", "A_h_i")
#: Scalars the algebras supply.
PRIMITIVE_SCALARS = ("entropy_h_i", "entropy_rate_h_i", "E", "E_h", "dE_dt", "dE_h_dt", "Z_h_i", "lambda_h")
PRIMITIVE_SCALARS += ("cluster_gap", "delta", "delta_op", "misalignment_h", "R", "dR_dt", "norm_rate_i")
#: Scalars of head h at a pair of tokens (i, j), all supplied by the algebras: the score, the kind's weight, softmax.
PAIRS = {"s_h_ij": "s", "w_h_ij": "w", "p_h_ij": "p"}
#: Token and head indices, in the order their sums are written; a statement may leave only i and h free.
TOKENS, HEADS = ("i", "j"), ("h", "g")
FREE = frozenset({"i", "h"})
SUMS = tuple(f"sum_{k}" for k in (*TOKENS, *HEADS))
#: Head h's matrices as operators on vectors: `M_h(u)` = M_h u (scores), `W_h(u)` = W_h u (values).
OPERATORS = {"M_h": "M", "W_h": "W"}
#: What `log` may take: quantities positive at every configuration (so that the logarithm is always defined).
LOG_ARGUMENTS = ("Z_h_i", "E", "E_h", "n", "d", "H", "beta")
FUNCTIONS = {"inner": 2, "norm2": 1, "norm": 1, "proj": 1, "M_h": 1, "W_h": 1, "log": 1} | dict.fromkeys(SUMS, 1)
#: How many arguments each node takes.
ARITY = {"num": 1, "name": 1, "pow": 2, "neg": 1} | dict.fromkeys("+-*/", 2) | FUNCTIONS
#: The relation of `rhs - lhs` to 0 that refutes `lhs op rhs` (for each relation a statement may state), and the one
#: that states it (for each relation a `given` condition or an existence statement's inequality may state).
NEGATED = {"=": "!=", "<=": "<", "<": "<=", ">=": ">", ">": ">="}
STATED = {"<=": ">=", "<": ">", ">=": "<=", ">": "<"}


@dataclass(frozen=True)
class Slots:
    """The letters at a declared name's slots: its head (h or g), its token (i or j), its token pair (two letters)."""

    head: str | None = None
    token: str | None = None
    pair: tuple[str, str] | None = None


DECLARED = (*VECTORS, *DEFINED_SCALARS, *PRIMITIVE_SCALARS, *PAIRS)
#: The index segments of a written name and the declared segment each fills: a head h or g, a token i or j, two tokens.
INDEX_SEGMENTS = {"h": "h", "g": "h", "i": "i", "j": "i"} | {a + b: "ij" for a in TOKENS for b in TOKENS}


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
    def names(self) -> frozenset[str]:
        """The names the term uses: its quantities (`a_h_i`, `lambda_h`, ...; a vector by its primitive: `xdot`) and
        its sums (`sum_i`, `sum_j`, `sum_h`, `sum_g`)."""
        own = {self.args[0]} if self.op in ("scalar", "pair", "vector") else {self.op} & set(SUMS)
        return frozenset(own).union(*(a.names for a in self.args if isinstance(a, Term)))


def make(op: str, args: tuple[Any, ...]) -> Term:
    """The term `op(args)`, typed (vector or number, free indices); TermError when it is outside the grammar.
    `num` takes a Fraction, `name` a written name, `pow` a term and an integer, the others terms."""
    if op not in ARITY:
        raise TermError(f"unknown function (model expressions call {', '.join(FUNCTIONS)})")
    if len(args) != ARITY[op]:
        raise TermError(f"{op} takes {ARITY[op]} argument(s)")
    if op == "num":
        return Term("num", (Fraction(args[0]),))
    if op == "name":
        return _named(args[0])
    if any(not isinstance(a, Term) for a in args[: 1 if op == "pow" else None]):
        raise TermError(f"{op} takes terms")
    free, vector = frozenset().union(*(a.free for a in args if isinstance(a, Term))), args[0].vector
    if op == "pow":
        if type(args[1]) is not int or not 0 <= args[1] <= MAX_POWER:
            raise TermError(f"an exponent is an integer literal from 0 to {MAX_POWER}")
        if vector:
            raise TermError("a vector has no power (use norm2)")
        return Term("pow", args, False, free)
    if op in ("+", "-") and vector != args[1].vector:
        raise TermError("a vector and a number cannot be added")
    if op == "*" and vector and args[1].vector:
        raise TermError("two vectors cannot be multiplied (use inner)")
    if op == "/" and (args[1].vector or not _monomial(args[1])):
        raise TermError("divide only by a product of non-zero numbers and n, d, H, beta")
    if op in ("+", "-", "*", "/", "neg"):  # neg: its one argument is args[-1] too
        return Term(op, args, vector or args[-1].vector, free)
    if op in SUMS:
        if op in args[0].names:
            raise TermError(f"{op} inside {op}: sums over the same index do not nest")
        return Term(op, args, vector, free - {op.removeprefix("sum_")})
    if op == "log":
        if args[0].op not in ("scalar", "symbol") or args[0].args[0] not in LOG_ARGUMENTS:
            raise TermError(f"log takes one of {', '.join(LOG_ARGUMENTS)} (positive everywhere)")
        return Term("log", args, False, free)
    if not all(a.vector for a in args):
        raise TermError(f"{op} takes vectors")
    own = {"proj": {"i"}, "M_h": {"h"}, "W_h": {"h"}}.get(op)
    return Term(op, args, own is not None, free | (own or set()))


def _named(written: object) -> Term:
    """The symbol or the quantity `written`: its declared name with the index segments h, i, ij (after the first)
    filled with a head h or g, a token i or j, two tokens (`s_h_ji` is the declared s_h_ij at tokens j, i)."""
    if written in SYMBOLS:
        return Term("symbol", (written,))
    first, *rest = written.split("_") if isinstance(written, str) else [""]
    declared = "_".join([first, *(INDEX_SEGMENTS.get(part, part) for part in rest)])
    if declared not in DECLARED:
        known = f"{', '.join([*SYMBOLS, *DECLARED])}, at tokens i, j and heads h, g"
        raise TermError(f"unknown name {str(written)[:40]!r} (model expressions know {known})")
    slot = {INDEX_SEGMENTS[part]: part for part in rest if part in INDEX_SEGMENTS}
    slots = Slots(slot.get("h"), slot.get("i"), (slot["ij"][0], slot["ij"][1]) if "ij" in slot else None)
    letters = frozenset("".join(slot.values()))
    if declared in VECTORS:
        return Term("vector", (VECTORS[declared], written, slots), True, letters)
    return Term("pair" if declared in PAIRS else "scalar", (declared, written, slots), False, letters)


def _monomial(term: Term) -> bool:
    """A non-zero number or symbol, or a product, quotient, negation or power of such: non-zero everywhere."""
    if term.op in ("num", "symbol"):
        return term.args[0] != 0
    return term.op in ("*", "/", "neg", "pow") and all(_monomial(a) for a in term.args if isinstance(a, Term))


def scalar_term(term: Term, free: frozenset[str] = FREE) -> Term:
    """`term` when it may be a side of a statement (a number whose indices outside `free`, by default the second
    indices j and g, are bound); TermError else."""
    if term.vector:
        raise TermError("a side is a number, not a vector (use inner or norm2)")
    for index in sorted(term.free - free):
        what = "token" if index in TOKENS else "head"
        raise TermError(f"index {index} is not bound: a second {what} is written inside sum_{index}(...)")
    return term


_INFIX = {"+": " + ", "-": " - ", "*": "*", "/": "/"}


def term_text(term: Term) -> str:
    """The term as text, rendered from its tree (what the checker prints is what it evaluated)."""
    op, args = term.op, term.args
    if op == "num":
        return str(args[0]) if args[0] >= 0 else f"({args[0]})"
    if op in ("symbol", "vector", "scalar", "pair"):  # a symbol's name, a quantity's written name
        return str(args[0] if op == "symbol" else args[1])
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
