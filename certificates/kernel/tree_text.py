"""Expression trees (`certificates.kernel.exprtree`) as readable infix text, for the lines `headflow check-cert` prints.

The checker prints only what it checked: a formula it shows is rendered from the tree it evaluated or
encoded, never copied from a file's text. The text uses the claims-file grammar (`+ - * / **`, function
calls), with the parentheses the precedence needs.
"""

from __future__ import annotations

from fractions import Fraction

from certificates.kernel.exprtree import IMPLICIT, NAMED, UNARY, Tree, TreeError, parse_rational

#: Binding strength of a rendered node: a sum, a product or quotient, a power, an atom or call.
_SUM, _PRODUCT, _POWER, _ATOM = 1, 2, 3, 4
#: The nodes written as calls `name(a, ...)`, by number of arguments.
_CALLS = dict.fromkeys(UNARY, 1) | IMPLICIT | NAMED


def term_text(tree: Tree) -> str:
    """The infix text of a term tree; TreeError for a node that is not a term."""
    return _text(tree)[0]


def _text(tree: object) -> tuple[str, int]:
    """(text, binding strength) of a term."""
    if not isinstance(tree, list) or not tree or not isinstance(tree[0], str):
        raise TreeError(f"malformed node {str(tree)[:60]}")
    op, args = tree[0], tree[1:]
    if op == "rat" and len(args) == 1:
        value = parse_rational(args[0])
        return _rational(value), _SUM if value < 0 else _ATOM if value.denominator == 1 else _PRODUCT
    if op == "sym" and len(args) == 1 and isinstance(args[0], str):
        return args[0], _ATOM
    if op == "add" and args:
        return _sum(args), _SUM
    if op == "mul" and args:
        return _product(args)
    if op == "pow" and len(args) == 2 and isinstance(args[1], int) and not isinstance(args[1], bool):
        if args[1] < 0:
            return f"1/{_power(args[0], -args[1])}", _PRODUCT
        return _power(args[0], args[1]), _POWER
    if op == "neg" and len(args) == 1:
        return f"-{_wrapped(args[0], _PRODUCT)}", _SUM
    if op == "sub" and len(args) == 2:
        return f"{_wrapped(args[0], _SUM)} - {_wrapped(args[1], _PRODUCT)}", _SUM
    if op == "div" and len(args) == 2:
        return f"{_wrapped(args[0], _PRODUCT)}/{_wrapped(args[1], _POWER)}", _PRODUCT
    if op == "rpow" and len(args) == 2:
        return f"{_wrapped(args[0], _ATOM)}**{_wrapped(args[1], _ATOM)}", _POWER
    if op in NAMED and not args and NAMED[op] == 0:
        return op, _ATOM
    if _CALLS.get(op, 0) == len(args) > 0:
        return f"{op}({', '.join(term_text(a) for a in args)})", _ATOM
    raise TreeError(f"unknown or malformed node {op!r}")


def _wrapped(tree: object, strength: int) -> str:
    """The text of `tree`, in parentheses when it binds less than `strength`."""
    text, own = _text(tree)
    return text if own >= strength else f"({text})"


def _power(base: object, k: int) -> str:
    """`base**k` for k >= 0 (`base` alone, wrapped as a power's operand, for k = 1)."""
    return _wrapped(base, _POWER) if k == 1 else f"{_wrapped(base, _ATOM)}**{k}"


def _negated(tree: object) -> object | None:
    """The term without its minus sign, when it is a negative rational or a product led by one."""
    if isinstance(tree, list) and tree and tree[0] == "rat" and len(tree) == 2:
        value = parse_rational(tree[1])
        return ["rat", _rational(-value)] if value < 0 else None
    if isinstance(tree, list) and tree and tree[0] == "mul" and len(tree) > 2:
        first = _negated(tree[1])
        if first is None:
            return None
        rest = tree[2:] if first == ["rat", "1"] else [first, *tree[2:]]
        return rest[0] if len(rest) == 1 else ["mul", *rest]
    return None


def _sum(terms: list[object]) -> str:
    text = ""
    for index, term in enumerate(terms):
        positive = _negated(term)
        if positive is None:
            text += ("" if index == 0 else " + ") + _wrapped(term, _PRODUCT)
        else:
            text += ("-" if index == 0 else " - ") + _wrapped(positive, _PRODUCT)
    return text


def _product(factors: list[object]) -> tuple[str, int]:
    positive = _negated(["mul", *factors]) if len(factors) > 1 else None
    if positive is not None:
        return "-" + _wrapped(positive, _PRODUCT), _SUM
    above = [f for f in factors if not _divisor(f)]
    below = [f for f in factors if _divisor(f)]
    top = "*".join(_wrapped(f, _POWER if len(above) > 1 or below else _PRODUCT) for f in above) or "1"
    if not below:
        return top, _PRODUCT
    parts = [_power(f[1], -f[2]) for f in below]  # type: ignore[index]
    bottom = parts[0] if len(parts) == 1 else "(" + "*".join(parts) + ")"
    return f"{top}/{bottom}", _PRODUCT


def _divisor(tree: object) -> bool:
    return isinstance(tree, list) and len(tree) == 3 and tree[0] == "pow" and isinstance(tree[2], int) and tree[2] < 0


def _rational(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
