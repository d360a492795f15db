"""The SymPy side of the kernel's stored closed forms (`headflow.certificates.kernel.stored_forms`): the formulas of
`identities.closed_forms` and `identities.condition8_invariance` written as trees, and the file rewritten from them.

`python -m certificates.statements.stored_forms` rewrites `certificates/kernel/stored_forms.json`; a test holds the
committed file equal to `build()`, so a change of a closed form that is not written there fails the tests instead
of certifying the old formula. The kernel reads only the file.
"""

from __future__ import annotations

import json
from typing import Any

from headflow.certificates.kernel.stored_forms import LAMBDA_C_EQUATION, LAMBDA_C_PARTIALS, PATH

#: The parameters of each closed form a named node means (`certificates.kernel.exprtree.NAMED`), in the order of the
#: node's arguments: `["rate", lam, n, beta]` is the tree `rate` with lambda, n, beta put in.
PARAMETERS = {
    "c_star": ("H",),
    "beta_star": ("H", "n", "alpha"),
    "rate": ("lambda", "n", "beta"),
    "lambda_max": ("n", "beta"),
    "golden": (),
    "pi": (),
    "e": (),
}
#: The name of Condition 8's exit function h(rho; H, n, kappa) (`identities.condition8_invariance.exit_function`,
#: whose zero in (0, 1) is 1 - c8_exit_gap) among the stored trees (a prover's tree: the kernel never reads it).
EXIT_FUNCTION = "c8_exit_function"


def forms() -> tuple[dict[str, Any], dict[str, Any]]:
    """The SymPy side: (the closed forms and lambda_c's equation by name, the SymPy symbol of each parameter)."""
    import sympy as sp
    from headflow.identities import closed_forms as cf
    from headflow.identities import condition8_invariance as ci

    x = sp.Symbol("x", real=True)
    symbols = {"H": cf.H, "n": cf.n, "alpha": cf.alpha, "beta": cf.beta, "lam": cf.lam, "x": x}
    found = {
        "golden": cf.golden,
        "pi": sp.pi,
        "e": sp.E,
        "c_star": cf.c_star(),
        "beta_star": cf.beta_star(),
        "rate": cf.rate(),
        "lambda_max": cf.lambda_max(),
        "lambertw": cf.lambertw(x),
        LAMBDA_C_EQUATION: cf.lambda_c_equation(cf.u, cf.n),
        EXIT_FUNCTION: ci.exit_function(),
        **dict(zip(LAMBDA_C_PARTIALS, cf.lambda_c_partials(sp.Symbol("#n"), sp.Symbol("#beta")), strict=True)),
    }
    return found, symbols


def build() -> dict[str, Any]:
    """What the file holds, freshly written from SymPy: {"symbols": parameter -> tree symbol, "parameters": named
    node -> the symbols of its arguments, "trees": name -> tree}."""
    from headflow.certificates.sympy_trees import from_sympy

    found, symbols = forms()
    return {
        "symbols": {name: symbol.name for name, symbol in symbols.items()},
        "parameters": {name: list(parameters) for name, parameters in PARAMETERS.items()},
        "trees": {name: from_sympy(form) for name, form in found.items()},
    }


def write() -> None:
    """Rewrite the file from SymPy (after a change of `headflow.identities.closed_forms`), one tree a line."""
    built = build()
    trees = ",\n".join(f"  {json.dumps(name)}: {json.dumps(t)}" for name, t in sorted(built["trees"].items()))
    heads = f' "symbols": {json.dumps(built["symbols"], sort_keys=True)},\n'
    heads += f' "parameters": {json.dumps(built["parameters"])},\n'
    text = f'{{\n{heads} "trees": {{\n{trees}\n }}\n}}\n'
    PATH.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write()
