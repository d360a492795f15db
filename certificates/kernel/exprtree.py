"""Expressions as JSON trees, so that a certificate carries its formula without any parser.

A term is a list `[op, *args]`. The node set (also what a claims-file formula is, faithfully, before
any evaluation: `headflow.certificates.claims.expressions.parse_tree`):

- `["sym", name]`, `["rat", "p/q"]` (an exact rational; a literal's exact value);
- `["add", a, b, ...]`, `["mul", a, b, ...]`, `["pow", base, k]` (k a Python integer, negative: a
  reciprocal), and the shapes of the text `["neg", a]` (-a), `["sub", a, b]` (a - b), `["div", a, b]` (a / b);
- `["rpow", base, q]`: base**q for an exponent that is not an integer: for a rational q = a/b (the term
  `["rat", "a/b"]`) the real b-th root of base**a (base >= 0, > 0 when a < 0); for any other term q,
  exp(q log base) (base > 0);
- `["exp", x]`, `["log", x]`, `["sqrt", x]`, `["lambertw", x]` (principal branch), `["lambda_c", n, beta]`
  (the implicit lambda_c(n, beta), enclosed by `headflow.certificates.kernel.lambda_c.enclose`: an implicit function),
  `["cos", x]`, `["sin", x]` (written by the kernel itself, `circulant`, `spaced`: no claims-file formula has one);
- the claims grammar's named functions and constants, kept as named nodes: `["c_star", H]`,
  `["beta_star", H, n, alpha]`, `["rate", lam, n, beta]`, `["lambda_max", n, beta]`, `["golden"]`,
  `["pi"]`, `["e"]`. Their meaning is the closed form of `identities.closed_forms` (one place), stored as a tree
  over its parameters `NAMED[name]` (`certificates.kernel.stored_forms`, held equal to the closed forms by a test);
  `expand` replaces one by it.

A formula (the hypotheses and goal of an SMT obligation) is `[rel, a, b]` with rel one of
`< <= > >= =`, `["and", ...]`, `["or", ...]`, `["not", f]`, `["implies", f, g]`, `["iff", f, g]`,
`["true"]` or `["false"]`. Trees are written from SymPy outside the kernel (`headflow.certificates.sympy_trees`);
`evaluate` evaluates a term with python-flint balls from the file alone (the verifying side), so reading a
certificate never calls eval, sympify or a parser on file text. It is the one ball evaluator:
`certificates.kernel.balls.eval_ball` is it with lambda_c's enclosure. The implicit functions (lambda_c, which has
no closed form) are given by the caller, because lambda_c's enclosure (a bisection) evaluates its equation here.
Every other walker of terms (exact rationals here, polynomials, SMT-LIB2 text, readable text) is `fold` with its
table of rules, so that the node set and its arities are written once (`ARITY`).
"""

import operator
from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import partial, reduce
from typing import Any, TypeVar

from flint import arb, ctx

from . import endpoints, stored_forms
from .exact import rational_ball

Tree = list[Any]
Value = TypeVar("Value")
UNARY = ("exp", "log", "sqrt", "lambertw")
#: An implicit function's enclosure: the balls of its arguments -> a ball holding every value over them.
Enclosure = Callable[..., arb]
#: The named nodes: name -> the parameters of its closed form (`stored_forms.tree`), one per argument.
NAMED = {name: tuple(symbols) for name, symbols in stored_forms.STORED["parameters"].items()}
#: Every operation of a term but `rat`, `sym` and `pow`: name -> its number of arguments (None: one or more). The
#: implicit functions (`lambda_c`, no closed form) get their balls from the caller of `evaluate`.
ARITY: dict[str, int | None] = {"add": None, "mul": None, "neg": 1, "sub": 2, "div": 2, "rpow": 2, "lambda_c": 2}
ARITY |= dict.fromkeys(UNARY, 1) | {name: len(parameters) for name, parameters in NAMED.items()} | {"cos": 1, "sin": 1}
#: The relations of a formula (its connectives: `headflow.certificates.kernel.smtlib`).
RELATIONS = ("<", "<=", ">", ">=", "=")
MAX_DEPTH = 200
#: Characters of one rational's text (numerator and denominator together).
MAX_RATIONAL_CHARS = 2_000
#: Bits of a rational that `exact_rational` still computes with (beyond, the caller falls back to balls).
MAX_EXACT_BITS = 100_000


class TreeError(ValueError):
    """A malformed expression tree (from a damaged or hand-edited certificate)."""


def parse_rational(text: object) -> Fraction:
    """A rational from its exact text 'p/q' or 'p' (no floats: they would not be exact)."""
    if not isinstance(text, str) or not text or len(text) > MAX_RATIONAL_CHARS:
        raise TreeError(f"not an exact rational string: {text!r}")
    num, _, den = text.partition("/")
    try:
        return Fraction(int(num), int(den) if den else 1)
    except (ValueError, ZeroDivisionError):
        raise TreeError(f"not an exact rational string: {text!r}") from None


def rational_text(value: Fraction | int) -> str:
    """The exact text of a rational, as `parse_rational` reads it; TreeError when that text would be longer
    than MAX_RATIONAL_CHARS (no checker would read it, and Python refuses to print huge integers)."""
    q = Fraction(value)
    if _bits(q) * 0.30103 > MAX_RATIONAL_CHARS - 4:  # 0.30103 decimal digits per bit, slightly above log10(2)
        raise TreeError(f"a rational of {_bits(q)} bits is too large to record")
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def rational_tree(value: Fraction | int) -> Tree:
    """The `rat` node of a rational, its text by `rational_text`."""
    return ["rat", rational_text(value)]


def node_parts(tree: object, depth: int) -> tuple[str, list]:
    """(operation, arguments) of a tree node at `depth`, or TreeError for a malformed or too deep node (what every
    walker of trees checks first: `evaluate`, `fold`, the compiled programs of `certificates.provers.programs`)."""
    if depth > MAX_DEPTH:
        raise TreeError("expression tree too deep")
    if not isinstance(tree, list) or not tree or not isinstance(tree[0], str):
        raise TreeError(f"malformed node {str(tree)[:60]}")
    return tree[0], tree[1:]


def count_nodes(tree: object, limit: int) -> int:
    """The number of nodes of a tree (terms or formulas); TreeError beyond `limit` or `MAX_DEPTH`."""
    count, stack = 0, [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        op, args = node_parts(node, depth)
        count += 1
        if count > limit:
            raise TreeError(f"expression tree larger than {limit} nodes")
        stack.extend((child, depth + 1) for child in _children(op, args))
    return count


def _children(op: str, args: list) -> list:
    """The subtrees among a node's arguments: none of a `sym` or `rat` leaf, the base of a `pow`, every other one."""
    return [] if op in ("sym", "rat") else args[:1] if op == "pow" else args


def symbols(tree: Tree) -> set[str]:
    """The names of the `sym` nodes of a well-formed term tree."""
    op, args = tree[0], tree[1:]
    return {args[0]} if op == "sym" else set().union(*(symbols(a) for a in _children(op, args)))


def takes(op: str, count: int) -> bool:
    """Whether the operation `op` (not `rat`, `sym` or `pow`) takes `count` arguments."""
    return op in ARITY and (count == ARITY[op] if ARITY[op] is not None else count > 0)


def fold(tree: object, rules: Mapping[str, Callable[..., Value]], depth: int = 0) -> Value:
    """The value of a term by `rules`: `rules["rat"](the Fraction)`, `rules["sym"](the name)`, `rules["pow"](value of
    the base, integer k)`, `rules["rpow"](base, exponent, walk)` (the trees, since a rational literal exponent has
    its own meaning, and `walk` giving a tree's value) and `rules[op](*values of the arguments)` for every other
    operation; TreeError for a malformed node, a wrong number of arguments or an operation without a rule."""
    op, args = node_parts(tree, depth)
    rule = rules.get(op)
    if rule is not None and op == "rat" and len(args) == 1:
        return rule(parse_rational(args[0]))
    if rule is not None and op == "sym" and len(args) == 1 and isinstance(args[0], str):
        return rule(args[0])
    if rule is not None and op == "pow" and len(args) == 2 and type(args[1]) is int:
        return rule(fold(args[0], rules, depth + 1), args[1])
    if rule is None or not takes(op, len(args)):
        raise TreeError(f"unknown or malformed node {str(op)[:20]!r}")
    if op == "rpow":
        return rule(*args, lambda child: fold(child, rules, depth + 1))
    return rule(*[fold(a, rules, depth + 1) for a in args])


UNARY_BALLS = {"exp": arb.exp, "log": arb.log, "sqrt": arb.sqrt, "lambertw": arb.lambertw}
#: The balls of the operations from the balls of their arguments.
_BALLS: dict[str, Callable[..., arb]] = {"neg": operator.neg, "sub": operator.sub, "pi": arb.pi}
_BALLS |= {"add": lambda *values: reduce(operator.add, values), "mul": lambda *values: reduce(endpoints.times, values)}
_BALLS |= {"div": lambda a, b: endpoints.times(a, endpoints.power(b, -1))}
_BALLS |= {"pow": lambda base, k: endpoints.power(base, _exponent(k))}
_BALLS |= {"rpow": lambda base, exponent, walk: _real_power(walk(base), exponent, walk)}
_BALLS |= {"rat": lambda value: rational_ball(value.numerator, value.denominator, ctx.prec)}
_BALLS |= {op: partial(endpoints.increasing, function) for op, function in UNARY_BALLS.items()} | {
    "cos": arb.cos,
    "sin": arb.sin,
}


def evaluate(tree: object, env: Mapping[str, arb], functions: Mapping[str, Enclosure] | None = None) -> arb:
    """Evaluate a tree as a ball at the current flint precision, the implicit functions (`lambda_c`) by their
    enclosures in `functions` and each named node by its closed form at the balls of its arguments; unknown nodes
    raise TreeError. Products, powers and the increasing functions of wide balls use their end points
    (`headflow.certificates.kernel.endpoints`)."""
    implicit = dict(functions or {})  # an implicit node without its enclosure has no rule: TreeError
    named = {op: partial(_named, op, implicit) for op in NAMED if op not in _BALLS}
    return fold(tree, _BALLS | implicit | named | {"sym": partial(_value, env)})


def _value(env: Mapping[str, arb], name: str) -> arb:
    if name not in env:
        raise TreeError(f"no value for symbol {name!r}")
    return env[name]


def _exponent(k: int) -> int:
    if abs(k) > 1000:
        raise TreeError("exponent too large")
    return k


def _real_power(base: arb, exponent: object, walk: Callable[[object], arb]) -> arb:
    """base**exponent for an `rpow` node: a rational exponent a/b through the b-th root, any other through exp and
    log (both need a non-negative base: a ball reaching below 0 evaluates to nan)."""
    if isinstance(exponent, list) and len(exponent) == 2 and exponent[0] == "rat":
        q = parse_rational(exponent[1])
        _exponent(max(abs(q.numerator), q.denominator))  # the bound of `pow`, integer exponents included
        if q.denominator == 1:
            return endpoints.power(base, q.numerator)
        if base < 0 or (q.numerator < 0 and not base > 0):
            return arb("nan")
        return endpoints.power(endpoints.increasing(lambda v: v.root(q.denominator), base), q.numerator)
    return endpoints.increasing(arb.exp, endpoints.times(walk(exponent), endpoints.increasing(arb.log, base)))


def _named(op: str, functions: Mapping[str, Enclosure], *values: arb) -> arb:
    """A named node: its closed form at the balls of its arguments."""
    return evaluate(stored_forms.tree(op), dict(zip(NAMED[op], values, strict=True)), functions)


def substitute(data: Any, values: Mapping[str, Tree]) -> Any:
    """JSON data (a tree, or objects and lists holding trees) with every symbol `["sym", name]` of `values` replaced
    by its value, all at once (a value's own symbols are kept); nothing else changes."""
    if isinstance(data, dict):
        return {key: substitute(value, values) for key, value in data.items()}
    if not isinstance(data, list):
        return data
    if len(data) == 2 and data[0] == "sym" and isinstance(data[1], str) and data[1] in values:
        return values[data[1]]
    return [substitute(item, values) for item in data]


def expand(tree: Tree) -> Tree:
    """The closed form of a named node at its arguments (a faithful rewriting: no evaluation)."""
    return substitute(stored_forms.tree(tree[0]), dict(zip(NAMED[tree[0]], tree[1:], strict=True)))  # type: ignore[no-any-return]


def exact_rational(tree: object, env: Mapping[str, Fraction]) -> Fraction | None:
    """The exact value of a tree of rational arithmetic (rationals, symbols, + - * /, integer powers) at a rational
    point; None when the tree has another node, a value is undefined (0 to a negative power, a quotient by 0) or too
    large (beyond MAX_EXACT_BITS)."""
    rules: dict[str, Callable[..., Fraction]] = {op: partial(_exact, function) for op, function in _EXACT.items()}
    rules |= {"rat": _small, "sym": lambda name: env[name], "neg": operator.neg, "pow": _small}
    try:
        return fold(tree, rules)
    except (TreeError, KeyError, ZeroDivisionError, OverflowError):
        return None


#: The operations of `exact_rational` that combine values two at a time, each result held to MAX_EXACT_BITS.
_EXACT = {"add": operator.add, "mul": operator.mul, "sub": operator.sub, "div": operator.truediv}


def _exact(function: Callable[[Fraction, Fraction], Fraction], *values: Fraction) -> Fraction:
    """`function` folded over the values from the left, each result refused (OverflowError) beyond MAX_EXACT_BITS."""
    return reduce(lambda a, b: _small(function(a, b)), values)


def _small(value: Fraction, k: int = 1) -> Fraction:
    """value**k (the value itself by default), or OverflowError, before computing it, when it is too large for
    `exact_rational`."""
    if _bits(value) * abs(k) > MAX_EXACT_BITS:
        raise OverflowError("a rational too large to compute with")
    return value**k


def _bits(value: Fraction) -> int:
    return value.numerator.bit_length() + value.denominator.bit_length()
