"""The SMT-LIB2 text of an obligation, printed by the checker from expression trees and nothing else.

An SMT obligation is data: real constants (names, some possibly integers), hypotheses and a goal as
trees over a fixed vocabulary (`certificates.kernel.exprtree`: rational constants, + and ×, integer powers,
the relations `< <= > >= =`, and/or/not/implies/iff). `problem_text` validates every node and prints
the only text a solver ever sees: `set-logic` (QF_NRA, or QF_NIRA with integer constants), one
`declare-fun` per constant (`Real` or `Int`, renamed `x0`, `x1`, ... so that no name from a file
reaches the solver), one `assert` per hypothesis, the negated goal and `check-sat`. Numbers are
printed from exact rationals. No string from a certificate is copied into the text, so comments,
quoted symbols, string literals, options and commands cannot be smuggled in.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

from certificates.kernel.exprtree import CONNECTIVES, RELATIONS, TreeError, count_nodes, parse_rational

LOGIC = "QF_NRA"
#: The logic of a statement with integer constants (z3 and cvc5 both accept Int and Real terms mixed).
INTEGER_LOGIC = "QF_NIRA"
#: A declared name: short, plain (it is only used to match `sym` nodes; the text uses x0, x1, ...).
IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,40}$")
MAX_CONSTANTS = 32
MAX_STATEMENT_NODES = 20_000
MAX_POWER = 64


class SmtTextError(ValueError):
    """Trees that do not make a well-formed obligation (from a damaged or hostile certificate)."""


def logic(integers: Sequence[str]) -> str:
    """The SMT-LIB2 logic of a statement: reals only, or integers and reals."""
    return INTEGER_LOGIC if integers else LOGIC


def problem_text(
    constants: Sequence[str], hypotheses: Sequence[object], goal: object, integers: Sequence[str] = ()
) -> str:
    """The SMT-LIB2 problem `hypotheses and not goal` over the real `constants` (the `integers` among them
    integer), ending in (check-sat)."""
    if not isinstance(constants, list | tuple) or not 1 <= len(constants) <= MAX_CONSTANTS:
        raise SmtTextError(f"an obligation declares 1 to {MAX_CONSTANTS} real constants")
    if any(not isinstance(name, str) or not IDENTIFIER.match(name) for name in constants):
        raise SmtTextError("a declared constant is not a plain identifier")
    if len(set(constants)) != len(constants):
        raise SmtTextError("a constant is declared twice")
    if not isinstance(integers, list | tuple) or any(name not in constants for name in integers):
        raise SmtTextError("the integer constants must be declared constants")
    if len(set(integers)) != len(integers):
        raise SmtTextError("an integer constant is listed twice")
    if not isinstance(hypotheses, list | tuple):
        raise SmtTextError("hypotheses must be a list of formulas")
    try:
        size = sum(count_nodes(tree, MAX_STATEMENT_NODES) for tree in [*hypotheses, goal])
    except TreeError as exc:
        raise SmtTextError(str(exc)) from None
    if size > MAX_STATEMENT_NODES:
        raise SmtTextError(f"the statement has more than {MAX_STATEMENT_NODES} nodes")
    names = {name: f"x{index}" for index, name in enumerate(constants)}
    lines = [f"(set-logic {logic(integers)})"]
    lines += [f"(declare-fun {names[name]} () {'Int' if name in integers else 'Real'})" for name in constants]
    lines += [f"(assert {_formula(h, names)})" for h in hypotheses]
    lines.append(f"(assert (not {_formula(goal, names)}))")
    lines.append("(check-sat)")
    return "\n".join(lines) + "\n"


def _formula(tree: object, names: dict[str, str]) -> str:
    op, args = _split(tree)
    if op in RELATIONS and len(args) == 2:
        return f"({op} {_term(args[0], names)} {_term(args[1], names)})"
    if op not in CONNECTIVES:
        raise SmtTextError(f"not a formula node: {op!r}")
    arity = {"not": (1, 1), "implies": (2, 2), "iff": (2, 2), "true": (0, 0), "false": (0, 0)}.get(op, (1, 10_000))
    if not arity[0] <= len(args) <= arity[1]:
        raise SmtTextError(f"{op} with {len(args)} arguments")
    if op in ("true", "false"):
        return op
    smt = {"iff": "=", "implies": "=>"}.get(op, op)
    return f"({smt} " + " ".join(_formula(a, names) for a in args) + ")"


def _term(tree: object, names: dict[str, str]) -> str:
    op, args = _split(tree)
    if op == "sym" and len(args) == 1:
        if args[0] not in names:
            raise SmtTextError(f"undeclared constant {str(args[0])[:40]!r}")
        return names[args[0]]
    if op == "rat" and len(args) == 1:
        return _number(parse_rational(args[0]))
    if op in ("add", "mul") and args:
        return f"({'+' if op == 'add' else '*'} " + " ".join(_term(a, names) for a in args) + ")"
    if op == "pow" and len(args) == 2:
        k = args[1]
        if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= MAX_POWER:
            raise SmtTextError(f"an SMT power needs an integer exponent in 1..{MAX_POWER}, not {str(k)[:20]}")
        base = _term(args[0], names)
        return base if k == 1 else "(* " + " ".join([base] * k) + ")"
    raise SmtTextError(f"not a polynomial term node: {op!r}")


def _split(tree: object) -> tuple[str, list[object]]:
    if not isinstance(tree, list) or not tree or not isinstance(tree[0], str):
        raise SmtTextError(f"malformed node {str(tree)[:60]}")
    return tree[0], tree[1:]


def _number(value: Fraction) -> str:
    p, q = abs(value.numerator), value.denominator
    magnitude = f"{p}.0" if q == 1 else f"(/ {p}.0 {q}.0)"
    return f"(- {magnitude})" if value < 0 else magnitude
