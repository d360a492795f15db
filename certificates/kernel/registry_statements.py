"""The registry's claims: the kernel's own table of their core statements (form `registry`), and their checker.

`registry_statements.json` beside this module holds, for each registry claim, the statement its certificates must
carry: the kind of certificate, the sentence of what it proves, and the trees of what the payload must establish
(SMT statements, point conditions, a configuration witness's `model` statement, the convexity chain's three facts), with
the claim's integer parameters (H, n, alpha) left as symbols of the trees. SymPy wrote it once, outside the kernel
(`python -m certificates.statements.registry`, held equal to a fresh build by a test); here it is data. A
certificate's statement names the claim and the values of its parameters; the checker substitutes the values into
the templates (tree substitution, no simplification) and requires the statement to equal the result, so a
statement filed under another claim, a weakened goal or a dropped hypothesis never re-checks. Then it re-checks the
payload against the statement: SMT texts printed from the trees and run in z3 and cvc5 (`smtlib`, `solvers`), points
and configurations settled by balls (`recheck`), covers re-evaluated. What it prints is the table's sentence filled
with the statement's values; a lemma the conclusion rests on and the kernel does not re-check (its SymPy derivation
stays outside) is named in that sentence.

The equilibrium claims (`critical-points*`) are the exception: their certificates carry an explicit `equilibrium`
statement (`certificates.kernel.equilibrium_statements`: the heads, the configuration, the counts), whose checker
holds it to the regime the table names for the claim (`registry_failure`), so that one relabelled never re-checks.
"""

import json
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from . import covers, inner_products, model_statements, model_sums, recheck, smtlib, solvers
from .derivatives import derivative
from .exact import ball_of
from .exprtree import evaluate, parse_rational, substitute
from .interaction import is_antiderivative
from .recheck import Rejected
from .tree_text import term_text

PATH = Path(__file__).with_name("registry_statements.json")
FORM = "registry"


@cache
def table() -> dict[str, dict[str, Any]]:
    """claim id -> its entry (the statement with the parameters as symbols, and their ranges)."""
    return json.loads(PATH.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def expected(claim_id: str, parameters: object) -> dict[str, Any]:
    """The statement a certificate of `claim_id` with these integer parameters (decimal strings) must carry."""
    entry = table().get(claim_id)
    if entry is None:
        raise Rejected(f"no certificate obligation is known for claim {claim_id[:80]!r}")
    recheck.require_keys(parameters, entry["ranges"], "parameters")  # integers as decimal strings, within (min, max)
    for name, (lo, hi) in entry["ranges"].items():
        text = parameters[name]  # type: ignore[index]
        if not isinstance(text, str) or not text.isdigit() or len(text) > 12 or not lo <= int(text) <= hi:
            raise Rejected(f"parameter {name} must be an integer in [{lo}, {hi}], not {str(text)[:40]!r}")
    values = {name: int(parameters[name]) for name in entry["ranges"]}  # type: ignore[index]
    body = {key: value for key, value in entry.items() if key not in ("cases", "models")}
    if "cases" in entry:
        key = ",".join(f"{name}={values[name]}" for name in entry["shape"])
        if key not in entry["cases"]:
            raise Rejected(f"{claim_id}: the kernel's table has no statement for {key}")
        body |= entry["cases"][key]
    rationals = {name: ["rat", str(value)] for name, value in values.items()}
    statement = {"form": FORM, "claim": claim_id, "parameters": {name: str(v) for name, v in values.items()}}
    return statement | substitute(body, rationals)  # type: ignore[no-any-return]


def check(data: dict[str, Any], claim_id: str, kind: str, payload: dict[str, Any], seconds: float) -> tuple[str, str]:
    """(what the certificate proves, how it was re-checked): the statement `data` must be the table's for its claim
    and parameters, and the payload must prove it."""
    mine = expected(claim_id, data.get("parameters"))
    if data != mine:
        raise Rejected(f"the statement is not the kernel's statement of {claim_id}: {_difference(mine, data)}")
    if kind != mine["kind"] or mine.get("witness", kind) not in CHECKERS:  # equilibria: an explicit statement
        raise Rejected(f"{claim_id} is not certified by {kind} certificates of form {FORM} (its kind: {mine['kind']})")
    return CHECKERS[mine.get("witness", kind)](mine, claim_id, payload, seconds)


def model_check(data: dict[str, Any], claim_id: str, kind: str, payload: Any, seconds: float) -> tuple[str, str]:
    """A claims-file `model` statement: refuted or proved by a witness (`model_statements.check`), or, kind `gram`,
    proved by the gram check of the table entry one of whose `models` implies it (`implying_identity`)."""
    if kind == "sums":
        return model_sums.check(data, claim_id, payload)
    if kind != "gram":
        return model_statements.check(data, claim_id, kind, payload, seconds)
    shown, cited = model_statements.shown(data, model_statements.statement_of(data, claim_id)), implying_identity(data)
    proved, how = inner_products.check(cited, cited["claim"], payload, seconds)
    return f"claim {claim_id!r}: proves the model statement {shown}, which follows from {cited['claim']}: {proved}", how


#: A claims-file claim's order of a named quantity (form `order`): the fields a table entry's `orders` list.
ORDER = "order"
ORDER_KEYS = ("quantity", "attention", "variable", "relation", "reference", "holds")


def order_check(data: dict[str, Any], claim_id: str, kind: str, payload: Any, seconds: float) -> tuple[str, str]:
    """A claims-file claim that a named quantity (the reduced clustering time) is, or is not, of an order in a
    variable that tends to oo: proved by the smt check of the table entry whose `orders` list it (the entry's
    sentence, reviewed as the others are, says why its statements establish each listed order)."""
    if kind != "smt" or not isinstance(payload, dict) or payload != {"holds": data.get("holds")}:
        raise Rejected(f"{claim_id}: an order is proved by an smt certificate that repeats whether it holds")
    name = order_entry(data)
    proved, how = _smt(expected(name, {}), name, {}, seconds)
    shown = f"{data['quantity']} ({data['attention']}) is{' not' * (not data['holds'])} {data['relation']}"
    shown += f"({term_text(data['reference'])}) as {data['variable']} -> oo"
    return f"claim {claim_id!r}: {shown}, which follows from {name}: {proved}", how


def order_entry(data: dict[str, Any]) -> str:
    """The table entry whose `orders` list the order statement `data`; Rejected when none does."""
    recheck.require_keys(data, {"form", "claim", *ORDER_KEYS}, f"statement of form {ORDER}")
    order = {key: data[key] for key in ORDER_KEYS}
    return _listing("orders", lambda listed: listed == order, "this order under none of its smt statements")


def _listing(field: str, lists: Any, where: str) -> str:
    """The first table entry one of whose `field` items `lists` (the item -> whether it lists the statement);
    Rejected when none does (`where`: what the table lists it under)."""
    names = [name for name, entry in table().items() if any(lists(item) for item in entry.get(field, ()))]
    if not names:
        raise Rejected(f"the kernel's table lists {where}")
    return names[0]


def implying_identity(data: dict[str, Any]) -> dict[str, Any]:
    """The gram statement of the table entry one of whose `models` (a paper identity's or a lemma's model statements,
    written once outside the kernel and reviewed as its sentence is) implies the model statement `data`
    (`_implies`). A lemma about every interaction states the weight of the pair (j, k) as the symbol `phi_jk`: the
    statement's own interaction phi(s) (exp(beta s) without one) at the score s = <x_j, M x_k> is written in."""
    name = _listing("models", lambda model: _implies(model, data), "this model statement under none of its identities")
    score = ["inner", ["vec", "xj"], ["apply", "M", ["vec", "xk"]]]
    weight = substitute(data["interaction"] or ["exp", ["mul", ["sym", "beta"], ["sym", "s"]]], {"s": score})
    return substitute(expected(name, {}), {"phi_jk": weight})


def _implies(model: dict[str, Any], data: dict[str, Any]) -> bool:
    """Whether `data` (read by `model_statements.statement_of`: every field a model has) is the model statement but
    for more assumptions: a hypothesis or a given condition more only narrows the configurations it is about, and a
    field the listed model leaves out (its kind, mask, ...) is one it holds for whatever the value."""
    same = all(model[key] == data[key] for key in model if key not in ("hypotheses", "given"))
    return same and all(item in data[key] for key in ("hypotheses", "given") for item in model[key])


def _difference(mine: Any, theirs: Any, where: str = "statement") -> str:
    """Where the file's statement first departs from the kernel's, naming a field the kernel does not have."""
    if isinstance(mine, dict) and isinstance(theirs, dict):
        extra, missing = sorted(str(k)[:40] for k in theirs.keys() - mine.keys()), sorted(mine.keys() - theirs.keys())
        if extra or missing:
            return f"{where}: unexpected fields {extra[:5]}, missing {missing[:5]}"
        pairs = [(mine[key], theirs[key], f"{where}.{key}") for key in mine]
    elif isinstance(mine, list) and isinstance(theirs, list) and len(mine) == len(theirs):
        pairs = [(a, b, f"{where}.{k}") for k, (a, b) in enumerate(zip(mine, theirs, strict=True))]
    else:
        return f"{where} differs"
    return next(_difference(a, b, at) for a, b, at in pairs if a != b)


def _smt(statement: dict[str, Any], claim_id: str, payload: dict[str, Any], seconds: float) -> tuple[str, str]:
    """The statement's SMT statements, printed by the kernel and run in z3 and cvc5: the payload holds nothing."""
    recheck.require_keys(payload, (), "the smt payload (its obligations are the statement's)")
    texts = [smtlib.problem_text(s["constants"], s["hypotheses"], s["goal"]) for s in statement["statements"]]
    return statement["sentence"], solvers.recheck_unsat(texts, seconds)


def point_data(statement: dict[str, Any], claim_id: str, payload: dict[str, Any]) -> dict[str, Fraction]:
    """The exact point of a point witness, once its parameters, coordinates and conditions are the statement's."""
    point = recheck.point_witness(payload, statement["parameters"], f"the point witness of {claim_id}")
    if list(point) != statement["coordinates"]:
        raise Rejected(f"the point must give {', '.join(statement['coordinates'])}; the file gives {list(point)}")
    recheck.require_conditions(payload["conditions"], statement["conditions"], claim_id)
    return point


def _point(statement: dict[str, Any], claim_id: str, payload: dict[str, Any], seconds: float) -> tuple[str, str]:
    """The table's sentence filled with the parameters, the point and 1 - x of each coordinate x; the conditions
    settled at the point."""
    point = point_data(statement, claim_id, payload)
    listed = ", ".join(f"{name} = {value}" for name, value in point.items())
    ends = {f"1-{name}": 1 - value for name, value in point.items()}
    proved = statement["sentence"].format(**statement["parameters"], point=listed, **ends)
    return proved, recheck.point_conditions(payload, point)


def configuration(statement: dict[str, Any], claim_id: str, payload: dict[str, Any], seconds: float) -> tuple[str, str]:
    """(the sentence, and the model statement the witness refutes; how): a witness of the table's `model` statement
    (`headflow.certificates.kernel.model_statements`)."""
    proved, how = model_statements.check(statement["model"], claim_id, "witness", payload, seconds)
    return f"{statement['sentence']}: {proved}", how


def _convexity(statement: dict[str, Any], claim_id: str, payload: dict[str, Any], seconds: float) -> tuple[str, str]:
    """g(a) < 0 at a point, g' > 0 on [a, b] and phi'' > 0 on [b, u_max], each exactly the statement's tree."""
    recheck.require_keys(payload, {"a", "b", "parts"}, "convexity payload (its n is the statement's)")
    a, b, top = parse_rational(payload["a"]), parse_rational(payload["b"]), parse_rational(statement["u_max"])
    if not 0 < a < b < top:
        raise Rejected(f"need 0 < a < b < {top}; the file has a = {a}, b = {b}")
    parts, facts = payload["parts"], statement["parts"]
    recheck.require_keys(parts, set(facts), "convexity parts")
    if recheck.point_witness(parts["g-below"], {}, "g-below") != {"u": a}:
        raise Rejected("g-below must be evaluated at u = a")
    recheck.require_conditions(parts["g-below"]["conditions"], [{"name": "g(a) < 0", **facts["g-below"]}], claim_id)
    recheck.point_conditions(parts["g-below"], {"u": a})
    ends = {"g-rising": (a, b), "convex": (b, top)}
    boxes = sum(covers.cover(parts[k], facts[k]["expression"], facts[k]["relation"], {"u": ends[k]}) for k in ends)
    convexity_lemma(statement, claim_id, a, b)
    texts = {"g": term_text(facts["g-below"]["expression"])} | {k: term_text(statement[k]) for k in ("rate", "factor")}
    proved = statement["sentence"].format(**statement["parameters"], **texts, a=a, b=b, u_max=top)
    return proved, f"ball point, {boxes} boxes re-evaluated, g', phi'' = K g by exact algebra, K > 0 in balls"


def convexity_lemma(statement: dict[str, Any], claim_id: str, a: Fraction, b: Fraction) -> None:
    """The covered trees are g' and phi'' of the statement's g and phi (the kernel's tree derivative), and
    phi'' = K g, each a formal identity of rational functions in u and its transcendental subterms (the one such
    algebra, `interaction.is_antiderivative`, with u its variable s), and K > 0 on [a, b] (one ball: there g' > 0,
    so phi'' has the sign of g, which changes sign at its one root u_c in [a, b]); Rejected otherwise."""
    renamed = substitute({key: statement[key] for key in ("parts", "rate", "factor")}, {"u": ["sym", "s"]})
    parts, factor = renamed["parts"], renamed["factor"]
    g, slope = parts["g-below"]["expression"], derivative(renamed["rate"], "s")
    facts = {"g-rising is g'": is_antiderivative(g, parts["g-rising"]["expression"])}
    facts |= {"convex is phi''": is_antiderivative(slope, parts["convex"]["expression"])}
    facts |= {"phi'' = K g": is_antiderivative(slope, ["mul", factor, g])}
    facts |= {"K > 0": evaluate(factor, {"s": ball_of(a).union(ball_of(b))}) > 0}
    if failed := [fact for fact, holds in facts.items() if not holds]:
        raise Rejected(f"{claim_id}: the convexity lemma fails: {', '.join(failed)} not shown")


def chain(statement: dict[str, Any], payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The facts a convexity certificate's check establishes, as universal statements for Coq (their trees in
    `registry_coq_convexity.json`, one statement over u): g(a) < 0; g' is the derivative of g, and g' > 0 on [a, b];
    phi' is the derivative of phi (phi' the kernel's tree derivative), phi'' and K g are that of phi'; K > 0 on
    [a, b]; phi'' > 0 on [b, u_max]; each derivative Coquelicot's `is_derive`, at every u."""
    trees = statement | {k: ["rat", v] for k, v in (payload | statement).items() if k in ("a", "b", "u_max")}
    trees |= {k: v["expression"] for k, v in statement["parts"].items()} | {"dphi": derivative(statement["rate"], "u")}
    return substitute(json.loads(PATH.with_name("registry_coq_convexity.json").read_text(encoding="ascii")), trees)  # type: ignore[no-any-return]


#: kind (or witness kind) -> its check: (statement, claim id, payload, solver seconds) -> (proved, how).
CHECKERS = dict(smt=_smt, point=_point, configuration=configuration, convexity=_convexity, gram=inner_products.check)
