"""Form `real`: a closed statement over real and integer variables, and its checker.

The statement (JSON, written by `headflow.certificates.statements.real` from a claims-file claim) is, for a relation,
`for all variables in their domain: lhs op rhs, both sides defined`, and for a constant `low <= expression <= high`:
- `variables`: in dependency order, each `{name, integer, low, low_open, high, high_open}` with bounds as
  expression trees (`certificates.kernel.exprtree`, as written) over the variables before it, or null (unbounded);
- `lhs`, `op` (`< <= > >=`, `=` for an identity), `rhs`; or `expression`, `low`, `high` (exact rationals);
- `conditions`: the definedness conditions of the formulas, `{expression, relation}` with relation `!= > >=`
  (each proved too: a certificate shows the relation or, for a cover, one of them);
- `point`: a point of the domain (exact rationals; a side tied to one tree is its ball), which the kernel
  verifies (`Region.contains`), so that a statement over an empty domain never counts as proved.
The checks, by the certificate's kind: `witness` (a constant: a point witness at no coordinates whose
conditions are exactly the definedness conditions and the two bounds, `constant_conditions`) and
`interval-cover` (the cover's root box contains the region, every node is clipped to it, and the cover proves
`rhs - lhs` with the relation's sign, built here from the trees, or one definedness condition:
`headflow.certificates.kernel.covers.cover`), and `smt`
(a relation, `=` included: the kernel encodes `domain => both sides defined and lhs op rhs` from the trees itself,
`certificates.kernel.real_encoding`, with the payload's cuts of exp, each shown true; z3 and cvc5 must answer unsat
on its own SMT-LIB2 text, `smt_problem`). What it prints is rendered from the trees.
"""

import re
from decimal import Decimal
from fractions import Fraction
from typing import Any

from flint import arb

from . import covers, format as fmt, real_encoding, recheck
from .exact import SETTLING, precision
from .exprtree import Tree, count_nodes, parse_rational, symbols
from .recheck import Rejected
from .regions import Region, Side
from .solvers import recheck_unsat
from .tree_text import term_text

FORM = "real"
#: `lhs op rhs` as `rhs - lhs relation 0` (`=` for an identity seen as a relation).
RELATION = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=="}
#: `lhs op rhs` fails: `rhs - lhs relation 0` with these relations (a counterexample's last condition).
FAILS = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "=": "!="}
#: The fields of a statement of a relation and of a constant.
RELATION_KEYS = frozenset({"form", "claim", "variables", "lhs", "op", "rhs", "conditions", "point"})
CONSTANT_KEYS = frozenset({"form", "claim", "variables", "expression", "low", "high", "conditions", "point"})
VARIABLE_KEYS = frozenset({"name", "integer", "low", "low_open", "high", "high_open"})
MAX_VARIABLES = 16
#: A variable's name: short, plain (it is printed in what the certificate proves).
IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,40}$")
#: Precision (bits) at which the statement's point is verified against dependent bounds.
POINT_PRECISION = 1024


def check(data: dict[str, Any], claim_id: str, kind: str, payload: dict[str, Any], seconds: float) -> tuple[str, str]:
    """(what the certificate proves, how it was re-checked) for a statement of form `real` (`data`); Rejected
    otherwise."""
    region = read_region(data)
    where = _nonempty(data, region)
    relation = {"interval-cover": _cover, "smt": _smt, "witness": _refuted}
    checks = {"witness": _constant} if "expression" in data else relation
    if kind not in checks:
        raise Rejected(f"this statement of form {FORM} is certified by {' or '.join(checks)}, not {str(kind)[:40]!r}")
    proved, how = checks[kind](data, region, payload, seconds)
    return proved, how if "expression" in data else how + f"; domain non-empty: {where} verified"


def check_each(built: list[dict[str, Any]], cuts: object, claim_id: str, seconds: float) -> tuple[str, str]:
    """(what they prove, each without its claim's name; how) for statements a form built, each by its own smt cuts
    (one list per statement in `cuts`)."""
    found = recheck.require_list(cuts, len(built), "the cuts of each built statement", len(built))
    checked = [check(s, claim_id, "smt", {"cuts": c}, seconds) for s, c in zip(built, found, strict=True)]
    return "; ".join(proved.split(": ", 1)[1] for proved, _ in checked), "; ".join(how for _, how in checked)


def goals(statement: dict[str, Any]) -> list[tuple[Tree, tuple[str, ...], str]]:
    """(expression, relations a cover may prove of it against 0, what that proves in words): the relation as
    `rhs - lhs`, then each definedness condition (for `!=`, either sign or `!=` itself)."""
    found = []
    if "op" in statement:
        relation = RELATION[statement["op"]]
        found.append((["sub", statement["rhs"], statement["lhs"]], (relation,), relation_text(statement)))
    for c in statement["conditions"]:
        found.append((c["expression"], (c["relation"], *SETTLING[c["relation"]]), condition_text(c)))
    return found


def constant_conditions(statement: dict[str, Any]) -> list[dict[str, Any]]:
    """A constant's point conditions (name, expression, relation), in order: each definedness condition (a ball
    settles `!=` by excluding 0, as it settles a sign), then `expression - low >= 0` and `high - expression >= 0`."""
    conditions = [{"name": condition_text(c), **c} for c in statement["conditions"]]
    expression, low, high = statement["expression"], ["rat", statement["low"]], ["rat", statement["high"]]
    conditions.append({"name": "expr - low >= 0", "expression": ["sub", expression, low], "relation": ">="})
    return [*conditions, {"name": "high - expr >= 0", "expression": ["sub", high, expression], "relation": ">="}]


def counterexample_conditions(statement: dict[str, Any]) -> list[dict[str, Any]]:
    """A counterexample's point conditions (name, expression, relation), in order: each definedness condition, then
    `rhs - lhs` with the sign where `lhs op rhs` fails."""
    failing = {"expression": ["sub", statement["rhs"], statement["lhs"]], "relation": FAILS[statement["op"]]}
    conditions = [{"name": condition_text(c), **c} for c in statement["conditions"]]
    return [*conditions, {"name": f"{relation_text(statement)} fails", **failing}]


def relation_text(statement: dict[str, Any]) -> str:
    """`lhs op rhs`, rendered from the trees."""
    return f"{term_text(statement['lhs'])} {statement['op']} {term_text(statement['rhs'])}"


def condition_text(condition: dict[str, Any]) -> str:
    """`defined: expr relation 0`."""
    return f"defined: {term_text(condition['expression'])} {condition['relation']} 0"


def domain_text(statement: dict[str, Any]) -> str:
    """`for all x in [a, b], n integer >= 2: ` (empty without variables)."""
    sides = [_side_text(v) for v in statement["variables"]]
    return f"for all {', '.join(sides)}: " if sides else ""


def _side_text(variable: dict[str, Any]) -> str:
    name, kind = variable["name"], " integer" if variable["integer"] else ""
    low, high = (None if variable[end] is None else term_text(variable[end]) for end in ("low", "high"))
    lo_open, hi_open = variable["low_open"], variable["high_open"]
    if low is not None and high is not None:
        return f"{name}{kind} in {'(' if lo_open else '['}{low}, {high}{')' if hi_open else ']'}"
    if low is not None:
        return f"{name}{kind} {'>' if lo_open else '>='} {low}"
    if high is not None:
        return f"{name}{kind} {'<' if hi_open else '<='} {high}"
    return f"{name}{kind or ' real'}"


# ---------------------------------------------------------------- reading


def read_region(statement: dict[str, Any]) -> Region:
    """The statement's domain as a region, after checking its shape: every field, tree and relation, variables
    named once, each bound over the variables before it, the formulas over the variables."""
    constant = "expression" in statement
    recheck.require_keys(statement, CONSTANT_KEYS if constant else RELATION_KEYS, f"statement of form {FORM}")
    most, what = (0, "a constant's variables") if constant else (MAX_VARIABLES, "variables")
    sides, known = variable_sides(statement["variables"], most, what)
    for part in ("expression",) if constant else ("lhs", "rhs"):
        _term(statement[part], known, part)
    if constant and not parse_rational(statement["low"]) <= parse_rational(statement["high"]):
        raise Rejected("a constant's interval needs low <= high")
    recheck.require_choices(statement, {} if constant else {"op": RELATION}, "the relation's")
    for condition in recheck.require_list(statement["conditions"], fmt.MAX_CONDITIONS, "conditions"):
        recheck.require_keys(condition, {"expression", "relation"}, "definedness condition")
        recheck.require_choices(condition, {"relation": SETTLING}, "definedness condition")
        _term(condition["expression"], known, "a definedness condition")
    return Region(tuple(sides))


def variable_sides(variables: object, most: int, what: str) -> tuple[list[Side], set[str]]:
    """(the sides of a region, the names) of a statement's variables: each shape, bound and relation checked,
    variables named once, each bound over the variables before it (also an `equiangular` statement's)."""
    sides, known = [], set()
    for variable in recheck.require_list(variables, most, what):
        recheck.require_keys(variable, VARIABLE_KEYS, "variable")
        name = variable["name"]
        if not isinstance(name, str) or not IDENTIFIER.match(name) or name in known:
            raise Rejected(f"variable {str(name)[:40]!r}: a plain identifier, named once")
        if not all(isinstance(variable[k], bool) for k in ("integer", "low_open", "high_open")):
            raise Rejected(f"variable {name}: integer, low_open and high_open are true or false")
        bounds = [_bound(variable[end], known, f"the {end} bound of {name}") for end in ("low", "high")]
        if (variable["low"] is None and variable["low_open"]) or (variable["high"] is None and variable["high_open"]):
            raise Rejected(f"variable {name}: only a bound can be open")
        sides.append(Side(name, variable["integer"], *bounds, variable["low_open"], variable["high_open"]))
        known.add(name)
    return sides, known


def _term(tree: object, known: set[str], what: str) -> None:
    count_nodes(tree, fmt.MAX_TERM_NODES)
    if unknown := symbols(tree) - known:  # type: ignore[arg-type]
        raise Rejected(f"{what} uses {sorted(unknown)[0][:40]!r}, not a variable before it")


def _bound(tree: object, known: set[str], what: str) -> Fraction | Tree | None:
    """A bound as a region holds it: None, an exact rational, or a tree over the variables before it."""
    if tree is None:
        return None
    _term(tree, known, what)
    return parse_rational(tree[1]) if isinstance(tree, list) and len(tree) == 2 and tree[0] == "rat" else tree  # type: ignore[return-value]


def _nonempty(statement: dict[str, Any], region: Region) -> str:
    """The statement's point, verified in the region (a side tied to one tree takes that tree's ball); Rejected
    when it is not a point of the domain (a statement over an empty domain would prove nothing)."""
    given = recheck.rational_map(statement["point"], "point")
    if set(given) != {s.name for s in region.sides if not s.tied()}:
        raise Rejected("the statement's point gives every variable of the domain not tied to one tree")
    with precision(POINT_PRECISION):
        point = region.contains(given)  # an exception (a bound undefined at the point) rejects the certificate
    if point is not None:
        return ", ".join(f"{k} = {v.str(6) if isinstance(v, arb) else v}" for k, v in point.items()) or "-"
    raise Rejected("the statement's point is not shown to lie in its domain (an empty domain proves nothing)")


# ---------------------------------------------------------------- checks


def _constant(statement: dict[str, Any], region: Region, payload: dict[str, Any], seconds: float) -> tuple[str, str]:
    """A point witness without coordinates whose conditions are exactly `constant_conditions`. (The checks of `check`
    share one signature: (statement, its region, payload, solver seconds) -> (proved, how).)"""
    if recheck.point_witness(payload, {}, "the point witness of a constant") != {}:
        raise Rejected("a constant is certified by a point witness without coordinates")
    recheck.require_conditions(payload["conditions"], constant_conditions(statement), statement["claim"])
    how = recheck.point_conditions(payload, {})
    interval = f"[{_decimal(statement['low'])}, {_decimal(statement['high'])}]"
    return f"claims-file claim {statement['claim']!r}: {term_text(statement['expression'])} lies in {interval}", how


def _refuted(statement: dict[str, Any], region: Region, payload: dict[str, Any], seconds: float) -> tuple[str, str]:
    """A point of the domain (every variable given) where both sides are defined and `lhs op rhs` fails: the claim
    is false. Its conditions are exactly `counterexample_conditions`."""
    point = recheck.point_witness(payload, {}, "the counterexample")
    with precision(POINT_PRECISION):
        if set(point) != {side.name for side in region.sides} or region.contains(point) is None:
            raise Rejected("the counterexample is not shown to be a point of the claim's domain")
    recheck.require_conditions(payload["conditions"], counterexample_conditions(statement), statement["claim"])
    how = recheck.point_conditions(payload, point)
    at = ", ".join(f"{name} = {value}" for name, value in point.items())
    return f"claims-file claim {statement['claim']!r} is false: {relation_text(statement)} fails at {at}", how


def _decimal(text: str) -> str:
    """An exact rational as its exact decimal when it has one of at most 120 digits (the ends of a rounding
    interval), else as p/q."""
    value = parse_rational(text)
    digits = next((k for k in range(121) if (value * 10**k).denominator == 1), None)
    return text if digits is None else format(Decimal(f"{value * 10**digits}e-{digits}"), "f")


def _cover(statement: dict[str, Any], region: Region, payload: dict[str, Any], seconds: float) -> tuple[str, str]:
    """A cover of the relation or of one definedness condition over the whole domain."""
    recheck.require_keys(payload, covers.COVER_KEYS, "cover")
    match = [g for g in goals(statement) if g[0] == payload["expression"] and payload["relation"] in g[1]]
    if not match:
        raise Rejected("the cover is neither the statement's relation nor one of its definedness conditions")
    leaves = covers.cover(payload, match[0][0], payload["relation"], region=region)
    proved = f"claims-file claim {statement['claim']!r}: {domain_text(statement)}{match[0][2]}"
    return proved, f"{leaves} boxes re-evaluated with balls, each clipped to the domain"


def smt_problem(statement: dict[str, Any], payload: dict[str, Any]) -> str:
    """The SMT-LIB2 text of `domain => both sides defined and lhs op rhs` (`real_encoding.Encoding`) with the
    payload's cuts, each validated with balls; Rejected when the payload or the statement cannot make one."""
    recheck.require_keys(payload, {"cuts"}, "smt payload")
    cuts = recheck.require_list(payload["cuts"], real_encoding.MAX_CUTS, "cuts")
    return real_encoding.Encoding(statement).problem(cuts)


def _smt(statement: dict[str, Any], region: Region, payload: dict[str, Any], seconds: float) -> tuple[str, str]:
    """The whole relation: z3 and cvc5 on the kernel's own text of the statement's encoding."""
    how = recheck_unsat([smt_problem(statement, payload)], seconds)
    proved = f"claims-file claim {statement['claim']!r}: {domain_text(statement)}{relation_text(statement)}"
    return f"{proved} (both sides defined on the whole domain)", how + f"; {len(payload['cuts'])} cut(s) of exp checked"
