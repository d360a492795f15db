"""Form `clusters`: two clusters of tokens (n1 at a, n2 at b) on the sphere, the late rate of their gap and the
monotonicity of the order parameter, from the gap angle's scalar ODE.

The statement: `{"form": "clusters", "claim", "attention": usa or softmax, "sizes": [n1, n2], "beta", "strengths",
"rho0": <a, b> (a tree of numbers), "quantity": cluster_gap or order_parameter, "property": decays-at-rate or
non-decreasing, "rate": r (a tree) or null, "holds"}`: heads M_h = W_h = lambda_h I, the sphere, no mask. Each
cluster's tokens move alike, so the start stays two clusters and rho = <a, b> obeys rho' = (1 - rho)(1 + rho) K(rho)
(cited: `identities.circle_clusters`), K = c sum_h lambda_h (n2 w^h_ab + n1 w^h_ba), c = 1/n and w = e^(beta lambda_h
rho) for usa, c = 1 and w^h_ab = e^(beta lambda_h rho) / (n1 e^(beta lambda_h) + n2 e^(beta lambda_h rho)) (w^h_ba
with n1 and n2 swapped) for softmax (`pull`). The kernel signs K(rho0) strictly by balls: the scalar ODE (cited)
then moves rho monotonically in its direction, so the order parameter R = sqrt(n1^2 + n2^2 + 2 n1 n2 rho)/n, increasing
in rho, is non-decreasing exactly when K(rho0) > 0; and with K(rho0) > 0 the gap 1 - rho tends to 0 with
(1 - rho) e^(r* t) -> C > 0 for r* = 2 K(1), so `decays-at-rate r` holds exactly when r = r* (exact, `exp_field`) and
fails where they differ. `holds` must be what the kernel finds. Coq re-checks the sign and the rate (`facts`).
"""

from fractions import Fraction
from typing import Any

from .exact import precision
from .exp_field import exactly_zero
from .exprtree import Tree, evaluate, parse_rational, rational_tree as _rat
from .recheck import Rejected, natural, require_keys, require_list
from .tree_text import term_text

FORM = "clusters"
KEYS = {"form", "claim", "attention", "sizes", "beta", "strengths", "rho0", "quantity", "property", "rate", "holds"}
CLAIMS = {("cluster_gap", "decays-at-rate"), ("order_parameter", "non-decreasing")}
BITS = 256


def pull(statement: dict[str, Any], rho: Tree) -> Tree:
    """K(rho) (the docstring), each score beta lambda_h rho folded to a rational where rho is one."""
    (n1, n2), beta = statement["sizes"], parse_rational(statement["beta"])
    terms = []
    for strength in (parse_rational(s) for s in statement["strengths"]):
        own, other = ["exp", _rat(beta * strength)], ["exp", ["mul", _rat(beta * strength), rho]]
        other = ["exp", _rat(beta * strength * parse_rational(rho[1]))] if rho[0] == "rat" else other
        if statement["attention"] == "usa":
            weights = [["mul", _rat(Fraction(n, n1 + n2)), other] for n in (n2, n1)]
        else:
            weights = [
                ["mul", _rat(n), other, ["pow", ["add", ["mul", _rat(m), own], ["mul", _rat(n), other]], -1]]
                for n, m in ((n2, n1), (n1, n2))
            ]
        terms.append(["mul", _rat(strength), ["add", *weights]])
    return ["add", *terms]


def facts(statement: dict[str, Any]) -> list[Tree]:
    """K(rho0) > 0 (or < 0, as the claim's verdict needs), then for a rate r = 2 K(1) (or its negation), after checking
    the statement's shape."""
    require_keys(statement, KEYS, f"statement of form {FORM}")
    sizes = require_list(statement["sizes"], 2, "the sizes", 2)
    require_list(statement["strengths"], 16, "the strengths", 1)
    claim, holds = (statement["quantity"], statement["property"]), statement["holds"]
    if not all(natural(s, 1, 10**6) for s in sizes) or statement["attention"] not in ("usa", "softmax"):
        raise Rejected(f"{FORM}: two cluster sizes >= 1, usa or softmax")
    if claim not in CLAIMS or type(holds) is not bool or (statement["rate"] is None) == (claim[1] == "decays-at-rate"):
        raise Rejected(f"{FORM}: a gap's rate or R non-decreasing, holds true or false, a rate exactly for the gap")
    if parse_rational(statement["beta"]) <= 0:
        raise Rejected(f"{FORM}: beta > 0")
    rising = [">" if holds or claim[0] == "cluster_gap" else "<", pull(statement, statement["rho0"]), _rat(0)]
    if claim[0] == "order_parameter":
        return [rising]
    rate = ["=", statement["rate"], ["mul", _rat(2), pull(statement, _rat(1))]]
    return [rising, rate if holds else ["not", rate]]


def check(statement: dict[str, Any], claim_id: str, kind: str, payload: Any, seconds: float) -> tuple[str, str]:
    """Each fact settled: -1 < rho0 < 1 and K(rho0)'s sign by balls, the rate exactly (equal) or by balls (apart);
    `seconds` unused: no solver."""
    found = facts(statement)
    if kind != FORM or payload != {"holds": statement["holds"]}:
        raise Rejected(f"{claim_id}: two clusters are a {FORM} certificate whose payload repeats `holds`")
    with precision(BITS):
        start, sign = evaluate(statement["rho0"], {}), evaluate(found[0][1], {})
        settled = abs(start) < 1 and bool(sign > 0 if found[0][0] == ">" else sign < 0)
        if len(found) > 1 and found[1][0] == "not":
            apart = evaluate(found[1][1][1], {}) - evaluate(found[1][1][2], {})
            settled = settled and bool(apart > 0 or apart < 0)
    if len(found) > 1 and found[1][0] == "=":
        settled = settled and exactly_zero(["sub", *found[1][1:]], {})
    if not settled:
        raise Rejected(f"{claim_id}: rho0, K(rho0)'s sign or the rate is not as the claim's verdict needs")
    (n1, n2), rate = (
        statement["sizes"],
        f", r* = 2 K(1) {'=' if statement['holds'] else '!='} the rate" * (len(found) > 1),
    )
    return (
        f"claims-file claim {claim_id!r}: two clusters of {n1} and {n2} tokens ({statement['attention']}, beta = "
        f"{statement['beta']}, lambda = {statement['strengths']}, rho0 = {term_text(statement['rho0'])}): rho' = (1 - "
        f"rho)(1 + rho) K(rho) (cited), K(rho0) {found[0][0]} 0 (balls){rate}: {statement['quantity']} "
        f"{statement['property']} {'holds' if statement['holds'] else 'fails'}",
        "balls and exact rationals",
    )
