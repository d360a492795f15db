"""A restricted expression grammar: formula text -> inert SymPy expression, with nothing executed.

Only the characters of the grammar may appear (letters, digits, `_`, white space and `+ - * / ( ) , .`):
anything else, `#` included (Python would read the rest of the text as a comment), is an
`ExpressionError` naming its column. `ast.parse(text, mode="eval")` then only builds a syntax tree;
the tree is walked with a strict whitelist and every SymPy node is built here. Accepted: numeric
literals (turned into exact rationals from their source text), declared symbols, the names of
`headflow.certificates.claims.names`, binary + - * / **, unary + and -, and calls of whitelisted functions with
positional arguments. Anything else (attributes, subscripts, lambdas, comprehensions, strings,
comparisons, keyword arguments, unknown names...) is an `ExpressionError` naming the column.

Every non-polynomial operation is built as an inert node (`headflow.certificates.inert`: sqrt, a non-integer
power, exp, log, lambertw, lambda_c and the named functions' closed forms), so SymPy's automatic
evaluation is only rational-function arithmetic, the same for every value of the atoms: no sign,
branch or zero test of SymPy's shapes the expression (`sqrt((1 - c_star(10**30)**2)**2)` stays a
square root of a square). `parse_tree` gives the formula exactly as written, as a tree of
`headflow.certificates.kernel.exprtree` with the grammar's named functions as named nodes.

Limits, so that no text can exhaust time or memory:
- at most MAX_TEXT characters, MAX_NODES syntax nodes and MAX_DEPTH levels of nesting (checked on
  the brackets before parsing, and on the tree while walking it);
- a literal has at most MAX_LITERAL_CHARS characters and magnitude at most 10**100;
- a numeric exponent has magnitude at most MAX_EXPONENT, and an exact rational produced by a
  power or product has at most MAX_RESULT_BITS bits;
- SymPy's (rational) arithmetic while building gets BUILD_OPERATIONS (counted, `headflow.certificates.counted`, so the
  same text is accepted or refused on any machine); any exception it raises becomes an ExpressionError.

While building, each operation's definedness conditions are recorded from its operands
(`headflow.certificates.claims.conditions`), before SymPy simplifies them away (`x/x` becomes 1, but the
condition x != 0 stays); `parse_defined` returns them. A condition on exact numbers that fails
(`sqrt(-1)`, `(-8)**(1/3)`) is an ExpressionError.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Mapping
from fractions import Fraction

import sympy as sp
from headflow.certificates.claims.conditions import Condition, call_conditions, power_conditions, settled, unique
from headflow.certificates.claims.head_sums import HEAD_FUNCTIONS, HeadScope, HeadSum
from headflow.certificates.claims.names import CONSTANTS, FUNCTIONS
from headflow.certificates.claims.problems import ExpressionError
from headflow.certificates.counted import spend
from headflow.certificates.inert import RealPower
from headflow.certificates.kernel.exprtree import NAMED, Tree, rational_text

MAX_TEXT = 2000
MAX_NODES = 400
MAX_DEPTH = 60
MAX_LITERAL_CHARS = 120
MAX_LITERAL = 10**100
MAX_EXPONENT = 1000
MAX_RESULT_BITS = 20_000
BUILD_OPERATIONS = 4_000_000

#: The characters of the grammar; any other (`#`, `;`, `\\`, quotes, brackets other than round ones...) is an error.
_OUTSIDE = re.compile(r"[^A-Za-z0-9_+\-*/().,\s]")
_DECIMAL = re.compile(r"^(?P<mantissa>[0-9][0-9_]*(\.[0-9_]*)?|\.[0-9][0-9_]*)([eE](?P<exponent>[+-]?[0-9]+))?$")
_BINARY = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**"}
_DESCRIBE = {
    ast.Attribute: "attribute access",
    ast.Subscript: "subscripts",
    ast.Lambda: "lambda",
    ast.ListComp: "comprehensions",
    ast.SetComp: "comprehensions",
    ast.DictComp: "comprehensions",
    ast.GeneratorExp: "comprehensions",
    ast.Compare: "comparisons (an inequality claim states its relation in `op`)",
    ast.BoolOp: "boolean operators",
    ast.IfExp: "conditional expressions",
    ast.JoinedStr: "strings",
    ast.Starred: "starred arguments",
    ast.NamedExpr: "assignment expressions",
    ast.List: "lists",
    ast.Tuple: "tuples",
    ast.Set: "sets",
    ast.Dict: "dicts",
    ast.Await: "await",
    ast.Yield: "yield",
    ast.YieldFrom: "yield",
    ast.Slice: "slices",
}


def parse_expression(text: object, symbols: Mapping[str, sp.Expr] | None = None) -> sp.Expr:
    """The SymPy expression `text` denotes, with `symbols` the names it may use besides the built-ins.

    A name in `symbols` may stand for a SymPy symbol or for a value (a number substituted for it).

    Raises ExpressionError (an InputError) for anything outside the grammar; never another exception.
    """
    return parse_defined(text, symbols)[0]


def parse_defined(
    text: object, symbols: Mapping[str, sp.Expr] | None = None, heads: HeadScope | None = None
) -> tuple[sp.Expr, tuple[Condition, ...]]:
    """`parse_expression`, with the conditions under which the formula as written is defined. `heads`: the claim's
    per-head symbols and count, which `sum_h(...)` and `mean_h(...)` use (`headflow.certificates.claims.head_sums`)."""
    tree = checked_syntax(text)
    builder = _Builder(text, dict(symbols or {}), heads)
    try:
        result, why = spend(BUILD_OPERATIONS, lambda: builder.build(tree, 0))
    except ExpressionError:
        raise
    except Exception as exc:  # SymPy's arithmetic may fail in many ways on odd constants
        raise ExpressionError(text, f"SymPy cannot build this expression ({type(exc).__name__})") from None
    if why:
        raise ExpressionError(text, f"too expensive to build (SymPy ran past {why})")
    check_characters(text)  # after the walk, which names what it refuses; a comment is invisible to it
    if result.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        raise ExpressionError(text, "undefined or infinite (e.g. a division by zero)")
    return result, unique(builder.conditions)


def checked_syntax(text: object) -> ast.expr:
    """The Python syntax tree of a formula text within the limits (length, nesting, node count); nothing built yet.

    Shared by every grammar on this syntax (`parse_defined` here, the model terms of
    `headflow.certificates.kernel.model_terms`); the caller walks the tree with its own whitelist and then calls
    `check_characters` (after the walk, which names what it refuses more precisely)."""
    if not isinstance(text, str):
        raise ExpressionError(repr(text), f"an expression must be a string, not {type(text).__name__}")
    if not text.strip():
        raise ExpressionError(text, "empty expression")
    if len(text) > MAX_TEXT:
        raise ExpressionError(text, f"longer than {MAX_TEXT} characters")
    _check_bracket_depth(text)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. "invalid decimal literal": the text is refused or accepted anyway
            tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise ExpressionError(text, f"syntax error: {exc.msg}", exc.offset or 0) from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise ExpressionError(text, f"cannot be parsed: {type(exc).__name__}") from None
    nodes = sum(1 for _ in ast.walk(tree))
    if nodes > MAX_NODES:
        raise ExpressionError(text, f"too large: {nodes} syntax nodes (at most {MAX_NODES})")
    return tree.body


def rational_literal(text: str, node: ast.Constant) -> sp.Rational:
    """The exact rational of a numeric literal of `text` (the tree of `checked_syntax(text)`), or ExpressionError."""
    return _Builder(text, {}).literal(node)


def check_characters(text: str) -> None:
    """Every character belongs to the grammar: Python's parser drops `#` and the rest of the line as a comment."""
    outside = _OUTSIDE.search(text)
    if outside is not None:
        what = "a comment sign: formulas have no comments" if outside.group() == "#" else "outside the grammar"
        raise ExpressionError(text, f"character {outside.group()!r} is {what}", outside.start() + 1)


def _check_bracket_depth(text: str) -> None:
    depth = 0
    for index, char in enumerate(text):
        if char in "([{":
            depth += 1
            if depth > MAX_DEPTH:
                raise ExpressionError(text, f"nested deeper than {MAX_DEPTH} brackets", index + 1)
        elif char in ")]}":
            depth -= 1


class _Builder:
    """Walks a syntax tree and builds SymPy nodes, refusing everything not whitelisted."""

    def __init__(self, original: str, symbols: dict[str, sp.Expr], heads: HeadScope | None = None) -> None:
        self.original, self.source, self.symbols = original, original.strip(), symbols
        self.offset = len(original) - len(original.lstrip())
        self.conditions: list[Condition] = []
        self.heads, self.in_sum = heads, False

    def require(self, node: ast.AST, conditions: list[Condition]) -> None:
        """Record what an operation needs; one that fails on exact numbers is an error at the node."""
        for condition in conditions:
            holds = settled(condition)
            if holds is False and condition.necessary:
                raise self.fail(node, f"undefined: {condition.reason}")
            if holds is not True:
                self.conditions.append(condition)

    def fail(self, node: ast.AST, reason: str) -> ExpressionError:
        """An error at the node's column in the original text (1-based)."""
        return ExpressionError(self.original, reason, getattr(node, "col_offset", 0) + 1 + self.offset)

    def build(self, node: ast.AST, depth: int) -> sp.Expr:
        if depth > MAX_DEPTH:
            raise self.fail(node, f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(node, ast.Constant):
            return self.literal(node)
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.UnaryOp):
            operand = self.build(node.operand, depth + 1)
            if isinstance(node.op, ast.USub):
                return self.checked(node, -operand)
            if isinstance(node.op, ast.UAdd):
                return operand
            raise self.fail(node, f"unary operator {type(node.op).__name__} is not allowed")
        if isinstance(node, ast.BinOp):
            return self.binary(node, depth)
        if isinstance(node, ast.Call):
            return self.call(node, depth)
        what = _DESCRIBE.get(type(node), type(node).__name__)
        raise self.fail(node, f"not allowed in expressions: {what}")

    def literal(self, node: ast.Constant) -> sp.Expr:
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(node, f"{type(value).__name__} literals are not allowed (only real numbers)")
        source = ast.get_source_segment(self.source, node) or ""
        if len(source) > MAX_LITERAL_CHARS:
            raise self.fail(node, f"numeric literal longer than {MAX_LITERAL_CHARS} characters")
        match = _DECIMAL.match(source)
        if match is None:
            raise self.fail(node, f"unsupported numeric literal {source!r} (write decimal numbers)")
        exponent = int(match.group("exponent") or 0)
        if abs(exponent) > 400:
            raise self.fail(node, "numeric literal out of range (magnitude must lie within 1e-400..1e100)")
        exact = Fraction(source.replace("_", ""))
        if abs(exact) > MAX_LITERAL:
            raise self.fail(node, "numeric literal larger than 1e100")
        return sp.Rational(exact.numerator, exact.denominator)

    def name(self, node: ast.Name) -> sp.Expr:
        name = node.id
        if name.startswith("_"):
            raise self.fail(node, f"names starting with an underscore (like {name!r}) are not allowed")
        if self.heads is not None and name in self.heads.names and not self.in_sum:
            raise self.fail(node, f"{name} is one head's value: use it inside sum_h(...) or mean_h(...)")
        if name in self.symbols:
            return self.symbols[name]
        if name in CONSTANTS:
            return CONSTANTS[name]
        if name in FUNCTIONS:
            raise self.fail(node, f"{name} is a function: call it as {name}(...)")
        known = ", ".join(sorted(self.symbols)) or "none declared"
        raise self.fail(node, f"unknown name {name!r} (symbols: {known}; functions: {', '.join(FUNCTIONS)})")

    def binary(self, node: ast.BinOp, depth: int) -> sp.Expr:
        op = _BINARY.get(type(node.op))
        if op is None:
            raise self.fail(node, f"operator {type(node.op).__name__} is not allowed (use + - * / **)")
        left = self.build(node.left, depth + 1)
        right = self.build(node.right, depth + 1)
        if op == "+":
            return self.checked(node, left + right)
        if op == "-":
            return self.checked(node, left - right)
        if op == "*":
            return self.checked(node, left * right)
        if op == "/":
            self.require(node, [Condition(right, "!=", "division by zero")])
            return self.checked(node, left / right)
        return self.power(node, left, right)

    def power(self, node: ast.BinOp, base: sp.Expr, exponent: sp.Expr) -> sp.Expr:
        """An integer power (exact rationals are bounded: SymPy computes them eagerly), else an inert real power."""
        if exponent.is_Rational:
            if abs(exponent) > MAX_EXPONENT:
                raise self.fail(node, f"exponent {exponent} too large (magnitude at most {MAX_EXPONENT})")
            if base.is_Rational:
                bits = (int(base.p).bit_length() + int(base.q).bit_length()) * abs(int(exponent.p))
                if bits > MAX_RESULT_BITS:
                    raise self.fail(node, f"power too large (about {bits} bits; at most {MAX_RESULT_BITS})")
        self.require(node, power_conditions(base, exponent))
        return self.checked(node, base**exponent if exponent.is_Integer else RealPower(base, exponent))

    def call(self, node: ast.Call, depth: int) -> sp.Expr:
        if not isinstance(node.func, ast.Name):
            raise self.fail(node, "only calls of the named functions are allowed")
        name = node.func.id
        if name in HEAD_FUNCTIONS and self.heads is not None:
            return self.head_function(node, name, depth)
        if name not in FUNCTIONS:
            self.name(node.func)  # reports dunders, symbols and unknown names precisely
            raise self.fail(node, f"{name!r} is not a function")
        if node.keywords:
            raise self.fail(node, f"{name}: keyword arguments are not allowed")
        if any(isinstance(arg, ast.Starred) for arg in node.args):
            raise self.fail(node, f"{name}: starred arguments are not allowed")
        arity, function = FUNCTIONS[name]
        if len(node.args) != arity:
            raise self.fail(node, f"{name} takes {arity} argument{'s' * (arity != 1)}, got {len(node.args)}")
        args = [self.build(arg, depth + 1) for arg in node.args]
        self.require(node, call_conditions(function, args))
        return self.checked(node, function(*args))

    def head_function(self, node: ast.Call, name: str, depth: int) -> sp.Expr:
        """sum_h(E) or mean_h(E): a HeadSum node, or the explicit sum over the scope's family (its conditions
        written for each member)."""
        heads = self.heads
        assert heads is not None
        if self.in_sum:
            raise self.fail(node, f"{name} inside another sum over the heads: sums over h do not nest")
        if node.keywords or len(node.args) != 1 or isinstance(node.args[0], ast.Starred):
            raise self.fail(node, f"{name} takes 1 argument, got {len(node.args)}")
        before, self.in_sum = len(self.conditions), True
        try:
            argument = self.build(node.args[0], depth + 1)
        finally:
            self.in_sum = False
        if heads.family is None:
            varies = any(str(s) in heads.names for s in argument.free_symbols)
            total = HeadSum(argument) if varies else heads.count * argument
        else:
            inner, self.conditions = self.conditions[before:], self.conditions[:before]
            total = sp.Integer(0)
            for values, multiplicity in heads.members():
                swap = {self.symbols[key]: value for key, value in values.items()}
                total += multiplicity * argument.xreplace(swap)
                self.require(node, [Condition(c.expr.xreplace(swap), c.relation, c.reason, c.necessary) for c in inner])
        return self.checked(node, total if name == "sum_h" else total / heads.count)

    def checked(self, node: ast.AST, result: sp.Expr) -> sp.Expr:
        """Refuse exact rationals too large to keep (a guard against products of huge powers)."""
        if result.is_Rational and int(result.p).bit_length() + int(result.q).bit_length() > MAX_RESULT_BITS:
            raise self.fail(node, f"number too large (more than {MAX_RESULT_BITS} bits)")
        return result


def parse_tree(text: object, symbols: Mapping[str, sp.Expr] | None = None, heads: HeadScope | None = None) -> Tree:
    """The formula exactly as written, as a `headflow.certificates.kernel.exprtree` tree: `a - b` is `sub`, `a / b` is
    `div`, `-a` is `neg`, and c_star, beta_star, rate, lambda_max, golden, pi, e stay named nodes (for printing a
    claim in its own shape); with `heads`, `sum_h(e)` and `mean_h(e)` are such nodes too (never a statement's: they
    are written out at a family, `certificates.statements.head_families`). ExpressionError exactly when
    `parse_defined` raises one."""
    parse_defined(text, symbols, heads)  # every check of the grammar, limits and exact definedness
    builder = _Builder(text, dict(symbols or {}), heads)
    return _faithful(builder, ast.parse(text.strip(), mode="eval").body)


_SHAPE = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div"}


def _faithful(builder: _Builder, node: ast.AST) -> Tree:
    """The tree of a syntax node that `_Builder` accepted."""
    if isinstance(node, ast.Constant):
        value = builder.literal(node)
        return ["rat", rational_text(Fraction(int(value.p), int(value.q)))]
    if isinstance(node, ast.Name):
        return [node.id] if node.id in CONSTANTS else ["sym", node.id]
    if isinstance(node, ast.UnaryOp):
        operand = _faithful(builder, node.operand)
        return ["neg", operand] if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.BinOp) and type(node.op) in _SHAPE:
        return [_SHAPE[type(node.op)], _faithful(builder, node.left), _faithful(builder, node.right)]
    if isinstance(node, ast.BinOp):
        base, exponent = _faithful(builder, node.left), builder.build(node.right, 0)
        if exponent.is_Integer:
            return ["pow", base, int(exponent)]
        if exponent.is_Rational:
            return ["rpow", base, ["rat", rational_text(Fraction(int(exponent.p), int(exponent.q)))]]
        return ["rpow", base, _faithful(builder, node.right)]
    assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    assert node.func.id in NAMED or node.func.id in FUNCTIONS or node.func.id in HEAD_FUNCTIONS
    return [node.func.id, *[_faithful(builder, arg) for arg in node.args]]
