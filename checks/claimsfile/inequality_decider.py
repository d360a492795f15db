"""Deciding an inequality claim: a ball-verified counterexample, else a certified branch-and-bound cover.

First random exact points of the domain are tried (`domains.sample_point`, so every bound
holds rigorously): a point where lhs and rhs are balls that violate `op` for certain refutes the
claim (REFUTED, `verified_by: "ball"`). Then the SMT route (`headflow.checks.claimsfile.smt_route`) decides the
claim exactly on any domain: an `smt` certificate (CERTIFIED) or a verified model point (REFUTED).
Otherwise `headflow.certificates.provers.intervals.prove` covers the whole
domain, one cover for the relation and one for each definedness condition: the domain is a
`certificates.kernel.regions.Region` (read from the claim's statement, `certificates.statements.real`, as the
kernel reads it),
whose root box holds the outer ends of every bound; each box of the cover is clipped to the region
(integer sides, bounds that depend on other parameters such as `l1 >= lambda_c(n, beta)`), and the
parents of a dependent bound are split where the child's cover fails. The relation's expression is the
statement's `rhs - lhs` as written. All
covers proved: CERTIFIED, one `interval-cover` certificate per goal. A cover counterexample is a
refutation only when the point is, rigorously, in the declared domain. Unbounded domains, nodes the
certificate format cannot hold and exhausted budgets (reported with a few boxes that failed) leave the
claim INCONCLUSIVE.

Exact values are SymPy Rationals throughout, the type of the claims file's bounds and points; the
region and its boxes are Fractions, the type of the certificates.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import sympy as sp
from headflow.certificates.ball_reading import fails
from headflow.certificates.claims.conditions import Condition
from headflow.certificates.claims.domains import contains
from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.evaluation import EvaluationError, ball, exact, exact_witness
from headflow.certificates.claims.schema import IdentityClaim, InequalityClaim
from headflow.certificates.kernel.exact import holds, precision
from headflow.certificates.kernel.exprtree import TreeError
from headflow.certificates.kernel.real_statements import RELATION, goals, read_region
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.regions import Box as Sides
from headflow.certificates.kernel.regions import Region
from headflow.certificates.nonempty import outer_box
from headflow.certificates.provers.counterexamples import witness_certificates
from headflow.certificates.provers.intervals import CoverResult, certify_cover, prove
from headflow.certificates.statements.real import relation_statement
from headflow.certificates.store import certificate_directory
from headflow.checks.claimsfile.definedness import candidate_points, check_point
from headflow.checks.claimsfile.domain_sampling import sample_point
from headflow.checks.claimsfile.smt_route import decide as decide_smt
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict

COVER = "branch-and-bound ball cover"
SEARCH = "ball-verified counterexample search"
#: Random points tried for a counterexample, per profile.
POINTS = {"quick": 200, "thorough": 2000}
#: Boxes the whole cover may use, per profile (a count, so that a cover ends the same way on any machine).
MAX_BOXES = {"quick": 5_000, "thorough": 50_000}
PRECISIONS = (64, 256, 1024)
#: Precision of the covers' balls.
COVER_PRECISION = 64
#: The root box's dependent ends are rounded outwards to multiples of 1/ROOT_GRID (a box that contains the
#: domain with a margin, so another python-flint's last bits cannot put the domain outside it).
ROOT_GRID = 2**20
NOT_ATTEMPTED = "no cover attempted"


def decide_inequality(claim: InequalityClaim, ctx: Context) -> Outcome:
    """REFUTED (ball-verified point), CERTIFIED (covers written as certificates) or INCONCLUSIVE."""
    witness, tried = _search(claim, ctx)
    if witness is not None:
        return refuted(claim, witness, ctx)
    searched = f"no counterexample at {tried} random points of the domain"
    smt = decide_smt(claim, ctx, refutation)  # exact encoding, any domain: a certificate or a verified model
    if isinstance(smt, Outcome):
        return smt
    searched += f"; {smt}"
    outcome = _cover(claim, ctx)
    if isinstance(outcome, Outcome):
        return outcome
    reason, details = outcome
    method = SEARCH if reason.startswith(NOT_ATTEMPTED) else f"{SEARCH}; {COVER}"
    return Outcome(Verdict.INCONCLUSIVE, method, notes=f"{searched}; {reason}", details=details)


def refuted(claim: InequalityClaim | IdentityClaim, witness: dict[str, Any], ctx: Context) -> Outcome:
    """REFUTED by the search's witness, with its certificate when both sides are defined at the point (a point
    where a side is undefined has none yet)."""
    paths = witness_certificates(claim, witness, certificate_directory(ctx.certificate_dir))
    return Outcome(Verdict.REFUTED, SEARCH, witness=witness, certificates=paths)


def _search(claim: InequalityClaim, ctx: Context) -> tuple[dict[str, Any] | None, int]:
    """Points where a definedness condition vanishes, then random points: the first refutation found."""
    rng = ctx.rng("inequality-points")
    candidates = candidate_points(claim.conditions, claim.domains, claim.order, rng)
    randoms = (sample_point(claim.domains, claim.order, rng) for _ in range(POINTS[ctx.profile]))
    tried = 0
    for point in itertools.chain(candidates, randoms):
        ctx.check_budget()
        if point is None:
            continue
        tried += 1
        witness = refutation(claim, point)
        if witness is not None:
            return witness, tried
    return None, tried


def refutation(claim: InequalityClaim, point: dict[sp.Symbol, sp.Rational]) -> dict[str, Any] | None:
    """The witness that `lhs op rhs` fails at this exact point: a side verified undefined there, or balls
    that violate the relation where both sides are verified defined; None otherwise."""
    check = check_point(claim.conditions, point)
    if check.status == "undefined":
        return check.witness(point) | {"relation": f"lhs {claim.op} rhs fails: a side is undefined"}
    if check.status != "defined":
        return None
    left, right = exact(claim.lhs, point), exact(claim.rhs, point)
    if left is not None and right is not None:
        if holds(right - left, RELATION[claim.op]):
            return None
        return exact_witness(point, left, right) | {"relation": f"lhs {claim.op} rhs fails"}
    for prec in PRECISIONS:
        try:
            left, right = ball(claim.lhs, point, prec), ball(claim.rhs, point, prec)
        except EvaluationError:
            continue  # not finite at this precision (a root of a ball reaching below 0): try the next
        if fails(right - left, RELATION[claim.op]):
            return {
                "verified_by": "ball",
                "point": {str(symbol): str(value) for symbol, value in point.items()},
                "lhs": left.str(20, radius=True),
                "rhs": right.str(20, radius=True),
                "relation": f"lhs {claim.op} rhs fails",
                "precision_bits": prec,
            }
    return None


def _cover(claim: InequalityClaim, ctx: Context) -> Outcome | tuple[str, dict[str, Any]]:
    """CERTIFIED or REFUTED from covers of the whole domain, or the reason none applies (and details).

    One cover proves the relation and one each definedness condition: the relation's expression is the
    inert form (x/x is already 1 there), so the conditions recorded from the formulas as written are proved
    separately, each with its own certificate."""
    prepared = _prepare(claim)
    if isinstance(prepared, str):
        return f"{NOT_ATTEMPTED}: {prepared}", {}
    region, root, statement = prepared
    boxes_left = MAX_BOXES[ctx.profile]
    proofs: list[tuple[str, CoverResult]] = []
    for label, goal_expr, relations in _goals(claim, statement, root):
        for relation in relations:
            ctx.check_budget()
            result = prove(
                goal_expr,
                relation,
                {sp.Symbol(name): ends for name, ends in root.items()},
                max_boxes=boxes_left,
                prec=COVER_PRECISION,
                region=region,
            )
            boxes_left -= result.boxes
            if result.status == "proved":
                proofs.append((label, result))
                break
        else:
            return _failure(claim, label, result)
    directory = certificate_directory(ctx.certificate_dir)
    paths = [str(certify_cover(result, claim.id, directory, embedded(claim))) for _, result in proofs]
    forms = _forms(proofs)
    return Outcome(
        Verdict.CERTIFIED,
        COVER,
        certificates=paths,
        details={"boxes": sum(result.boxes for _, result in proofs), "leaves": forms},
        notes=f"one cover of the whole domain for the relation and for each of {len(claim.conditions)} "
        f"definedness condition(s); leaves by form: {', '.join(f'{k} {v}' for k, v in forms.items())}",
    )


def _prepare(claim: InequalityClaim) -> tuple[Region, Sides, dict[str, Any]] | str:
    """The claim's region, a root box that contains it and its statement (what the covers prove, as the kernel
    reads it), or why no cover applies."""
    try:
        statement = relation_statement(claim)
        region = read_region(statement)
    except (TreeError, Rejected) as exc:
        return f"the certificate format cannot hold the statement ({exc})"
    unbounded = [str(s) for s in claim.order if claim.domains[s].low is None or claim.domains[s].high is None]
    if unbounded:
        return f"unbounded domain ({', '.join(unbounded)}): a cover needs finite bounds"
    with precision(COVER_PRECISION):
        root = outer_box(region)
    if root is None:
        return "cannot enclose the bounds of the domain on its outer box"
    grid = Fraction(1, ROOT_GRID)
    rounded = {
        name: (
            lo if lo.denominator == 1 else math.floor(lo / grid) * grid,
            hi if hi.denominator == 1 else math.ceil(hi / grid) * grid,
        )
        for name, (lo, hi) in root.items()
    }
    exact = {s.name for s in claim.order if claim.domains[s].low.is_Rational and claim.domains[s].high.is_Rational}
    return region, {name: root[name] if name in exact else rounded[name] for name in root}, statement


def _goals(
    claim: InequalityClaim, statement: dict[str, Any], root: Sides
) -> list[tuple[str, list[Any], tuple[str, ...]]]:
    """(label, expression tree, relations to try in turn): the statement's relation `rhs - lhs`, then each
    definedness condition (a != condition by the sign it has in the middle of the domain, else by != itself)."""
    middle = {s: sp.Rational((root[s.name][0] + root[s.name][1]) / 2) for s in claim.order}
    (relation, *conditions) = goals(statement)
    found = [("", relation[0], relation[1])]
    for condition, (tree, relations, _) in zip(claim.conditions, conditions, strict=True):
        label = f"definedness: {condition.text()} ({condition.reason})"
        if condition.relation == "!=":
            sign = _sign(condition, middle)
            relations = (sign, "!=") if sign else ("!=",)
        found.append((label, tree, relations[:1] if condition.relation != "!=" else relations))
    return found


def _sign(condition: Condition, point: dict[sp.Symbol, sp.Rational]) -> str | None:
    try:
        value = ball(condition.expr, point, PRECISIONS[-1])
    except EvaluationError:
        return None
    return ">" if value > 0 else "<" if value < 0 else None


def _failure(claim: InequalityClaim, label: str, result: CoverResult) -> Outcome | tuple[str, dict[str, Any]]:
    """REFUTED for a cover's counterexample in the domain, else the reason the cover failed."""
    goal = label or "the relation"
    details: dict[str, Any] = {}
    if result.status == "counterexample" and result.point is not None:
        point = {s: sp.Rational(result.point[s.name]) for s in claim.order}
        witness = refutation(claim, point) if inside(claim, point) else None
        if witness is not None:
            return Outcome(Verdict.REFUTED, COVER, witness=witness)
        return f"the cover of {goal} fails at {_text(point)}, where it could not be refuted", details
    if result.failed:
        details["failed_boxes"] = result.failed
    shown = "; ".join(result.failed)
    where = f" (boxes that failed: {shown})" if shown else ""
    return f"cover of {goal} undecided: {result.reason}{where}", details


def _forms(proofs: list[tuple[str, CoverResult]]) -> dict[str, int]:
    """How many leaves of each kind the certificates hold (natural, centred, empty; monotone steps)."""
    counts: dict[str, int] = {}

    def visit(node: dict[str, Any]) -> None:
        kind = next((k for k in ("monotone", "split", "empty") if k in node), None)
        kind = kind or node.get("form", "natural")
        if kind != "split":
            counts[kind] = counts.get(kind, 0) + 1
        for key in ("low", "high", "face"):
            if key in node:
                visit(node[key])

    for _, result in proofs:
        if result.tree is not None:
            visit(result.tree)
    return counts


def inside(claim: InequalityClaim, point: dict[sp.Symbol, sp.Rational]) -> bool:
    """Whether the exact point provably satisfies every declared bound (integers, open and closed ends)."""
    return contains(claim.domains, claim.order, point)


def _text(point: dict) -> str:
    return ", ".join(f"{s} = {v}" for s, v in point.items())
