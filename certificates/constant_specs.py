"""The one table of the regime's constants: every place that names a constant reads it from here.

`headflow constants` (its options and rows), the certified balls (`headflow.checks.constants.certified`), mpmath's
cross-check (`headflow.checks.constants.mpmath_reference`, which registers one formula and digit limit per row), the
rendered tables (`headflow.checks.constants.tables`) and the names a claims-file expression may use
(`headflow.certificates.claims.names`) all iterate over QUANTITIES, so adding a constant is one row here plus its
formulas. A row points to its SymPy builder in `headflow.identities.closed_forms` through a function of that module
(`lambda forms: forms.c_star`), called on first use, so that the table loads without SymPy and building the
command line stays fast.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any, NamedTuple


class Parameter(NamedTuple):
    """One parameter of the constants: its domain (checked by `checks.constants.certified.validate`), the help of its
    command-line option and the option's default."""

    name: str
    domain: str
    help: str
    default: str | None = None


class Quantity(NamedTuple):
    """One constant: its parameters (in the order of its signature), its LaTeX name and its SymPy builder.

    `symbolic` picks the builder out of `headflow.identities.closed_forms` (handed in by `builder`); the builder is the
    expression itself when there is no parameter, else a function of one expression per parameter. It is the
    claims-file function (None for a quantity that has no SymPy form and is therefore not in the claims-file
    language, such as the root c8_exit_gap); the balls are `headflow.certificates.provers.constant_balls`'s."""

    name: str
    parameters: tuple[str, ...]
    latex: str
    symbolic: Callable[[ModuleType], Any] | None

    def builder(self) -> Any:
        """The SymPy builder of the quantity (imports SymPy and the closed forms on first use)."""
        if self.symbolic is None:
            raise ValueError(f"{self.name} has no SymPy form")
        from headflow.identities import closed_forms

        return self.symbolic(closed_forms)

    def symbolic_form(self, *arguments: Any) -> Any:
        """The SymPy expression of the quantity at `arguments` (one per parameter)."""
        built = self.builder()
        return built(*arguments) if self.parameters else built


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

QUANTITIES: dict[str, Quantity] = {
    q.name: q
    for q in (
        Quantity("golden", (), r"\varphi", lambda forms: forms.golden),
        Quantity("c_star", ("H",), r"c^*", lambda forms: forms.c_star),
        Quantity("beta_star", ("H", "n", "alpha"), r"\beta^*", lambda forms: forms.beta_star),
        Quantity("rate", ("lam", "n", "beta"), r"\phi", lambda forms: forms.rate),
        Quantity("lambda_max", ("n", "beta"), r"\lambda_{\max}", lambda forms: forms.lambda_max),
        # no closed form: the SymPy function LambdaC (no automatic evaluation), decided by certificates.kernel.lambda_c
        Quantity("lambda_c", ("n", "beta"), r"\lambda_c", lambda forms: forms.LambdaC),
        Quantity("lambertw", ("x",), r"W_0", lambda forms: forms.lambertw),
        # the cluster gap at which Condition 8 is lost (C8.invariance.exit-gap): a certified root, no closed form
        Quantity("c8_exit_gap", ("H", "n", "alpha", "beta"), r"\varepsilon_{\mathrm{exit}}", None),
    )
}
"""Each quantity by name, in the order the command and the claims-file language list them."""
