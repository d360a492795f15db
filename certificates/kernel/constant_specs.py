"""The one table of the regime's constants: every place that names a constant reads it from here.

`headflow constants` (its options, rows and digit limits), the certified balls (`checks.constants.certified`),
mpmath's cross-check (`checks.constants.mpmath_reference`), the rendered tables (`checks.constants.tables`) and
the names a claims-file expression may use (`certificates.kernel.claims.names`) all iterate over QUANTITIES,
so adding a constant is one row here plus its formulas. The evaluators are named as
"module:attribute" and imported only when used, so that building the command line stays fast (no
SymPy, mpmath or python-flint import).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

DEFAULT_MAX_DIGITS = 100_000
"""Largest number of digits of a quantity unless its row says otherwise (the ball computation does
100,000 digits in about a second)."""


def resolve(reference: str) -> Any:
    """The object a "module:attribute" reference names (imported on first use)."""
    module, _, attribute = reference.partition(":")
    return getattr(importlib.import_module(module), attribute)


@dataclass(frozen=True)
class Parameter:
    """One parameter of the constants: its domain (checked by `checks.constants.certified.validate`), the help of its
    command-line option and the option's default."""

    name: str
    domain: str
    help: str
    default: str | None = None


@dataclass(frozen=True)
class Quantity:
    """One constant: its parameters (in the order of its signature), its evaluators and its formats.

    `symbolic` is the SymPy builder, called with one expression per parameter (the expression itself
    when there is no parameter): the claims-file function (None for a quantity that has no SymPy form and is
    therefore not in the claims-file language, such as the root c8_exit_gap); the balls are
    `certificates.provers.constant_balls`'s; `reference` is mpmath's independent formula `(parameters) -> mpf`."""

    name: str
    parameters: tuple[str, ...]
    latex: str
    symbolic: str | None
    reference: str
    max_digits: int = DEFAULT_MAX_DIGITS

    def symbolic_form(self, *arguments: Any) -> Any:
        """The SymPy expression of the quantity at `arguments` (one per parameter)."""
        if self.symbolic is None:
            raise ValueError(f"{self.name} has no SymPy form")
        built = resolve(self.symbolic)
        return built(*arguments) if self.parameters else built

    def reference_formula(self) -> Any:
        """mpmath's formula of the quantity (looked up at each call, so a test may replace it)."""
        return resolve(self.reference)


PARAMETERS: dict[str, Parameter] = {
    p.name: p
    for p in (
        Parameter("H", "integer>=1", "heads, integers >= 1"),
        Parameter("n", "integer>=2", "tokens, integers >= 2"),
        Parameter("alpha", "positive", "head scale > 0 (default 1)", "1"),
        Parameter("beta", "positive", "inverse temperature > 0 (default 1)", "1"),
        Parameter("lam", "positive", "head strength lambda > 0 (for rate)"),
        Parameter("x", "lambertw", "argument of lambertw, x >= -1/e"),
    )
}
"""Every parameter, in the order of the table columns and command-line options."""

_FORMS = "identities.closed_forms"
_MPMATH = "checks.constants.mpmath_reference"

QUANTITIES: dict[str, Quantity] = {
    q.name: q
    for q in (
        Quantity("golden", (), r"\varphi", f"{_FORMS}:golden", f"{_MPMATH}:golden"),
        Quantity("c_star", ("H",), r"c^*", f"{_FORMS}:c_star", f"{_MPMATH}:c_star"),
        Quantity("beta_star", ("H", "n", "alpha"), r"\beta^*", f"{_FORMS}:beta_star", f"{_MPMATH}:beta_star"),
        Quantity("rate", ("lam", "n", "beta"), r"\phi", f"{_FORMS}:rate", f"{_MPMATH}:rate"),
        Quantity("lambda_max", ("n", "beta"), r"\lambda_{\max}", f"{_FORMS}:lambda_max", f"{_MPMATH}:lambda_max"),
        Quantity(
            "lambda_c",
            ("n", "beta"),
            r"\lambda_c",
            "certificates.kernel.claims.names:LambdaC",
            f"{_MPMATH}:lambda_c",
            # mpmath's cross-check (a Newton iteration at full precision) takes minutes beyond 10,000 digits
            max_digits=10_000,
        ),
        Quantity("lambertw", ("x",), r"W_0", f"{_FORMS}:lambertw", f"{_MPMATH}:lambertw"),
        # the cluster gap at which Condition 8 is lost (C8.invariance.exit-gap): a certified root, no closed form
        Quantity(
            "c8_exit_gap",
            ("H", "n", "alpha", "beta"),
            r"\varepsilon_{\mathrm{exit}}",
            None,
            f"{_MPMATH}:c8_exit_gap",
            max_digits=10_000,
        ),
    )
}
"""Each quantity by name, in the order the command and the claims-file language list them."""
