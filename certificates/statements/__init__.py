"""Elaboration: a claim (a registry id, or a claims-file claim's fields) -> the core statement its certificate
proves (`certificates.kernel.core`).

This side is not trusted: it may parse, use SymPy to propose, and search. What it writes is data that the kernel
checks the proof against and prints; `check-cert --claims FILE` runs the same elaboration again and refuses a
certificate whose statement differs. `elaborate` answers None for a certificate whose kind is still checked by the
kernel's older re-derivation from the claim (listed in the notes of DEVELOPERS.md until none is left).
"""

from __future__ import annotations

from typing import Any


def elaborate(claim_id: str, kind: str, payload: dict[str, Any], claim: dict[str, Any] | None) -> dict[str, Any] | None:
    """The core statement of a certificate of `claim_id` (`claim`: a claims-file claim's fields, None for the
    registry), or None while its kind has no core statement yet."""
    if claim is not None:
        from certificates.statements import model

        statement = model.statement(claim_id, claim)
        if statement is not None:
            return statement
    return None
