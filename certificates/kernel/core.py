"""Core statements: what a certificate proves, as data the kernel checks and prints.

A claim (a registry id, or a claims-file claim in its rich language) is elaborated outside the kernel
(`certificates.statements`) into a core statement: a JSON object whose `form` names one of the few shapes below,
built over the expression trees of `certificates.kernel.exprtree` and the model's primitives. The certificate
carries it; the kernel checks the payload against it and prints it, rendered from its own data, as what the
certificate proved. The kernel never re-derives a statement from a claim's text, so nothing that elaborates a
claim (a parser, SymPy) is trusted: `check-cert --claims FILE` re-elaborates the file and refuses a certificate
whose statement differs, and a registry claim's statement must equal the kernel's own table of them.

`FORMS` maps each form to its checker: `(statement, claim_id, kind, payload, solver_seconds) -> (what it proved,
how it was re-checked)`, raising `Rejected` when the payload does not prove the statement; `check` holds every
statement to the certificate's claim id first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from certificates.kernel import equilibrium_statements, model_statements, real_statements, registry_statements
from certificates.kernel.recheck import Rejected

Checker = Callable[[dict[str, Any], str, str, dict[str, Any], float], tuple[str, str]]

#: form -> its checker (one line per form; the form's module holds its shape and its checker).
FORMS: dict[str, Checker] = {
    real_statements.FORM: real_statements.check,
    registry_statements.FORM: registry_statements.check,
    model_statements.FORM: model_statements.check,
    equilibrium_statements.FORM: equilibrium_statements.check,
}


def check(
    statement: dict[str, Any], claim_id: str, kind: str, payload: dict[str, Any], seconds: float
) -> tuple[str, str]:
    """(what the certificate proves, how it was re-checked), by the checker of the statement's form."""
    form = statement.get("form")
    checker = FORMS.get(form) if isinstance(form, str) else None
    if checker is None:
        raise Rejected(f"unknown core statement form {str(form)[:60]!r}")
    if statement.get("claim") != claim_id:  # every form names its claim: a statement filed under another never checks
        raise Rejected(f"the statement is of claim {str(statement.get('claim'))[:80]!r}, not {claim_id[:80]!r}")
    return checker(statement, claim_id, kind, payload, seconds)
