"""Expression and formula trees (`certificates.kernel.exprtree`) as Coq text over the reals (R_scope).

The translation is one rule per node (`exprtree.fold`), so that a reader can check it: `add` and `mul` are `+` and
`*`, `["pow", b, k]` is `b ^ k` for k >= 0 (Coq's `pow` with a natural exponent) and `/ (b ^ -k)` for k < 0,
`neg`, `sub`, `div` are `-`, `-`, `/`, `c_star` is the prelude's `c_star`, `golden`, `pi`, `e` their values,
`exp`, `log`, `sqrt` are Coq's `exp`, `ln`, `sqrt`, a rational `p/q` is the real `(p / q)`. Coq's `ln`,
`sqrt` and `/` are total (they return 0 outside their domain), so the same walk lists what a statement
must also assert for every subterm to be defined (`translated`'s domain): `0 < x` under `ln`, `0 <= x` under `sqrt`,
`x <> 0` under a negative power or a `div`. `lambertw` and `lambda_c` (implicit) and the other named nodes have no
Coq term here: `NotTranslatable` names them. Symbol names become Coq identifiers unchanged when they are ones;
any other name is refused, never escaped into text.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import partial
from typing import Any

from certificates.kernel.exprtree import ARITY, RELATIONS, TreeError, fold, node_parts, rational_text

#: Names a symbol may not take: Coq keywords and the functions and notations the statements use.
_RESERVED = (
    "as at cofix else end exists exists2 fix for forall fun if IF in let match mod Prop return Set then Type using "
    "where with R Z nat exp ln sqrt Rabs PI IZR INR pow Rmax Rmin sin cos Rinv Rdiv Rminus Ropp Rplus Rmult c_star "
    "proj I O S True False and or not iff Theorem Lemma Proof Qed Definition"
)
RESERVED = frozenset(_RESERVED.split())
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}\Z")
#: `expr relation 0` of a point condition or a domain condition, as Coq text with 0 on the side Interval wants it.
SIGN_TEXT = {">": "0 < {}", ">=": "0 <= {}", "<": "{} < 0", "<=": "{} <= 0", "!=": "{} <> 0"}


class NotTranslatable(ValueError):
    """The tree uses a node with no Coq counterpart here; the message is the reason."""


def identifier(name: object) -> str:
    """The symbol's name as a Coq identifier (the same text), or NotTranslatable."""
    if not isinstance(name, str) or not _IDENTIFIER.match(name) or name in RESERVED:
        raise NotTranslatable(f"symbol name {str(name)[:40]!r} is not a plain Coq identifier")
    return name


def real(value: Fraction) -> str:
    """A rational as a Coq real literal, in parentheses unless a natural number (TreeError past the size of a recorded
    rational, `rational_text`)."""
    text = rational_text(value).replace("/", " / ")
    return text if value >= 0 and "/" not in text else f"({text})"


def translated(tree: Any, domain: list[str]) -> str:
    """The Coq text of a term tree; each subterm's domain condition, innermost first, joins `domain` unless it is
    there already (a statement gathers them over all its trees, each once)."""

    def defined(text: str, argument: str, relation: str) -> str:
        """`text`, the text of a node defined where its `argument` has `relation` to 0 (which joins `domain`)."""
        if SIGN_TEXT[relation].format(argument) not in domain:
            domain.append(SIGN_TEXT[relation].format(argument))
        return text

    def power(base: str, k: int) -> str:
        if abs(k) > 1000:
            raise NotTranslatable("exponent too large")
        if k >= 0:
            return f"({base} ^ {k})"
        return defined(f"(/ {base})" if k == -1 else f"(/ ({base} ^ {-k}))", base, "!=")

    rules = {op: partial(_untranslatable, op) for op in ARITY} | {
        "rat": real,
        "sym": identifier,
        "add": lambda *texts: f"({' + '.join(texts)})",
        "mul": lambda *texts: f"({' * '.join(texts)})",
        "sub": "({} - {})".format,
        "div": lambda a, b: defined(f"({a} / {b})", b, "!="),
        "pow": power,
        "neg": "(- {})".format,
        "exp": "(exp {})".format,
        "log": lambda a: defined(f"(ln {a})", a, ">"),
        "sqrt": lambda a: defined(f"(sqrt {a})", a, ">="),
        "c_star": "(c_star {})".format,
        "golden": lambda: "((1 + sqrt 5) / 2)",
        "pi": lambda: "PI",
        "e": lambda: "(exp 1)",
    }
    return fold(tree, rules)


def _untranslatable(op: str, *parts: Any) -> str:
    raise NotTranslatable(f"no Coq term for the node {op!r} (lambertw, lambda_c: implicit, no term gives them)")


#: The Coq text between the operands of a connective (each operand in parentheses).
CONNECTIVES = {"and": " /\\ ", "or": " \\/ ", "implies": " -> ", "iff": " <-> "}


def formula(tree: Any) -> str:
    """The Coq proposition of a formula tree (relations and connectives); its terms' domain conditions are not stated
    (its statement states them itself, or a proof's hypotheses do)."""
    op, args = node_parts(tree, 0)
    if op in RELATIONS and len(args) == 2:
        return f"{translated(args[0], [])} {op} {translated(args[1], [])}"
    if op in CONNECTIVES and (len(args) == 2 or (op in ("and", "or") and args)):
        return "(" + CONNECTIVES[op].join(f"({formula(a)})" for a in args) + ")"
    if op == "not" and len(args) == 1:
        return f"~ ({formula(args[0])})"
    if op in ("true", "false") and not args:
        return op.capitalize()
    raise TreeError(f"unknown or malformed formula node {op!r}")
