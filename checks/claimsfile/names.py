"""The names a claims-file expression may use: SPEC section 4 functions, elementary functions, constants.

The regime's constants come from the one table `checks.constant_specs.QUANTITIES` (those with a SymPy form:
c8_exit_gap, a certified root, is only a `headflow constants` quantity); every function is
built from `identities/closed_forms.py`, so a claims file means exactly what
the paper's checks mean. `lambda_c(n, beta)` has no closed form: it is the SymPy function
`LambdaC` of `identities.closed_forms`, kept symbolic and evaluated rigorously by `checks.claimsfile.evaluation`.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from checks.constant_specs import QUANTITIES, resolve
from identities.closed_forms import LambdaC

__all__ = ["CONSTANTS", "FUNCTIONS", "RESERVED", "LambdaC"]


#: Functions by name: (number of positional arguments, builder of the SymPy node): the constants of
#: `checks.constant_specs` that have parameters, then the elementary functions.
FUNCTIONS: dict[str, tuple[int, Callable[..., sp.Expr]]] = {
    q.name: (len(q.parameters), resolve(q.symbolic)) for q in QUANTITIES.values() if q.parameters and q.symbolic
} | {"exp": (1, sp.exp), "log": (1, sp.log), "sqrt": (1, sp.sqrt)}

#: Constants by name: those of `checks.constant_specs` without parameters, then pi and e.
CONSTANTS: dict[str, sp.Expr] = {q.name: q.symbolic_form() for q in QUANTITIES.values() if not q.parameters} | {
    "pi": sp.pi,
    "e": sp.E,
}

#: Names a user may not declare as a symbol.
RESERVED = frozenset(FUNCTIONS) | frozenset(CONSTANTS)
