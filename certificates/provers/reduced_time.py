"""Certificates of asymptotic claims on the clustering time (form `reduced-time`,
`headflow.certificates.kernel.reduced_time`), from the bracket of `identities.reduced_clustering`.

The search (untrusted; the kernel checks what it writes): the antiderivative A of the reduction's 1/(G R) from the
identities module, the factor G written in the kernel's own exponentials (`equiangular.weights`: softmax's G = (e^(beta
lam) + (n - 1) e^(beta lam rho))/e^(beta lam rho), relu's 1), its least and greatest values on the path as the
identities module writes them (`softmax_factor_ends`: G decreases in rho); then the error of each end on the log scale
of v, C/log v with C from `COEFFICIENTS`, bounds found by hand for the natural normalization `BASES` (softmax T/log n ->
1/(2 lam): with a = G - (n - 1) at the end, |(n - 1 + a)/n log((1 + (n - 1) rho1)/(1 - rho1)) - log n| <= -log rho1 -
log(1 - rho1) + (a - 1) rho1/(1 - rho1); relu T/(n log d/(4 lam^2 beta)) -> 1 within 2 (-log rho1 - log(1 - rho1) +
log(1 + (n - 1) rho1))/log d), divided by the claim's g over the base when that ratio is free of v; and the cuts of
every built statement (`limits.proved_cuts` with `one_cut`: one power cut of three or four atoms, log(x y) = log x + log
y, tried one at a time).
"""

from __future__ import annotations

import functools
import itertools
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy as sp
from headflow.certificates.claims.expressions import parse_tree
from headflow.certificates.claims.interaction_text import ordinary
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import AsymptoticClaim, DynamicsClaim
from headflow.certificates.kernel import reduced_time
from headflow.certificates.kernel.equiangular import weights
from headflow.certificates.kernel.exprtree import rational_tree
from headflow.certificates.kernel.real_encoding import Encoding
from headflow.certificates.provers.limits import POWERS, checked_cuts, products, proved_cuts, screened
from headflow.certificates.provers.smt_refinement import constant_cuts
from headflow.certificates.statements.limits import reference
from headflow.certificates.statements.reduced_time import elaborate, grows_like, target
from headflow.certificates.store import write_found
from headflow.certificates.sympy_trees import from_sympy
from headflow.identities import reduced_clustering as rc

lam, beta, n, d, rho1 = (sp.Symbol(name, positive=True) for name in ("lam", "beta", "n", "d", "rho1"))
#: The growth each kind's error coefficient is found for, and the coefficient as a function of the factor's end a.
BASES = {"softmax": sp.log(n), "relu": n * sp.log(d) / (4 * lam**2 * beta)}
COEFFICIENTS = {
    "softmax": lambda a: (-sp.log(rho1) - sp.log(1 - rho1) + (a - n) * rho1 / (1 - rho1)) / (2 * lam),
    "relu": lambda a: 2 * (-sp.log(rho1) - sp.log(1 - rho1) + sp.log(1 + (n - 1) * rho1)),
}
#: What T over each base tends to (the kernel checks it).
LIMITS = {"softmax": 1 / (2 * lam), "relu": sp.Integer(1)}
ONE = ["rat", "1"]
#: The identities module's symbols, by name.
_IDENTITIES = {rc.lam: lam, rc.beta: beta, rc.n: n, rc.d: d, rc.rho1: rho1, rc.rho: sp.Symbol("rho")}


def certify(claim: AsymptoticClaim, holds: bool, directory: Path) -> Path | None:
    """The certificate of the verdict (`holds`), once the kernel's check accepted it; None when none is found."""
    return write_found(directory, claim, search(claim, holds))


def search(claim: AsymptoticClaim, holds: bool) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(statement, payload) of the verdict that the kernel accepts, or None."""
    kind, sign = claim.attention or "", _sign(claim, holds)
    if kind not in BASES or sign == "?":
        return None
    names = {name: sp.Symbol(name, positive=True) for name in ("lam", "beta", "n", "d", "rho1")}
    scale = sp.simplify(_reference(claim, names) / BASES[kind])  # g over the base: T/g tends to LIMITS / scale
    if scale.free_symbols & {n, d} or not scale.is_positive:
        return None
    value = from_sympy(LIMITS[kind] / scale)
    if claim.relation in ("limit", "~") and not holds:  # h = T/g - L0 tends to D = value - L0
        value = ["sub", value, parse_tree(claim.raw["limit"], names) if claim.relation == "limit" else ONE]
    bracket = _bracket(kind)
    errors = [
        {"coefficient": from_sympy(COEFFICIENTS[kind](_end(kind, bracket[end])) / scale), "scale": "log", "rate": "1"}
        for end in ("low", "high")
    ]
    found: dict[str, list[dict[str, object]]] = {}  # the cuts of each built statement, across the columns
    for column in [{"sign": s} for s in ((">", "<") if sign == "!" else (sign,))] if sign else [{}]:
        payload = {"limit": value, "bracket": bracket, "errors": errors} | column
        statement = elaborate(claim, "smt", payload)
        if statement is None:
            return None
        payload["limit"] = statement["limit"]  # the claim's own where it fixes the limit
        checked = checked_cuts(reduced_time, claim.id, statement, payload, lambda built: _cuts(built, found))
        if checked is not None:
            return statement, checked
    return None


def _cuts(
    statements: list[dict[str, Any]], found: dict[str, list[dict[str, object]]]
) -> list[list[dict[str, object]]] | None:
    """The cuts of each built statement (`limits.proved_cuts` with one power cut of three or four atoms), the shortest
    statements first (a limit's sign, the cheapest, fails first where the column is the wrong one), each searched once
    (relu's two ends are the same; `found` is shared by the search's columns)."""
    keys = [json.dumps(statement, sort_keys=True) for statement in statements]
    for key, statement in sorted(zip(keys, statements, strict=True), key=lambda pair: len(pair[0])):
        if key not in found:
            cuts = proved_cuts([statement], one_cut=True)
            if cuts is None:
                return None
            found[key] = cuts[0]
    return [found[key] for key in keys]


def _sign(claim: AsymptoticClaim, holds: bool) -> str | None:
    """As `limits._sign`: none where the ratio's limit is the claim's, `>` for a Theta or Omega that holds, "!" for a
    limit or ~ that fails, "?" where this form states no verdict (T/g tends to a positive number here: no o(g))."""
    if claim.relation in ("limit", "~"):
        return None if holds else "!"
    if claim.relation in ("Theta", "Omega"):
        return ">" if holds else "?"
    return "?"


def _reference(claim: AsymptoticClaim, names: dict[str, sp.Symbol]) -> sp.Expr:
    """The claim's g as written (`statements.limits.reference`; 1 for a limit without `over`)."""
    written = reference(claim, names)
    return sp.Integer(1) if written is None else _sympy(written)


def _sympy(tree: Any) -> sp.Expr:
    """A tree as SymPy on this module's positive symbols (a proposal's algebra)."""
    plain = ordinary(tree)
    return plain.xreplace({s: sp.Symbol(s.name, positive=True) for s in plain.free_symbols})


def _bracket(kind: str, start: sp.Expr | None = None) -> dict[str, Any]:
    """A and G as trees (G in the kernel's exponentials), A at the start (the kind's, or softmax's `start`) with its
    logarithms split (relu's log(d^(-1/2)) is -log(d)/2, softmax's log 1 is 0: easier for the solvers) and at rho1 as A
    has it (one logarithm of softmax's quotient x, whose exp-fact x >= 1 + log x the bound of the error needs), and G's
    least and greatest values on [rho0, rho1] as the identities module writes them (relu: 1; softmax's G decreases in
    rho, so its greatest value is at the start)."""
    rho = _IDENTITIES[rc.rho]
    A = (rc.relu_antiderivative() if kind == "relu" else rc.softmax_antiderivative()).xreplace(_IDENTITIES)
    given = start is not None
    start = rc.relu_start.xreplace(_IDENTITIES) if kind == "relu" else start if given else sp.Integer(0)
    ends = {
        "at_start": from_sympy(sp.expand_log(A.subs(rho, start), force=True)),
        "at_target": from_sympy(A.subs(rho, rho1)),
    }
    if kind == "relu":
        return {"antiderivative": from_sympy(A), "factor": ONE, **ends, "low": ONE, "high": ONE}
    own, other = (w[1] for w in weights(reduced_time.reduction(kind, {}), ["sym", "lam"], reduced_time.RHO))
    factor = ["div", ["add", own, ["mul", ["add", ["sym", "n"], ["rat", "-1"]], other]], other]
    low, high = (end.xreplace(_IDENTITIES) for end in rc.softmax_factor_ends())
    high = high.subs(beta * lam, beta * lam * (1 - start)) if given else high
    return {"antiderivative": from_sympy(A), "factor": factor, **ends, "low": from_sympy(low), "high": from_sympy(high)}


def _end(kind: str, end: Any) -> sp.Expr:
    """The factor's end as SymPy (for the coefficient's proposal)."""
    return sp.Integer(1) if kind == "relu" else _sympy(end)


def certify_grows_like(claim: DynamicsClaim, holds: bool, directory: Path) -> Path | None:
    """The certificate of an order in beta's verdict (`statements.reduced_time.grows_like`), once the kernel's check
    accepted it; None when none is found."""
    return write_found(directory, claim, search_grows_like(claim, holds))


def search_grows_like(claim: DynamicsClaim, holds: bool) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(statement, payload) that the kernel accepts: log T/beta between c1 = lam (1 - rho1) and c0 = lam (1 - rho0)
    (each end within log(n (DA + 1/DA))/beta of its limit: log G(end) is c beta up to log n, and |log DA| <=
    log(DA + 1/DA)), or h -> +oo at the lower end (1/h within one of `_infinite_errors` of 0); None."""
    o = claim.options
    rho0, lam_value, rho1_value = (stated(v) for v in (o["rho"], o["lambdas"][0], target(claim)))
    if not rho0 < rho1_value:
        return None
    bracket = _bracket("softmax", sp.Rational(rho0.numerator, rho0.denominator))
    gained = ["sub", bracket["at_target"], bracket["at_start"]]
    low, high = lam_value * (1 - rho1_value), lam_value * (1 - rho0)
    if holds:
        coefficient = ["log", ["mul", ["sym", "n"], ["add", gained, ["div", ONE, gained]]]]
        error = {"coefficient": coefficient, "scale": "power", "rate": "1"}
        columns = [{"limit": rational_tree(low), "sign": ">", "upper": rational_tree(high), "errors": [error] * 2}]
    else:
        errors = _infinite_errors(low, gained)
        columns = [{"limit": ["rat", "0"], "infinite": True, "errors": [error]} for error in errors]
    found: dict[str, list[dict[str, object]]] = {}
    for column in columns:
        payload = column | {"bracket": bracket}
        statement = grows_like(claim, "smt", payload)
        if statement is None:
            continue
        cuts_of = functools.partial(_order_cuts, found=found, logs_first=holds)
        checked = checked_cuts(reduced_time, claim.id, statement, payload, cuts_of)
        if checked is not None:
            return statement, checked
    return None


def _order_cuts(
    statements: list[dict[str, Any]], found: dict[str, list[dict[str, object]]], logs_first: bool
) -> list[list[dict[str, object]]] | None:
    """The cuts of each built statement of an order in beta: the products and powers between every two atoms
    (`proved_cuts` without Taylor refinement), else the first of `_one_more_cut`; None when one has none."""
    keys = [json.dumps(statement, sort_keys=True) for statement in statements]
    for key, statement in zip(keys, statements, strict=True):
        if key not in found:
            cuts = proved_cuts([statement], refining=False)
            cut = cuts[0] if cuts is not None else _one_more_cut(statement, logs_first)
            if cut is None:
                return None
            found[key] = cut
    return [found[key] for key in keys]


def _one_more_cut(statement: dict[str, Any], logs_first: bool) -> list[dict[str, object]] | None:
    """The products and the first cut that proves the statement: a Taylor cut of degree 3 at 0 below one atom (e^x >=
    x^2/2: the lower end over beta grows), or a power cut of three atoms with exponents +-1, exponentials and
    logarithms mixed (log(G DA) <= c beta + log(n (DA + 1/DA)) is e^l <= e^(c beta) e^l'), those first with
    `logs_first`; then, with the logarithms of numbers pinned (`constant_cuts`: log T/sqrt(beta) needs DA > 1/2), a
    power cut of two atoms (beta/100 <= 2 log(G DA)) or three; None when none does."""
    encoding = Encoding(statement)
    count, base = len(encoding.exponentials), products(encoding)
    taylor: list[dict[str, object]] = [
        {"kind": "lower", "atom": k, "at": "0", "degree": 3, "factor": "1"} for k in range(count)
    ]
    powers: list[dict[str, object]] = [
        {"kind": "power", "atoms": list(chosen), "exponents": list(signs)}
        for chosen in itertools.combinations(range(count), 3)
        for signs in itertools.product((1, -1), repeat=3)
    ]
    pairs: list[dict[str, object]] = [
        {"kind": "power", "atoms": [i, j], "exponents": [q, -p]}
        for i, j in itertools.permutations(range(count), 2)
        for q, p in POWERS
    ]
    pinned = constant_cuts(encoding)
    candidates = [[*base, cut] for cut in (powers + taylor if logs_first else taylor + powers)]
    candidates += [[*base, *pinned, cut] for cut in pairs + powers] if pinned else []
    return next((cuts for cuts in candidates if screened(statement, cuts)), None)


def _infinite_errors(rate: Fraction, gained: Any) -> list[dict[str, Any]]:
    """The errors 1/h is proposed within, c1 = lam (1 - rho1) the lower end's rate: T/g with g = beta (e^(c1 beta)
    DA over beta, e^x >= x^2/2: 2/(c1^2 DA) beta^(-1)), log T/g with g = sqrt(beta) (log T grows like c1 beta: 2/c1
    beta^(-1/2))."""
    square = rational_tree(rate**2)
    return [
        {"coefficient": ["div", ["rat", "2"], ["mul", square, gained]], "scale": "power", "rate": "1"},
        {"coefficient": rational_tree(2 / rate), "scale": "power", "rate": "1/2"},
    ]
