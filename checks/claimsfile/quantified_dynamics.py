"""Deciding a dynamics claim with quantified parameters: for the whole domain where the reduction is exact, else
at exact points of the domain, its boundary first.

1. In the equiangular scalar-head regime the claim is derived once with symbolic parameters
   (`symbolic_dynamics.prove_for_domain`): PROVED for every point of the domain, with the steps.
2. Otherwise (or when a step does not close) exact points of the domain are decided: first its boundary points
   (`domain_sampling.boundary_points`: every combination of the closed ends, the integer ends and 0 inside a
   symbol's domain, where a hypothesis becomes tight: no motion at lambda = 0, an equilibrium at an end of rho; a
   per-head strength as families of heads at those values), then the verified point of the non-emptiness check and
   random points, each exactly inside every bound and with a faithful float literal. The claim at each point (an
   instance, validated like any dynamics claim: `schema.dynamics_instance`) is decided by the instance decider: the
   exact reduction at that point, or the float route over its starts with the certified-witness pipeline. A REFUTED
   instance refutes the claim, its exact parameter point in the witness (the claim says "for every point").
   Otherwise the verdict is at most CONFIRMED, and only when the points reach the whole domain: every symbol's range
   bounded and every boundary point decided (else INCONCLUSIVE, saying what was not reached: an unbounded range, a
   size past what an instance can integrate, an end that is not a rational number); the evidence lists every point
   covered, boundary points marked, and the points skipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import sympy as sp
from headflow.certificates import nonempty
from headflow.certificates.claims.domains import contains, domain_region
from headflow.certificates.claims.schema import DynamicsClaim, dynamics_instance
from headflow.certificates.errors import InputError
from headflow.certificates.vocabulary import MAX_HEADS, MAX_TOKENS
from headflow.checks.claimsfile.domain_sampling import boundary_points, sample_point, sample_value, special_values
from headflow.checks.claimsfile.symbolic_dynamics import prove_domain
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict

#: Exact parameter points decided per profile, and draws tried to find them.
POINTS = {"quick": 4, "thorough": 12}
#: Most boundary points decided per profile (more leave the claim INCONCLUSIVE: its boundary was not all decided).
BOUNDARY = {"quick": 24, "thorough": 96}
DRAWS = 40
#: Distinct strengths of a sampled family of heads (the heads take them in turn): each distinct one is a term of
#: the exact route's pull.
FAMILY_MEMBERS = 3
#: The largest n a sampled instance integrates (the float route's cost grows with n^2).
SAMPLED_TOKENS = 12
METHOD = "the claim at exact points of its parameter domain ({} points), each decided as a dynamics claim"

Point = dict[sp.Symbol, Fraction]


class DomainSweep:
    """The exact points of a quantified claim's domain, boundary first, and the tally of what was decided at each:
    the dynamics decider decides every instance (`instances`) and hands its outcome back (`record`)."""

    def __init__(self, claim: DynamicsClaim, ctx: Context) -> None:
        self.claim, self.ctx = claim, ctx
        self.proved, self.why = prove_domain(claim, ctx)
        self.covered: list[dict[str, Any]] = []
        self.skipped: list[str] = []
        self.gaps: list[str] = []

    def instances(self) -> Iterator[tuple[Point, bool, DynamicsClaim]]:
        """(point, whether it is a boundary point, the claim at it), within the run's budget; a point whose
        instance is not a valid claim is skipped (a boundary point's is a gap in the domain reached)."""
        boundary, self.gaps = _boundary(self.claim, self.ctx, self.skipped)
        points = boundary + _points(self.claim, self.ctx, self.skipped, boundary)
        for k, point in enumerate(points):
            self.ctx.check_budget()
            self.ctx.report("points", k, len(points))
            on_boundary = any(point is b for b in boundary)
            try:
                instance = dynamics_instance(self.claim, point)
            except InputError as exc:
                self.skipped.append(str(exc))
                if on_boundary:
                    self.gaps.append(f"{_words(point)} not decided ({exc.reason})")
                continue
            yield point, on_boundary, instance

    def record(self, point: Point, on_boundary: bool, outcome: Outcome) -> Outcome | None:
        """Tally the outcome at a point; the claim's REFUTED when it refutes the instance (the claim says "for
        every point"), else None."""
        record = {"point": _text(point), "verdict": outcome.verdict.value, "method": outcome.method}
        record |= {"boundary": on_boundary}
        record |= {"cases": outcome.cases or 1, "tolerance": outcome.tolerance or 0.0, "margin": outcome.worst_margin}
        self.covered.append(record)
        if outcome.verdict is not Verdict.REFUTED:
            return None
        witness = {"parameter_point": _text(point), **(outcome.witness or {})}
        return Outcome(
            Verdict.REFUTED,
            f"{METHOD.format(len(self.covered))}; at the refuting point: {outcome.method}",
            witness=witness,
            certificates=outcome.certificates,
            notes="; ".join(t for t in (f"refuted at the exact parameter point {_words(point)}", outcome.notes) if t),
            details={"covered": self.covered, "skipped": self.skipped, "point_details": outcome.details},
        )

    def outcome(self) -> Outcome:
        """CONFIRMED or INCONCLUSIVE once every point was decided and none refuted (`_over_points`)."""
        return _over_points(self.claim, self.covered, self.skipped, self.why, self.gaps + _unbounded(self.claim))


def _over_points(
    claim: DynamicsClaim, covered: list[dict[str, Any]], skipped: list[str], why: str, unreached: list[str]
) -> Outcome:
    """CONFIRMED when every covered point was PROVED or CONFIRMED and the points reached the whole domain (nothing
    `unreached`), else INCONCLUSIVE; the points listed, boundary points first."""
    held = {Verdict.PROVED.value, Verdict.CONFIRMED.value}

    def listed(records: list[dict[str, Any]]) -> str:
        return "; ".join(_point_words(record["point"]) + f": {record['verdict']}" for record in records) or "none"

    not_whole = f"not decided for the whole domain ({why or 'no exact reduction applies to this claim'})"
    edge = [record for record in covered if record["boundary"]]
    inside = [record for record in covered if not record["boundary"]]
    notes = f"{not_whole}; boundary points: {listed(edge)}; other points: {listed(inside)}"
    if unreached:
        notes += f"; the points do not reach the whole domain: {'; '.join(unreached[:4])}"
    if skipped:
        notes += f"; skipped: {'; '.join(skipped[:3])}"
    details = {"covered": covered, "skipped": skipped, "symbolic_route": why, "unreached": unreached}
    every = covered and all(r["verdict"] in held for r in covered)
    verdict = Verdict.CONFIRMED if every and not unreached else Verdict.INCONCLUSIVE
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


def _boundary(claim: DynamicsClaim, ctx: Context, skipped: list[str]) -> tuple[list[Point], list[str]]:
    """The domain's boundary points in the domain (`domain_sampling.boundary_points`, a per-head strength as
    `_boundary_families`) with n and H within what an instance decides, and why they are not its whole boundary."""
    rng, strength = ctx.rng("boundary-points"), claim.parameters.get("lambdas")
    order = [s for s in claim.order if s != strength]
    found = boundary_points(claim.domains, order, BOUNDARY[ctx.profile], rng)
    gaps = list(found.gaps)
    points: list[Point] = []
    for point in found.points:
        exact = {s: Fraction(int(v.p), int(v.q)) for s, v in point.items()}
        for family in _boundary_families(claim, exact, gaps, rng):
            if len(points) == BOUNDARY[ctx.profile]:
                gaps.append(f"more than {len(points)} boundary points: the first {len(points)} decided")
                return points, list(dict.fromkeys(gaps))
            why = _too_large(claim, family)
            if why:
                skipped.append(why)
                gaps.append(why)
            elif family not in points and _inside(claim, family):
                points.append(family)
    return points, list(dict.fromkeys(gaps))


def _boundary_families(claim: DynamicsClaim, point: Point, gaps: list[str], rng: Any) -> list[Point]:
    """The point with a per-head strength's families at the strength's special values there (a random value when it
    has none): every head at one value, and one head at a value against the others at another (the corners of the
    heads' box up to the order of the heads, which the scalar-head field does not see)."""
    strength = claim.parameters.get("lambdas")
    if strength is None:
        return [point]
    count = claim.options["H"]
    size = int(point[count]) if isinstance(count, sp.Symbol) else int(count)
    domain, at = claim.domains[strength], _rationals(point)
    values, ends = special_values(domain, at)
    gaps += [f"{strength} = {end}" for end in ends]
    drawn = sample_value(domain, at, rng) if not values else None
    values += [drawn] if drawn is not None else []
    members = [Fraction(int(v.p), int(v.q)) for v in values]
    families = [[v] * size for v in members]
    if size >= 2:
        families += [[u] + [v] * (size - 1) for u in members for v in members if u != v]
    return [point | {strength: family} for family in families]  # type: ignore[dict-item]


def _too_large(claim: DynamicsClaim, point: Point) -> str:
    """Why an instance at the point cannot be decided (n past what is integrated, H past the model's heads)."""
    n, count = claim.parameters.get("n"), claim.options.get("H")
    largest = MAX_TOKENS if _exact_regime(claim) else SAMPLED_TOKENS
    if n is not None and point[n] > largest:
        return f"n = {point[n]} > {largest} (not integrated)"
    if isinstance(count, sp.Symbol) and point[count] > MAX_HEADS:
        return f"H = {point[count]} > {MAX_HEADS} (the model's most heads)"
    return ""


def _unbounded(claim: DynamicsClaim) -> list[str]:
    """The symbols whose range has no end on one side: finitely many points do not reach it."""
    sides = [(s, d.low is None, d.high is None) for s, d in claim.domains.items()]
    return [
        f"{symbol} has no {' and no '.join(w for w, f in (('lower', low), ('upper', high)) if f)} end"
        for symbol, low, high in sides
        if low or high
    ]


def _points(claim: DynamicsClaim, ctx: Context, skipped: list[str], boundary: list[Point]) -> list[Point]:
    """The verified point of the domain's non-emptiness check, then random exact points, each inside every bound
    (`domains.contains`), with n at most SAMPLED_TOKENS (MAX_TOKENS for the exact route's instances), none of them a
    `boundary` point."""
    wanted, rng = POINTS[ctx.profile], ctx.rng("parameter-points")
    found: list[Point] = []
    settled = nonempty.settle(domain_region(claim.domains, claim.order)).point or {}
    first = {s: settled[s.name] for s in claim.order if isinstance(settled.get(s.name), Fraction)}
    candidates = [first] if len(first) == len(claim.order) else []
    candidates += [_exact(sample_point(claim.domains, claim.order, rng)) for _ in range(DRAWS)]
    for point in candidates:
        if point is None or point in found:
            continue
        why = _too_large(claim, point)
        if why:
            skipped.append(why)
            continue
        if _inside(claim, point):
            family = _with_family(claim, point, rng)
            if family not in boundary:
                found.append(family)
        if len(found) == wanted:
            break
    return found


def _inside(claim: DynamicsClaim, point: Point) -> bool:
    """Whether the point lies in the domain (`domains.contains`), a per-head family with each of its values."""
    scalars = _rationals(point)
    families = [(s, v) for s, v in point.items() if isinstance(v, list)]
    rows = [scalars | {s: sp.Rational(x.numerator, x.denominator)} for s, v in families for x in set(v)] or [scalars]
    return all(contains(claim.domains, claim.order, row) for row in rows)


def _rationals(point: Point) -> dict[sp.Symbol, sp.Rational]:
    """The point's scalar values as SymPy rationals (a per-head family left out)."""
    return {s: sp.Rational(v.numerator, v.denominator) for s, v in point.items() if not isinstance(v, list)}


def _with_family(claim: DynamicsClaim, point: Point, rng: Any) -> Point:
    """The point with a per-head strength's value made the list of H heads' strengths: the point's own, then each
    other head's drawn inside the strength's domain at the point (`domain_sampling.sample_value`)."""
    strength = claim.parameters.get("lambdas")  # heads take FAMILY_MEMBERS distinct values in turn
    if strength is None:
        return point
    count = claim.options["H"]
    size = int(point[count]) if isinstance(count, sp.Symbol) else int(count)
    at = _rationals(point)
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
