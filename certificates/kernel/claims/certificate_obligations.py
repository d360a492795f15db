"""What a certificate of a claims-file claim must establish, re-derived from the claim's embedded fields.

`headflow check-cert` hands every certificate whose `claim` field is set to `check`: the embedded
TOML is parsed by the claims-file loader (the same safe parser as `headflow check`), and the
obligation is rebuilt from the parsed claim alone, never from the certificate's own description:
- constant: a point witness whose conditions are exactly `expr - low >= 0`, `high - expr >= 0`
  (low and high from `value` and `digits`) and the definedness conditions of `expr`;
- inequality: an interval cover of the relation, or of one definedness condition, over the claim's whole
  domain: the cover's root box must contain the domain (`certificates.kernel.regions`: integer sides, bounds that
  depend on other parameters, rebuilt here from the claim), and every node's box is clipped to the domain
  as the checker walks it, so the cases of the cover exhaust the domain by construction. A boundary node
  uses a bound on which the relation's expression vanishes identically: `vanishing` proves that by exact
  algebra (after W(z) e^{W(z)} = z and e^a e^b = e^(a+b), a Groebner reduction valid for every root of the
  radicals; no SymPy simplify) every time a certificate needs it;
- inequality or identity: an smt certificate of the whole claim, `domain => defined and lhs op rhs`,
  whose one statement must be exactly the one `smt_statement.encode_claim` builds from the claim with
  the certificate's cuts (each validated with balls); z3 and cvc5 must find its negation unsat;
- dynamics: an exact configuration of the claim's family (sizes, the file's beta and strengths,
  attention kind, geometry, symmetry, W = M) where the refuting rate is negative, or a stationary start of the family
  (velocity exactly 0) whose quantity avoids the claimed limit (`certificates.kernel.claims.stationary_witness`);
A model or equilibrium claim's certificate carries its core statement (`certificates.kernel.model_statements`), never
this route.
Identities have no other certificates (they are PROVED symbolically or REFUTED at a point).
What it prints is generated from what it checked: formulas rendered from the trees it evaluated or encoded
(`certificates.kernel.tree_text`), the domain from the parsed bounds, never the file's own text.
This module uses the checker's re-computations (`certificates.kernel.recheck`) and the claims-file reader,
never a decider.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import sympy as sp

from certificates.kernel import format as fmt
from certificates.kernel import nonempty, recheck, smtlib
from certificates.kernel.claims import stationary_witness
from certificates.kernel.claims.domains import Domain, domain_region
from certificates.kernel.claims.embedding import read_embedded
from certificates.kernel.claims.schema import (
    ConstantClaim,
    DynamicsClaim,
    IdentityClaim,
    InequalityClaim,
    UserClaim,
    decimal_text,
)
from certificates.kernel.claims.smt_statement import encode_claim
from certificates.kernel.claims.symbolic import exactly_zero, within
from certificates.kernel.claims.witness_family import (
    family_failures,
    family_hypotheses,
    repulsive,
    searched_quantity,
)
from certificates.kernel.errors import InputError
from certificates.kernel.exact import SETTLING, precision
from certificates.kernel.exprtree import Tree, TreeError, from_sympy, parse_rational
from certificates.kernel.inert import Exp, W
from certificates.kernel.model_quantities import CERTIFIED
from certificates.kernel.real_encoding import MAX_CUTS, Cut, CutError, NotEncodable
from certificates.kernel.recheck import Rejected
from certificates.kernel.regions import Region
from certificates.kernel.solvers import DEFAULT_SECONDS, recheck_unsat
from certificates.kernel.tree_text import term_text
from identities.closed_forms import eliminate_exp_lambertw

#: `lhs op rhs` as `rhs - lhs relation 0` (`=` for an identity seen as a relation).
RELATION = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=="}
#: Seconds SymPy may spend, for one claim (one certificate), proving that the relation's expression vanishes on
#: its bounds.
VANISHING_SECONDS = 10.0


def constant_conditions(claim: ConstantClaim, signs: list[tuple[str, sp.Expr, str]]) -> list[tuple[str, sp.Expr, str]]:
    """The conditions of a constant's point certificate: the settled definedness signs, then low <= expr <= high."""
    return [
        *signs,
        ("expr - low >= 0", claim.expr - claim.low, ">="),
        ("high - expr >= 0", claim.high - claim.expr, ">="),
    ]


def check(
    fields: dict[str, Any],
    claim_id: str,
    kind: str,
    payload: dict[str, Any],
    solver_seconds: float = DEFAULT_SECONDS,
) -> tuple[str, str]:
    """(what the certificate proves, how it was re-checked); Rejected when it is not the claim's obligation.

    An smt certificate gives each solver `solver_seconds` (`certificates.kernel.solvers.recheck_unsat`)."""
    claim = embedded_claim(fields, claim_id)
    if isinstance(claim, InequalityClaim | IdentityClaim):
        point = domain_point(claim)
        proved, how = _obligation(claim, kind, payload, solver_seconds)
        return proved, f"{how}; domain non-empty: {point} verified exactly"
    return _obligation(claim, kind, payload, solver_seconds)


def embedded_claim(fields: dict[str, Any], claim_id: str) -> UserClaim:
    """The claim a claims-file certificate embeds, parsed by the claims-file reader; Rejected when it does not
    parse or is not the claim the certificate is filed under."""
    try:
        claim = read_embedded(fields)
    except InputError as exc:
        raise Rejected(f"the embedded claim does not parse: {exc}") from None
    if claim.id != claim_id:
        raise Rejected(f"the certificate is filed under {claim_id[:80]!r} but embeds claim {claim.id!r}")
    return claim


def domain_point(claim: InequalityClaim | IdentityClaim) -> str:
    """The checker's own proof that the claim's domain is not empty (`certificates.kernel.nonempty`): a verified exact
    point, as text; Rejected when the domain is empty or no point is found (a vacuous claim proves nothing)."""
    try:
        settled = nonempty.settle(claim_region(claim))
    except TreeError as exc:
        raise Rejected(f"the domain of {claim.id!r} cannot be shown non-empty: {exc}") from None
    if settled.point is None:
        raise Rejected(f"claim {claim.id!r}: {settled.reason}")
    return settled.describe()


def _obligation(claim: UserClaim, kind: str, payload: dict[str, Any], solver_seconds: float) -> tuple[str, str]:
    if isinstance(claim, DynamicsClaim) and isinstance(payload, dict) and payload.get("witness") == "stationary-start":
        return stationary_witness.check(claim, kind, payload)
    if isinstance(claim, DynamicsClaim):
        return dynamics_obligation(claim, kind, payload)
    if isinstance(claim, ConstantClaim):
        return _constant(claim, kind, payload)
    if isinstance(claim, InequalityClaim | IdentityClaim) and kind == "smt":
        return _smt(claim, payload, solver_seconds)
    if isinstance(claim, InequalityClaim):
        return _inequality(claim, kind, payload)
    raise Rejected(f"{claim.kind} claims have no certificates of kind {kind!r}")


def _require_kind(claim: UserClaim, kind: str, expected: str) -> None:
    if kind != expected:
        raise Rejected(f"a {claim.kind} claim is certified by a {expected} certificate, not {kind}")


def dynamics_obligation(claim: DynamicsClaim, kind: str, payload: dict[str, Any]) -> tuple[str, str]:
    """A witness refuting the claim: an exact state of its family where the refuting rate is negative."""
    _require_kind(claim, kind, "witness")
    options = claim.options
    searched, hypotheses = searched_quantity(claim), family_hypotheses(options)
    if searched not in CERTIFIED or hypotheses is None:
        raise Rejected(f"claim {claim.id!r}: its family has no exact witnesses (no certificate can refute it)")
    how = recheck.configuration(
        payload,
        attention=options["attention"],
        geometry=options["geometry"],
        hypotheses=frozenset(hypotheses),
        quantity=searched,
        relation="<",
        claim_id=claim.id,
        masked=options.get("mask") is not None,
        interaction=options.get("interaction"),
        negative_beta=repulsive(options),
    )
    exact = recheck.exact_configuration(
        payload["configuration"],
        options.get("interaction"),
        negative_beta=repulsive(options),
        masked=options.get("mask") is not None,
    )
    outside = family_failures(options, exact)
    if outside:
        raise Rejected(f"the exact data are not in the family of {claim.id!r}: {', '.join(outside)}")
    if "head" in options and payload.get("head") != options["head"]:
        raise Rejected(f"claim {claim.id!r} is about head {options['head']}, the witness shows another")
    consequence = "" if searched == claim.quantity else f", so {claim.quantity} decreases on the trajectory from it"
    family = ", ".join(f"{key}={value}" for key, value in options.items())
    proved = (
        f"refutes claims-file claim {claim.id!r} ({claim.quantity} {claim.property}; {family}): {searched} < 0 at "
        f"an exact state of its family{consequence}"
    )
    return proved, how


def _constant(claim: ConstantClaim, kind: str, payload: dict[str, Any]) -> tuple[str, str]:
    """A point certificate with no coordinates: every definedness condition of expr, then the interval."""
    _require_kind(claim, kind, "witness")
    constant_obligation(claim, payload)
    how = recheck.point_conditions(payload, {})
    interval = f"[{decimal_text(claim.low)}, {decimal_text(claim.high)}]"
    value = f"{decimal_text(claim.value)} to {claim.digits} significant digits"
    return f"claims-file claim {claim.id!r}: {expr_text(claim.expr)} lies in {interval} (= {value})", how


def constant_obligation(claim: ConstantClaim, payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The conditions (name, expression, relation) a constant's point certificate must hold, in order, after
    checking that the payload holds exactly them (each definedness condition settled by a relation that settles it)."""
    recheck.require_keys(payload, {"witness", "parameters", "point", "prec", "conditions"}, "point witness")
    for part in ("parameters", "point"):
        if isinstance(payload[part], dict) and payload[part]:
            raise Rejected(f"unknown field {part}.{sorted(payload[part])[0][:60]!r}: a constant has no {part}")
    if payload["witness"] != "point" or payload["parameters"] != {} or payload["point"] != {}:
        raise Rejected("a constant claim is certified by a point witness without coordinates or parameters")
    stated = payload["conditions"]
    if not isinstance(stated, list) or len(stated) != len(claim.conditions) + 2:
        raise Rejected(f"claim {claim.id!r} needs {len(claim.conditions)} definedness condition(s) and 2 bounds")
    expected = []
    for condition, theirs in zip(claim.conditions, stated, strict=False):
        relation = theirs.get("relation") if isinstance(theirs, dict) else None
        if relation not in SETTLING[condition.relation]:
            raise Rejected(f"definedness condition {condition.text()} is not settled by relation {relation!r}")
        expected.append(
            {"name": f"defined: {condition.text()}", "expression": from_sympy(condition.expr), "relation": relation}
        )
    expected += [
        {"name": name, "expression": from_sympy(expr), "relation": relation}
        for name, expr, relation in constant_conditions(claim, [])
    ]
    recheck.require_conditions(stated, expected, claim.id)
    return expected


def expr_text(expr: sp.Expr) -> str:
    """The checked expression as text: rendered from its tree, the one the checker evaluates."""
    return term_text(from_sympy(expr))


def relation_text(claim: InequalityClaim | IdentityClaim) -> str:
    """`lhs op rhs` of the claim, rendered from the checked trees of its sides."""
    op = claim.op if isinstance(claim, InequalityClaim) else "="
    return f"{expr_text(claim.lhs)} {op} {expr_text(claim.rhs)}"


def domain_text(claim: InequalityClaim | IdentityClaim) -> str:
    """`for all x in [a, b], n integer >= 2: ` from the parsed domains (empty without parameters)."""
    if not claim.order:
        return ""
    return "for all " + ", ".join(_side_text(s.name, claim.domains[s]) for s in claim.order) + ": "


def _side_text(name: str, domain: Domain) -> str:
    kind = " integer" if domain.integer else ""
    low = None if domain.low is None else expr_text(domain.low)
    high = None if domain.high is None else expr_text(domain.high)
    if low is not None and high is not None:
        return f"{name}{kind} in {'(' if domain.low_open else '['}{low}, {high}{')' if domain.high_open else ']'}"
    if low is not None:
        return f"{name}{kind} {'>' if domain.low_open else '>='} {low}"
    if high is not None:
        return f"{name}{kind} {'<' if domain.high_open else '<='} {high}"
    return f"{name}{kind or ' real'}"


def condition_relations(relation: str) -> tuple[str, ...]:
    """The relations a cover of a definedness condition `expr relation 0` may prove: a settling sign, or, for
    `!=`, also `!=` itself (every leaf's ball excludes 0, whatever its sign)."""
    return (*SETTLING[relation], "!=") if relation == "!=" else SETTLING[relation]


def claim_region(claim: InequalityClaim) -> Region:
    """The claim's domain as covers see it (`domains.domain_region`: open ends are marked, and covers treat them as
    closed: a cover of more proves the claim)."""
    return domain_region(claim.domains, claim.order)


def claim_vanishing(claim: InequalityClaim) -> Callable[[str, str], list[Tree] | None]:
    """For a non-strict claim: (parameter, end) -> the arguments z (as trees) that must be non-zero for `rhs - lhs`
    to vanish identically on that bound, when exact algebra shows it (`_vanishing_arguments`); None when it
    does not (or the claim is strict)."""
    symbols = {s.name: s for s in claim.order}
    proved: dict[tuple[str, str], list[Tree] | None] = {}
    deadline = time.monotonic() + VANISHING_SECONDS

    def vanishing(name: str, end: str) -> list[Tree] | None:
        if (name, end) not in proved:
            proved[(name, end)] = _vanishes(claim, symbols.get(name), end, deadline - time.monotonic())
        return proved[(name, end)]

    return vanishing


def _vanishes(claim: InequalityClaim, symbol: sp.Symbol | None, end: str, seconds: float) -> list[Tree] | None:
    if symbol is None or claim.op not in ("<=", ">="):
        return None
    bound = claim.domains[symbol].low if end == "low" else claim.domains[symbol].high
    if bound is None:
        return None
    started = time.monotonic()
    on_bound = within(seconds, lambda: (claim.rhs - claim.lhs).xreplace({symbol: bound}))  # inert: arithmetic only
    if on_bound is None:
        return None
    rewriting = _vanishing_arguments(on_bound, seconds - (time.monotonic() - started))
    if rewriting is None:
        return None
    try:
        return [from_sympy(z) for z in rewriting]
    except TreeError:
        return None


def _vanishing_arguments(expr: sp.Expr, seconds: float) -> list[sp.Expr] | None:
    """The arguments z != 0 under which the inert `expr` is identically 0, by exact algebra only: W(z) e^{W(z)} = z
    (`eliminate_exp_lambertw`), then `symbolic.exactly_zero` (a Groebner reduction valid for every root of the
    radicals). None when it is not shown to vanish."""
    rewritten, arguments = eliminate_exp_lambertw(expr, Exp, W)
    return arguments if exactly_zero(rewritten, seconds)[0] is True else None


def _inequality(claim: InequalityClaim, kind: str, payload: dict[str, Any]) -> tuple[str, str]:
    """A cover, over the claim's whole domain, of the relation or of one definedness condition of its sides,
    with the expression and the domain re-derived from the claim's fields."""
    _require_kind(claim, kind, "interval-cover")
    goals = [(from_sympy(claim.rhs - claim.lhs), (RELATION[claim.op],), relation_text(claim))]
    goals += [
        (tree := from_sympy(c.expr), condition_relations(c.relation), f"defined: {term_text(tree)} {c.relation} 0")
        for c in claim.conditions
    ]
    if not isinstance(payload, dict) or not isinstance(payload.get("domain"), dict):
        raise Rejected("a cover needs a domain")
    match = [g for g in goals if g[0] == payload.get("expression") and payload.get("relation") in g[1]]
    if not match:
        raise Rejected(f"the cover is neither the relation of {claim.id!r} nor one of its definedness conditions")
    unknown = sorted(set(payload["domain"]) - {s.name for s in claim.order})
    if unknown:
        raise Rejected(f"unknown field domain.{unknown[0][:60]!r}: not a parameter of {claim.id!r}")
    if any(not isinstance(ends, list) or len(ends) != 2 for ends in payload["domain"].values()):
        raise Rejected("each box side must be [lo, hi]")
    domain = {k: (parse_rational(lo), parse_rational(hi)) for k, (lo, hi) in payload["domain"].items()}
    if recheck.rational_map(payload.get("constants"), "constants"):
        raise Rejected("a claims-file cover fixes no parameter: it covers the whole domain")
    if any(not lo <= hi for lo, hi in domain.values()):
        raise Rejected("each box side must be [lo, hi] with lo <= hi")
    region = claim_region(claim)
    recheck.require_keys(payload, recheck.COVER_KEYS, "cover")
    with precision(recheck.recorded_precision(payload, fmt.MAX_COVER_PRECISION)):
        missing = region.uncovered(domain)
    if missing is not None:
        raise Rejected(f"the cover's box does not contain the domain of {claim.id!r}: {missing}")
    vanishing = claim_vanishing(claim) if match[0] is goals[0] else None
    boxes = recheck.cover(payload, match[0][0], payload["relation"], domain, {}, region, vanishing)
    where = ", ".join(f"{k} in [{a}, {b}]" for k, (a, b) in domain.items())
    proved = (
        f"claims-file claim {claim.id!r}: {domain_text(claim)}{match[0][2]} (on the whole domain, root box "
        f"{where or 'of no parameters'})"
    )
    return proved, f"{boxes} boxes re-evaluated with balls, each clipped to the domain"


def _smt(claim: InequalityClaim | IdentityClaim, payload: dict[str, Any], seconds: float) -> tuple[str, str]:
    """The whole claim: z3 and cvc5 on the checker's own text of the statement re-derived from the claim."""
    text = smt_problem(claim, payload)
    how = recheck_unsat([text], seconds)
    statement = domain_text(claim) + relation_text(claim)
    proved = f"claims-file claim {claim.id!r}: {statement} (both sides defined on the whole domain)"
    cuts = len(payload["cuts"])
    return proved, f"{how}; statement re-derived from the claim, {cuts} Taylor cut(s) of exp checked with balls"


def smt_problem(claim: InequalityClaim | IdentityClaim, payload: dict[str, Any]) -> str:
    """The SMT-LIB2 text of the claim's statement with the payload's cuts (each validated with balls), after
    checking that the payload holds exactly that statement; Rejected otherwise."""
    recheck.require_keys(payload, {"logic", "cuts", "statements"}, "smt payload")
    if not isinstance(payload["cuts"], list) or len(payload["cuts"]) > MAX_CUTS:
        raise Rejected(f"cuts must be a list of at most {MAX_CUTS}")
    try:
        cuts = [Cut.from_data(data) for data in payload["cuts"]]
        mine = encode_claim(claim).statement(cuts).tree()
    except CutError as exc:
        raise Rejected(f"a cut is not valid: {exc}") from None
    except NotEncodable as exc:
        raise Rejected(f"claim {claim.id!r} has no SMT encoding ({exc})") from None
    integers = mine.get("integers", [])
    if payload["logic"] != smtlib.logic(integers):
        raise Rejected(f"logic {str(payload['logic'])[:40]!r}: the claim is stated in {smtlib.logic(integers)}")
    stated = payload["statements"]
    if not isinstance(stated, list) or len(stated) != 1 or not isinstance(stated[0], dict):
        raise Rejected("a claims-file smt certificate holds exactly one statement")
    for part in ("name", "constants", "integers", "hypotheses", "goal"):
        if stated[0].get(part) != mine.get(part):
            raise Rejected(f"the statement's {part} field differs from the encoding of claim {claim.id!r} and its cuts")
    if set(stated[0]) != set(mine):
        raise Rejected(f"unexpected statement fields {sorted(set(stated[0]) - set(mine))}")
    return smtlib.problem_text(mine["constants"], mine["hypotheses"], mine["goal"], integers)
