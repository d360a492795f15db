"""Deciding an inequality for every number H of heads and every family of per-head values (`sum_h`, `mean_h`).

1. **Refutation at a concrete H.** At random points of the other parameters, for the domain's least H, a random
   and a huge one, families of a few distinct members (`head_families`) are written out and the claim at each is an
   ordinary inequality at an exact point (`inequality_decider.refutation`: exact arithmetic or balls). A violation
   is REFUTED with the point, H and the family (each value with its number of heads).
2. **Jensen for every H.** When the claim is sum_h F(lambda_h) REL H F(mean_h lambda_h) (or the means on both
   sides), with one per-head symbol lambda, exact algebra shows lhs - rhs is that Jensen gap (the sums as
   independent unknowns, `head_families.linear_atoms`). Then:
   - convexity of F on the per-head domain I (an interval, so it contains the mean of any family in it), by the
     first of: (a) `headflow.identities.signs` proves F'' > 0 (>= 0 for a non-strict claim) from the domains as facts;
     (b) F is exactly rate(lambda, N, B) and I's lower end is lambda_c(N, B) or above it (exact algebra), N >= 1,
     B > 0 on the domain (signs): `identities.convexity.prove_convex_regime`, proved for symbolic n and beta, gives
     strict convexity on [lambda_c(N, B), oo);
   - the definedness conditions of F on I (`definedness.proved_on_domain`), which also cover F at the mean;
   - Jensen (cited, with its supporting-line reason): F convex on I gives sum_h F(lambda_h) >= H F(mean); strictly
     convex and the heads not all equal (`not_all_equal`) gives >.
   PROVED with these steps for the whole domain and every H. A concave claim (<, <=) is the convex one of -F.
3. Otherwise INCONCLUSIVE, with the reason (not the Jensen shape, convexity not proved, ...).
"""

from __future__ import annotations

from typing import Any

import sympy as sp
from headflow.certificates.claims.conditions import Condition
from headflow.certificates.claims.head_sums import HeadSum
from headflow.certificates.claims.names import FUNCTIONS, LambdaC
from headflow.certificates.claims.schema import InequalityClaim
from headflow.certificates.claims.symbolic import REDUCTION_OPERATIONS, exactly_zero
from headflow.certificates.inert import Exp, Log
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.provers.counterexamples import certify_counterexample
from headflow.certificates.provers.jensen import certify as jensen_certificate
from headflow.certificates.statements.head_families import family_point, family_statement
from headflow.certificates.store import certificate_directory
from headflow.checks.claimsfile.definedness import check_point, proved_on_domain
from headflow.checks.claimsfile.domain_sampling import sample_point
from headflow.checks.claimsfile.head_families import at_family, families, family_record, head_counts, linear_atoms
from headflow.checks.claimsfile.inequality_decider import refutation
from headflow.checks.claimsfile.symbolic_dynamics import domain_facts
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict, derived
from headflow.identities import convexity, signs
from headflow.identities.derivation import Derivation

SEARCH = "families of heads at exact points (every H tried: the least, random, huge), each checked exactly or by balls"
JENSEN = (
    "Jensen's inequality over the heads from a proved convexity of the per-head term (headflow.identities.signs, "
    "headflow.identities.convexity), for every H and every family"
)
#: Parameter points searched, per profile (each with several H and families).
POINTS = {"quick": 12, "thorough": 60}


def decide_any_heads(claim: InequalityClaim, ctx: Context) -> Outcome:
    """REFUTED at a concrete family, PROVED by Jensen for every H, else INCONCLUSIVE with the reasons."""
    witness, tried = _search(claim, ctx)
    if witness is not None:
        return Outcome(Verdict.REFUTED, SEARCH, witness=witness, certificates=_certificates(claim, witness, ctx))
    searched = f"no counterexample in {tried} families of heads"
    proved, why = _jensen(claim, ctx)
    if proved is not None:  # with the certificate of the convexity it rests on, where the kernel accepts one
        return proved.with_certificate(jensen_certificate(claim, certificate_directory(ctx.certificate_dir)))
    return Outcome(Verdict.INCONCLUSIVE, SEARCH, notes=f"{searched}; not proved for every H: {why}")


def _search(claim: InequalityClaim, ctx: Context) -> tuple[dict[str, Any] | None, int]:
    scope = claim.heads
    assert scope is not None
    rng = ctx.rng("head-families")
    count_symbol = scope.count
    tried = 0
    for _ in range(POINTS[ctx.profile]):
        ctx.check_budget()
        point = sample_point(claim.domains, claim.order, rng)
        if point is None:
            continue
        scalars = {s: v for s, v in point.items() if str(s) not in scope.names and s != count_symbol}
        for size in head_counts(claim.domains[count_symbol], point, rng):
            for family in families(scope, claim.domains, scalars, size, rng, claim.not_all_equal):
                tried += 1
                instance = at_family(claim, family)
                found = refutation(instance, scalars) or _equal_sides(instance, scalars)
                if found is not None:
                    members = family_record(family)
                    return found | {"H": str(size), "family": members}, tried
    return None, tried


def _certificates(claim: InequalityClaim, witness: dict[str, Any], ctx: Context) -> list[str]:
    """The counterexample certificate of the claim at the shape of the witness's family (one member on H - K + 1
    heads, the others on one each: `statements.head_families`), when the family has that shape and the kernel
    accepts it; else none."""
    point = family_point(claim, witness)
    if point is None:
        return []
    try:
        statement = family_statement(claim, len(witness["family"]))
    except Rejected:  # no point of the statement's domain found: a statement over an empty domain proves nothing
        return []
    if statement is None:
        return []
    path = certify_counterexample(claim, point, certificate_directory(ctx.certificate_dir), statement)
    return [path] if path else []


def _equal_sides(instance: InequalityClaim, point: dict[sp.Symbol, sp.Rational]) -> dict[str, Any] | None:
    """A strict relation fails where both sides, written out for a family, are one expression (all heads equal in a
    Jensen claim): SymPy's exact cancellation of identical terms, at a point where both sides are defined."""
    if instance.op not in ("<", ">") or instance.lhs - instance.rhs != 0:
        return None
    if check_point(instance.conditions, point).status != "defined":
        return None
    sides = {"lhs": str(instance.lhs.xreplace(point)), "rhs": str(instance.rhs.xreplace(point))}
    return {
        "verified_by": "exact",
        "point": {str(s): str(v) for s, v in point.items()},
        **sides,
        "relation": f"lhs {instance.op} rhs fails: the sides are equal",
    }


def _jensen(claim: InequalityClaim, ctx: Context) -> tuple[Outcome | None, str]:
    """PROVED by Jensen's inequality, or (None, why not)."""
    scope = claim.heads
    assert scope is not None
    if len(scope.names) != 1:
        return None, "Jensen's route takes one per-head symbol"
    lam = next(s for s in claim.order if str(s) in scope.names)
    if claim.domains[lam].integer:  # the mean of integers need not be one: convexity and definedness on the hull
        return None, "Jensen's route takes a real per-head domain (the mean of integer values is not an integer)"
    convex = claim.op in (">", ">=")
    gap = claim.lhs - claim.rhs if convex else claim.rhs - claim.lhs
    term = _jensen_term(gap, lam, scope.count, REDUCTION_OPERATIONS[ctx.profile], scope)
    if term is None:
        return None, "the claim is not sum_h F(lam_h) against H F(mean_h lam_h) (nor the means), exactly"
    strict = claim.op in (">", "<")
    if strict and not claim.not_all_equal:
        return None, "a strict Jensen inequality needs heads not all equal (not_all_equal = true)"
    per_head = term if convex else -term
    d = Derivation()
    d.note(
        f"the claim is sum_h F(lambda_h) {'>' if strict else '>='} H F(lambda_bar) with F(lambda) = {per_head} "
        f"(lhs - rhs is that Jensen gap{'' if convex else ', for -F'}, by exact algebra with the sums as unknowns)"
    )
    facts = domain_facts(claim)
    if not (_convex_by_signs(d, per_head, lam, facts, strict) or _convex_by_rate(d, per_head, lam, claim, facts, ctx)):
        return None, f"convexity of F = {per_head} on the per-head domain is not proved (signs, rate lemma)"
    conditions = [c for c in claim.conditions if not c.expr.has(HeadSum)]
    unproved = [c.text() for c in conditions if not proved_on_domain(c, claim.domains, claim.order)]
    at_mean = [c for c in claim.conditions if c.expr.has(HeadSum)]
    mean = HeadSum(lam) / scope.count
    uncovered = [c.text() for c in at_mean if not _covered(c, conditions, lam, mean)]
    if unproved or uncovered:
        return None, f"definedness not proved on the domain: {'; '.join(unproved + uncovered)}"
    d.holds(f"F is defined on the per-head domain ({len(conditions)} condition(s) proved), so at lambda_bar too", True)
    d.cite(
        "Jensen's inequality (supporting line)",
        f"for F {'strictly ' if strict else ''}convex on an interval I and lambda_1..lambda_H in I"
        f"{', not all equal' if strict else ''}: sum_h F(lambda_h) {'>' if strict else '>='} H F(lambda_bar)",
        "lambda_bar lies in I (an interval is convex); F(x) >= F(lambda_bar) + F'(lambda_bar)(x - lambda_bar) on I "
        "(strictly for x != lambda_bar when F is strictly convex), and the terms F'(lambda_bar)(lambda_h - "
        "lambda_bar) sum to 0 over h",
    )
    return derived(d, JENSEN, {"per_head_term": str(per_head)}), ""


def _jensen_term(gap: sp.Expr, lam: sp.Symbol, count: sp.Expr, operations: int, scope: Any) -> sp.Expr | None:
    """F with gap = c (sum_h F(lam_h) - H F(mean)) for c = 1 or 1/H, shown by exact algebra; None otherwise."""
    mean = HeadSum(lam) / count
    for node in gap.atoms(HeadSum):
        (term,) = node.args
        if term == lam:
            continue
        for scale in (sp.Integer(1), 1 / count):
            expected = scale * (HeadSum(term) - count * term.xreplace({lam: mean}))
            written, _ = linear_atoms(gap - expected, scope)
            if exactly_zero(written, operations)[0]:
                return term
    return None


def _convex_by_signs(d: Derivation, term: sp.Expr, lam: sp.Symbol, facts: signs.Facts, strict: bool) -> bool:
    """F'' > 0 (>= 0) by the structural sign prover, on the active form of F (exp and log as SymPy's)."""
    active = _active(term)
    if active is None:
        return False
    curvature = sp.diff(active, lam, 2)
    relation = ">0" if strict else ">=0"
    if signs.prove(curvature, relation, facts) is None:
        return False
    d.sign(f"F''(lambda) = {curvature} {relation[:-1]} 0 on the domain", curvature, relation, facts)
    return True


def _active(expr: sp.Expr) -> sp.Expr | None:
    """`expr` with inert exp and log as SymPy's (for differentiation); None when another inert node remains."""
    active = expr.replace(lambda e: isinstance(e, Exp), lambda e: sp.exp(e.args[0]))
    active = active.replace(lambda e: isinstance(e, Log), lambda e: sp.log(e.args[0]))
    return None if any(type(f).__module__.endswith("inert") for f in active.atoms(sp.Function)) else active


def _convex_by_rate(
    d: Derivation, term: sp.Expr, lam: sp.Symbol, claim: InequalityClaim, facts: signs.Facts, ctx: Context
) -> bool:
    """F = rate(lambda, N, B) with the per-head lower end at least lambda_c(N, B): the convex regime lemma."""
    low = claim.domains[lam].low
    if low is None:
        return False
    rate = FUNCTIONS["rate"][1]
    for node in low.atoms(LambdaC):
        tokens, scale = node.args
        if not exactly_zero(term - rate(lam, tokens, scale), REDUCTION_OPERATIONS[ctx.profile])[0]:
            continue
        above = sp.cancel(low - node)
        if above.has(LambdaC) or signs.prove(above, ">=0", facts) is None:
            continue
        d.holds(f"F = rate(lambda, {tokens}, {scale}) exactly (exact algebra)", True)
        d.sign(
            f"the per-head lower end {low} is lambda_c({tokens}, {scale}) + {above}, and {above} >= 0",
            above,
            ">=0",
            facts,
        )
        d.sign(f"N - 1 = {tokens} - 1 >= 0 on the domain", tokens - 1, ">=0", facts)
        d.sign(f"B = {scale} > 0 on the domain", scale, ">0", facts)
        d.include(convexity.prove_convex_regime(), "convex regime of phi for every n >= 1, beta > 0")
        d.note(f"with n = {tokens}, beta = {scale}: F is strictly convex on [lambda_c, oo), which holds the domain")
        return True
    return False


def _covered(condition: Condition, per_head: list[Condition], lam: sp.Symbol, mean: sp.Expr) -> bool:
    """A condition at the mean is a per-head condition with lambda = the mean (the mean lies in the domain)."""
    return any(
        c.relation == condition.relation and sp.expand(c.expr.xreplace({lam: mean}) - condition.expr) == 0
        for c in per_head
    )
