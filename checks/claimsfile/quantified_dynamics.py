"""Deciding a dynamics claim with quantified parameters: for the whole domain where the reduction is exact, else
at sampled exact points of the domain.

1. In the equiangular scalar-head regime the claim is derived once with symbolic parameters
   (`symbolic_dynamics.prove_for_domain`): PROVED for every point of the domain, with the steps.
2. Otherwise (or when a step does not close) exact points of the domain are drawn (`domain_sampling`: the
   verified point of the non-emptiness check, then random points, each exactly inside every bound and with a
   faithful float literal), and the claim at each point (an instance, validated like any dynamics claim:
   `schema.dynamics_instance`) is decided by the instance decider: the exact reduction at that point, or the
   float route over its starts with the certified-witness pipeline. A REFUTED instance refutes the claim, its
   exact parameter point in the witness (the claim says "for every point"); otherwise the verdict is at most
   CONFIRMED (every covered point PROVED or CONFIRMED: finitely many points do not prove a domain), and the
   evidence lists every point covered and its verdict, and the points skipped (no family member there, a value
   past the model's sizes, a value with no faithful float).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import sympy as sp

from certificates import nonempty
from certificates.claims.domains import contains, domain_region
from certificates.claims.schema import DynamicsClaim, dynamics_instance
from certificates.kernel.errors import InputError
from certificates.kernel.vocabulary import MAX_HEADS, MAX_TOKENS
from checks.claimsfile.domain_sampling import sample_point, sample_value
from checks.claimsfile.symbolic_dynamics import prove_domain
from checks.registry import Context
from checks.verdicts import Outcome, Verdict

#: Exact parameter points decided per profile, and draws tried to find them.
POINTS = {"quick": 4, "thorough": 12}
DRAWS = 40
#: Distinct strengths of a sampled family of heads (the heads take them in turn): each distinct one is a term of
#: the exact route's pull.
FAMILY_MEMBERS = 3
#: The largest n a sampled instance integrates (the float route's cost grows with n^2).
SAMPLED_TOKENS = 12
METHOD = "the claim at exact points of its parameter domain ({} points), each decided as a dynamics claim"

Point = dict[sp.Symbol, Fraction]


def decide_quantified(claim: DynamicsClaim, ctx: Context, decide_instance: Callable[..., Outcome]) -> Outcome:
    """PROVED for the domain (symbolic reduction); REFUTED at an exact point; else CONFIRMED or INCONCLUSIVE with
    the covered points."""
    proved, why = prove_domain(claim, ctx)
    if proved is not None:
        return proved
    covered: list[dict[str, Any]] = []
    skipped: list[str] = []
    for point in _points(claim, ctx, skipped):
        ctx.check_budget()
        try:
            instance = dynamics_instance(claim, point)
        except InputError as exc:
            skipped.append(str(exc))
            continue
        outcome = decide_instance(instance, ctx)
        record = {"point": _text(point), "verdict": outcome.verdict.value, "method": outcome.method}
        record |= {"cases": outcome.cases or 1, "tolerance": outcome.tolerance or 0.0, "margin": outcome.worst_margin}
        covered.append(record)
        if outcome.verdict is Verdict.REFUTED:
            witness = {"parameter_point": _text(point), **(outcome.witness or {})}
            return Outcome(
                Verdict.REFUTED,
                f"{METHOD.format(len(covered))}; at the refuting point: {outcome.method}",
                witness=witness,
                certificates=outcome.certificates,
                notes="; ".join(
                    t for t in (f"refuted at the exact parameter point {_words(point)}", outcome.notes) if t
                ),
                details={"covered": covered, "skipped": skipped, "point_details": outcome.details},
            )
    return _over_points(claim, covered, skipped, why)


def _over_points(claim: DynamicsClaim, covered: list[dict[str, Any]], skipped: list[str], why: str) -> Outcome:
    """CONFIRMED when every covered point was PROVED or CONFIRMED, else INCONCLUSIVE; the points listed."""
    held = {Verdict.PROVED.value, Verdict.CONFIRMED.value}
    points = "; ".join(_point_words(record["point"]) + f": {record['verdict']}" for record in covered) or "none"
    not_whole = f"not decided for the whole domain ({why or 'no exact reduction applies to this claim'})"
    notes = f"{not_whole}; parameter points covered: {points}"
    if skipped:
        notes += f"; skipped: {'; '.join(skipped[:3])}"
    details = {"covered": covered, "skipped": skipped, "symbolic_route": why}
    verdict = Verdict.CONFIRMED if covered and all(r["verdict"] in held for r in covered) else Verdict.INCONCLUSIVE
    margins = [r["margin"] for r in covered if r["margin"] is not None]
    return Outcome(
        verdict,
        METHOD.format(len(covered)),
        cases=sum(r["cases"] for r in covered),
        worst_margin=min(margins) if margins else None,
        tolerance=max((r["tolerance"] for r in covered), default=0.0),
        notes=notes,
        details=details,
    )


def _points(claim: DynamicsClaim, ctx: Context, skipped: list[str]) -> list[Point]:
    """The verified point of the domain's non-emptiness check, then random exact points, each inside every bound
    (`domains.contains`), with n at most SAMPLED_TOKENS (MAX_TOKENS for the exact route's instances)."""
    wanted, rng = POINTS[ctx.profile], ctx.rng("parameter-points")
    found: list[Point] = []
    settled = nonempty.settle(domain_region(claim.domains, claim.order)).point or {}
    first = {s: settled[s.name] for s in claim.order if isinstance(settled.get(s.name), Fraction)}
    candidates = [first] if len(first) == len(claim.order) else []
    candidates += [_exact(sample_point(claim.domains, claim.order, rng)) for _ in range(DRAWS)]
    largest = MAX_TOKENS if _exact_regime(claim) else SAMPLED_TOKENS
    n = claim.parameters.get("n")
    ends = [None, *_closed_ends(claim)]  # after the first point, families with every head at an end of its domain
    for point in candidates:
        if point is None or point in found:
            continue
        if n is not None and point[n] > largest:
            skipped.append(f"n = {point[n]} > {largest} (not integrated)")
            continue
        if contains(claim.domains, claim.order, {s: sp.Rational(v.numerator, v.denominator) for s, v in point.items()}):
            family = _with_family(claim, point, rng, skipped, ends[len(found)] if len(found) < len(ends) else None)
            if family is not None:
                found.append(family)
        if len(found) == wanted:
            break
    return found


def _closed_ends(claim: DynamicsClaim) -> list[Fraction]:
    """The rational closed ends of a per-head strength's domain (where a family may sit on the boundary)."""
    strength = claim.parameters.get("lambdas")
    if strength is None:
        return []
    domain = claim.domains[strength]
    ends = [(domain.low, domain.low_open), (domain.high, domain.high_open)]
    return [Fraction(int(e.p), int(e.q)) for e, is_open in ends if e is not None and e.is_Rational and not is_open]


def _with_family(
    claim: DynamicsClaim, point: Point, rng: Any, skipped: list[str], end: Fraction | None = None
) -> Point | None:
    """The point with a per-head strength's value made the list of H heads' strengths: every head at `end` (a
    closed end of the strength's domain) when given, else the point's own, then each other head's drawn inside the
    strength's domain at the point (`domain_sampling.sample_value`); None (skipped) when H is above the model's
    MAX_HEADS."""
    strength = claim.parameters.get("lambdas")  # heads take FAMILY_MEMBERS distinct values in turn
    if strength is None:
        return point
    count = claim.options["H"]
    size = int(point[count]) if isinstance(count, sp.Symbol) else int(count)
    if size > MAX_HEADS:
        skipped.append(f"H = {size} > {MAX_HEADS} (the model's most heads)")
        return None
    if end is not None:
        return point | {strength: [end] * size}  # type: ignore[dict-item]
    at = {s: sp.Rational(v.numerator, v.denominator) for s, v in point.items()}
    members = [point[strength]]
    for _ in range(min(size, FAMILY_MEMBERS) - 1):
        value = sample_value(claim.domains[strength], at, rng)
        members.append(point[strength] if value is None else Fraction(int(value.p), int(value.q)))
    return point | {strength: [members[h % len(members)] for h in range(size)]}  # type: ignore[dict-item]


def _exact_regime(claim: DynamicsClaim) -> bool:
    options = claim.options
    return claim.quantity == "cluster_gap" and options["tokens"] == "equiangular" and options["heads"] == "scalar"


def _exact(point: dict[sp.Symbol, sp.Rational] | None) -> Point | None:
    return None if point is None else {s: Fraction(int(v.p), int(v.q)) for s, v in point.items()}


def _text(point: Point) -> dict[str, str]:
    """The point as report data (a per-head strength as the list of the heads' values)."""
    return {
        str(symbol): f"[{', '.join(map(str, value))}]" if isinstance(value, list) else str(value)
        for symbol, value in point.items()
    }


def _words(point: Point) -> str:
    return _point_words(_text(point))


def _point_words(point: dict[str, str]) -> str:
    return ", ".join(f"{name} = {value}" for name, value in point.items())
