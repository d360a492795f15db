"""Expression and formula trees (`certificates.kernel.exprtree`) as Coq text over the reals (R_scope).

The translation is one case per node, so that a reader can check it: `add` and `mul` are `+` and `*`,
`["pow", b, k]` is `b ^ k` for k >= 0 (Coq's `pow` with a natural exponent) and `/ (b ^ -k)` for k < 0,
`neg`, `sub`, `div` are `-`, `-`, `/`, `c_star` is the prelude's `c_star`, `golden`, `pi`, `e` their values,
`exp`, `log`, `sqrt` are Coq's `exp`, `ln`, `sqrt`, a rational `p/q` is the real `(p / q)`. Coq's `ln`,
`sqrt` and `/` are total (they return 0 outside their domain), so `definedness` lists what a statement
must also assert for every subterm to be defined: `0 < x` under `ln`, `0 <= x` under `sqrt`, `x <> 0`
under a negative power or a `div`. `lambertw` and `lambda_c` (implicit) and the other named nodes have no
Coq term here: `NotTranslatable` names them. Symbol names become Coq identifiers unchanged when they are ones;
any other name is refused, never escaped into text.
"""

from __future__ import annotations

import re
from typing import Any

from certificates.kernel.exprtree import TreeError, parse_rational, rational_text

#: Names a symbol may not take: Coq keywords and the functions and notations the statements use.
_RESERVED = (
    "as at cofix else end exists exists2 fix for forall fun if IF in let match mod Prop return Set then Type using "
    "where with R Z nat exp ln sqrt Rabs PI IZR INR pow Rmax Rmin sin cos Rinv Rdiv Rminus Ropp Rplus Rmult c_star "
    "proj I O S True False and or not iff Theorem Lemma Proof Qed Definition"
)
RESERVED = frozenset(_RESERVED.split())
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}\Z")
RELATIONS = ("<", "<=", ">", ">=", "=")
#: `expr relation 0` of a point condition, as Coq text with 0 on the side Interval wants it.
SIGN_TEXT = {">": "0 < {}", ">=": "0 <= {}", "<": "{} < 0", "<=": "{} <= 0", "!=": "{} <> 0"}


class NotTranslatable(ValueError):
    """The tree uses a node with no Coq counterpart here; the message is the reason."""


def identifier(name: object) -> str:
    """The symbol's name as a Coq identifier (the same text), or NotTranslatable."""
    if not isinstance(name, str) or not _IDENTIFIER.match(name) or name in RESERVED:
        raise NotTranslatable(f"symbol name {str(name)[:40]!r} is not a plain Coq identifier")
    return name


def real(value: Any) -> str:
    """A rational (exact text or Fraction) as a Coq real literal."""
    q = parse_rational(value if isinstance(value, str) else rational_text(value))
    text = str(q.numerator) if q.denominator == 1 else f"{q.numerator} / {q.denominator}"
    return f"({text})" if q < 0 or q.denominator != 1 else text


def term(tree: Any) -> str:
    """The Coq text of a term tree."""
    if not isinstance(tree, list) or not tree or not isinstance(tree[0], str):
        raise TreeError(f"malformed node {str(tree)[:60]}")
    op, args = tree[0], tree[1:]
    if op == "rat" and len(args) == 1:
        return real(args[0])
    if op == "sym" and len(args) == 1:
        return identifier(args[0])
    if op in _INFIX and (len(args) == 2 or (op in ("add", "mul") and args)):
        return "(" + _INFIX[op].join(term(a) for a in args) + ")"
    if op == "pow" and len(args) == 2 and isinstance(args[1], int) and not isinstance(args[1], bool):
        base, k = term(args[0]), args[1]
        if abs(k) > 1000:
            raise NotTranslatable("exponent too large")
        if k == -1:
            return f"(/ {base})"
        return f"({base} ^ {k})" if k >= 0 else f"(/ ({base} ^ {-k}))"
    if op in _PREFIX and len(args) == 1:
        return f"({_PREFIX[op]} {term(args[0])})"
    if op in _CONSTANTS and not args:
        return _CONSTANTS[op]
    if op in ("lambertw", "lambda_c"):
        raise NotTranslatable(f"{op} is defined implicitly (by its equation); no Coq term states its value here")
    raise NotTranslatable(f"no Coq translation of the node {str(op)[:40]!r} yet")


#: Infix operators (`add` and `mul` of any arity, `sub` and `div` of two terms) and prefixed ones (of one term).
_INFIX = {"add": " + ", "mul": " * ", "sub": " - ", "div": " / "}
_PREFIX = {"exp": "exp", "log": "ln", "sqrt": "sqrt", "c_star": "c_star", "neg": "-"}
#: The named constants of the claims grammar, by their closed forms.
_CONSTANTS = {"golden": "((1 + sqrt 5) / 2)", "pi": "PI", "e": "(exp 1)"}


def formula(tree: Any) -> str:
    """The Coq proposition of a formula tree (relations and connectives)."""
    if not isinstance(tree, list) or not tree or not isinstance(tree[0], str):
        raise TreeError(f"malformed formula {str(tree)[:60]}")
    op, args = tree[0], tree[1:]
    if op in RELATIONS and len(args) == 2:
        return f"{term(args[0])} {op} {term(args[1])}"
    if op in ("and", "or") and args:
        return "(" + (" /\\ " if op == "and" else " \\/ ").join(formula(a) for a in args) + ")"
    if op == "not" and len(args) == 1:
        return f"~ ({formula(args[0])})"
    if op in ("implies", "iff") and len(args) == 2:
        return f"(({formula(args[0])}) {'->' if op == 'implies' else '<->'} ({formula(args[1])}))"
    if op in ("true", "false") and not args:
        return op.capitalize()
    raise TreeError(f"unknown or malformed formula node {op!r}")


def condition(tree: Any, relation: str) -> str:
    """`expr relation 0` as a Coq proposition, 0 on the side the `interval` tactic expects."""
    if relation not in SIGN_TEXT:
        raise TreeError(f"unknown relation {str(relation)[:10]!r}")
    return SIGN_TEXT[relation].format(term(tree))


def definedness(tree: Any) -> list[str]:
    """Each subterm's domain condition, innermost first, each once: what makes the tree's value defined."""
    found: list[str] = []

    def walk(node: Any) -> None:
        if not isinstance(node, list) or not node or node[0] in ("rat", "sym"):
            return
        children = node[1:2] if node[0] == "pow" else node[1:]
        for child in children:
            walk(child)
        if node[0] == "log":
            found.append(condition(node[1], ">"))
        elif node[0] == "div":
            found.append(condition(node[2], "!="))
        elif node[0] == "sqrt":
            found.append(condition(node[1], ">="))
        elif node[0] == "pow" and isinstance(node[2], int) and node[2] < 0:
            found.append(condition(node[1], "!="))

    walk(tree)
    return list(dict.fromkeys(found))
