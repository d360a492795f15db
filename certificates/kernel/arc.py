"""Form `arc`: the arc spread of tokens given as exact angles within a half circle never grows under attraction, so
a bound at the start bounds it for all time.

The statement: `{"form": "arc", "claim", "attention", "geometry", "beta", "strengths", "angles": theta_i as trees,
"bound": b}`: d = 2, heads M_h = W_h = lambda_h I, no mask. The payload names an arc holding every token: `low`
and `high` (two tokens' indices) and a winding m_i per token, so that v_i = theta_i + 2 pi m_i lies in [v_low,
v_high]; the kernel checks each, with v_high - v_low < pi and <= b (by balls, or exactly where both sides are
rational functions of pi: `spaced.settled`), every lambda_h > 0, beta > 0 and a scheme whose directions follow the
sphere's field at a positive speed. Then the arc spread s(0) (the shortest arc holding every token) is at most
v_high - v_low < pi, and s never grows while s < pi (cited: for the token at the arc's lower end every sin(theta_j -
theta_min) >= 0, so theta_min' >= 0 by the phase form with non-negative weights and lambda_h > 0, and theta_max' <= 0;
the spread, a max minus a min of C^1 functions, has upper Dini derivative <= 0; Geshkovski, Letrouit, Polyanskiy,
Rigollet 2023 for the hemisphere), so s(t) <= b for all t. Coq re-checks each comparison (`facts`).
"""

import itertools
from typing import Any

from .exprtree import Tree, parse_rational, rational_tree as _rat
from .recheck import Rejected, natural, require_keys, require_list
from .spaced import settled
from .tree_text import term_text

FORM = "arc"
KEYS = {"form", "claim", "attention", "geometry", "beta", "strengths", "angles", "bound", "holds"}
GEOMETRIES, KINDS = ("sphere", "pre-ln", "mix-ln", "peri-ln", "ngpt"), ("usa", "softmax", "relu")


def facts(statement: dict[str, Any], payload: Any) -> list[Tree]:
    """For a proof, v_low <= v_i <= v_high for every token, v_high - v_low < pi and <= b; for a refutation at t = 0,
    the tokens in the payload's `order` from v_low to v_high, each gap between neighbours at most the gap 2 pi -
    (v_high - v_low) round the circle (so the arc spread is v_high - v_low) and v_high - v_low > b; after checking the
    data's shape."""
    require_keys(statement, KEYS, f"statement of form {FORM}")
    angles, holds = require_list(statement["angles"], 64, "the angles", 2), statement["holds"]
    strengths = [parse_rational(s) for s in require_list(statement["strengths"], 16, "the strengths", 1)]
    if statement["attention"] not in KINDS or statement["geometry"] not in GEOMETRIES or type(holds) is not bool:
        raise Rejected(f"{FORM}: a kind of {KINDS}, a geometry of {GEOMETRIES}, holds true or false")
    if parse_rational(statement["beta"]) <= 0 or min(strengths) <= 0:
        raise Rejected(f"{FORM}: attraction needs beta > 0 and every lambda_h > 0")
    require_keys(payload, {"low", "high", "windings"} | ({"order"} if not holds else set()), "the arc")
    windings = require_list(payload["windings"], len(angles), "the windings", len(angles))
    ends = (payload["low"], payload["high"])
    if not all(natural(i, 0, len(angles) - 1) for i in ends) or not all(natural(abs(m), 0, 64) for m in windings):
        raise Rejected(f"{FORM}: the arc's ends are tokens and each winding an integer in -64..64")
    values = [["add", theta, ["mul", _rat(2 * m), ["pi"]]] for theta, m in zip(angles, windings, strict=True)]
    low, high = (values[i] for i in ends)
    spread = ["sub", high, low]
    if holds:
        inside = [f for v in values for f in (["<=", low, v], ["<=", v, high])]
        return [*inside, ["<", spread, ["pi"]], ["<=", spread, statement["bound"]]]
    order = require_list(payload["order"], len(angles), "the order", len(angles))
    if sorted(order) != list(range(len(angles))) or (order[0], order[-1]) != ends:
        raise Rejected(f"{FORM}: the order runs over every token, from the arc's low end to its high end")
    pairs = [(values[i], values[j]) for i, j in itertools.pairwise(order)]
    rest = ["sub", ["mul", _rat(2), ["pi"]], spread]  # the gap round the circle, the largest
    return [f for a, b in pairs for f in (["<=", a, b], ["<=", ["sub", b, a], rest])] + [
        [">", spread, statement["bound"]]
    ]


def check(statement: dict[str, Any], claim_id: str, kind: str, payload: Any, seconds: float) -> tuple[str, str]:
    """Each fact settled (`seconds` unused: no solver)."""
    found = facts(statement, payload)
    if kind != FORM or not all(settled(a, op, b) for op, a, b in found):
        raise Rejected(f"{claim_id}: the tokens are not shown on an arc as the statement says (by balls or exactly)")
    if not statement["holds"]:
        return (
            f"claims-file claim {claim_id!r}: at t = 0 the arc spread of the {len(statement['angles'])} angles is "
            f"the arc between its ends (the largest gap is round the circle), longer than "
            f"{term_text(statement['bound'])} (balls, or exact in pi): the claim fails at t = 0",
            "balls and exact rationals",
        )
    return (
        f"claims-file claim {claim_id!r}: the {len(statement['angles'])} angles lie on an arc shorter than pi and at "
        f"most {term_text(statement['bound'])} (balls, or exact in pi), so the arc spread, which never grows below pi "
        f"under attraction ({statement['attention']}, {statement['geometry']}, beta > 0, every lambda_h > 0; cited), "
        "stays at most that for all t",
        "balls and exact rationals",
    )
