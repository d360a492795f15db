"""Model terms: the parser of expressions over the model's named quantities (the claims-file grammar).

The grammar of a `model` claim's sides (and of its `given` conditions). The text is read with the syntax checks of
`certificates.kernel.claims.expressions` (`checked_syntax`: characters, length, nesting, node count) and its tree is
walked with the whitelist below; nothing is evaluated, every node is built here. Names (SPEC section 1):

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

Indices (`certificates.kernel.claims.model_indices`): every name is written with its own indices, the tokens i, j and
the heads h, g (`x_j`, `f_g_i`, `a_g_j`, `s_h_ji`, `E_g`). An index not bound by a sum is free: the statement is meant
for every token i and every head h; the second indices j and g must be bound by `sum_j` / `sum_g`. A sum does not
rebind its own index inside itself (`sum_i(sum_i(...))`), different indices nest (`sum_i(sum_j(inner(x_i, x_j)))`).
Anything else (other names, attributes, keywords, comparisons, ...) is an ExpressionError at its column.

The terms, their typing (`make`), their one interpreter (`evaluate`) and their JSON trees live in the kernel
(`certificates.kernel.model_statements`): this module reads text and builds each node with `make`, whose reason for a
node outside the grammar it reports at the node's column.
"""

from __future__ import annotations

import ast
from fractions import Fraction

from certificates.kernel.claims.expressions import check_characters, checked_syntax, rational_literal
from certificates.kernel.claims.problems import ExpressionError
from certificates.kernel.model_statements import FUNCTIONS, Term, TermError, make, scalar_term


def parse_term(text: object) -> Term:
    """The scalar term `text` denotes; ExpressionError (an InputError) for anything outside the grammar."""
    tree = checked_syntax(text)
    assert isinstance(text, str)
    term = _Walker(text).walk(tree, 0)
    check_characters(text)
    try:
        return scalar_term(term)
    except TermError as exc:
        raise ExpressionError(text, str(exc)) from None


#: The operators of the grammar, by their syntax node.
_OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "pow"}


class _Walker:
    def __init__(self, text: str) -> None:
        self.text, self.offset = text, len(text) - len(text.lstrip())

    def fail(self, node: ast.AST, reason: str) -> ExpressionError:
        return ExpressionError(self.text, reason, getattr(node, "col_offset", 0) + 1 + self.offset)

    def make(self, node: ast.AST, op: str, args: tuple[object, ...]) -> Term:
        try:
            return make(op, args)
        except TermError as exc:
            raise self.fail(node, str(exc)) from None

    def walk(self, node: ast.AST, depth: int) -> Term:
        if depth > 60:
            raise self.fail(node, "nested too deeply")
        if isinstance(node, ast.Constant):
            return self.make(node, "num", (Fraction(str(rational_literal(self.text.strip(), node))),))
        if isinstance(node, ast.Name):
            return self.make(node, "name", (node.id,))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            operand = self.walk(node.operand, depth + 1)
            return operand if isinstance(node.op, ast.UAdd) else self.make(node, "neg", (operand,))
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            op, left = _OPERATORS[type(node.op)], self.walk(node.left, depth + 1)
            if op == "pow":
                k = node.right
                return self.make(node, op, (left, k.value if isinstance(k, ast.Constant) else None))
            at = node.right if op == "/" else node  # a bad divisor is reported at the divisor
            return self.make(at, op, (left, self.walk(node.right, depth + 1)))
        if isinstance(node, ast.BinOp):
            raise self.fail(node, f"operator {type(node.op).__name__} is not allowed")
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else None
            if name not in FUNCTIONS or node.keywords:
                raise self.fail(node, f"unknown function (model expressions call {', '.join(FUNCTIONS)})")
            return self.make(node, name, tuple(self.walk(a, depth + 1) for a in node.args))
        raise self.fail(node, f"not allowed in model expressions: {type(node).__name__}")
