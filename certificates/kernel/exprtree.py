"""Expressions as JSON trees, so that a certificate carries its formula without any parser.

A term is a list `[op, *args]`. The node set (also what a claims-file formula is, faithfully, before
any evaluation: `certificates.claims.expressions.parse_tree`):

- `["sym", name]`, `["rat", "p/q"]` (an exact rational; a literal's exact value);
- `["add", a, b, ...]`, `["mul", a, b, ...]`, `["pow", base, k]` (k a Python integer, negative: a
  reciprocal), and the shapes of the text `["neg", a]` (-a), `["sub", a, b]` (a - b), `["div", a, b]` (a / b);
- `["rpow", base, q]`: base**q for an exponent that is not an integer: for a rational q = a/b (the term
  `["rat", "a/b"]`) the real b-th root of base**a (base >= 0, > 0 when a < 0); for any other term q,
  exp(q log base) (base > 0);
- `["exp", x]`, `["log", x]`, `["sqrt", x]`, `["lambertw", x]` (principal branch), `["lambda_c", n, beta]`
  (the implicit lambda_c(n, beta), enclosed by `certificates.kernel.lambda_c.enclose`: `IMPLICIT`);
- the claims grammar's named functions and constants, kept as named nodes: `["c_star", H]`,
  `["beta_star", H, n, alpha]`, `["rate", lam, n, beta]`, `["lambda_max", n, beta]`, `["golden"]`,
  `["pi"]`, `["e"]`. Their meaning is the closed form of `identities.closed_forms` (one place), as a
  template tree (`named_template`); `expand_named` replaces them by it.

A formula (the hypotheses and goal of an SMT obligation) is `[rel, a, b]` with rel one of
`< <= > >= =`, `["and", ...]`, `["or", ...]`, `["not", f]`, `["implies", f, g]`, `["iff", f, g]`,
`["true"]` or `["false"]`. `from_sympy` and `formula_from_sympy` write trees from SymPy (the
deciding side and the checker's obligations; the inert nodes of `certificates.inert` included);
`evaluate` evaluates a term with python-flint balls from the file alone (the verifying side), so
reading a certificate never calls eval, sympify or a parser on file text. It is the one ball evaluator:
`certificates.kernel.balls.eval_ball` is it with lambda_c's enclosure, and every SymPy expression is written
as a tree once (`from_sympy`) before it is evaluated. The implicit functions (lambda_c, which has no closed
form) are given by the caller, because lambda_c's enclosure (a bisection) evaluates its equation here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from flint import arb, ctx

from certificates.kernel import endpoints
from certificates.kernel.exact import ball_of, exact_value

Tree = list[Any]
UNARY = ("exp", "log", "sqrt", "lambertw")
#: The implicit functions: name -> number of arguments; their balls come from the caller of `evaluate`.
IMPLICIT = {"lambda_c": 2}
#: An implicit function's enclosure: the balls of its arguments -> a ball holding every value over them.
Enclosure = Callable[..., arb]
#: The named nodes: name -> number of arguments (their meaning: `named_template`).
NAMED = {"c_star": 1, "beta_star": 3, "rate": 3, "lambda_max": 2, "golden": 0, "pi": 0, "e": 0}
RELATIONS = ("<", "<=", ">", ">=", "=")
CONNECTIVES = ("and", "or", "not", "implies", "iff", "true", "false")
MAX_DEPTH = 200
#: Characters of one rational's text (numerator and denominator together).
MAX_RATIONAL_CHARS = 2_000
_DIGITS_PER_BIT = 0.30103  # decimal digits per bit, slightly above log10(2)


class TreeError(ValueError):
    """A malformed expression tree (from a damaged or hand-edited certificate)."""


def parse_rational(text: object) -> Fraction:
    """A rational from its exact text 'p/q' or 'p' (no floats: they would not be exact)."""
    if not isinstance(text, str) or not text or len(text) > MAX_RATIONAL_CHARS:
        raise TreeError(f"not an exact rational string: {text!r}")
    num, _, den = text.partition("/")
    try:
        value = Fraction(int(num), int(den) if den else 1)
    except (ValueError, ZeroDivisionError):
        raise TreeError(f"not an exact rational string: {text!r}") from None
    return value


def rational_text(value: Fraction | int) -> str:
    """The exact text of a rational, as `parse_rational` reads it; TreeError when that text would be longer
    than MAX_RATIONAL_CHARS (no checker would read it, and Python refuses to print huge integers)."""
    q = Fraction(value)
    if (q.numerator.bit_length() + q.denominator.bit_length()) * _DIGITS_PER_BIT > MAX_RATIONAL_CHARS - 4:
        raise TreeError(
            f"a rational of {q.numerator.bit_length() + q.denominator.bit_length()} bits is too large to record"
        )
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def count_nodes(tree: object, limit: int) -> int:
    """The number of nodes of a tree (terms or formulas); TreeError beyond `limit` or `MAX_DEPTH`."""
    count, stack = 0, [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise TreeError("expression tree too deep")
        if not isinstance(node, list) or not node or not isinstance(node[0], str):
            raise TreeError(f"malformed node {str(node)[:60]}")
        count += 1
        if count > limit:
            raise TreeError(f"expression tree larger than {limit} nodes")
        if node[0] not in ("sym", "rat", "pow"):
            stack.extend((child, depth + 1) for child in node[1:])
        elif node[0] == "pow" and len(node) == 3:
            stack.append((node[1], depth + 1))
    return count


def symbols(tree: Tree) -> set[str]:
    """The names of the `sym` nodes of a well-formed term tree."""
    op, args = tree[0], tree[1:]
    if op == "sym":
        return {args[0]}
    if op == "rat":
        return set()
    if op == "pow":
        return symbols(args[0])
    return set().union(*(symbols(a) for a in args))


#: Values of exp, log, sqrt and lambertw nodes shared by evaluations at one environment and precision: id of the
#: node -> (the node, kept alive so that its id is not reused, its ball).
Memo = dict[int, tuple[object, arb]]


def node_parts(tree: object, depth: int) -> tuple[str, list]:
    """(operation, arguments) of a tree node at `depth`, or TreeError for a malformed or too deep node (what every
    walker of trees checks first: `evaluate`, the compiled programs of `certificates.provers.programs`)."""
    if depth > MAX_DEPTH:
        raise TreeError("expression tree too deep")
    if not isinstance(tree, list) or not tree or not isinstance(tree[0], str):
        raise TreeError(f"malformed node {str(tree)[:60]}")
    return tree[0], tree[1:]


def evaluate(
    tree: object,
    env: Mapping[str, arb],
    functions: Mapping[str, Enclosure] | None = None,
    depth: int = 0,
    memo: Memo | None = None,
) -> arb:
    """Evaluate a tree as a ball at the current flint precision, the implicit functions (`IMPLICIT`) by their
    enclosures in `functions`; unknown nodes raise TreeError. Products, powers and the increasing functions of
    wide balls use their end points (`certificates.kernel.endpoints`). A `memo` handed to several evaluations at
    the same `env` and precision computes each exp, log, sqrt or lambertw node (the same list object, such as
    e^u in g and in its derivative from `certificates.kernel.derivatives`) once."""
    implicit = functions or {}

    def inner(child: object) -> arb:
        return evaluate(child, env, implicit, depth + 1, memo)

    op, args = node_parts(tree, depth)
    if op == "rat" and len(args) == 1 and isinstance(args[0], str):
        return _rational_ball(args[0], ctx.prec)
    if op == "sym" and len(args) == 1:
        if args[0] not in env:
            raise TreeError(f"no value for symbol {args[0]!r}")
        return env[args[0]]
    if op in ("add", "mul") and args:
        values = [inner(a) for a in args]
        result = values[0]
        for v in values[1:]:
            result = result + v if op == "add" else endpoints.times(result, v)
        return result
    if op == "pow" and len(args) == 2 and isinstance(args[1], int) and not isinstance(args[1], bool):
        base, k = inner(args[0]), args[1]
        if abs(k) > 1000:
            raise TreeError("exponent too large")
        return endpoints.power(base, k)
    if op in UNARY and len(args) == 1:
        if memo is not None and id(tree) in memo and memo[id(tree)][0] is tree:
            return memo[id(tree)][1]
        value = endpoints.increasing(_UNARY_BALLS[op], inner(args[0]))
        if memo is not None:
            memo[id(tree)] = (tree, value)
        return value
    if op in IMPLICIT and len(args) == IMPLICIT[op]:
        if op not in implicit:
            raise TreeError(f"no enclosure of {op} given to this evaluation")
        return implicit[op](*(inner(a) for a in args))
    if op in _SHAPES and len(args) == _SHAPES[op]:
        values = [inner(a) for a in args]
        if op == "neg":
            return -values[0]
        return values[0] - values[1] if op == "sub" else endpoints.times(values[0], endpoints.power(values[1], -1))
    if op == "rpow" and len(args) == 2:
        return _real_power(inner(args[0]), args[1], inner)
    if op == "pi" and not args:
        return arb.pi()
    if op == "e" and not args:
        return arb(1).exp()
    if op in NAMED and len(args) == NAMED[op]:
        return inner(instantiate(named_template(op), args))
    raise TreeError(f"unknown or malformed node {op!r}")


#: The nodes that keep the shape of the text, by number of arguments.
_SHAPES = {"neg": 1, "sub": 2, "div": 2}


def _real_power(base: arb, exponent: object, inner: Callable[[object], arb]) -> arb:
    """base**exponent for an `rpow` node: a rational exponent a/b through the b-th root, any other through exp and
    log (both need a non-negative base: a ball reaching below 0 evaluates to nan)."""
    if isinstance(exponent, list) and len(exponent) == 2 and exponent[0] == "rat":
        q = parse_rational(exponent[1])
        if q.denominator == 1:
            return endpoints.power(base, q.numerator)
        if abs(q.numerator) > 1000 or q.denominator > 1000:
            raise TreeError("exponent too large")
        if base < 0 or (q.numerator < 0 and not base > 0):
            return arb("nan")
        root = endpoints.increasing(lambda v: v.root(q.denominator), base)
        return endpoints.power(root, q.numerator)
    power = inner(exponent)
    return endpoints.increasing(arb.exp, endpoints.times(power, endpoints.increasing(arb.log, base)))


#: Each named node's closed form (`identities.closed_forms`, by the same name) over placeholders #0, #1, ...: data,
#: so that evaluating a named node loads no SymPy (a test compares them with the closed forms).
TEMPLATES: dict[str, Tree] = {
    "c_star": [
        "add",
        ["rat", "1/2"],
        ["mul", ["rat", "1/2"], ["sqrt", ["add", ["rat", "4"], ["pow", ["add", ["rat", "-1"], ["sym", "#0"]], 2]]]],
        ["mul", ["rat", "-1/2"], ["sym", "#0"]],
    ],
    "beta_star": [
        "mul",
        ["rat", "1/2"],
        ["pow", ["sym", "#2"], -1],
        [
            "log",
            [
                "mul",
                [
                    "pow",
                    [
                        "add",
                        ["rat", "1"],
                        [
                            "mul",
                            ["rat", "-1"],
                            [
                                "pow",
                                [
                                    "add",
                                    ["rat", "1/2"],
                                    [
                                        "mul",
                                        ["rat", "1/2"],
                                        [
                                            "sqrt",
                                            ["add", ["rat", "4"], ["pow", ["add", ["rat", "-1"], ["sym", "#0"]], 2]],
                                        ],
                                    ],
                                    ["mul", ["rat", "-1/2"], ["sym", "#0"]],
                                ],
                                2,
                            ],
                        ],
                    ],
                    -1,
                ],
                [
                    "pow",
                    [
                        "add",
                        ["rat", "1/2"],
                        [
                            "mul",
                            ["rat", "1/2"],
                            ["sqrt", ["add", ["rat", "4"], ["pow", ["add", ["rat", "-1"], ["sym", "#0"]], 2]]],
                        ],
                        ["mul", ["rat", "-1/2"], ["sym", "#0"]],
                    ],
                    2,
                ],
                ["add", ["rat", "-1"], ["sym", "#1"]],
            ],
        ],
    ],
    "rate": [
        "mul",
        ["rat", "2"],
        ["sym", "#0"],
        ["pow", ["add", ["rat", "-1"], ["sym", "#1"], ["exp", ["mul", ["sym", "#0"], ["sym", "#2"]]]], -1],
    ],
    "lambda_max": [
        "mul",
        ["pow", ["sym", "#1"], -1],
        ["add", ["rat", "1"], ["lambertw", ["mul", ["add", ["rat", "-1"], ["sym", "#0"]], ["exp", ["rat", "-1"]]]]],
    ],
    "golden": ["add", ["rat", "1/2"], ["mul", ["rat", "1/2"], ["sqrt", ["rat", "5"]]]],
}


def named_template(name: str) -> Tree:
    """The closed form of a named node over the placeholders `["sym", "#0"]`, `["sym", "#1"]`, ...: what it means."""
    if name == "pi":
        return ["pi"]
    if name == "e":
        return ["exp", ["rat", "1"]]
    return TEMPLATES[name]


def instantiate(template: Tree, args: list[Any]) -> Tree:
    """The template with each placeholder `#i` replaced by `args[i]`."""
    op = template[0]
    if op == "sym" and template[1].startswith("#"):
        return args[int(template[1][1:])]
    if op in ("sym", "rat"):
        return template
    if op == "pow":
        return ["pow", instantiate(template[1], args), template[2]]
    return [op, *[instantiate(child, args) for child in template[1:]]]


def expand_named(tree: Tree) -> Tree:
    """The tree with every named node replaced by its closed form (a faithful rewriting: no evaluation)."""
    op = tree[0]
    if op in ("sym", "rat"):
        return tree
    if op == "pow":
        return ["pow", expand_named(tree[1]), tree[2]]
    args = [expand_named(child) for child in tree[1:]]
    if op in NAMED and len(args) == NAMED[op]:
        return instantiate(named_template(op), args)
    return [op, *args]


_UNARY_BALLS = {"exp": arb.exp, "log": arb.log, "sqrt": arb.sqrt, "lambertw": arb.lambertw}


@lru_cache(maxsize=4096)
def _rational_ball(text: object, prec: int) -> arb:
    """The ball of a rational's text at a precision (cached: covers evaluate the same constants many times)."""
    return ball_of(parse_rational(text))


def enclosure_text(ball: arb) -> list[str]:
    """[lo, hi] as exact rational text: the ball's endpoints widened by its radius for tolerance
    between flint versions, never across zero (so the recorded sign stays the computed one)."""
    lo, hi = exact_value(ball.lower()), exact_value(ball.upper())
    slack = (hi - lo) / 2
    wide_lo = lo - slack if (lo - slack > 0) == (lo > 0) else lo
    wide_hi = hi + slack if (hi + slack < 0) == (hi < 0) else hi
    return [rational_text(wide_lo), rational_text(wide_hi)]


#: Bits of a rational that `exact_rational` still computes with (beyond, the caller falls back to balls).
MAX_EXACT_BITS = 100_000


def exact_rational(tree: object, env: Mapping[str, Fraction], depth: int = 0) -> Fraction | None:
    """The exact value of a tree of rational arithmetic (rationals, symbols, + - * /, integer powers) at a rational
    point; None when the tree has another node, a value is undefined (0 to a negative power, a quotient by 0) or too
    large."""
    if depth > MAX_DEPTH or not isinstance(tree, list) or not tree:
        return None
    op, args = tree[0], tree[1:]
    if op == "rat" and len(args) == 1:
        try:
            return parse_rational(args[0])
        except TreeError:
            return None
    if op == "sym" and len(args) == 1:
        return env.get(args[0]) if isinstance(args[0], str) else None
    if op in ("add", "mul") and args:
        values = [exact_rational(a, env, depth + 1) for a in args]
        if any(v is None for v in values):
            return None
        result = values[0]
        for v in values[1:]:
            result = result + v if op == "add" else result * v  # type: ignore[operator]
            if _bits(result) > MAX_EXACT_BITS:  # type: ignore[arg-type]
                return None
        return result
    if op in _SHAPES and len(args) == _SHAPES[op]:
        parts = [exact_rational(a, env, depth + 1) for a in args]
        if any(v is None for v in parts) or (op == "div" and parts[1] == 0):
            return None
        value = -parts[0] if op == "neg" else parts[0] - parts[1] if op == "sub" else parts[0] / parts[1]  # type: ignore[operator]
        return value if _bits(value) <= MAX_EXACT_BITS else None
    if op == "pow" and len(args) == 2 and isinstance(args[1], int) and not isinstance(args[1], bool):
        base = exact_rational(args[0], env, depth + 1)
        if base is None or (base == 0 and args[1] < 0) or _bits(base) * abs(args[1]) > MAX_EXACT_BITS:
            return None
        return base ** args[1]
    return None


def _bits(value: Fraction) -> int:
    return value.numerator.bit_length() + value.denominator.bit_length()
