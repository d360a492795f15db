"""Expressions as JSON trees, so that a certificate carries its formula without any parser.

A term is a list `[op, *args]`: `["sym", name]`, `["rat", "p/q"]`, `["add", ...]`, `["mul", ...]`,
`["pow", base, k]` (k an integer), `["exp", x]`, `["log", x]`, `["sqrt", x]`, `["lambertw", x]`,
`["lambda_c", n, beta]` (the implicit lambda_c(n, beta), enclosed by `certificates.lambda_c.enclose`).
A formula (the hypotheses and goal of an SMT obligation) is `[rel, a, b]` with rel one of
`< <= > >= =`, `["and", ...]`, `["or", ...]`, `["not", f]`, `["implies", f, g]`, `["iff", f, g]`,
`["true"]` or `["false"]`. `from_sympy` and `formula_from_sympy` write trees from SymPy (the
deciding side and the checker's obligations); `eval_ball` evaluates a term with python-flint balls
from the file alone (the verifying side), so reading a certificate never calls eval, sympify or a
parser on file text.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from flint import arb, ctx

from certificates import endpoints, lambda_c
from certificates.exact import ball_of
from identities.closed_forms import LambdaC

Tree = list[Any]
UNARY = ("exp", "log", "sqrt", "lambertw")
#: Nodes of two arguments that are functions (not operators).
BINARY = ("lambda_c",)
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


def from_sympy(expr: Any) -> Tree:
    """The tree of a SymPy expression built from + * integer powers, exp, log, sqrt, LambertW, lambda_c."""
    import sympy as sp

    e = sp.sympify(expr, strict=True)
    if e.is_Rational:
        return ["rat", rational_text(Fraction(int(e.p), int(e.q)))]
    if e is sp.E:
        return ["exp", ["rat", "1"]]
    if e.is_Symbol:
        return ["sym", e.name]
    if isinstance(e, sp.Add):
        return ["add", *[from_sympy(a) for a in e.args]]
    if isinstance(e, sp.Mul):
        return ["mul", *[from_sympy(a) for a in e.args]]
    if isinstance(e, sp.Pow):
        base, k = e.args
        if k.is_Integer:
            return ["pow", from_sympy(base), int(k)]
        if k == sp.Rational(1, 2):
            return ["sqrt", from_sympy(base)]
        if k == sp.Rational(-1, 2):
            return ["pow", ["sqrt", from_sympy(base)], -1]
        raise TreeError(f"unsupported power {e}")
    for name, cls in (("exp", sp.exp), ("log", sp.log), ("lambertw", sp.LambertW)):
        if isinstance(e, cls) and len(e.args) == 1:
            return [name, from_sympy(e.args[0])]
    if isinstance(e, LambdaC):
        return ["lambda_c", *[from_sympy(a) for a in e.args]]
    raise TreeError(f"unsupported node {type(e).__name__}")


_SYMPY_RELATIONS = {"StrictLessThan": "<", "LessThan": "<=", "StrictGreaterThan": ">", "GreaterThan": ">="}


def formula_from_sympy(formula: Any) -> Tree:
    """The tree of a SymPy boolean formula over polynomial relations (an SMT hypothesis or goal)."""
    import sympy as sp

    if formula is sp.true or formula is sp.false:
        return [str(bool(formula)).lower()]
    name = type(formula).__name__
    if name in _SYMPY_RELATIONS:
        return [_SYMPY_RELATIONS[name], from_sympy(formula.lhs), from_sympy(formula.rhs)]
    if isinstance(formula, sp.Equality):
        return ["=", from_sympy(formula.lhs), from_sympy(formula.rhs)]
    if isinstance(formula, sp.Unequality):
        return ["not", ["=", from_sympy(formula.lhs), from_sympy(formula.rhs)]]
    if isinstance(formula, sp.Not):
        return ["not", formula_from_sympy(formula.args[0])]
    if isinstance(formula, sp.And | sp.Or):
        return ["and" if isinstance(formula, sp.And) else "or", *[formula_from_sympy(a) for a in formula.args]]
    if isinstance(formula, sp.Implies | sp.Equivalent) and len(formula.args) == 2:
        op = "implies" if isinstance(formula, sp.Implies) else "iff"
        return [op, *[formula_from_sympy(a) for a in formula.args]]
    raise TreeError(f"unsupported formula node {name}")


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


def eval_ball(tree: object, env: Mapping[str, arb], depth: int = 0) -> arb:
    """Evaluate a tree as a ball at the current flint precision; unknown nodes raise TreeError. Products,
    powers and the increasing functions of wide balls use their end points (`certificates.endpoints`)."""
    if depth > MAX_DEPTH:
        raise TreeError("expression tree too deep")
    if not isinstance(tree, list) or not tree or not isinstance(tree[0], str):
        raise TreeError(f"malformed node {str(tree)[:60]}")
    op, args = tree[0], tree[1:]
    if op == "rat" and len(args) == 1 and isinstance(args[0], str):
        return _rational_ball(args[0], ctx.prec)
    if op == "sym" and len(args) == 1:
        if args[0] not in env:
            raise TreeError(f"no value for symbol {args[0]!r}")
        return env[args[0]]
    if op in ("add", "mul") and args:
        values = [eval_ball(a, env, depth + 1) for a in args]
        result = values[0]
        for v in values[1:]:
            result = result + v if op == "add" else endpoints.times(result, v)
        return result
    if op == "pow" and len(args) == 2 and isinstance(args[1], int) and not isinstance(args[1], bool):
        base, k = eval_ball(args[0], env, depth + 1), args[1]
        if abs(k) > 1000:
            raise TreeError("exponent too large")
        return endpoints.power(base, k)
    if op in UNARY and len(args) == 1:
        x = eval_ball(args[0], env, depth + 1)
        return endpoints.increasing(_UNARY_BALLS[op], x)
    if op == "lambda_c" and len(args) == 2:
        tokens, inverse_temperature = (eval_ball(a, env, depth + 1) for a in args)
        try:
            return lambda_c.enclose(tokens, inverse_temperature)
        except lambda_c.RootError:
            return arb("nan")  # undefined here (n <= 1, beta <= 0) or not certified: settles no relation
    raise TreeError(f"unknown or malformed node {op!r}")


_UNARY_BALLS = {"exp": arb.exp, "log": arb.log, "sqrt": arb.sqrt, "lambertw": arb.lambertw}


@lru_cache(maxsize=4096)
def _rational_ball(text: object, prec: int) -> arb:
    """The ball of a rational's text at a precision (cached: covers evaluate the same constants many times)."""
    return ball_of(parse_rational(text))


def exact_value(ball: arb) -> Fraction:
    """The exact rational value of an exact ball (a ball's lower or upper endpoint)."""
    man, exp = ball.man_exp()
    return Fraction(int(man)) * (Fraction(2) ** int(exp))


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
    """The exact value of a tree of rational arithmetic (rationals, symbols, +, *, integer powers) at a rational
    point; None when the tree has another node, a value is undefined (0 to a negative power) or too large."""
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
    if op == "pow" and len(args) == 2 and isinstance(args[1], int) and not isinstance(args[1], bool):
        base = exact_rational(args[0], env, depth + 1)
        if base is None or (base == 0 and args[1] < 0) or _bits(base) * abs(args[1]) > MAX_EXACT_BITS:
            return None
        return base ** args[1]
    return None


def _bits(value: Fraction) -> int:
    return value.numerator.bit_length() + value.denominator.bit_length()
