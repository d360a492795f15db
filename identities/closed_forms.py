"""The closed forms and defining equations of the scalar-head regimes, written once in SymPy.

Everything else (constants tables, certificates, numerical checks, claims files) takes its
formulas from here. Conventions: u = beta * lambda, m = n - 1.

- c*(H) is the positive root of c^2 + (H - 1) c - 1 = 0.
- beta*(H, n, alpha) = (1/(2 alpha)) ln(c*^2 (n - 1) / (1 - c*^2)).
- phi(lambda) = 2 lambda / (exp(lambda beta) + n - 1), the early clustering rate.
- lambda_max: phi' = 0  <=>  (u - 1) e^u = n - 1  <=>  u = 1 + W((n - 1)/e).
- lambda_c: phi'' = 0  <=>  (u - 2) e^u = (n - 1)(u + 2), with no elementary or single-W form: the SymPy
  function `LambdaC`, kept symbolic; its partial derivatives (`lambda_c_partials`) follow by implicit
  differentiation (`headflow.identities.scalar_regime.prove_lambda_c_monotone`).
- W(z) e^{W(z)} = z, the defining identity of Lambert W, as a rewriting (`eliminate_exp_lambertw`).
- P⊥_x u = u - <u, x> x, the tangent projection at a unit vector x, for any vector representation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import sympy as sp
from headflow.identities import signs

V = TypeVar("V")

H, n, alpha, beta, lam, c, u = sp.symbols("H n alpha beta lambda c u", positive=True)

golden = (1 + sp.sqrt(5)) / 2


def c_star_polynomial(c_symbol: sp.Expr = c, heads: sp.Expr = H) -> sp.Expr:
    """The defining polynomial c^2 + (H - 1) c - 1 of c*(H)."""
    return c_symbol**2 + (heads - 1) * c_symbol - 1


def c_star(heads: sp.Expr = H) -> sp.Expr:
    """c*(H) = (sqrt((H - 1)^2 + 4) - (H - 1)) / 2."""
    return (sp.sqrt((heads - 1) ** 2 + 4) - (heads - 1)) / 2


def beta_star(heads: sp.Expr = H, tokens: sp.Expr = n, scale: sp.Expr = alpha) -> sp.Expr:
    """beta*(H, n, alpha) = (1/(2 alpha)) ln(c*(H)^2 (n - 1) / (1 - c*(H)^2)), as the summary states it."""
    cs = c_star(heads)
    return sp.log(cs**2 * (tokens - 1) / (1 - cs**2)) / (2 * scale)


def rate(strength: sp.Expr = lam, tokens: sp.Expr = n, inverse_temperature: sp.Expr = beta) -> sp.Expr:
    """phi(lambda) = 2 lambda / (exp(lambda beta) + n - 1)."""
    return 2 * strength / (sp.exp(strength * inverse_temperature) + tokens - 1)


def lambda_max(tokens: sp.Expr = n, inverse_temperature: sp.Expr = beta) -> sp.Expr:
    """The maximiser of phi: (1 + W((n - 1)/e)) / beta, W the principal Lambert W branch."""
    return (1 + sp.LambertW((tokens - 1) / sp.E)) / inverse_temperature


def lambda_max_equation(u_symbol: sp.Expr = u, tokens: sp.Expr = n) -> sp.Expr:
    """phi'(lambda) = 0 in u = beta lambda: (u - 1) e^u - (n - 1) = 0."""
    return (u_symbol - 1) * sp.exp(u_symbol) - (tokens - 1)


def lambda_c_equation(u_symbol: sp.Expr = u, tokens: sp.Expr = n) -> sp.Expr:
    """phi''(lambda) = 0 in u = beta lambda: (u - 2) e^u - (n - 1)(u + 2) = 0 (root u_c > 2)."""
    return (u_symbol - 2) * sp.exp(u_symbol) - (tokens - 1) * (u_symbol + 2)


class LambdaC(sp.Function):
    """lambda_c(n, beta) = u_c / beta, u_c > 2 the root of (u - 2) e^u = (n - 1)(u + 2) (inflection of phi)."""

    nargs = 2

    def _eval_is_positive(self) -> bool | None:
        """True when n - 1 > 0 and beta > 0 are proved structurally (`headflow.identities.signs`, from the arguments'
        declarations), never from SymPy's numerical sign of the arguments: lambda_c = u_c/beta with u_c > 2."""
        tokens, inverse_temperature = self.args
        facts = signs.declared_facts(tokens + inverse_temperature)
        if signs.prove(tokens - 1, ">0", facts) and signs.prove(inverse_temperature, ">0", facts):
            return True
        return None

    def _sympystr(self, printer: sp.printing.StrPrinter) -> str:
        return f"lambda_c({', '.join(printer.doprint(a) for a in self.args)})"

    def _latex(self, printer: sp.printing.latex.LatexPrinter, exp: str | None = None) -> str:
        body = rf"\lambda_c\left({', '.join(printer.doprint(a) for a in self.args)}\right)"
        return body if exp is None else rf"{body}^{{{exp}}}"


def lambda_c_partials(tokens: sp.Expr = n, inverse_temperature: sp.Expr = beta) -> tuple[sp.Expr, sp.Expr]:
    """(d lambda_c / d n, d lambda_c / d beta) in terms of lambda_c itself, with u = beta lambda_c = u_c(n):
    ((u + 2)^2 e^-u / (u^2 beta), -lambda_c / beta), both from the implicit function theorem."""
    value = LambdaC(tokens, inverse_temperature)
    scaled = inverse_temperature * value
    return (scaled + 2) ** 2 * sp.exp(-scaled) / (scaled**2 * inverse_temperature), -value / inverse_temperature


def lambertw(x: sp.Expr) -> sp.Expr:
    """The principal branch W_0 of the Lambert W function."""
    return sp.LambertW(x)


def eliminate_exp_lambertw(
    expr: sp.Expr, exp: type = sp.exp, lambertw: type = sp.LambertW
) -> tuple[sp.Expr, list[sp.Expr]]:
    """`expr` with every exp(k W(z) + rest) (k an integer) written (z / W(z))^k exp(rest), and the arguments z
    used: W(z) e^{W(z)} = z makes e^{W(z)} = z / W(z) wherever W(z) != 0, that is wherever z != 0, so the
    rewritten expression equals `expr` where every returned z is non-zero. `exp` and `lambertw` are the
    function classes (SymPy's, or the inert ones of `headflow.certificates.inert`)."""
    used: list[sp.Expr] = []

    def rewrite(power: sp.Expr) -> sp.Expr:
        factor, rest = sp.Integer(1), []
        for term in sp.Add.make_args(sp.expand(power.args[0])):
            coefficient, core = term.as_coeff_Mul()
            if isinstance(core, lambertw) and len(core.args) == 1 and coefficient.is_Integer:
                factor *= (core.args[0] / core) ** coefficient
                used.append(core.args[0])
            else:
                rest.append(term)
        return factor * exp(sp.Add(*rest))

    rewritten = expr.replace(lambda e: isinstance(e, exp), rewrite)
    return rewritten, list(dict.fromkeys(used))


def tangent_projection(x: V, vector: V, inner: Callable[[V, V], sp.Expr]) -> V:
    """P⊥_x(u) = u - <u, x> x, with `inner` the bilinear form of the representation (Gram vectors,
    coefficient columns): a tangent projection when <x, x> = 1."""
    return vector - inner(vector, x) * x  # type: ignore[operator]
