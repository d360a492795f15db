"""Deciding an inequality on a punctured domain: `f(x) < f(c)` for every x != c (c the unique strict maximiser of f),
or `f(x) > f(c)` (the unique strict minimiser), for every value of the other parameters.

The domain table of x says `except = "c"`; one side of the claim is f(x), the other f(c) (checked: the other side is
exactly f with x replaced by c). Decided by the sign of f' = N / Q (`sp.together`; the claim's inert formula in
ordinary SymPy form, `asymptotic_quantities.plain`, refused when SymPy rewrote it):

- every definedness condition of the claim is proved on the domain (headflow.identities.signs), so f is defined and
  differentiable there; Q > 0 is proved, and c lies strictly inside x's interval;
- N has the sign of c - x (of x - c for a minimiser) for every x != c: either N = (c - x) K with K > 0 proved
  (exact division), or N strictly decreasing in x (dN/dx < 0 proved) with N(c) = 0, shown exactly after the defining
  identity e^(W(z)) = z / W(z) of each principal Lambert W value with z > 0 proved (W(z) e^(W(z)) = z, W(z) > 0);
- so f strictly increases up to c and strictly decreases after it: f(x) < f(c) for x != c. PROVED, with the steps.

Every sign is the structural prover's, from the domains as facts (`symbolic_dynamics.domain_facts`); none is
SymPy's evaluation. Before the proof, points of the domain (the domain's verified point and random ones, each with x
at distances 2^-k of c and at random) are tried with balls (`inequality_decider.refutation`): a point with x != c
(balls separate them) where the relation fails REFUTES the claim. Otherwise, and when a step does not close,
INCONCLUSIVE with the reason; no other route decides a punctured claim (they would read the domain without its hole).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp
from headflow.certificates import nonempty
from headflow.certificates.claims.domains import contains, domain_region
from headflow.certificates.claims.evaluation import EvaluationError, ball
from headflow.certificates.claims.schema import InequalityClaim
from headflow.certificates.claims.symbolic import REDUCTION_OPERATIONS, exactly_zero
from headflow.certificates.inert import Inert, inert
from headflow.certificates.kernel.exact import exact_value
from headflow.certificates.provers.counterexamples import witness_certificates
from headflow.certificates.provers.punctured import certify
from headflow.certificates.store import certificate_directory
from headflow.checks.claimsfile.asymptotic_quantities import converted
from headflow.checks.claimsfile.domain_sampling import sample_point
from headflow.checks.claimsfile.inequality_decider import refutation
from headflow.checks.claimsfile.symbolic_dynamics import domain_facts
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict, derived
from headflow.identities import signs
from headflow.identities.derivation import Derivation

METHOD = "exact: the sign of f' = N / Q on the punctured domain (headflow.identities.signs), N(c) = 0 exactly"
SEARCH = "balls at points of the domain, x near and away from the point left out"
#: Parameter points tried for a refutation, and the distances 2^-k of x from c.
POINTS = {"quick": 3, "thorough": 24}
DISTANCES = range(1, 12)
PRECISION = 128


def decide_punctured(claim: InequalityClaim, ctx: Context) -> Outcome:
    """REFUTED at a ball-verified point (with its counterexample certificate: the statement states the point left
    out as a condition x - c != 0 that the point meets), PROVED by the sign of f', or INCONCLUSIVE with why."""
    if len(claim.punctures) != 1:
        return Outcome(Verdict.INCONCLUSIVE, METHOD, notes="one punctured symbol per claim is decided")
    ((x, c),) = claim.punctures.items()
    witness = _search(claim, x, c, ctx)
    if witness is not None:
        certificates = witness_certificates(claim, witness, certificate_directory(ctx.certificate_dir))
        return Outcome(Verdict.REFUTED, SEARCH, witness=witness, certificates=certificates)
    try:
        proved = _prove(claim, x, c)
    except _Open as why:
        return Outcome(Verdict.INCONCLUSIVE, METHOD, notes=f"no counterexample found; not proved: {why}")
    return proved.with_certificate(certify(claim, certificate_directory(ctx.certificate_dir)))


class _Open(Exception):
    """A step of the proof did not close (the message says which)."""


def _prove(claim: InequalityClaim, x: sp.Symbol, c: sp.Expr) -> Outcome:
    left, right, point = plain(claim.lhs), plain(claim.rhs), plain(c)
    if x in point.free_symbols:
        raise _Open(f"the point left out, {point}, depends on {x}")
    if x in left.free_symbols and x not in right.free_symbols:
        f, value, maximiser = left, right, claim.op in ("<", "<=")
    elif x in right.free_symbols and x not in left.free_symbols:
        f, value, maximiser = right, left, claim.op in (">", ">=")
    else:
        raise _Open(f"one side must be f({x}) and the other free of {x}")
    word = "maximiser" if maximiser else "minimiser"
    facts = domain_facts(claim)  # type: ignore[arg-type]
    derivation = Derivation()
    derivation.note(
        f"the claim: {x} = {point} is the unique strict {word} of f({x}) = {f} on the domain of {x} (every {x} != "
        f"{point}), for every value of the other parameters"
    )
    if not derivation.zero(f"the other side is f({point})", value - f.subs(x, point)):
        raise _Open(f"the other side {value} is not f({point})")
    for condition in claim.conditions:
        relation = {"!=": "!=0", ">=": ">=0", ">": ">0"}.get(condition.relation)
        expr = plain(condition.expr)
        if relation is None or not derivation.sign(
            f"f is defined: {expr} {condition.relation} 0", expr, relation, facts
        ):
            raise _Open(f"the definedness condition {condition.text()} is not proved on the domain")
    _inside(derivation, claim, x, point, facts)
    numerator, denominator = sp.fraction(sp.together(sp.diff(f, x)))
    if not derivation.sign(f"f'({x}) = N / Q with Q = {denominator} > 0", denominator, ">0", facts):
        raise _Open(f"Q = {denominator} > 0 is not proved")
    _signed_numerator(derivation, sp.expand(numerator), x, point, facts, maximiser)
    derivation.note(
        f"so f' > 0 for {x} < {point} and f' < 0 for {x} > {point} (reversed for a minimiser): f strictly "
        f"{'increases' if maximiser else 'decreases'} up to {point} and strictly "
        f"{'decreases' if maximiser else 'increases'} after it, hence f({x}) {'<' if maximiser else '>'} f({point}) "
        f"for every {x} != {point} of the domain (mean value theorem)"
    )
    outcome = derived(derivation, METHOD, {"f": str(f), "point": str(point), "N": str(numerator)})
    if outcome.verdict is not Verdict.PROVED:
        raise _Open(outcome.notes or "the derivation did not close")
    return outcome


def plain(expr: sp.Expr) -> sp.Expr:
    """The inert claims-file formula in ordinary SymPy form, accepted only when exact algebra shows it unchanged (SymPy
    rewrites while it builds, e.g. (n - 1)/e as (n - 1) e^(-1); a rewrite that read a sign off a number would show)."""
    ordinary = converted(expr)
    if not _same(inert(ordinary), expr):
        raise _Open(f"SymPy rewrote {expr} to {ordinary} and exact algebra does not show them equal")
    return ordinary


def _same(left: sp.Expr, right: sp.Expr) -> bool:
    """left = right wherever both are defined, by exact algebra, after identifying each inert node of `left` with a node
    of `right` of the same kind whose arguments are equal (recursively): f(a) = f(b) when a = b."""
    if left == right:
        return True
    nodes = sorted(right.atoms(Inert), key=str)
    unified = {}
    for node in sorted(left.atoms(Inert), key=str):
        for other in nodes:
            alike = node != other and type(node) is type(other) and len(node.args) == len(other.args)
            if alike and all(_same(a, b) for a, b in zip(node.args, other.args, strict=True)):
                unified[node] = other
                break
    zero, _ = exactly_zero(left.xreplace(unified) - right, REDUCTION_OPERATIONS["quick"])
    return bool(zero)


def _inside(derivation: Derivation, claim: InequalityClaim, x: sp.Symbol, point: sp.Expr, facts: signs.Facts) -> None:
    """c lies strictly inside x's interval (each finite end proved below or above it)."""
    domain = claim.domains[x]
    for end, relation in ((domain.low, ">0"), (domain.high, "<0")):
        if end is None:
            continue
        gap = point - plain(end)
        if not derivation.sign(
            f"the point left out lies inside the domain: {gap} {relation[0]} 0", gap, relation, facts
        ):
            raise _Open(f"{point} is not shown strictly inside the domain of {x}")


def _signed_numerator(
    derivation: Derivation, numerator: sp.Expr, x: sp.Symbol, point: sp.Expr, facts: signs.Facts, maximiser: bool
) -> None:
    """N has the sign of c - x (maximiser) or x - c: by exact division, or by monotonicity and N(c) = 0."""
    along = point - x if maximiser else x - point
    quotient = sp.cancel(numerator / along)
    if sp.fraction(quotient)[1].free_symbols.isdisjoint({x}) and signs.prove(quotient, ">0", facts) is not None:
        derivation.zero(f"N = ({along}) K with K = {quotient}", numerator - along * quotient)
        derivation.sign(f"K = {quotient} > 0", quotient, ">0", facts)
        return
    slope = sp.expand(sp.diff(numerator, x))
    if not derivation.sign(
        f"dN/d{x} = {slope} {'<' if maximiser else '>'} 0: N is strictly monotone in {x}",
        slope,
        "<0" if maximiser else ">0",
        facts,
    ):
        raise _Open(f"N = {numerator} is neither (c - x) times a positive factor nor shown monotone in {x}")
    at = _lambert_identity(derivation, sp.expand(numerator.subs(x, point), power_exp=True), facts)
    if not derivation.zero(f"N({point}) = 0", at):
        raise _Open(f"N({point}) = 0 is not shown exactly")


def _lambert_identity(derivation: Derivation, expr: sp.Expr, facts: signs.Facts) -> sp.Expr:
    """`expr` with e^(W(z)) replaced by z / W(z) for each Lambert W value W(z) with z > 0 proved."""
    for node in sorted(expr.atoms(sp.LambertW), key=str):
        (z,) = node.args
        if not derivation.sign(f"{z} > 0, so W({z}) > 0 and e^(W) = z / W", z, ">0", facts):
            raise _Open(f"the argument {z} of W is not shown positive")
        derivation.cite(
            "Lambert W",
            f"W(z) e^(W(z)) = z for the principal branch; with z = {z} > 0, W(z) > 0 and e^(W(z)) = z / W(z)",
            "the definition of W as the inverse of w e^w on [-1, oo)",
        )
        expr = sp.expand(expr.subs(sp.exp(node), z / node), power_exp=True)
    return expr


def _search(claim: InequalityClaim, x: sp.Symbol, c: sp.Expr, ctx: Context) -> dict[str, Any] | None:
    """A ball-verified violation at a point with x != c, or None."""
    rng = ctx.rng("punctured-points")
    settled = nonempty.settle(domain_region(claim.domains, claim.order)).point or {}
    first = {s: settled[s.name] for s in claim.order if isinstance(settled.get(s.name), Fraction)}
    points = [first] if len(first) == len(claim.order) else []
    points += [sample_point(claim.domains, claim.order, rng) for _ in range(POINTS[ctx.profile])]
    for base in points:
        if base is None:
            continue
        exact = {s: sp.Rational(v.numerator, v.denominator) if isinstance(v, Fraction) else v for s, v in base.items()}
        try:
            centre = exact_value(ball(c, exact, PRECISION).mid())
        except EvaluationError:
            continue
        near = [centre * (1 + sign * Fraction(1, 2**k)) for k in DISTANCES for sign in (1, -1)]
        for value in [exact[x], *near]:
            ctx.check_budget()
            candidate = exact | {
                x: sp.Rational(value.numerator, value.denominator) if isinstance(value, Fraction) else value
            }
            if not contains(claim.domains, claim.order, candidate) or not _apart(candidate[x], c, candidate):
                continue
            witness = refutation(claim, candidate)
            if witness is not None:
                return witness | {"apart_from": f"{x} != {c} (balls)"}
    return None


def _apart(value: sp.Expr, c: sp.Expr, point: dict[sp.Symbol, sp.Expr]) -> bool:
    """Balls show value != c at the point (so the point is in the punctured domain)."""
    try:
        difference = ball(c, point, PRECISION) - ball(sp.Integer(0) + value, {}, PRECISION)
    except EvaluationError:
        return False
    return bool(difference > 0 or difference < 0)
