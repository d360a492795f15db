"""The constants' closed forms and lambda_c's equation as expression trees, stored so that evaluating them needs no
SymPy (start-up of `headflow constants` stays cheap, and the kernel never loads it).

`stored_forms.json` beside this module holds the trees of each formula of `identities.closed_forms`: golden, pi,
e, c*(H), beta*(H, n, alpha), phi(lambda, n, beta), lambda_max(n, beta), W_0(x) and lambda_c's equation g(u, n), and
Condition 8's exit function h(rho; H, n, kappa) of `headflow.identities.condition8_invariance`, lambda_c's partial
derivatives (`certificates.kernel.derivatives`), with the tree symbol of each command-line parameter (`lam` is the
symbol `lambda`). The closed forms are what the named nodes of a tree mean (`certificates.kernel.exprtree.NAMED`).
SymPy proposes the formulas once, outside the kernel (`headflow.certificates.statements.stored_forms`, whose `python -m`
rewrites the file and whose `build()` a test holds the file equal to, so a change of a closed form that is not
written here fails the tests instead of certifying the old formula); the kernel evaluates the stored trees with
balls (`headflow.certificates.kernel.exprtree.evaluate`; `headflow constants` compiles them once per tree,
`headflow.certificates.provers.programs.program`).
"""

import json
from pathlib import Path
from typing import Any

PATH = Path(__file__).with_name("stored_forms.json")
#: The name of lambda_c's equation g(u, n) = (u - 2) e^u - (n - 1)(u + 2) among the trees.
LAMBDA_C_EQUATION = "lambda_c_equation"
#: The names of d lambda_c / dn and d lambda_c / dbeta (`headflow.identities.closed_forms.lambda_c_partials`) at the
#: placeholder arguments #n, #beta, which `headflow.certificates.kernel.derivatives` substitutes.
LAMBDA_C_PARTIALS = ("lambda_c_partial_n", "lambda_c_partial_beta")


#: The file: {"symbols": command-line parameter -> tree symbol, "parameters": named node -> the symbols of its
#: arguments, "trees": name -> tree}.
STORED: dict[str, Any] = json.loads(PATH.read_text(encoding="utf-8"))


def tree(name: str) -> list[Any]:
    """The stored tree of a closed form (a key of `build()["trees"]`)."""
    return STORED["trees"][name]  # type: ignore[no-any-return]
