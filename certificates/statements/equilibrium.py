"""Elaboration of a claims-file `equilibrium` claim, at the instance its certificate names, into the kernel's explicit
`equilibrium` statement (`certificates.kernel.equilibrium_statements`).

The certificate's payload names the instance (`instance`: n, d, kind, beta, the strengths lambda_h and the antipodal
split); the elaboration checks that it is an instance of the claim's domain (`certificates.claims.regimes.outside`)
and writes the regime's configuration there as exact data: the heads by coordinate blocks, the block Gram matrices
(null for `found`: the certificate's own equilibrium), and the counts of the spectrum the certificate states (null
for a witness that the configuration moves). The kernel checks that statement and prints it; `check-cert --claims`
repeats this elaboration from the user's file and refuses a certificate whose statement differs, which is what ties
the concrete statement to the claim's regime and domain.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from certificates.claims import regimes
from certificates.claims.regimes import Instance
from certificates.claims.schema import EquilibriumClaim
from certificates.kernel.exprtree import TreeError, parse_rational, rational_text


def instance_record(inst: Instance) -> dict[str, Any]:
    """The instance as certificate data (rationals as exact text), as `instance_of` reads it back."""
    strengths = [rational_text(v) for v in inst.strengths]
    fields = {"n": inst.n, "d": inst.d, "attention": inst.attention, "beta": rational_text(inst.beta)}
    return fields | {"strengths": strengths, "split": list(inst.split)}


def instance_of(record: object) -> Instance | None:
    """The instance a payload names (None when malformed)."""
    if not isinstance(record, dict) or set(record) != {"n", "d", "attention", "beta", "strengths", "split"}:
        return None
    numbers = [record["n"], record["d"], *record["split"]] if isinstance(record["split"], list) else [None]
    if not all(type(v) is int for v in numbers) or not isinstance(record["strengths"], list):
        return None
    try:
        strengths = tuple(parse_rational(v) for v in record["strengths"])
        beta = parse_rational(record["beta"])
    except TreeError:
        return None
    return Instance(record["n"], record["d"], str(record["attention"]), beta, strengths, tuple(record["split"]))


def statement_at(claim: Any, inst: Instance, spectrum: dict[str, int] | None) -> dict[str, Any]:
    """The kernel's statement of the claim's regime at the instance (an instance of its domain)."""

    def text(rows: Any) -> Any:
        return [text(row) for row in rows] if isinstance(rows, list) else rational_text(Fraction(rows))

    scores, values = regimes.head_strengths(claim, inst)
    grams = regimes.block_grams(claim, inst)
    return {
        "form": "equilibrium",
        "claim": claim.id,
        "attention": inst.attention,
        "beta": rational_text(inst.beta),
        "n": inst.n,
        "blocks": [len(b) for b in regimes.blocks(claim, inst)],
        "scores": text(scores),
        "values": text(values),
        "grams": None if grams is None else text(grams),
        "spectrum": spectrum,
    }


def elaborate(claim: EquilibriumClaim, kind: str, payload: dict[str, Any]) -> dict[str, Any] | None:
    """The statement of a certificate of the claim (None when its payload names no instance of the claim's domain,
    or its kind is not the claim's: the kernel rejects a certificate without a statement)."""
    spectral = claim.property in regimes.SPECTRAL
    inst = instance_of(payload.get("instance"))
    if inst is None or kind != ("equilibrium" if spectral else "witness"):
        return None
    try:
        if regimes.outside(claim, inst) is not None:
            return None
    except ValueError:  # rho is not rational at the instance's n
        return None
    return statement_at(claim, inst, payload.get("spectrum") if spectral else None)
