"""Expression trees (`certificates.kernel.exprtree`) as readable infix text, for the lines `headflow check-cert` prints.

The checker prints only what it checked: a formula it shows is rendered from the tree it evaluated or
encoded, never copied from a file's text. The text uses the claims-file grammar (`+ - * / **`, function
calls), with the parentheses the precedence needs.
"""

from collections.abc import Callable
from fractions import Fraction

from .exprtree import ARITY, Tree, fold

#: Binding strength of a rendered term: a sum, a minus sign before a product, a product or quotient, a power, an atom.
_SUM, _NEGATED, _PRODUCT, _POWER, _ATOM = range(5)
Text = tuple[str, int]


def term_text(tree: Tree) -> str:
    """The infix text of a term tree; TreeError for a node that is not a term."""
    return fold(tree, _RULES)[0]


def _wrapped(part: Text, strength: int) -> str:
    """The text of a part, in parentheses when it binds less than `strength`."""
    return part[0] if part[1] >= strength else f"({part[0]})"


def _rational(value: Fraction) -> Text:
    return str(value), _NEGATED if value < 0 else _ATOM if value.denominator == 1 else _PRODUCT


def _sum(*parts: Text) -> Text:
    """`a + b - c`: a term with a minus sign before a product is subtracted."""
    rest = (f" - {part[0][1:]}" if part[1] == _NEGATED else f" + {part[0]}" for part in parts[1:])
    return parts[0][0] + "".join(rest), _SUM


def _product(*parts: Text) -> Text:
    """`-a*b/c`: a leading minus sign taken out, the reciprocals (texts `1/...`) last as divisors."""
    sign, first = ("-", (parts[0][0][1:], _PRODUCT)) if parts[0][1] == _NEGATED and len(parts) > 1 else ("", parts[0])
    factors = sorted([first, *parts[1:]] if first[0] != "1" else parts[1:], key=lambda part: part[0].startswith("1/"))
    first, *rest = [_wrapped(part, _PRODUCT) for part in factors] or ["1"]
    text = first + "".join(factor[1:] if factor.startswith("1/") else f"*{factor}" for factor in rest)
    return sign + text, _NEGATED if sign else _PRODUCT


def _power(base: Text, k: int) -> Text:
    """`base**k`, `1/base**k` for k < 0."""
    text = _wrapped(base, _POWER) if abs(k) == 1 else f"{_wrapped(base, _ATOM)}**{abs(k)}"
    return (f"1/{text}", _PRODUCT) if k < 0 else (text, _POWER)


def _call(op: str) -> Callable[..., Text]:
    """`op(a, b)`, or `op` for a constant."""
    return lambda *parts: (f"{op}({', '.join(part[0] for part in parts)})" if parts else op, _ATOM)


_RULES = {op: _call(op) for op in ARITY} | {"rat": _rational, "pow": _power, "add": _sum, "mul": _product}
_RULES |= {"sym": lambda name: (name, _ATOM), "neg": lambda a: (f"-{_wrapped(a, _PRODUCT)}", _NEGATED)}
_RULES |= {"sub": lambda a, b: (f"{a[0]} - {_wrapped(b, _PRODUCT)}", _SUM)}
_RULES |= {"div": lambda a, b: (f"{_wrapped(a, _PRODUCT)}/{_wrapped(b, _POWER)}", _PRODUCT)}
_RULES |= {"rpow": lambda a, b, walk: (f"{_wrapped(walk(a), _ATOM)}**{_wrapped(walk(b), _ATOM)}", _POWER)}
