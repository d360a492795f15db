"""Certificates of asymptotic claims on the exit gap of Condition 8 (form `exit-gap`,
`headflow.certificates.kernel.exit_gap`), from a bracket of it.

The search (untrusted; the kernel checks what it writes): the lower end a = n (H - 1)/(H (n - 1)) of
`identities.condition8_invariance.exit_gap_bracket` (h(1 - a) < 0: the zero of h at kappa = 0, lowered by kappa > 0),
and an upper end b = 1 - (1/H - 2 e^kappa/(n - 1)) of the same shape as its 1 - rho_a, its constant 2 e^kappa chosen so
that h(1 - b) > 0 needs no bound of e^(kappa (1 - rho)) but e^kappa (from n >= N0 = 1 + 4 H e^(2 kappa): with
q = (n - 1)/H, h(1 - b) >= (H - 1)(q - e^(2 kappa)) + 2 e^kappa (1 + q - 2 e^kappa) > 0); both tend to (H - 1)/H, within
2/n and 4 e^kappa/n (`ERRORS`). A claim that fails is stated at a point `at` of H (`POINTS`) where (H - 1)/H - L0 has
a sign settled by balls. The cuts of each built statement: the products of its atoms (`smt_refinement.products`), else
`limits.proved_cuts`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from headflow.certificates.claims.schema import AsymptoticClaim
from headflow.certificates.kernel import exit_gap
from headflow.certificates.kernel.exact import precision
from headflow.certificates.kernel.exprtree import TreeError, evaluate, substitute, symbols
from headflow.certificates.kernel.real_encoding import Encoding
from headflow.certificates.provers.limits import checked_cuts, proved_cuts, screened
from headflow.certificates.provers.smt_refinement import products
from headflow.certificates.statements.exit_gap import elaborate
from headflow.certificates.statements.real import with_domain_point
from headflow.certificates.store import write_found

H, N, ONE = ["sym", "H"], ["sym", "n"], ["rat", "1"]
_F = ["exp", ["mul", ["sym", "alpha"], ["sym", "beta"]]]  # e^kappa
_M = ["sub", N, ONE]
BRACKET = {
    "low": ["div", ["mul", N, ["sub", H, ONE]], ["mul", H, _M]],
    "high": ["sub", ONE, ["sub", ["div", ONE, H], ["div", ["mul", ["rat", "2"], _F], _M]]],
    "from": ["add", ONE, ["mul", ["rat", "4"], H, _F, _F]],
}
ERRORS = [
    {"coefficient": ["rat", "2"], "scale": "power", "rate": "1"},
    {"coefficient": ["mul", ["rat", "4"], _F], "scale": "power", "rate": "1"},
]
#: What both ends tend to.
LIMIT = ["div", ["sub", H, ONE], H]
#: The points of the parameters a failing claim is stated at, in order (alpha = beta = 1 where its limit names them).
POINTS = ({"H": "3"}, {"H": "5"}, {"H": "2"})


def certify(claim: AsymptoticClaim, holds: bool, directory: Path) -> Path | None:
    """The certificate of the verdict (`holds`), once the kernel's check accepted it; None when none is found."""
    return write_found(directory, claim, search(claim, holds))


def search(claim: AsymptoticClaim, holds: bool) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(statement, payload) of the verdict that the kernel accepts, or None."""
    for column in [{"limit": LIMIT}] if holds else _failing(claim):
        payload = column | {"bracket": BRACKET, "errors": ERRORS}
        statement = elaborate(claim, "smt", payload)
        if statement is None:
            continue
        payload["limit"] = statement["limit"]  # the claim's own where it fixes the limit
        payload["bracket"] = BRACKET | {"point": _point(statement, column.get("at", {}))}
        checked = checked_cuts(exit_gap, claim.id, statement, payload, _all_cuts)
        if checked is not None:
            return statement, checked
    return None


def _failing(claim: AsymptoticClaim) -> list[dict[str, Any]]:
    """The columns of a refutation: at each point of `POINTS` (with alpha = beta = 1 where the claim's limit names
    them), D = (H - 1)/H - L0 and its sign, where a ball settles it."""
    probe = elaborate(claim, "smt", {"limit": ONE, "sign": ">", "bracket": {}, "errors": []})
    if probe is None:
        return []
    difference = ["sub", LIMIT, probe["expression"][2]]
    columns = []
    for point in POINTS:
        at = point | {name: "1" for name in ("alpha", "beta") if name in symbols(difference)}
        try:
            with precision(128):
                value = evaluate(substitute(difference, {k: ["rat", q] for k, q in at.items()}), {})
        except (TreeError, ValueError, ZeroDivisionError):
            continue
        if value > 0 or value < 0:
            columns.append({"limit": difference, "sign": ">" if value > 0 else "<", "at": at})
    return columns


def _point(statement: dict[str, Any], at: dict[str, str]) -> dict[str, str]:
    """A point of the statement's domain with n >= N0 (the built statements'), at the values of `at`."""
    pinned = {k: ["rat", q] for k, q in at.items()}
    variables = [
        v | ({"low": pinned[v["name"]], "high": pinned[v["name"]]} if v["name"] in at else {})
        for v in statement["variables"]
    ]
    variables[-1] = variables[-1] | {"low": substitute(BRACKET["from"], pinned), "low_open": False}
    probe = {"form": "real", "claim": statement["claim"], "variables": variables, "conditions": []}
    return with_domain_point(probe | {"lhs": ONE, "op": "=", "rhs": ONE, "point": {}})["point"]


def _all_cuts(statements: list[dict[str, Any]]) -> list[list[dict[str, object]]] | None:
    """The cuts of each built statement (`_cuts`), or None when one has none."""
    cuts = [_cuts(built) for built in statements]
    return None if any(cut is None for cut in cuts) else cuts  # type: ignore[return-value]


def _cuts(built: dict[str, Any]) -> list[dict[str, object]] | None:
    """The products of the statement's atoms when they prove it, else `limits.proved_cuts`'s; None when neither."""
    if screened(built, cuts := products(Encoding(built))):
        return cuts
    found = proved_cuts([built])
    return None if found is None else found[0]
