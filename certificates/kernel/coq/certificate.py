"""The Coq problem of a certificate that the kernel accepted, from its core statement and the payload it checked.

`problem` takes the result of the kernel's one check (`certificates.kernel.verify.check_file`): only an accepted
result carries the certificate, and the check has then held the payload to the statement (a point's coordinates and
conditions, the recorded SMT statements), so the problem is written from checked data, with what the check says it
proved, and the check is never run twice (an `equiangular` certificate's facts are found again: exact and cheap,
they are not among the result's fields). A convexity certificate's problem is one universal statement of the
facts its check established (`registry_statements.chain`). A form or kind with no Coq translation yet raises
`NotTranslatable` naming it (the reports say why: `checks.coq_files.UNTRANSLATED`). The Coq text is regenerated every
time: a `.v` file next to a certificate is for reading, never what is compiled.
"""

from typing import Any

from .. import equiangular, inner_products, model_statements, real_encoding, real_statements, registry_statements
from ..arc import FORM as ARC, facts as arc_facts
from ..circulant import FORM as CIRCULANT, signed
from ..clusters import FORM as CLUSTERS, facts as cluster_facts
from ..exit_gap import FORM as EXIT_GAP, built as exit_built
from ..exprtree import parse_rational, rational_tree, substitute, symbols
from ..jensen import FORM as JENSEN, convexity
from ..limits import FORM as LIMIT, relations as limit_relations
from ..punctured import FORM as PUNCTURED, relations as punctured_relations
from ..recheck import Rejected, rational_map
from ..reduced_time import FORM as REDUCED_TIME, built as time_built, identity as time_identity
from ..spaced import FORM as SPACED, facts as spaced_facts
from ..start import FORM as START, facts as start_facts
from ..verify import CheckResult
from . import sums_statement
from .model_tree import EXACT_FACTS, equilibrium_problem, moving_problem, start_problem, witness_problem
from .statements import NotTranslatable, PointProblem, Problem, UniversalStatement


def problem(checked: CheckResult) -> tuple[str, Problem]:
    """(what it proves, its Coq problem) for a certificate the kernel accepted; Rejected with the kernel's reason
    for one it did not."""
    if not checked.ok or checked.certificate is None:
        raise Rejected(checked.message)
    claim_id, kind, payload, statement = (checked.certificate[k] for k in ("claim_id", "kind", "payload", "statement"))
    form = (statement["form"], statement.get("witness"), kind)
    if form == ("real", None, "witness"):  # a constant's conditions (no coordinates) or a counterexample's
        return checked.proved, PointProblem(rational_map(payload["point"], "point"), payload["conditions"])
    if form in (("real", None, "smt"), ("real", None, "interval-cover")):
        return checked.proved, _relation(statement, claim_id, payload)
    if form == (JENSEN, None, "smt"):  # the built convexity F'' >= 0, or also F'' > 0 inside (Jensen's step is cited)
        cuts = [payload["cuts"], *([payload["interior"]] if "interior" in payload else [])]
        built = zip(convexity(statement, "interior" in payload), cuts, strict=True)
        return checked.proved, [_relation(s, f"{claim_id}.{k}", {"cuts": c})[0] for k, (s, c) in enumerate(built)]
    if form in ((LIMIT, None, "smt"), (PUNCTURED, None, "smt")):  # the built relations, each with its cuts, by place
        relations = limit_relations if form[0] == LIMIT else punctured_relations
        built = zip(relations(statement), payload["cuts"], strict=True)
        found = [_relation(s, f"{claim_id}.{k}", {"cuts": c})[0] for k, (s, c) in enumerate(built)]
        at = statement.get("at", {})  # a refutation at a point: the relations there, and the point in its domain
        return checked.proved, found + _at_point([v for v in statement["variables"] if v["name"] in at], at)
    if form == (EXIT_GAP, None, "smt"):  # the built statements (at a point `at`: there, and the point in its domain)
        built = zip(exit_built(statement, payload), payload["cuts"], strict=True)
        found = [_relation(s, f"{claim_id}.{k}", {"cuts": c})[0] for k, (s, c) in enumerate(built)]
        at = statement.get("at", {})
        return checked.proved, found + _at_point([v for v in statement["variables"] if v["name"] in at], at)
    if form == (REDUCED_TIME, None, "smt"):  # A' G R = 1 (A' the kernel's derivative), then the built statements
        built = zip(time_built(statement, payload), payload["cuts"], strict=True)
        found = [_relation(s, f"{claim_id}.{k}", {"cuts": c})[0] for k, (s, c) in enumerate(built)]
        identity = _relation(time_identity(statement, payload), f"{claim_id}.identity", {"cuts": []})
        return checked.proved, identity + found
    if form in ((model_statements.FORM, None, "witness"), (registry_statements.FORM, "configuration", "witness")):
        claim = model_statements.statement_of(statement.get("model", statement), claim_id)  # a registry's is inside
        return f"{EXACT_FACTS}; {checked.proved}", witness_problem(claim, payload)
    if form == (registry_statements.ORDER, None, "smt"):  # the statements of the table entry that lists the order
        return checked.proved, universal(
            registry_statements.expected(registry_statements.order_entry(statement), {})["statements"]
        )
    if form in ((registry_statements.FORM, None, "smt"), (registry_statements.FORM, None, "convexity")):
        return checked.proved, universal(statement.get("statements") or registry_statements.chain(statement, payload))
    if form in ((registry_statements.FORM, None, "gram"), (model_statements.FORM, None, "gram")):  # lhs = rhs always
        gram = registry_statements.implying_identity(statement) if form[0] == "model" else statement
        return checked.proved, identities(gram)
    if form == (equiangular.FORM, None, equiangular.FORM):  # the reduction's identity, then the facts as found
        at = statement["point"] or {}
        facts = enumerate(equiangular.facts(statement, claim_id), start=1)  # a refutation at a point: at numbers
        found = [_over_domain([] if at else statement["variables"], f"fact{k}", fact) for k, fact in facts]
        found += _at_point(statement["variables"], at)
        return checked.proved, identities(registry_statements.table()[equiangular.lemma_of(statement)]) + found
    if form == (registry_statements.FORM, "point", "witness"):
        point = registry_statements.point_data(statement, claim_id, payload)
        return checked.proved, PointProblem(point, statement["conditions"])
    if form == ("equilibrium", None, "witness"):  # the statement's configuration moves, or rests
        return checked.proved, moving_problem(statement)
    if form == ("equilibrium", None, "equilibrium"):  # the statement's tokens are the centre's: its kernel check
        left, built = equilibrium_problem(payload)
        return f"{left}; {checked.proved}", built
    if form == (CIRCULANT, None, CIRCULANT):  # each eigenvalue's sign, as the kernel found it
        signs = enumerate(signed(statement, claim_id), start=1)
        zero = real_encoding.ZERO
        return checked.proved, [
            UniversalStatement(f"mu{m}", [], [], [">" if v > 0 else "<", mu, zero]) for m, (mu, v) in signs
        ]
    if form == (SPACED, None, SPACED):  # the pairing, a > 0, the roots of unity and the start value at the numbers
        return checked.proved, [UniversalStatement(name, [], [], fact) for name, fact in spaced_facts(statement)]
    if form[0] in (ARC, CLUSTERS):  # an arc's comparisons; two clusters' K(rho0) sign and rate against 2 K(1)
        found = arc_facts(statement, payload) if form[0] == ARC else cluster_facts(statement)
        return checked.proved, [UniversalStatement(f"compared_{k}", [], [], fact) for k, fact in enumerate(found)]
    if form == (START, None, START):  # the norms and the squared distances the graph rests on
        return checked.proved, [UniversalStatement("start", [], [], ["and", *start_facts(statement)])]
    if kind == "sums":  # the model statement itself, over every inner-product space
        return checked.proved, sums_statement.problem(statement, claim_id, payload)
    if form == ("trajectory", None, "trajectory") and statement["when"] == "sometime":  # met at t = 0: no ODE
        return checked.proved, start_problem(statement, claim_id)
    raise NotTranslatable(f"no Coq translation of a {kind} certificate of form {form[0]}")


def _at_point(variables: list[Any], point: dict[str, str]) -> list[UniversalStatement]:
    """That a point lies in its variables' domain (their bounds at its values), a Theorem; none without a point."""
    at = {name: rational_tree(parse_rational(q)) for name, q in point.items()}
    inside = substitute(["and", *real_encoding.bound_facts(variables, lambda bound: bound)], at)
    return [UniversalStatement("point", [], [], inside)] if at else []


def identities(gram: dict[str, Any]) -> list[UniversalStatement]:
    """A gram statement's identities after the kernel's expansion: for all values of their symbols, lhs = rhs."""
    pairs = enumerate(inner_products.identities(gram), start=1)
    return [UniversalStatement(f"id{k}", sorted(symbols(["add", *p])), [], ["=", *p]) for k, p in pairs]


def _relation(statement: dict[str, Any], claim_id: str, payload: dict[str, Any]) -> list[UniversalStatement]:
    """An smt or cover certificate of a relation the kernel re-checked: for all values of its variables in the domain,
    every definedness condition and `lhs op rhs`, from the statement's trees (the Coq proof does not use the SMT
    encoding: it adds each atom's library facts and the payload's cuts, each re-proved, and closes the goal with `nra`;
    a cover's, its boxes); a cover of one definedness condition (the first goal it matches, as the kernel's check
    takes it) states that condition alone."""
    conditions = [real_encoding.CONDITIONS[c["relation"]](c["expression"]) for c in statement["conditions"]]
    goal = ["and", *conditions, [statement["op"], statement["lhs"], statement["rhs"]]]
    if "cuts" in payload:
        return [_over_domain(statement["variables"], claim_id, goal, tuple(payload["cuts"]))]
    found = [g[0] == payload["expression"] and payload["relation"] in g[1] for g in real_statements.goals(statement)]
    proved = conditions[found.index(True) - 1] if found.index(True) else goal  # a cover: over Z for integer variables
    return [_over_domain(statement["variables"], claim_id, proved)]


def _over_domain(variables: list[Any], name: str, goal: Any, cuts: tuple[Any, ...] = ()) -> UniversalStatement:
    """For all values of a statement's variables in their domain (the facts of their bounds), `goal`; the integer
    variables over Z (the payload's `cuts` restated by the proof, not the statement)."""
    names, integers = [v["name"] for v in variables], tuple(v["name"] for v in variables if v["integer"])
    hypotheses = real_encoding.bound_facts(variables, lambda bound: bound)
    return UniversalStatement(name, names, hypotheses, goal, integers, cuts)


def universal(statements: list[dict[str, Any]]) -> list[UniversalStatement]:
    """SMT statement trees as universal statements (their `integers` over Z)."""
    fields = ("name", "constants", "hypotheses", "goal")
    return [UniversalStatement(*(s[k] for k in fields), tuple(s.get("integers", ()))) for s in statements]
