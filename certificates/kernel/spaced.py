"""Form `spaced`: n equally spaced tokens on a great circle stay fixed, so a quantity of the directions keeps its start
value for all t >= 0.

The statement: `{"form": "spaced", "claim", "attention", "geometry", "n", "beta", "strengths", "quantity",
"property", "target", "holds"}`: tokens theta_k = theta_0 + 2 pi k / n, heads M_h = W_h = lambda_h I, no mask, exp
weights (usa, softmax: the tangent sum the kernel writes is theirs). Every
weight of token i is a function of cos(theta_j - theta_i) (a softmax normalizer is common to the row), so the tangent
part of v_i is, up to a positive factor, T = sum_h lambda_h sum_(k=1)^(n-1) w_h(C_k) S_k (C_k, S_k = cos, sin(2 pi k /
n); the term k = 0 has sin 0 = 0), which is 0 since the terms k and n - k cancel (C_(n-k) = C_k, S_(n-k) = -S_k:
cited, and Coq proves it at the statement's numbers, `facts`): v_i = a x_i, and the directions stay fixed under the
sphere's field (Post-LN). A scheme of SCHEMES normalizes x_i + v_i: it needs exp weights and a = sum_h lambda_h sum_k
w_h(C_k) C_k > 0 (then |x_i| grows and no zero vector is normalized), which the kernel signs by balls. The start
values (`start_value`): R = 0 (the n-th roots of unity sum to 0: sum_k C_k = sum_k S_k = 0, cited, proved by Coq), the
arc spread 2 pi (n - 1)/n, the least and largest inner products C_(n // 2) and C_1 and the gap 1 - C_(n // 2) (cos
decreases on [0, pi]: cited). Then `non-decreasing` holds, `decays-at-rate` and `decays-like` fail (a constant
tends to 0 only when it is 0, and then no C > 0 is its limit times e^(r t)), and `tends-to`, `at-most`, `at-least`,
`non-negative` hold exactly when Q(0) has RELATIONS' relation to the target (0 for `non-negative`): settled by balls
when they separate (`settled`), equal exactly when their difference is a rational function of pi that is 0 at e
(`_pi_as_e`). `holds` must be what the kernel finds.
"""

from fractions import Fraction
from typing import Any

from flint import arb

from .circulant import cosine
from .exact import precision
from .exp_field import exactly_zero
from .exprtree import Tree, evaluate, parse_rational, rational_tree as _rat
from .recheck import Rejected, natural, require_keys, require_list
from .tree_text import term_text

FORM = "spaced"
KEYS = {"form", "claim", "attention", "geometry", "n", "beta", "strengths", "quantity", "property", "target", "holds"}
#: The schemes the equilibrium holds for, and whether they need exp weights and a > 0.
SCHEMES = {"sphere": False, "ngpt": True, "pre-ln": True, "peri-ln": True, "mix-ln": True}
RELATIONS = {"tends-to": "=", "at-most": "<=", "at-least": ">=", "non-negative": ">="}
CONSTANT = {"non-decreasing": True, "decays-at-rate": False, "decays-like": False}
QUANTITIES = ("order_parameter", "arc_spread", "cluster_gap", "least_inner_product", "largest_inner_product")
KINDS, MAX_TOKENS, MAX_HEADS, BITS = ("usa", "softmax"), 64, 16, 256


def sine(k: int, n: int) -> Tree:
    """S_k = sin(2 pi k / n) as a tree."""
    return ["sin", cosine(k, n)[1]]


def start_value(quantity: str, n: int) -> Tree:
    """Q(0) at n equally spaced tokens (the docstring)."""
    half = cosine(n // 2, n)
    values = {"order_parameter": _rat(0), "arc_spread": ["mul", _rat(Fraction(2 * (n - 1), n)), ["pi"]]}
    values |= {"cluster_gap": ["sub", _rat(1), half], "least_inner_product": half}
    return values.get(quantity, cosine(1, n))


def facts(statement: dict[str, Any]) -> list[tuple[str, Tree]]:
    """The relations between numbers the claim rests on, named, after checking the statement's shape: T = 0, then
    a > 0 for a scheme, sum_k C_k = 0 and sum_k S_k = 0 for R, then Q(0) against the target (its negation when the
    claim fails); a constant's property has no comparison."""
    require_keys(statement, KEYS, f"statement of form {FORM}")
    n, kind, scheme, prop = (statement[k] for k in ("n", "attention", "geometry", "property"))
    strengths = [parse_rational(s) for s in require_list(statement["strengths"], MAX_HEADS, "the strengths", 1)]
    beta, quantity, holds = parse_rational(statement["beta"]), statement["quantity"], statement["holds"]
    if not natural(n, 2, MAX_TOKENS) or scheme not in SCHEMES or quantity not in QUANTITIES or kind not in KINDS:
        raise Rejected(f"{FORM}: 2 to {MAX_TOKENS} tokens, a scheme of {sorted(SCHEMES)}, a known quantity and kind")
    targeted = prop in RELATIONS and prop != "non-negative"
    if targeted != (statement["target"] is not None) or prop not in {**CONSTANT, **RELATIONS}:
        raise Rejected(f"{FORM}: a known property, with a target exactly for tends-to, at-most and at-least")
    if type(holds) is not bool or (SCHEMES[scheme] and beta <= 0):
        raise Rejected(f"{FORM}: holds true or false; the scheme {scheme} needs beta > 0")
    weights = [(s, [["exp", ["mul", _rat(beta * s), cosine(k, n)]] for k in range(n)]) for s in strengths]
    tangent = ["add", *(["mul", _rat(s), w[k], sine(k, n)] for s, w in weights for k in range(1, n))]
    found = [("spaced_tangent", ["=", tangent, _rat(0)])]
    if SCHEMES[scheme]:
        radial = ["add", *(["mul", _rat(s), w[k], cosine(k, n)] for s, w in weights for k in range(n))]
        found.append(("spaced_radial", [">", radial, _rat(0)]))
    if quantity == "order_parameter":
        found += [
            (f"spaced_{f.__name__}s", ["=", ["add", *(f(k, n) for k in range(n))], _rat(0)]) for f in (cosine, sine)
        ]
    if prop in RELATIONS:
        compared = [RELATIONS[prop], start_value(quantity, n), statement["target"] or _rat(0)]
        found.append(("spaced_start", compared if holds else ["not", compared]))
    return found


def _pi_as_e(tree: Any) -> Any:
    """The tree with pi written e: a rational function of pi is 0 exactly when it is 0 at e (both transcendental)."""
    return ["exp", _rat(1)] if tree == ["pi"] else [a if not isinstance(a, list) else _pi_as_e(a) for a in tree]


def settled(value: Tree, relation: str, target: Tree) -> bool | None:
    """Whether `value relation target` holds: by balls that separate them (BITS, then 16 times more), else equal when
    their difference, a rational function of pi, is exactly 0 (`exp_field`, with pi written e); None when neither
    settles it."""
    for bits in (BITS, 16 * BITS):  # a difference of 10^-300 needs about 1,000 bits
        with precision(bits):
            difference: arb = evaluate(value, {}) - evaluate(target, {})
        if difference > 0 or difference < 0:
            below = bool(difference < 0)
            return {"=": False, "<=": below, ">=": not below, "<": below, ">": not below}[relation]
    return True if relation in ("=", "<=", ">=") and exactly_zero(_pi_as_e(["sub", value, target]), {}) else None


def check(statement: dict[str, Any], claim_id: str, kind: str, payload: Any, seconds: float) -> tuple[str, str]:
    """The scheme's a > 0 by balls, then whether the claim holds on Q(t) = Q(0), against `holds` (the pairing and
    the start values cited; `seconds` unused: no solver)."""
    found, prop, n, quantity = facts(statement), statement["property"], statement["n"], statement["quantity"]
    if kind != FORM or payload != {"holds": statement["holds"]}:
        raise Rejected(f"{claim_id}: an equally spaced start is a {FORM} certificate whose payload repeats `holds`")
    with precision(BITS):
        if SCHEMES[statement["geometry"]] and not evaluate(found[1][1][1], {}) > 0:
            raise Rejected(f"{claim_id}: a = sum_h lambda_h sum_k w_h(C_k) C_k is not shown > 0 by balls")
    value, target = start_value(quantity, n), statement["target"] or _rat(0)
    holds = CONSTANT[prop] if prop in CONSTANT else settled(value, RELATIONS[prop], target)
    if holds is not statement["holds"]:
        raise Rejected(f"{claim_id}: the claim's verdict on Q(t) = Q(0) is {holds}, not {statement['holds']}")
    data = ", ".join(f"{k} = {statement[k]}" for k in ("attention", "geometry", "beta", "strengths"))
    compared = f" against {term_text(target)}" if prop in RELATIONS else ""
    return (
        f"claims-file claim {claim_id!r}: {n} equally spaced tokens on a circle ({data}) stay fixed (the terms k and "
        f"n - k of the tangent velocity cancel; a > 0 for a scheme), so {quantity}(t) = {term_text(value)} for all t "
        f"(the n-th roots of unity sum to 0; cos decreases on [0, pi]: cited): {prop}{compared} {holds}",
        "balls and exact rationals",
    )
