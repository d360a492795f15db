"""Elaboration: a claim (a registry id, or a claims-file claim's fields) -> the core statement its certificate
proves (`headflow.certificates.kernel.verify`).

This side is not trusted: it may parse, use SymPy to propose, and search. What it writes is data that the kernel
checks the proof against and prints; `check-cert --claims FILE` runs the same elaboration again and refuses a
certificate whose statement differs. `elaborate` answers None for a certificate whose kind is still checked by the
kernel's older re-derivation from the claim (listed in the notes of DEVELOPERS.md until none is left).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def elaborate(claim_id: str, kind: str, payload: dict[str, Any], claim: dict[str, Any] | None) -> dict[str, Any] | None:
    """The core statement of a certificate of `claim_id` (`claim`: a claims-file claim's fields, None for the
    registry), or None while its kind has no core statement yet."""
    if claim is None:
        from headflow.certificates.statements import registry

        return registry.statement(claim_id, payload)
    from headflow.certificates.claims.embedding import read_embedded
    from headflow.certificates.errors import InputError

    try:
        parsed = read_embedded(claim)
    except InputError:
        return None  # no claim, no statement: the kernel rejects the certificate
    if parsed.id != claim_id or parsed.kind not in elaborators():
        return None
    return elaborators()[parsed.kind](parsed, kind, payload)


def elaborators() -> dict[str, Callable[[Any, str, dict[str, Any]], dict[str, Any] | None]]:
    """The one table of claims-file kinds and their statement modules: kind -> the elaborator of its certificates'
    core statements (imported when asked: checking a certificate needs none of them). The kinds absent here
    (`all`) write no certificate of their own (a conjunction's parts are claims of these kinds); `asymptotic` claims on
    a closed form are stated in form `limit` (`limits`), on the clustering time in form `order` (`orders`)."""
    from headflow.certificates.statements import equilibrium, model, orders, punctured, real, trajectory

    return {
        "identity": real.elaborate,
        "constant": real.elaborate,
        "inequality": punctured.elaborate,
        "dynamics": trajectory.dynamics_statement,
        "model": model.elaborate,
        "equilibrium": equilibrium.elaborate,
        "asymptotic": orders.asymptotic,
    }


def restated(certificate: dict[str, Any], claim: dict[str, Any]) -> str | None:
    """Why `certificate` does not carry the core statement that `claim` (a claims-file claim's fields, from the
    user's file) elaborates into (None: it does). The comparison `check-cert --claims` adds to the kernel's check."""
    from headflow.certificates.kernel.recheck import Rejected

    try:
        mine = elaborate(certificate["claim_id"], certificate["kind"], certificate["payload"], claim)
    except Rejected as exc:  # the file's claim has no statement (e.g. no point of its domain is found)
        return f"claim {certificate['claim_id']!r} of the file elaborates into no core statement: {exc}"
    if mine != certificate["statement"]:
        return (
            f"the certificate's core statement is not the one claim {certificate['claim_id']!r} of the file elaborates"
        )
    return None
