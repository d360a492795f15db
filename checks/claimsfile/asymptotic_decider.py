"""Deciding an asymptotic claim: its quantity's bracket (`asymptotic_quantities`), then the order or limit on it.

The bracket's proof and every limit, sign and zero the relation rests on are exact (`identities.asymptotic_orders`
on `identities.limits`, `identities.signs`, `identities.zero_test`): PROVED with those steps and the limits
shown, REFUTED when a limit shows the relation false (for every parameter, or at an exact parameter point where a
ball separates the two sides, the point in the witness), INCONCLUSIVE with the reason otherwise. An expression's
claim not settled for every parameter at once is decided again at exact points of its domain, the point's values put
in (`asymptotic_quantities.at_point`): refuted at one point, it is REFUTED (a domain of gamma straddling a critical
value). No verdict here comes from floats or from SymPy's evaluation.
"""

from __future__ import annotations

from typing import Any

import sympy as sp
from headflow.certificates.claims.domains import contains
from headflow.certificates.claims.evaluation import EvaluationError, ball
from headflow.certificates.claims.orders import ORDERS
from headflow.certificates.claims.schema import AsymptoticClaim
from headflow.certificates.counted import spend
from headflow.certificates.inert import inert
from headflow.certificates.provers import exit_gap_limit, limits, orders, reduced_time
from headflow.certificates.store import certificate_directory
from headflow.checks.claimsfile.asymptotic_quantities import Setting, Unsupported, plain, setting
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict
from headflow.identities import asymptotic_orders as ao
from headflow.identities.derivation import Derivation

METHOD = (
    "exact: a proved bracket of the quantity, limits by the checked route (headflow.identities.limits), exact signs"
)
#: Working precision (bits) of the balls that separate a limit from the claimed value at a parameter point.
PRECISION = 128
#: Operations (`headflow.certificates.counted`) the bracket and its limits may take, per profile (a formula like n**1000
#: makes SymPy's algebra slow).
OPERATIONS = {"quick": 45_000_000, "thorough": 400_000_000}


def decide_asymptotic(claim: AsymptoticClaim, ctx: Context) -> Outcome:
    """PROVED, REFUTED or INCONCLUSIVE (with the reason) for the claim's relation as its variable -> oo."""
    decided, why = spend(OPERATIONS.get(ctx.profile, OPERATIONS["quick"]), lambda: _decide(claim))
    if decided is None:
        return Outcome(Verdict.INCONCLUSIVE, METHOD, notes=f"the bracket and its limits ran past {why}")
    return with_limit_certificate(claim, decided, ctx)


def with_limit_certificate(claim: AsymptoticClaim, outcome: Outcome, ctx: Context) -> Outcome:
    """A PROVED or REFUTED outcome of a claim on a closed form with the `limit` certificate of its verdict
    (`certificates.provers.limits`, from the limit the route found), when one is found and the kernel accepts it (on
    the clustering time, the `order` certificate of a table entry that lists it, `certificates.provers.orders`, else
    the `reduced-time` certificate of its bracket, `certificates.provers.reduced_time`; on the exit gap, the `exit-gap`
    certificate of its bracket, `certificates.provers.exit_gap_limit`);
    INCONCLUSIVE when the kernel accepts the opposite verdict instead (the route and the kernel disagree: neither is
    taken); any other unchanged."""
    if outcome.verdict not in (Verdict.PROVED, Verdict.REFUTED):
        return outcome
    holds = outcome.verdict is Verdict.PROVED
    if claim.quantity != "expression":  # a named quantity: the table entry that lists its order, else its bracket
        directory = certificate_directory(ctx.certificate_dir)
        brackets = (orders.certify, reduced_time.certify, exit_gap_limit.certify)  # each None off its quantity
        return outcome.with_certificate(next(filter(None, (c(claim, holds, directory) for c in brackets)), None))
    shown = (outcome.details or {}).get("limits") or {}
    limit = next((str(value) for key, value in shown.items() if key.startswith("lim Q")), None)
    limit = "oo" if (outcome.details or {}).get("unbounded") else limit  # the kernel is asked for |Q/g| -> oo
    at = (outcome.details or {}).get("point")  # a refutation at a point of the parameters' domain
    path = limits.certify(claim, holds, limit, certificate_directory(ctx.certificate_dir), at)
    for other in (outcome.details or {}).get("others", []) if path is None else []:  # the route's other points
        shown = next((str(v) for k, v in other["limits"].items() if k.startswith("lim Q")), None)
        path = path or limits.certify(claim, holds, shown, certificate_directory(ctx.certificate_dir), other["point"])
    if path is None and limits.accepted(claim, not holds, limit):
        notes = f"the kernel's limit check proves the opposite of {outcome.verdict.value}: neither is taken"
        return Outcome(Verdict.INCONCLUSIVE, outcome.method, notes=notes, details=outcome.details)
    return outcome.with_certificate(path)


def _decide(claim: AsymptoticClaim) -> Outcome:
    derivation = Derivation()
    try:
        found = setting(claim, derivation)
        reference, over = (plain(e).xreplace(found.symbols) for e in (claim.reference, claim.over))
    except Unsupported as exc:
        return Outcome(Verdict.INCONCLUSIVE, METHOD, notes=str(exc))
    decision = ao.decide(
        found.bracket, claim.relation, reference, lambda expr: _separated(expr, found, claim), over, _label(claim)
    )
    if decision.status == "undecided" and claim.quantity == "expression":
        refuted = _refuted_at_a_point(claim, found, reference, over)
        if refuted is not None:
            return refuted
    details: dict[str, Any] = {
        "quantity": claim.quantity + (f" ({claim.attention})" if claim.attention else ""),
        "bracket": f"{found.bracket.lower} <= Q <= {found.bracket.upper} for large {claim.variable}",
        "limits": decision.shown,
        "unbounded": decision.unbounded,
        "reason": decision.reason,
    }
    if decision.status == "proved":
        return Outcome(Verdict.PROVED, METHOD, steps=list(derivation.steps), notes=decision.reason, details=details)
    if decision.status == "refuted":
        steps = [step.text for step in derivation.steps]
        witness = {"verified_by": decision.by, "reading": decision.reason, **decision.shown}
        return Outcome(
            Verdict.REFUTED,
            METHOD,
            witness=witness,
            notes=decision.reason,
            finding=decision.reason,
            details=details | {"derivation": steps},
        )
    return Outcome(Verdict.INCONCLUSIVE, METHOD, notes=decision.reason, details=details)


def _points(claim: AsymptoticClaim, found: Setting) -> list[dict[sp.Symbol, sp.Rational]]:
    """Exact points of the claim's domain (the first candidate of every parameter, then one parameter moved to each of
    its other candidates), each only if the domain provably contains it."""
    free = sorted(found.candidates, key=str)
    base = {symbol: found.candidates[symbol][0] for symbol in free}
    tried = [base] + [base | {symbol: value} for symbol in free for value in found.candidates[symbol][1:]]
    others = [s for s in claim.order if s != claim.variable]
    unique = [point for k, point in enumerate(tried) if point not in tried[:k]]
    return [point for point in unique if contains(claim.domains, others, point)]


def _refuted_at_a_point(claim: AsymptoticClaim, found: Setting, reference: sp.Expr, over: sp.Expr) -> Outcome | None:
    """REFUTED when, at an exact point of the domain, the relation is refuted by the same exact route with the point's
    values put in (a claim for every parameter fails at one): a domain straddling gamma = 1, where the limit of
    n**gamma/(n**gamma + n - 1) is 0 below and 1 above, is decided at a point on the wrong side (the other points
    where it fails are listed in the details' `others`, for the certificate search). None otherwise."""
    if all(len(values) == 1 for values in found.candidates.values()):
        return None  # no parameter, or every one already at its only value: nothing new to try
    refuted: Outcome | None = None
    for point in _points(claim, found):
        derivation = Derivation()
        try:
            at = setting(claim, derivation, fixed=point)
        except Unsupported:
            continue
        decision = ao.decide(
            at.bracket,
            claim.relation,
            reference.xreplace(point),
            lambda expr, at=at: _separated(expr, at, claim),
            over.xreplace(point),
            _label(claim),
        )
        if decision.status != "refuted":
            continue
        if refuted is not None:  # another point where it fails: the certificate search may try it too
            refuted.details["others"].append(
                {"point": {str(k): str(v) for k, v in point.items()}, "limits": decision.shown}
            )
            continue
        where = ", ".join(f"{symbol} = {value}" for symbol, value in point.items())
        reason = f"at {where} (a point of the domain): {decision.reason}"
        witness = {"point": where, "verified_by": decision.by, "reading": reason, **decision.shown}
        details = {
            "point": {str(symbol): str(value) for symbol, value in point.items()},
            "quantity": claim.quantity,
            "bracket": f"{at.bracket.lower} <= Q <= {at.bracket.upper} for large {claim.variable}, at {where}",
            "limits": decision.shown,
            "unbounded": decision.unbounded,
            "reason": reason,
            "derivation": [step.text for step in derivation.steps],
            "others": [],
        }
        refuted = Outcome(Verdict.REFUTED, METHOD, witness=witness, notes=reason, finding=reason, details=details)
    return refuted


def _label(claim: AsymptoticClaim) -> str:
    raw = claim.raw.get("over" if claim.relation == "limit" else "order", "1")
    text = str(raw).strip().lstrip("~").strip()
    for name in ORDERS:
        if text.startswith(f"{name}(") and text.endswith(")"):
            return f"({text[len(name) + 1 : -1]})"
    return f"({text})"


def _separated(expr: sp.Expr, found: Setting, claim: AsymptoticClaim) -> str | None:
    """An exact parameter point of the regime (of the claim's domain, for an expression) where a ball shows
    expr != 0, as text; None when no candidate point does."""
    needed = set(expr.free_symbols) | (set(found.candidates) if claim.quantity == "expression" else set())
    free = sorted(needed, key=str)
    if any(symbol not in found.candidates for symbol in free):
        return None
    base = {symbol: found.candidates[symbol][0] for symbol in free}
    tried = [base] + [base | {symbol: value} for symbol in free for value in found.candidates[symbol][1:]]
    for point in tried:
        if claim.quantity == "expression" and not contains(
            claim.domains, [s for s in claim.order if s != claim.variable], point
        ):
            continue
        try:
            value = ball(inert(expr.xreplace(point)), {}, PRECISION)
        except (EvaluationError, ValueError):
            continue
        if value > 0 or value < 0:
            where = ", ".join(f"{symbol} = {number}" for symbol, number in point.items())
            return f"{where} (the difference is {value.str(15, radius=True)})"
    return None
