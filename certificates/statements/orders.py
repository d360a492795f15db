"""Elaboration of asymptotic claims on the reduced clustering time (`quantity = "clustering_time"`) into statements of
form `order` (`headflow.certificates.kernel.registry_statements.order_check`): the claim's quantity, attention,
variable, relation and reference g as written (`limits.reference`), and whether it holds (the payload's `holds`, the
verdict). The kernel proves such a statement by the smt statements of the table entry whose `orders` list it (T25's
readings e and f: a lower bound on the reduced speed gives an upper bound on the time, by the comparison step their
sentences cite), so that the claims-file claims with those orders carry the registry's certificate.
"""

from __future__ import annotations

from typing import Any

from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.claims.schema import AsymptoticClaim
from headflow.certificates.kernel.registry_statements import ORDER
from headflow.certificates.statements import exit_gap, limits, reduced_time
from headflow.certificates.statements.limits import reference
from headflow.certificates.statements.reduced_time import QUANTITY


def asymptotic(claim: AsymptoticClaim, kind: str, payload: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The statement of a certificate of an asymptotic claim: of form `limit` on a closed form (`limits`), of form
    `order` on the clustering time (`elaborate`), or `reduced-time` there with a bracket (`reduced_time`); of form
    `exit-gap` on the exit gap (`exit_gap`)."""
    if claim.quantity == "expression":
        return limits.elaborate(claim, kind, payload)
    if claim.quantity == exit_gap.QUANTITY:
        return exit_gap.elaborate(claim, kind, payload)
    bracketed = isinstance(payload, dict) and "bracket" in payload  # a bracket of the time: form `reduced-time`
    return (reduced_time.elaborate if bracketed else elaborate)(claim, kind, payload)


def elaborate(claim: AsymptoticClaim, kind: str, payload: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The `order` statement of an smt certificate of the claim with this payload (`{"holds": bool}`), or None."""
    holds = payload.get("holds") if isinstance(payload, dict) and set(payload) == {"holds"} else None
    if kind != "smt" or claim.quantity != QUANTITY or claim.relation == "limit" or not isinstance(holds, bool):
        return None
    return {"form": ORDER, "claim": claim.id, **fields(claim, holds)}


def fields(claim: AsymptoticClaim, holds: bool) -> dict[str, Any]:
    """The order's fields (`registry_statements.ORDER_KEYS`)."""
    names = {s.name: s for s in [*claim.order, claim.variable, *claim.reference.free_symbols]}
    return {
        "quantity": claim.quantity,
        "attention": claim.attention,
        "variable": claim.variable.name,
        "relation": claim.relation,
        "reference": reference(claim, names),
        "holds": holds,
    }


def listed(attention: str, variable: str, order: str, holds: bool) -> dict[str, Any]:
    """The fields of the order a table entry lists (`registry.SmtObligation.orders`), read as a claims file's claim
    `order` on the clustering time is read, so that the two compare equal."""
    text = f'[[claim]]\nid = "listed"\nkind = "asymptotic"\nquantity = "{QUANTITY}"\nattention = "{attention}"\n'
    (claim,) = parse_claims(f'{text}as = "{variable} -> oo"\norder = "{order}"\n')
    return fields(claim, holds)
