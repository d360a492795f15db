"""The SMT-LIB2 text of an obligation, printed by the checker from expression trees and nothing else.

An SMT obligation is data: real constants (names, some possibly integers), hypotheses and a goal as
trees over a fixed vocabulary (`headflow.certificates.kernel.exprtree`: rational constants, + and ×, integer powers,
the relations `< <= > >= =`, and/or/not/implies/iff). `problem_text` validates every node and prints
the only text a solver ever sees: `set-logic` (QF_NRA, or QF_NIRA with integer constants), one
`declare-fun` per constant (`Real` or `Int`, renamed `x0`, `x1`, ... so that no name reaches the solver: a
name only matches `sym` nodes, and one that is no constant is refused), one `assert` per hypothesis, the negated
goal and `check-sat`. Numbers are printed from exact rationals. No string from a certificate is copied into the
text, so comments, quoted symbols, string literals, options and commands cannot be smuggled in. The constants are
the kernel's (a statement's variables, the encoder's auxiliaries, the registry table's names).
"""

from collections.abc import Sequence
from fractions import Fraction

from .exprtree import RELATIONS, TreeError, count_nodes, fold, node_parts

#: The logic of a statement, and of one with integer constants (z3 and cvc5 both accept Int and Real terms mixed).
LOGIC, INTEGER_LOGIC = "QF_NRA", "QF_NIRA"
#: An obligation's bounds: its declared constants, the nodes of all its trees, the exponent of a power.
MAX_CONSTANTS, MAX_STATEMENT_NODES, MAX_POWER = 32, 20_000, 64


#: Trees that do not make a well-formed obligation (from a damaged or hostile certificate): the trees' own error, so
#: that a malformed node found by `count_nodes` or `fold` is one too.
SmtTextError = TreeError


def problem_text(
    constants: Sequence[str], hypotheses: Sequence[object], goal: object, integers: Sequence[str] = ()
) -> str:
    """The SMT-LIB2 problem `hypotheses and not goal` over the real `constants` (the `integers` among them
    integer), ending in (check-sat)."""
    if not 1 <= len(constants) <= MAX_CONSTANTS:
        raise SmtTextError(f"an obligation declares 1 to {MAX_CONSTANTS} real constants")
    count_nodes(["and", *hypotheses, goal], MAX_STATEMENT_NODES)  # all the trees (one node more, no more)
    names = {name: f"x{index}" for index, name in enumerate(constants)}
    lines = [f"(set-logic {INTEGER_LOGIC if integers else LOGIC})"]
    lines += [f"(declare-fun {names[name]} () {'Int' if name in integers else 'Real'})" for name in constants]
    lines += [f"(assert {_formula(h, names)})" for h in hypotheses]
    lines += [f"(assert (not {_formula(goal, names)}))", "(check-sat)"]
    return "\n".join(lines) + "\n"


#: The formula nodes: name -> (least, most) arguments; `=>` and `=` are SMT-LIB2's names of implies and iff.
_ARGUMENTS = dict.fromkeys(("and", "or"), (1, 10_000)) | dict.fromkeys(("true", "false"), (0, 0))
_ARGUMENTS |= {"not": (1, 1), "implies": (2, 2), "iff": (2, 2)} | dict.fromkeys(RELATIONS, (2, 2))


def _formula(tree: object, names: dict[str, str]) -> str:
    """The text of a formula: a relation of two polynomial terms, or a connective of formulas."""
    op, args = node_parts(tree, 0)
    if op not in _ARGUMENTS or not _ARGUMENTS[op][0] <= len(args) <= _ARGUMENTS[op][1]:
        raise SmtTextError(f"not a formula node: {op!r} with {len(args)} arguments")
    parts = [_term(a, names) if op in RELATIONS else _formula(a, names) for a in args]
    return f"({' '.join([{'implies': '=>', 'iff': '='}.get(op, op), *parts])})" if parts else op


def _term(tree: object, names: dict[str, str]) -> str:
    """The text of a polynomial term (rationals, declared constants, + and *, powers 1..MAX_POWER)."""
    try:
        return fold(tree, _TERMS | {"sym": names.__getitem__})
    except KeyError as exc:
        raise SmtTextError(f"undeclared constant {str(exc)[:40]}") from None


def _power(base: str, k: int) -> str:
    if not 1 <= k <= MAX_POWER:
        raise SmtTextError(f"an SMT power needs an integer exponent in 1..{MAX_POWER}, not {k}")
    return base if k == 1 else f"(* {' '.join([base] * k)})"


def _number(value: Fraction) -> str:
    p, q = abs(value.numerator), value.denominator
    magnitude = f"{p}.0" if q == 1 else f"(/ {p}.0 {q}.0)"
    return f"(- {magnitude})" if value < 0 else magnitude


#: The text of each term node but `sym` (a declared constant, by its new name).
_TERMS = {"rat": _number, "pow": _power}  # a sum or product of one term is that term (cvc5 wants two or more)
_TERMS |= {
    name: lambda *parts, op=op: parts[0] if len(parts) == 1 else f"({op} {' '.join(parts)})"
    for name, op in (("add", "+"), ("mul", "*"))
}
