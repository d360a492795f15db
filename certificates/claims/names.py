"""The names a claims-file expression may use: SPEC section 4 functions, elementary functions, constants.

The regime's constants come from the one table `certificates.constant_specs.QUANTITIES` (those with a SymPy form:
c8_exit_gap, a certified root, is only a `headflow constants` quantity); every function is
built from `identities/closed_forms.py`, so a claims file means exactly what
the paper's checks mean. Each is built in inert form (`headflow.certificates.inert`): the closed form is written on
plain symbols (which SymPy cannot rewrite by sign) and its non-polynomial nodes are made inert, then the
actual arguments are put in, so no sign-dependent rewrite can happen on the arguments. `lambda_c(n, beta)`
has no closed form: it is the SymPy function `LambdaC` of `headflow.identities.closed_forms` (no automatic
evaluation), evaluated rigorously by `headflow.certificates.kernel.lambda_c`.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp
from headflow.certificates.constant_specs import QUANTITIES
from headflow.certificates.inert import Exp, Log, Pi, Sqrt, inert
from headflow.identities.closed_forms import LambdaC

__all__ = ["CONSTANTS", "FUNCTIONS", "RESERVED", "LambdaC"]


def _inert_builder(function: Callable[..., sp.Expr], arity: int) -> Callable[..., sp.Expr]:
    """function(*args) in inert form: built once on plain placeholder symbols, then the arguments substituted."""
    generic = sp.symbols(f"_a0:{arity}")  # plain symbols; a user's name never starts with "_"
    body = inert(function(*generic))
    return lambda *args: body.xreplace(dict(zip(generic, args, strict=True)))


#: Functions by name: (number of positional arguments, builder of the inert SymPy node): the constants of
#: `headflow.certificates.constant_specs` that have parameters, then the elementary functions.
FUNCTIONS: dict[str, tuple[int, Callable[..., sp.Expr]]] = {
    q.name: (len(q.parameters), _inert_builder(q.builder(), len(q.parameters)))
    for q in QUANTITIES.values()
    if q.parameters and q.symbolic
} | {"exp": (1, Exp), "log": (1, Log), "sqrt": (1, Sqrt)}

#: Constants by name: those of `headflow.certificates.constant_specs` without parameters, then pi and e.
CONSTANTS: dict[str, sp.Expr] = {q.name: inert(q.symbolic_form()) for q in QUANTITIES.values() if not q.parameters} | {
    "pi": Pi(),
    "e": Exp(sp.Integer(1)),
}

#: Names a user may not declare as a symbol.
RESERVED = frozenset(FUNCTIONS) | frozenset(CONSTANTS)
