"""Certificates of asymptotic claims on a closed form (form `limit`, `headflow.certificates.kernel.limits`).

The search (allowed here, never in the kernel): the limit L (the claim's value, or the checked route's when the claim
fails, `found`), then the error bound C e(v) from a few candidates (`RATES` on the scale of v, coefficients 1, 2, 4,
the exponentials of the expression and their products with L), each built statement decided with z3 and Taylor cuts
(`smt_refinement.refine`). The statement is the elaborator's (`certificates.statements.limits`, the one `check-cert
--claims` makes); the writer runs the kernel's check first and writes nothing it rejects.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy as sp
from flint import arb
from headflow.certificates.claims.expressions import parse_tree
from headflow.certificates.claims.interaction_text import ordinary
from headflow.certificates.claims.problems import ExpressionError
from headflow.certificates.claims.schema import AsymptoticClaim
from headflow.certificates.counted import spend
from headflow.certificates.kernel import limits, real_statements, solvers
from headflow.certificates.kernel.exact import precision
from headflow.certificates.kernel.exprtree import Tree, TreeError, evaluate, parse_rational, rational_text, symbols
from headflow.certificates.kernel.limits import instance
from headflow.certificates.kernel.real_encoding import Encoding, NotEncodable
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.provers.smt_refinement import products, refine, symbolic_power
from headflow.certificates.statements.limits import elaborate, reference
from headflow.certificates.store import write_found
from headflow.certificates.sympy_trees import from_sympy
from headflow.certificates.trees import subtrees

#: The rates k tried on each scale, in order.
RATES = (Fraction(2), Fraction(1), Fraction(1, 2), Fraction(1, 4), Fraction(1, 8))
#: The power cuts proposed between every two exponential atoms (q a_i - p a_j <= 0 iff e_i^q <= e_j^p), as (q, p).
POWERS = ((1, 2), (2, 1), (1, 3), (3, 1), (1, 4), (4, 1))
#: Below this estimated decay rate (a power of v; 1/log v reads 0.06 between 10^6 and 10^8) the log scale is tried
#: first (else not), with the operations SymPy may spend on the coefficient's limit.
LOG_DECAY, LOG_OPERATIONS = 0.1, 3_000_000
#: z3's resources for one built statement, and the seconds each solver has in the kernel's check.
RLIMIT, ROUNDS, SECONDS = 1_000_000, 4, 20.0
#: Candidates tried at most (a count, not a clock: whether a certificate is written does not depend on load).
CANDIDATES = 8
#: The wall-clock safety net of each solver process in a candidate's screen (`screened`): the solvers' own counted
#: limits decide, and the net stops the nonlinear steps in which a solver counts nothing for minutes (a failing
#: candidate's). It is several times what a kept candidate takes (every successful screen of the tests and examples
#: took under 0.7 s, the process's start included), where the kernel's check under 2 s for two processes, which the
#: search used before, was not on a loaded machine. Also z3's wall-clock limit per problem in the Taylor-cut
#: refinement (`refine`, in this process), where a problem can otherwise run for minutes.
SCREEN_SECONDS = 4.0
#: Single power cuts of three or four atoms tried per statement (`_one_power_cut`; a count, so that whether a
#: certificate is written does not depend on load beyond the solvers' own limits).
ONE_CUT_CANDIDATES = 96
#: Candidates tried over a symbolic power n**gamma (or exp(gamma log n)): the solvers close such a bound with the
#: first or second coefficient or not at all (the examples' long-context claims), and each failure costs the solvers'
#: full seconds.
POWER_CANDIDATES = 2


def certify(
    claim: AsymptoticClaim, holds: bool, limit: str | None, directory: Path, at: dict[str, str] | None = None
) -> Path | None:
    """The certificate of the verdict (`holds`), `limit` the checked route's limit of the claim's ratio (text; used
    where the claim does not fix it; at the point `at` of some parameters, where a refutation is there), once the
    kernel's check accepted it; None when none is found."""
    return write_found(directory, claim, search(claim, holds, limit, at))


def accepted(claim: AsymptoticClaim, holds: bool, limit: str | None) -> bool:
    """Whether a certificate of the verdict is found and accepted by the kernel (nothing written)."""
    return search(claim, holds, limit) is not None


def search(
    claim: AsymptoticClaim, holds: bool, limit: str | None, at: dict[str, str] | None = None
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(statement, payload) of the verdict that the kernel accepts, or None."""
    if claim.quantity != "expression":
        return None
    names = {s.name: s for s in claim.order}
    try:
        value = None if limit in (None, "oo", "-oo") else parse_tree(limit, names)
    except ExpressionError:
        return None
    infinite = not holds and claim.relation != "Omega" and limit in ("oo", "-oo")  # |Q/g| -> oo: 1/(Q/g) -> 0
    sign = None if infinite else _sign(claim.relation, holds)
    if not infinite and (
        sign == "?" or (value is None and (sign is not None or claim.relation in ("Theta", "Omega", "O")))
    ):
        return None
    limit_tree = value if value is not None and not infinite else ["rat", "0"]
    if claim.relation == "limit" and not holds and value is not None:
        limit_tree = ["sub", value, parse_tree(claim.raw["limit"], names)]
    elif claim.relation == "~" and not holds and value is not None:
        limit_tree = ["sub", value, ["rat", "1"]]
    expression = parse_tree(claim.raw["expr"], names)
    logs = ["log", ["sym", claim.variable.name]] in subtrees(expression)  # exp(gamma log n) is n**gamma too
    budget = POWER_CANDIDATES if symbolic_power(expression) or logs else CANDIDATES
    budget = 1 if at else budget  # at a point: one candidate, the products and power cuts only (`_cuts`)
    columns = [{"sign": s} if s else {} for s in ((">", "<") if sign == "!" else (sign,))]
    columns = [{"infinite": True}] if infinite else columns
    columns = [c | {"at": at} for c in columns] if at and not holds else columns
    for column in columns:
        for error in _errors(claim, limit_tree, column)[:budget]:
            payload = {"limit": limit_tree, "error": error} | column
            try:
                statement = elaborate(claim, "smt", payload)
            except Rejected:
                return None
            if statement is None:
                return None
            try:
                cuts = _cuts(statement)
            except NotEncodable:
                return None
            if cuts is None:
                continue
            payload |= {"limit": statement["limit"], "cuts": cuts}
            try:
                limits.check(statement, claim.id, "smt", payload, SECONDS)
            except Rejected:
                continue
            return statement, payload
    return None


def _sign(relation: str, holds: bool) -> str | None:
    """The statement's sign: none for a limit, ~ or o that holds or a Theta, Omega that fails; `>` for a Theta or
    Omega that holds; "!" for a limit, ~ or o that fails (either side of 0: `>` is tried first); "?" where the verdict
    is not stated (O(g) refuted)."""
    if relation in ("limit", "~", "o"):
        return None if holds else "!"
    if relation in ("Theta", "Omega"):
        return ">" if holds else None
    return None if holds else "?"


def _decay(claim: AsymptoticClaim, limit: Tree, column: dict[str, Any]) -> float | None:
    """The least rate k with |h - L| ~ v^(-k) seen at the corners of the other variables' bounds (balls at v = 10^6
    and 10^8; a proposal only); None when it cannot be estimated."""
    statement = elaborate(claim, "smt", {"limit": limit, "error": {}} | column)
    if statement is None:
        return None
    statement = instance(statement) if "at" in statement else statement  # the fixed variables' values put in
    v, others = statement["variable"], statement["variables"][:-1]
    corners = [{}]
    for other in others:
        values = _corners(other) or [parse_rational(statement["point"][other["name"]])]
        corners = [c | {other["name"]: x} for c in corners for x in values]
    h = ["div", ["rat", "1"], statement["expression"]] if "infinite" in statement else statement["expression"]
    difference, rates = ["sub", h, statement["limit"]], []
    for corner in corners:
        try:
            with precision(256):
                at = [
                    abs(evaluate(difference, {k: arb(str(x)) for k, x in (corner | {v: 10**e}).items()}))
                    for e in (6, 8)
                ]
            rates.append(float((at[0] / at[1]).log() / arb(100).log()))
        except (TreeError, ValueError, ZeroDivisionError):
            return None
    return min(rates, default=None) if all(math.isfinite(r) for r in rates) else None


def _corners(variable: dict[str, Any]) -> list[Fraction]:
    """A variable's rational ends, an open one moved inward by a quarter of the width (by 1 on a half-line): rho1 in
    (0, 1) is read at 1/4 and 3/4."""
    low, high = (
        parse_rational(b[1]) if b is not None and b[0] == "rat" else None for b in (variable["low"], variable["high"])
    )
    step = (high - low) / 4 if low is not None and high is not None else Fraction(1)
    ends = [low + step * variable["low_open"]] if low is not None else []
    return ends + ([high - step * variable["high_open"]] if high is not None else [])


def _errors(claim: AsymptoticClaim, limit: Tree, column: dict[str, Any]) -> list[dict[str, Any]]:
    """Candidate error bounds C e(v): in n or d on the power scale, the largest rate below the estimated decay first;
    in another variable on the exp scale, each rate the expression's exponentials give v (`_exp_errors`)."""
    if claim.variable.name not in ("n", "d"):
        return _exp_errors(claim, limit, "infinite" in column)
    decay = _decay(claim, limit, column)
    exps = _exponentials(claim)
    coefficients: list[Tree] = [["rat", "1"], ["rat", "2"], ["rat", "4"]]
    coefficients += [e for e in exps] + [["mul", ["rat", "2"], e] for e in exps]
    if symbols(limit):
        coefficients += [["mul", ["rat", "2"], limit, e] for e in exps] + [["mul", ["rat", "2"], limit]]
    rates = sorted((k for k in RATES if decay is not None and k <= decay * 1.01), reverse=True) or list(RATES)
    found = [{"coefficient": c, "scale": "power", "rate": rational_text(k)} for k in rates[:2] for c in coefficients]
    slow = decay is not None and decay < LOG_DECAY  # slower than any power: the log scale first
    return (_log_errors(claim, limit, column) if slow else []) + found


def _log_errors(claim: AsymptoticClaim, limit: Tree, column: dict[str, Any]) -> list[dict[str, Any]]:
    """C/log(v) where |h - L| decays slower than any power of v: C = +-K, +-2K, K the limit of (h - L) log v that SymPy
    finds with the logarithms split (a proposal, under a counted budget: the kernel decides); none when it finds none.
    n log(rho1 sqrt d)/(n log d) - 1/2 = log(rho1)/log d: K = log rho1, so C = -log rho1 (rho1 < 1)."""
    statement = elaborate(claim, "smt", {"limit": limit, "error": {}} | column)
    if statement is None or "infinite" in statement or "at" in statement:
        return []
    try:
        difference = ordinary(["sub", statement["expression"], statement["limit"]])
    except (TreeError, ValueError, TypeError):
        return []
    positive = {s: sp.Symbol(s.name, positive=True) for s in difference.free_symbols}
    v = positive.get(sp.Symbol(statement["variable"]), sp.Symbol(statement["variable"], positive=True))
    expanded = sp.expand_log(difference.xreplace(positive), force=True)
    found, _ = spend(LOG_OPERATIONS, lambda: _limit(sp.expand(expanded * sp.log(v)), v))
    if found is None or not found.is_finite or found == 0 or found.has(v):
        return []
    try:
        k = from_sympy(found.xreplace({p: sp.Symbol(p.name) for p in positive.values()}))
    except (TreeError, ValueError, TypeError):
        return []
    scaled = [k, ["neg", k], ["mul", ["rat", "2"], k], ["neg", ["mul", ["rat", "2"], k]]]
    return [{"coefficient": c, "scale": "log", "rate": "1"} for c in scaled]


def _limit(expr: sp.Expr, v: sp.Symbol) -> sp.Expr | None:
    """SymPy's limit of expr as v -> oo, or None where SymPy raises (a proposal: none is then made)."""
    try:
        return sp.limit(expr, v, sp.oo)
    except (ValueError, TypeError, NotImplementedError, ArithmeticError, RecursionError, AttributeError):
        return None


def _exp_errors(claim: AsymptoticClaim, limit: Tree, infinite: bool = False) -> list[dict[str, Any]]:
    """C exp(-k v) for each k with exp(k v), exp(v k) or exp(k v / c) (then k / c) in the expression, k free of v; C
    the limit's size times 1, another variable or a ratio of them (e^(-lam beta) (n - 1) is the error of (e^(lam beta)
    + n - 1)/e^(lam beta) -> 1). Where |Q/g| -> oo (`infinite`), the reference g's rates first, C also doubled (2 lam
    e^(lam beta / 2)/(e^(lam beta) + n - 1) <= 2 lam e^(-lam beta / 2))."""
    v, found, names = ["sym", claim.variable.name], [], {s.name: s for s in claim.order}
    trees = [parse_tree(claim.raw["expr"], names)]
    trees = [reference(claim, names), *trees] if infinite else trees
    for node in [node for tree in trees if tree is not None for node in subtrees(tree)]:
        argument = node[1] if node[:1] == ["exp"] else None
        over = argument[2] if argument and argument[0] == "div" and argument[2][0] == "rat" else None
        argument = argument[1] if over else argument
        if node[:1] == ["rate"] and node[3] == v:
            found.append(node[1])
        elif argument and argument[0] == "mul" and len(argument) == 3 and v in argument[1:]:
            k = argument[2] if argument[1] == v else argument[1]
            found.append(["div", k, over] if over else k)
    found = [k for k in found if v[1] not in symbols(k)]
    rates = [k for i, k in enumerate(found) if k not in found[:i]]
    others = [["sym", s.name] for s in claim.order if s.name != v[1]]
    size = [["rat", "1"]] if not symbols(limit) else [["mul", ["rat", "2"], limit]]
    size += [["rat", "2"]] * infinite
    ratios = [["div", o, p] for o in [["rat", "1"], *others] for p in others if o != p]
    coefficients = size + [["mul", c, o] for o in others + ratios for c in size]
    if infinite:  # g/Q decays with the parameters' size: their multiples first (2 lam e^(-lam beta / 2))
        coefficients = [["mul", c, o] for o in others + ratios for c in size[::-1]] + size
    return [{"coefficient": c, "scale": "exp", "rate": k} for k in rates for c in coefficients]


def _exponentials(claim: AsymptoticClaim) -> list[Tree]:
    """exp(beta lam) for the expression's `rate` nodes and its own exp nodes free of the variable, once each."""
    found: list[Tree] = []

    def walk(tree: Any) -> None:
        if not isinstance(tree, list) or not tree or tree[0] in ("rat", "sym"):
            return
        if tree[0] == "rate" and claim.variable.name not in symbols(tree[3]):
            found.append(["exp", ["mul", tree[3], tree[1]]])
        if tree[0] == "exp" and claim.variable.name not in symbols(tree):
            found.append(tree)
        for child in tree[1:]:
            walk(child)

    walk(parse_tree(claim.raw["expr"], {s.name: s for s in claim.order}))
    return [t for k, t in enumerate(found) if t not in found[:k]]


def _cuts(statement: dict[str, Any]) -> list[list[dict[str, object]]] | None:
    """The cuts of each relation a limit statement builds (`proved_cuts`; at a point, `at`, without Taylor cuts: a
    second chance after the route refuted the claim there, whose failures cost the solvers' full seconds)."""
    return proved_cuts(limits.relations(statement), refining="at" not in statement)


def proved_cuts(
    statements: list[dict[str, Any]], refining: bool = True, one_cut: bool = False
) -> list[list[dict[str, object]]] | None:
    """The cuts that prove each statement of form `real`, or None when one is not proved: first the products and
    `POWERS` between every two atoms, checked as the kernel checks them (solvers in fresh processes, killed at their
    limit); with `one_cut`, then the products and one power cut of three or four atoms (`_one_power_cut`); else z3
    with Taylor cuts (`smt_refinement.refine`), except over a symbolic power, where z3's nonlinear search may not stop
    at its limits (nor without `refining`). NotEncodable when a statement has no encoding (no other candidate has
    either)."""
    found = []
    for built in statements:
        encoding = Encoding(built)
        pairs = itertools.permutations(range(len(encoding.exponentials)), 2)  # q a_i <= p a_j and p a_j <= q a_i
        extra = [{"kind": "power", "atoms": [i, j], "exponents": [q, -p]} for i, j in pairs for q, p in POWERS]
        if screened(built, products(encoding) + extra):
            found.append(products(encoding) + extra)
            continue
        if symbolic_power(built) or not refining:
            return None
        if one_cut and (cut := _one_power_cut(built, encoding)) is not None:
            found.append(cut)
            continue
        refinement = refine(encoding, lambda _: None, RLIMIT, ROUNDS, extra, SCREEN_SECONDS)
        if refinement.status != "proved":
            return None
        found.append(refinement.data)
    return found


def _one_power_cut(built: dict[str, Any], encoding: Encoding) -> list[dict[str, object]] | None:
    """The products and the first power cut of three or four atoms with exponents +-1 that proves the statement, of the
    first `ONE_CUT_CANDIDATES`: the logarithms' first (log(x y) = log x + log y, which the pair cuts do not give),
    then the exponentials' (e^a e^b <= e^c for a + b <= c); None when none does."""
    atoms = enumerate(encoding.exponentials)
    logs = [k for k, (_, argument) in atoms if argument[0] == "sym" and argument[1] not in encoding.variables]
    pools = (logs, [k for k in range(len(encoding.exponentials)) if k not in logs])
    candidates = (
        {"kind": "power", "atoms": list(chosen), "exponents": list(signs)}
        for pool, size in itertools.product(pools, (3, 4))
        for chosen in itertools.combinations(pool, size)
        for signs in itertools.product((1, -1), repeat=size)
    )
    for cut in itertools.islice(candidates, ONE_CUT_CANDIDATES):
        if screened(built, [*products(encoding), cut]):
            return [*products(encoding), cut]
    return None


def screened(built: dict[str, Any], cuts: list[dict[str, object]]) -> bool:
    """Whether the kernel's rule accepts these cuts for the built statement (`solvers.recheck_unsat`: one solver answers
    unsat and none sat, unknown or an error), asked of its solvers under their counted limits, z3 first and cvc5 only
    where z3 ran out, on the kernel's own text (`real_statements.smt_problem`, which validates each cut): the search's
    test of a candidate (net SCREEN_SECONDS); the kernel's check of the candidate kept decides (the writer runs it
    before it writes)."""
    try:
        text = real_statements.smt_problem(built, {"cuts": cuts})
    except Rejected:
        return False
    for solver in solvers.SCRIPTS:  # z3, then cvc5
        (answer,) = solvers.answers(solver, [text], SCREEN_SECONDS)
        if answer not in (solvers.RESOURCE_LIMIT, solvers.SAFETY_LIMIT):
            return answer == "unsat"
    return False


def checked_cuts(form: Any, claim_id: str, statement: dict[str, Any], payload: dict[str, Any], cuts_of: Any) -> Any:
    """The payload with the cuts `cuts_of` finds for the relations the kernel's `form` module builds from the statement
    (one list per built statement), once that form's check accepts it; None when a relation has no encoding or no
    cuts, or the check refuses (the bracketed forms: `reduced_time`, `exit_gap`)."""
    try:
        cuts = cuts_of(form.built(statement, payload | {"cuts": []}))
    except (NotEncodable, Rejected):
        return None
    if cuts is None:
        return None
    try:
        form.check(statement, claim_id, "smt", payload | {"cuts": cuts}, SECONDS)
    except Rejected:
        return None
    return payload | {"cuts": cuts}
