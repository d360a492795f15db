"""Form `limit`: h -> L as a variable v -> oo, for every value of the other variables in their domain
(`docs/design/limit-form.md`).

The statement: `{"form": "limit", "claim", "variables", "variable": v, "expression": h, "limit": L, "error":
{"coefficient": C, "scale", "rate": k}, "conditions", "point"}`, optionally `"sign"` (`>` or `<`: L sign 0 on the
domain) or `"infinite": true` (|h| -> oo, stated as 1/h -> 0: L is 0, no sign; 1/h is defined, so h != 0), and
`"at"`: values of some other variables, a point of their domain (the kernel shows it), where the relations are built
(`instance`: a claim for every value of them refuted at one). v is
the last variable, with a lower bound V > 0 (V > 1 for the log scale: a rational, or a tree over the others shown so
by one more built relation) and no upper bound; L
and C are trees free of v; k > 0 a rational; e(v) = v^(-k), log(v)^(-k) or exp(-k v) by the scale (`SCALES`); on
the exp scale k may be a tree free of v (e^(-lam beta)). The kernel builds the statements of form `real` (`relations`)
h - L <= C e(v) and L - h <= C e(v) over the same variables, conditions and point (then `L sign 0` with a sign, and
`k > 0` for a tree k, then V's) and checks each by its smt certificate
(`real_statements.check`: z3 and cvc5 on the kernel's own encoding of its trees). The payload is `{"cuts": one list
of cuts per built statement}` with the statement's `limit`, `error` and `sign` repeated (the search's results, which
`check-cert --claims` reads there to elaborate the statement again). So |h - L| <= C e(v) at every v >= V, and C e(v)
-> 0 for k > 0 (the one fact the sentence cites, textbook): h -> L. What a claim's relation means in these terms (Q/g
-> 1 for `~ g`, ...) is the elaborator's (`certificates.statements.limits`), compared by `check-cert --claims`.
"""

from fractions import Fraction
from typing import Any

from . import real_statements
from .exact import precision
from .exprtree import parse_rational, rational_tree as _rat, substitute, symbols
from .recheck import Rejected, require_keys, require_list
from .regions import Region
from .tree_text import term_text

FORM = "limit"
KEYS = {"form", "claim", "variables", "variable", "expression", "limit", "error", "conditions", "point"}
#: e(v) for the rate k: v^(-k) (an integer power when k is one), log(v)^(-k), exp(-k v).
SCALES = {"power": lambda v, k: ["pow", v, -int(k)] if k.denominator == 1 else ["rpow", v, _rat(-k)]}
SCALES |= {"log": lambda v, k: ["rpow", ["log", v], _rat(-k)], "exp": lambda v, k: ["exp", ["mul", _rat(-k), v]]}


def relations(statement: dict[str, Any]) -> list[dict[str, Any]]:
    """The statements of form `real` the limit rests on, built from its data after checking its shape (`SCALES`)."""
    require_keys(statement, KEYS | ({"sign", "infinite", "at"} & set(statement)), f"statement of form {FORM}")
    if "at" in statement:  # at a point of some other variables' domain (a claim for all of them refuted there)
        return relations(instance(statement))
    infinite = statement.get("infinite", False)  # |h| -> oo, stated as 1/h -> 0
    v, error, last = statement["variable"], statement["error"], require_list(statement["variables"], 16, "vars", 1)[-1]
    require_keys(error, {"coefficient", "scale", "rate"}, "the error bound")
    low, scale, rate = last.get("low") or [None], error["scale"], error["rate"]
    tree = isinstance(rate, list) and scale == "exp"  # a rate free of v, shown > 0 by one more relation
    k = Fraction(1) if tree else parse_rational(rate)
    plain = infinite is False or (infinite is True and statement["limit"] == _rat(0) and "sign" not in statement)
    if last.get("name") != v or last.get("high") is not None or k <= 0 or statement.get("sign", ">") not in ("<", ">"):
        raise Rejected(f"{FORM}: the variable is the last one, unbounded above; the rate k > 0; the sign > or <")
    rational = low[0] == "rat"  # else a tree over the others, > 0 (> 1 on the log scale) by one more relation
    if low[0] is None or (rational and parse_rational(low[1]) <= (scale == "log")) or scale not in SCALES or not plain:
        raise Rejected(f"{FORM}: v's lower bound > 0 (> 1 on the log scale); a known scale; oo: 1/h -> 0")
    if v in symbols(statement["limit"]) | symbols(error["coefficient"]) | (symbols(rate) if tree else set()):
        raise Rejected(f"{FORM}: the limit, the coefficient and the rate are free of {v}")
    h, limit = ["div", _rat(1), statement["expression"]] if infinite else statement["expression"], statement["limit"]
    decay = ["exp", ["neg", ["mul", rate, ["sym", v]]]] if tree else SCALES[scale](["sym", v], k)
    bound = ["mul", error["coefficient"], decay]
    base = {key: statement[key] for key in ("claim", "variables", "conditions", "point")} | {"form": "real", "op": "<="}
    base["conditions"] = base["conditions"] + [{"expression": statement["expression"], "relation": "!="}] * infinite
    found = [base | {"lhs": ["sub", h, limit], "rhs": bound}, base | {"lhs": ["sub", limit, h], "rhs": bound}]
    found += [base | {"lhs": limit, "op": statement.get("sign"), "rhs": _rat(0)}] * ("sign" in statement)
    found += [base | {"lhs": rate, "op": ">", "rhs": _rat(0)}] * tree
    return found + [base | {"lhs": low, "op": ">", "rhs": _rat(int(scale == "log"))}] * (not rational)


def instance(statement: dict[str, Any]) -> dict[str, Any]:
    """The statement at its point `at` (values of variables other than v), once the point is shown in their domain
    (each bound exactly or by balls)."""
    fixed = [u for u in statement["variables"] if u["name"] in statement["at"] and u["name"] != statement["variable"]]
    sides, names = real_statements.variable_sides(fixed, 16, "the variables at the point")
    point = {name: parse_rational(q) for name, q in require_keys(statement["at"], names, "the point").items()}
    with precision(real_statements.POINT_PRECISION):
        if Region(tuple(sides)).contains(point) is None:
            raise Rejected(f"{FORM}: the point is not shown to lie in its variables' domain")
    kept = {k: w for k, w in statement.items() if k not in ("at", "variables")}
    rest = [u for u in statement["variables"] if u["name"] not in point]
    found = substitute(kept | {"variables": rest}, {k: _rat(q) for k, q in point.items()})
    return found | {"point": {k: q for k, q in statement["point"].items() if k not in point}}


def check(statement: dict[str, Any], claim_id: str, kind: str, payload: Any, seconds: float) -> tuple[str, str]:
    """Each built statement by its own cuts (`real_statements.check`), then the sentence rendered from the trees."""
    built = relations(statement)
    data = {k: statement[k] for k in ("limit", "error", "sign", "infinite", "at") if k in statement}
    if kind != "smt" or not isinstance(payload, dict) or payload != data | {"cuts": payload.get("cuts")}:
        raise Rejected(f"{claim_id}: a limit is proved by an smt certificate with the statement's limit and error")
    proofs, how = real_statements.check_each(built, payload["cuts"], claim_id, seconds)
    v, limit, sign = statement["variable"], term_text(statement["limit"]), statement.get("sign")
    shown = f"{term_text(statement['expression'])} -> {limit} as {v} -> oo" + f" ({limit} {sign} 0)" * bool(sign)
    shown = f"|{term_text(statement['expression'])}| -> oo as {v} -> oo" if "infinite" in data else shown
    shown += "".join(f", at {k} = {q} (in its domain)" for k, q in statement.get("at", {}).items())
    cited = f"{term_text(built[0]['rhs'])} -> 0 as {v} -> oo (k > 0; textbook)"
    return f"claims-file claim {claim_id!r}: {shown}, since {proofs}; and {cited}", how
