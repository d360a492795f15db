"""Elaboration of asymptotic claims on the exit gap of Condition 8 (`quantity = "exit_gap"`) into statements of form
`exit-gap` (`headflow.certificates.kernel.exit_gap`).

The quantity's regime (`certificates.claims.orders.QUANTITIES`): H >= 2 equal heads alpha I (an integer), alpha > 0,
beta > 0, n >= 2 tokens (an integer, the variable). The relation h of E is the `limit` form's (`limits.body`, with Q
the exit gap E) for a `limit` claim without `over`: E -> L0 when it holds, E - L0 -> D with a sign (at a point `at` of
the parameters) when it fails; the payload's `limit`, `sign` and `at` are the search's results, as there. Other
relations (an order, a limit over g) are not stated by this form.
"""

from __future__ import annotations

from typing import Any

import sympy as sp
from headflow.certificates.claims.schema import AsymptoticClaim
from headflow.certificates.kernel.exit_gap import FORM, NAMES, E
from headflow.certificates.kernel.real_statements import FORM as REAL
from headflow.certificates.statements.limits import body
from headflow.certificates.statements.real import conditions_data, with_domain_point

#: The named quantity of the form.
QUANTITY = "exit_gap"
_POSITIVE = {"integer": False, "low": ["rat", "0"], "low_open": True, "high": None, "high_open": False}
_TWO = {"integer": True, "low": ["rat", "2"], "low_open": False, "high": None, "high_open": False}
#: Each parameter's domain, in the statement's order (n, the variable, last).
DOMAINS = {"alpha": _POSITIVE, "beta": _POSITIVE, "H": _TWO, "n": _TWO}


def elaborate(claim: AsymptoticClaim, kind: str, payload: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The statement of an smt certificate of the claim with this payload's search data, or None when this form does
    not state it (another quantity or relation, a limit over g, a payload without a bracket)."""
    data = payload if isinstance(payload, dict) else {}
    if kind != "smt" or claim.quantity != QUANTITY or claim.relation != "limit" or "over" in claim.raw:
        return None
    if not {"bracket", "errors", "limit"} <= set(data):
        return None
    found = body(claim, E, data, {name: sp.Symbol(name, positive=True) for name in NAMES})
    if found is None or found.get("infinite") or ("sign" in data) != ("sign" in found):
        return None
    variables = [{"name": name} | DOMAINS[name] for name in NAMES]
    common = {"claim": claim.id, "variables": variables, "conditions": conditions_data(claim.id, claim.conditions)}
    probe = {"form": REAL, **common, "lhs": ["rat", "0"], "op": "=", "rhs": ["rat", "0"], "point": {}}
    point = with_domain_point(probe)["point"]
    return {"form": FORM, **common, "variable": "n", **found, "point": point}
