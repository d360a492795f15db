"""The names a claims-file expression may use: SPEC section 4 functions, elementary functions, constants.

The regime's constants come from the one table `checks.constant_specs.QUANTITIES`; every function is
built from `identities/closed_forms.py`, so a claims file means exactly what
the paper's checks mean. `lambda_c(n, beta)` has no closed form: it is the SymPy function
`LambdaC`, kept symbolic and evaluated rigorously by `checks.claimsfile.evaluation`.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from checks.constant_specs import QUANTITIES, resolve


class LambdaC(sp.Function):
    """lambda_c(n, beta) = u_c / beta, u_c > 2 the root of (u - 2) e^u = (n - 1)(u + 2) (inflection of phi)."""

    nargs = 2

    def _eval_is_positive(self) -> bool | None:
        tokens, inverse_temperature = self.args
        if (tokens - 1).is_positive and inverse_temperature.is_positive:
            return True
        return None

    def _sympystr(self, printer: sp.printing.StrPrinter) -> str:
        return f"lambda_c({', '.join(printer.doprint(a) for a in self.args)})"

    def _latex(self, printer: sp.printing.latex.LatexPrinter, exp: str | None = None) -> str:
        body = rf"\lambda_c\left({', '.join(printer.doprint(a) for a in self.args)}\right)"
        return body if exp is None else rf"{body}^{{{exp}}}"


#: Functions by name: (number of positional arguments, builder of the SymPy node): the constants of
#: `checks.constant_specs` that have parameters, then the elementary functions.
FUNCTIONS: dict[str, tuple[int, Callable[..., sp.Expr]]] = {
    q.name: (len(q.parameters), resolve(q.symbolic)) for q in QUANTITIES.values() if q.parameters
} | {"exp": (1, sp.exp), "log": (1, sp.log), "sqrt": (1, sp.sqrt)}

#: Constants by name: those of `checks.constant_specs` without parameters, then pi and e.
CONSTANTS: dict[str, sp.Expr] = {q.name: q.symbolic_form() for q in QUANTITIES.values() if not q.parameters} | {
    "pi": sp.pi,
    "e": sp.E,
}

#: Names a user may not declare as a symbol.
RESERVED = frozenset(FUNCTIONS) | frozenset(CONSTANTS)
