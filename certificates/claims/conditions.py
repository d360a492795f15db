"""Where a formula is defined: the conditions its operations impose, collected before SymPy combines terms.

Functions are real-valued (SPEC section 3): a quotient needs a non-zero denominator, log a
positive argument, sqrt a non-negative one, lambertw (principal branch) an argument >= -1/e, a
non-integer power a non-negative base (a positive one for a negative exponent), 0 to a negative
power is a division by zero, and lambda_c(n, beta) needs n > 1 and beta > 0. SymPy would turn
`x/x` into 1 and `(x**2 - 1)/(x - 1)` stays undefined at 1 only in the text, so the expression
builder records a `Condition` for each operation from its operands, before SymPy combines them;
the deciders must then prove the conditions on the whole domain (or refute the claim where one
fails). Expressions are in inert form (`headflow.certificates.inert`); whether an exponent is an integer or a
rational is read from the exact number only, never from SymPy's assumptions.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import sympy as sp
from headflow.certificates.claims.names import LambdaC
from headflow.certificates.inert import Exp, Log, RealPower, Sqrt, W
from headflow.certificates.kernel.exact import holds

#: Relations of a condition `expr relation 0`.
RELATIONS = ("!=", ">", ">=")


@dataclass(frozen=True)
class Condition:
    """`expr relation 0` must hold where the formula is defined; `reason` names what fails otherwise.

    `necessary` is False for a condition that is only sufficient (a power with a symbolic exponent
    is also defined at base 0 for positive exponents): its failure proves nothing.
    """

    expr: sp.Expr
    relation: str
    reason: str
    necessary: bool = True

    def text(self) -> str:
        """The condition as a readable formula, e.g. `x - 1 != 0` (certificates name their conditions by it)."""
        return f"{formula_text(self.expr)} {self.relation} 0"


#: Bits of the largest exact number in a formula that SymPy's printer may sort numerically.
MAX_SORTED_BITS = 1024


def formula_text(expr: sp.Expr) -> str:
    """`str(expr)`, except that a formula holding a number of more than MAX_SORTED_BITS bits keeps the terms in
    SymPy's stored order: the printer's usual order evaluates each numeric term, and exp(2**19000) takes it minutes.
    The rule depends on the formula alone, so the text is the same on every machine (certificates record it)."""
    huge = any(
        int(atom.p).bit_length() + int(atom.q).bit_length() > MAX_SORTED_BITS for atom in expr.atoms(sp.Rational)
    )
    return sp.sstr(expr, order="none") if huge else str(expr)


def power_conditions(base: sp.Expr, exponent: sp.Expr) -> list[Condition]:
    """What `base**exponent` needs in real arithmetic (the exponent's kind read from its exact value)."""
    if exponent.is_Integer:
        if exponent >= 0:
            return []
        return [Condition(base, "!=", "division by zero (0 to a negative power)")]
    if exponent.is_Rational:  # a non-integer rational
        if exponent > 0:
            what = "sqrt" if exponent == sp.Rational(1, 2) else "non-integer power"
            return [Condition(base, ">=", f"{what} of a negative number")]
        return [Condition(base, ">", "negative non-integer power of a non-positive number")]
    return [Condition(base, ">", "power with a symbolic exponent of a non-positive number", necessary=False)]


def tree_conditions(expr: sp.Expr) -> list[Condition]:
    """The conditions of every node of an inert tree, inner nodes first (used for the built-in functions)."""
    found: list[Condition] = []
    for node in sp.postorder_traversal(expr):
        if isinstance(node, sp.Pow | RealPower):
            found += power_conditions(*node.args)
        elif isinstance(node, Sqrt):
            found.append(Condition(node.args[0], ">=", "sqrt of a negative number"))
        elif isinstance(node, Log):
            found.append(Condition(node.args[0], ">", "log of a non-positive number"))
        elif isinstance(node, W):
            found.append(Condition(node.args[0] + Exp(-1), ">=", "lambertw of a number below -1/e"))
        elif isinstance(node, LambdaC):
            tokens, inverse_temperature = node.args
            found.append(Condition(tokens - 1, ">", "lambda_c(n, beta) needs n > 1"))
            found.append(Condition(inverse_temperature, ">", "lambda_c(n, beta) needs beta > 0"))
    return found


def call_conditions(function: object, args: list[sp.Expr]) -> list[Condition]:
    """What a call of a built-in function needs: the conditions of its body on plain placeholder arguments,
    with the actual arguments put in (so that combining the actual call's terms cannot hide one)."""
    generic = sp.symbols(f"_c0:{len(args)}")
    body = function(*generic)  # type: ignore[operator]
    swap = dict(zip(generic, args, strict=True))
    return [
        Condition(condition.expr.xreplace(swap), condition.relation, condition.reason, condition.necessary)
        for condition in tree_conditions(body)
    ]


def unique(conditions: Iterable[Condition]) -> tuple[Condition, ...]:
    """The conditions without repeats (same expression and relation), in order."""
    seen: dict[tuple[sp.Expr, str], Condition] = {}
    for condition in conditions:
        seen.setdefault((condition.expr, condition.relation), condition)
    return tuple(seen.values())


def settled(condition: Condition) -> bool | None:
    """True or False when the condition is about an exact rational, None otherwise."""
    value = condition.expr
    if not value.is_Rational:
        return None
    return holds(value, condition.relation)
