"""The constants' closed forms and lambda_c's equation as expression trees, stored so that evaluating them needs no
SymPy (start-up of `headflow constants` stays cheap).

`stored_forms.json` beside this module holds `from_sympy` of each formula of `identities.closed_forms`: golden,
c*(H), beta*(H, n, alpha), phi(lambda, n, beta), lambda_max(n, beta), W_0(x) and lambda_c's equation g(u, n), and
Condition 8's exit function h(rho; H, n, kappa) of `identities.condition8_invariance`, lambda_c's partial derivatives
(`certificates.kernel.derivatives`), with the tree symbol of each
command-line parameter (`lam` is the symbol `lambda`). SymPy proposes the formulas once
(`build`); the kernel evaluates the stored trees with balls (`certificates.kernel.exprtree.evaluate`'s operations,
compiled once per tree by `program`). The file is
written by `python -m certificates.kernel.stored_forms` and a test holds it equal to `build()`, so a change of a
closed form that is not written here fails the tests instead of certifying the old formula.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from certificates.kernel.exprtree import Tree
from certificates.kernel.programs import Program, compile_trees

PATH = Path(__file__).with_name("stored_forms.json")
#: The name of lambda_c's equation g(u, n) = (u - 2) e^u - (n - 1)(u + 2) among the trees.
LAMBDA_C_EQUATION = "lambda_c_equation"
#: The name of Condition 8's exit function h(rho; H, n, kappa) (`identities.condition8_invariance.exit_function`,
#: whose zero in (0, 1) is 1 - c8_exit_gap) among the trees.
EXIT_FUNCTION = "c8_exit_function"
#: The names of d lambda_c / dn and d lambda_c / dbeta (`identities.closed_forms.lambda_c_partials`) at the
#: placeholder arguments #n, #beta, which `certificates.kernel.derivatives` substitutes.
LAMBDA_C_PARTIALS = ("lambda_c_partial_n", "lambda_c_partial_beta")


def forms() -> tuple[dict[str, Any], dict[str, Any]]:
    """The SymPy side: (the closed forms and lambda_c's equation by name, the SymPy symbol of each parameter)."""
    import sympy as sp

    from identities import closed_forms as cf
    from identities import condition8_invariance as ci

    x = sp.Symbol("x", real=True)
    symbols = {"H": cf.H, "n": cf.n, "alpha": cf.alpha, "beta": cf.beta, "lam": cf.lam, "x": x}
    found = {
        "golden": cf.golden,
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
    """What the file holds, freshly written from SymPy: {"symbols": parameter -> tree symbol, "trees": name -> tree}."""
    from certificates.kernel.exprtree import from_sympy

    found, symbols = forms()
    return {
        "symbols": {name: symbol.name for name, symbol in symbols.items()},
        "trees": {name: from_sympy(form) for name, form in found.items()},
    }


@cache
def _stored() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(PATH.read_text(encoding="utf-8"))
    return loaded


def tree(name: str) -> Tree:
    """The stored tree of a closed form (a key of `build()["trees"]`)."""
    found: Tree = _stored()["trees"][name]
    return found


@cache
def program(name: str) -> Program:
    """The stored tree `name` compiled once into a program (`certificates.kernel.programs`: `evaluate`'s balls, the
    tree walked once per process instead of once per evaluation)."""
    return compile_trees(tree(name))


def symbol(parameter: str) -> str:
    """The tree symbol of a command-line parameter (`lam` -> `lambda`)."""
    return symbols()[parameter]


@cache
def symbols() -> dict[str, str]:
    """Every command-line parameter's tree symbol (`symbol` of each, in one lookup)."""
    found: dict[str, str] = _stored()["symbols"]
    return found


def write() -> None:
    """Rewrite the file from SymPy (after a change of `identities.closed_forms`), one tree a line."""
    built = build()
    trees = ",\n".join(f"  {json.dumps(name)}: {json.dumps(t)}" for name, t in sorted(built["trees"].items()))
    text = f'{{\n "symbols": {json.dumps(built["symbols"], sort_keys=True)},\n "trees": {{\n{trees}\n }}\n}}\n'
    PATH.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write()
