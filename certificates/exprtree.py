"""Expressions as JSON trees, so that a certificate carries its formula without any parser.

A tree is a list `[op, *args]`: `["sym", name]`, `["rat", "p/q"]`, `["add", ...]`, `["mul", ...]`,
`["pow", base, k]` (k an integer), `["exp", x]`, `["log", x]`, `["sqrt", x]`, `["lambertw", x]`.
`from_sympy` writes one from a SymPy expression (the deciding side); `eval_ball` evaluates one
with python-flint balls from the file alone (the verifying side), so reading a certificate never
calls eval, sympify or a parser on file text.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from flint import arb, fmpq

Tree = list[Any]
UNARY = ("exp", "log", "sqrt", "lambertw")
MAX_DEPTH = 200


class TreeError(ValueError):
    """A malformed expression tree (from a damaged or hand-edited certificate)."""


def parse_rational(text: object) -> Fraction:
    """A rational from its exact text 'p/q' or 'p' (no floats: they would not be exact)."""
    if not isinstance(text, str) or not text or len(text) > 10_000:
        raise TreeError(f"not an exact rational string: {text!r}")
    num, _, den = text.partition("/")
    try:
        value = Fraction(int(num), int(den) if den else 1)
    except (ValueError, ZeroDivisionError):
        raise TreeError(f"not an exact rational string: {text!r}") from None
    return value


def rational_text(value: Fraction | int) -> str:
    """The exact text of a rational, as `parse_rational` reads it."""
    q = Fraction(value)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def ball_of(value: Fraction) -> arb:
    """An exact rational as a ball."""
    return arb(fmpq(value.numerator, value.denominator))


def from_sympy(expr: Any) -> Tree:
    """The tree of a SymPy expression built from + * integer powers, exp, log, sqrt, LambertW."""
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
    raise TreeError(f"unsupported node {type(e).__name__}")


def eval_ball(tree: object, env: Mapping[str, arb], depth: int = 0) -> arb:
    """Evaluate a tree as a ball at the current flint precision; unknown nodes raise TreeError."""
    if depth > MAX_DEPTH:
        raise TreeError("expression tree too deep")
    if not isinstance(tree, list) or not tree or not isinstance(tree[0], str):
        raise TreeError(f"malformed node {str(tree)[:60]}")
    op, args = tree[0], tree[1:]
    if op == "rat" and len(args) == 1:
        return ball_of(parse_rational(args[0]))
    if op == "sym" and len(args) == 1:
        if args[0] not in env:
            raise TreeError(f"no value for symbol {args[0]!r}")
        return env[args[0]]
    if op in ("add", "mul") and args:
        values = [eval_ball(a, env, depth + 1) for a in args]
        result = values[0]
        for v in values[1:]:
            result = result + v if op == "add" else result * v
        return result
    if op == "pow" and len(args) == 2 and isinstance(args[1], int) and not isinstance(args[1], bool):
        base, k = eval_ball(args[0], env, depth + 1), args[1]
        if abs(k) > 1000:
            raise TreeError("exponent too large")
        return base**k if k >= 0 else 1 / base ** (-k)
    if op in UNARY and len(args) == 1:
        x = eval_ball(args[0], env, depth + 1)
        return {"exp": x.exp, "log": x.log, "sqrt": x.sqrt, "lambertw": x.lambertw}[op]()
    raise TreeError(f"unknown or malformed node {op!r}")


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
