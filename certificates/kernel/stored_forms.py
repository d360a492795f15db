"""The constants' closed forms and lambda_c's equation as expression trees, stored so that evaluating them needs no
SymPy (start-up of `headflow constants` stays cheap, and the kernel never loads it).

`stored_forms.json` beside this module holds the trees of each formula of `identities.closed_forms`: golden,
c*(H), beta*(H, n, alpha), phi(lambda, n, beta), lambda_max(n, beta), W_0(x) and lambda_c's equation g(u, n), and
Condition 8's exit function h(rho; H, n, kappa) of `identities.condition8_invariance`, lambda_c's partial
derivatives (`certificates.kernel.derivatives`), with the tree symbol of each command-line parameter (`lam` is the
symbol `lambda`). SymPy proposes the formulas once, outside the kernel (`certificates.statements.stored_forms`,
whose `python -m` rewrites the file and whose `build()` a test holds the file equal to, so a change of a closed
form that is not written here fails the tests instead of certifying the old formula); the kernel evaluates the
stored trees with balls (`certificates.kernel.exprtree.evaluate`; `headflow constants` compiles them once per tree,
`certificates.provers.programs.program`).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from certificates.kernel.exprtree import Tree

PATH = Path(__file__).with_name("stored_forms.json")
#: The name of lambda_c's equation g(u, n) = (u - 2) e^u - (n - 1)(u + 2) among the trees.
LAMBDA_C_EQUATION = "lambda_c_equation"
#: The name of Condition 8's exit function h(rho; H, n, kappa) (`identities.condition8_invariance.exit_function`,
#: whose zero in (0, 1) is 1 - c8_exit_gap) among the trees.
EXIT_FUNCTION = "c8_exit_function"
#: The names of d lambda_c / dn and d lambda_c / dbeta (`identities.closed_forms.lambda_c_partials`) at the
#: placeholder arguments #n, #beta, which `certificates.kernel.derivatives` substitutes.
LAMBDA_C_PARTIALS = ("lambda_c_partial_n", "lambda_c_partial_beta")


@cache
def _stored() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(PATH.read_text(encoding="utf-8"))
    return loaded


def tree(name: str) -> Tree:
    """The stored tree of a closed form (a key of `build()["trees"]`)."""
    found: Tree = _stored()["trees"][name]
    return found


def symbol(parameter: str) -> str:
    """The tree symbol of a command-line parameter (`lam` -> `lambda`)."""
    return symbols()[parameter]


@cache
def symbols() -> dict[str, str]:
    """Every command-line parameter's tree symbol (`symbol` of each, in one lookup)."""
    found: dict[str, str] = _stored()["symbols"]
    return found
