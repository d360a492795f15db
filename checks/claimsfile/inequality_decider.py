"""Deciding an inequality claim: a ball-verified counterexample, else a certified branch-and-bound cover.

First random exact points of the domain are tried (`domains.sample_point`, so every bound
holds rigorously): a point where lhs and rhs are balls that violate `op` for certain refutes the
claim (REFUTED, `verified_by: "ball"`). Then the SMT route (`checks.claimsfile.smt_route`) decides the
claim exactly on any domain: an `smt` certificate (CERTIFIED) or a verified model point (REFUTED).
Otherwise the domain is turned into boxes for
`certificates.intervals.prove`: integer ranges of at most MAX_INTEGER_CASES values in all are
enumerated (each value a constant of the cover), and a bound that depends on other parameters
(`l1 >= lambda_c(n, beta)`) is replaced by the outer end of its ball over the parents' box. Each
box therefore contains the declared domain (for its integer values), so a proved cover of every
box is a proof of the claim: CERTIFIED, one `interval-cover` certificate per box. A cover
counterexample is a refutation only when the point is, rigorously, in the declared domain.
Unbounded domains (when the SMT route did not decide), `lambda_c` or `Abs` inside the relation, and
exhausted budgets leave the claim INCONCLUSIVE with the reasons.

Exact values are SymPy Rationals throughout, the type of the claims file's bounds and points; a
case becomes Fractions, the type of the certificates, only where a cover is asked for
(`_for_certificates`).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy as sp
from flint import arb

from certificates import intervals
from certificates.exact import ball_of, fails, interval_ball
from certificates.exprtree import TreeError, from_sympy
from certificates.intervals import certify_cover, prove
from certificates.store import certificate_directory
from checks.claimsfile.certificate_obligations import RELATION
from checks.claimsfile.conditions import Condition
from checks.claimsfile.definedness import candidate_points, check_point
from checks.claimsfile.domains import contains, sample_point
from checks.claimsfile.embedding import embedded
from checks.claimsfile.evaluation import EvaluationError, ball, ball_over, exact_ends
from checks.claimsfile.names import LambdaC
from checks.claimsfile.schema import InequalityClaim
from checks.claimsfile.smt_route import decide as decide_smt
from checks.registry import Context
from checks.verdicts import Outcome, Verdict

COVER = "branch-and-bound ball cover"
SEARCH = "ball-verified counterexample search"
#: Random points tried for a counterexample, per profile.
POINTS = {"quick": 200, "thorough": 2000}
#: Boxes and seconds the whole cover may use, per profile.
MAX_BOXES = {"quick": 20_000, "thorough": 200_000}
SECONDS = {"quick": 10.0, "thorough": 60.0}
#: Integer parameters are enumerated when their value combinations are at most this many.
MAX_INTEGER_CASES = 64
#: At most this many boxes in all (integer values times pieces).
MAX_CASES = 256
PRECISIONS = (64, 256)
#: Pieces each real parent of a dependent bound is cut into, tried in turn while a cover's violation
#: lies outside the domain (the outer box of a dependent bound shrinks with its parents' pieces).
PIECES = (1, 4, 16)
OUTSIDE = "outside the declared domain"
#: lhs op rhs  <=>  (rhs - lhs) RELATION[op] 0, the form `prove` decides.

Box = dict[sp.Symbol, tuple[sp.Rational, sp.Rational]]
Case = tuple[dict[sp.Symbol, sp.Rational], Box]


def decide_inequality(claim: InequalityClaim, ctx: Context) -> Outcome:
    """REFUTED (ball-verified point), CERTIFIED (covers written as certificates) or INCONCLUSIVE."""
    witness, tried = _search(claim, ctx)
    if witness is not None:
        return Outcome(Verdict.REFUTED, SEARCH, witness=witness)
    searched = f"no counterexample at {tried} random points of the domain"
    smt = decide_smt(claim, ctx, refutation)  # exact encoding, any domain: a certificate or a verified model
    if isinstance(smt, Outcome):
        return smt
    searched += f"; {smt}"
    previous: list[Case] | None = None
    for pieces in PIECES:
        cases, reason = cover_cases(claim, pieces)
        if cases is not None and cases == previous:
            break  # too many boxes to cut finer: the same cover again would fail the same way
        previous = cases
        if not cases:
            reason = reason or "the bounds leave no box (is the domain empty?)"
            return Outcome(Verdict.INCONCLUSIVE, SEARCH, notes=f"{searched}; no cover attempted: {reason}")
        outcome = _cover(claim, cases, ctx)
        if isinstance(outcome, Outcome):
            return outcome
        if OUTSIDE not in outcome or not _dependent_parents(claim):
            break
    return Outcome(Verdict.INCONCLUSIVE, f"{SEARCH}; {COVER}", notes=f"{searched}; {outcome}")


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
    for prec in PRECISIONS:
        try:
            left, right = ball(claim.lhs, point, prec), ball(claim.rhs, point, prec)
        except EvaluationError:
            return None
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


def cover_cases(claim: InequalityClaim, pieces: int = 1) -> tuple[list[Case] | None, str]:
    """Boxes (with integer values as constants) whose union contains the domain, or None and the reason.

    Real parameters that a dependent bound refers to are cut into `pieces` equal sides."""
    expr = claim.rhs - claim.lhs
    special = [node for node in sp.preorder_traversal(expr) if isinstance(node, LambdaC | sp.Abs)]
    if special:
        return None, f"{special[0].func.__name__} inside the relation has no enclosure in the cover's evaluator"
    try:
        from_sympy(expr)
    except TreeError as exc:
        return None, f"the certificate format cannot hold the expression ({exc})"
    unbounded = [str(s) for s in claim.order if claim.domains[s].low is None or claim.domains[s].high is None]
    if unbounded:
        return None, f"unbounded domain ({', '.join(unbounded)}): a cover needs finite bounds"
    cases: list[Case] = [({}, {})]
    parents = _dependent_parents(claim)
    for symbol in claim.order:
        grown: list[Case] = []
        for constants, box in cases:
            ends = _ends(claim, symbol, constants, box)
            if ends is None:
                return None, f"cannot enclose the bounds of {symbol} on a box"
            grown.extend(_extend(claim, symbol, constants, box, ends, len(cases), pieces if symbol in parents else 1))
        cases = grown
    return cases, ""


def _ends(
    claim: InequalityClaim, symbol: sp.Symbol, constants: dict, box: Box
) -> tuple[sp.Rational, sp.Rational] | None:
    """Outer rational ends of the symbol's bounds over the constants and the box of its parents."""
    env: dict[sp.Symbol, arb] = {s: ball_of(v) for s, v in constants.items()}
    env |= {s: interval_ball(lo, hi) for s, (lo, hi) in box.items()}
    domain = claim.domains[symbol]
    try:  # a rational bound is its own end: a ball would round it outward, past the declared domain
        low = domain.low if domain.low.is_Rational else exact_ends(ball_over(domain.low, env, PRECISIONS[0]))[0]
        high = domain.high if domain.high.is_Rational else exact_ends(ball_over(domain.high, env, PRECISIONS[0]))[1]
    except EvaluationError:
        return None
    return low, high


def _extend(
    claim: InequalityClaim,
    symbol: sp.Symbol,
    constants: dict,
    box: Box,
    ends: tuple[sp.Rational, sp.Rational],
    count: int,
    pieces: int,
) -> list[Case]:
    """The cases after adding `symbol`: one per integer value (when few enough), else `pieces` box sides."""
    low, high = ends
    if low > high:
        return []  # the domain is empty for these values
    if claim.domains[symbol].integer:
        values = range(math.ceil(low), math.floor(high) + 1)
        if len(values) * count <= MAX_INTEGER_CASES:
            return [(constants | {symbol: sp.Integer(v)}, box) for v in values]
    if count * pieces > MAX_CASES:
        pieces = 1
    cuts = [low + (high - low) * sp.Rational(k, pieces) for k in range(pieces + 1)]
    return [(constants, box | {symbol: (a, b)}) for a, b in itertools.pairwise(cuts)]


def _dependent_parents(claim: InequalityClaim) -> set[sp.Symbol]:
    """The real parameters some bound depends on."""
    names = set().union(*(claim.domains[s].dependencies() for s in claim.order))
    return {s for s in claim.order if str(s) in names and not claim.domains[s].integer}


def _cover(claim: InequalityClaim, cases: list[Case], ctx: Context) -> Outcome | str:
    """CERTIFIED or REFUTED from the covers of all cases, or the reason none applies.

    Each case needs a cover of the relation and one of each definedness condition: the relation's
    expression is SymPy's (x/x is already 1 there), so the conditions recorded from the formulas
    as written are proved separately, each with its own certificate."""
    expr, relation = claim.rhs - claim.lhs, RELATION[claim.op]
    boxes_left = MAX_BOXES[ctx.profile]
    stop = min(SECONDS[ctx.profile], ctx.seconds_left())
    proofs: list[tuple[str, Any, dict, Box]] = []
    spent = 0.0
    for constants, box in cases:
        goals: list[tuple[str, sp.Expr, str]] = [("", expr, relation)]
        for condition in claim.conditions:
            goal = _condition_goal(condition, constants, box)
            if isinstance(goal, str):
                where = _text(constants) or "box"
                return f"cannot prove {condition.text()} ({condition.reason}) on the case {where}: {goal}"
            goals.append(goal)
        for label, goal_expr, goal_relation in goals:
            ctx.check_budget()
            try:
                result = prove(
                    goal_expr,
                    goal_relation,
                    *_for_certificates(constants, box),
                    max_boxes=boxes_left,
                    seconds=max(stop - spent, 0.0),
                )
            except TreeError as exc:
                return f"the certificate format cannot hold {label or 'the relation'} ({exc})"
            except ValueError as exc:  # a point (no real side left) that the ball cannot settle
                return f"the cover could not settle {label or 'the case'} {_text(constants)}: {exc}"
            if result.status == "counterexample":
                point = constants | {s: sp.Rational(result.point[s.name]) for s in box}
                witness = refutation(claim, point) if inside(claim, point) else None
                if witness is not None:
                    return Outcome(Verdict.REFUTED, COVER, witness=witness)
                if label:
                    return f"the cover of {label} fails at {_text(point)}, where it could not be refuted"
                return f"the cover found a violation at {_text(point)}, {OUTSIDE} (dependent bounds)"
            if result.status != "proved":
                return f"cover of {label or 'the case'} {_text(constants) or 'box'} undecided: {result.reason}"
            boxes_left -= result.boxes
            spent += result.seconds
            proofs.append((label, result, constants, box))
    directory = certificate_directory(ctx.certificate_dir)
    paths = [str(_certify(claim, label, result, constants, box, directory)) for label, result, constants, box in proofs]
    return Outcome(
        Verdict.CERTIFIED,
        COVER,
        certificates=paths,
        details={"cases": len(cases), "boxes": sum(result.boxes for _, result, _, _ in proofs)},
        notes=f"{len(cases)} case(s) (integer values; pieces of dependent bounds' parents); "
        f"{len(claim.conditions)} definedness condition(s) covered in each",
    )


def _condition_goal(condition: Condition, constants: dict, box: Box) -> tuple[str, sp.Expr, str] | str:
    """(label, expression, relation) for `prove`: a != condition becomes > 0 or < 0 by its sign in the box."""
    label = f"definedness: {condition.text()} ({condition.reason})"
    if condition.relation != "!=":
        return label, condition.expr, condition.relation
    env = {s: ball_of(v) for s, v in constants.items()} | {s: interval_ball(lo, hi) for s, (lo, hi) in box.items()}
    middle = constants | {s: (lo + hi) / 2 for s, (lo, hi) in box.items()}
    for value in (_enclosure(condition.expr, env), _enclosure(condition.expr, middle, point=True)):
        if value is not None and value > 0:
            return label, condition.expr, ">"
        if value is not None and value < 0:
            return label, condition.expr, "<"
    return "the sign of the expression is not settled in the middle of the box"


def _for_certificates(
    constants: dict[sp.Symbol, sp.Rational], box: Box
) -> tuple[intervals.Box, dict[sp.Symbol, Fraction]]:
    """The case as `certificates.intervals.prove` takes it: the box and the constants in Fractions."""
    return (
        {s: (Fraction(lo), Fraction(hi)) for s, (lo, hi) in box.items()},
        {s: Fraction(v) for s, v in constants.items()},
    )


def _enclosure(expr: sp.Expr, env: dict, point: bool = False) -> arb | None:
    try:
        return ball(expr, env, PRECISIONS[-1]) if point else ball_over(expr, env, PRECISIONS[0])
    except EvaluationError:
        return None


def _certify(claim: InequalityClaim, label: str, result: Any, constants: dict, box: Box, directory: Path) -> Path:
    fixed = [f"{s} = {v}" for s, v in constants.items()]
    where = ", ".join(fixed + [f"{s} in [{a}, {b}]" for s, (a, b) in box.items()])
    goal = f" This certificate proves the {label}." if label else ""
    statement = (
        f"{claim.statement} Case: {where or 'no parameters'} (this box contains the domain for these values).{goal}"
    )
    return certify_cover(result, claim.id, statement, directory, embedded(claim))


def inside(claim: InequalityClaim, point: dict[sp.Symbol, sp.Rational]) -> bool:
    """Whether the exact point provably satisfies every declared bound (integers, open and closed ends)."""
    return contains(claim.domains, claim.order, point)


def _text(point: dict) -> str:
    return ", ".join(f"{s} = {v}" for s, v in point.items())
