"""Branch-and-bound over parameter boxes with python-flint balls: prove `expr relation 0` on a box or a region.

Each box is first clipped to the region when there is one (`headflow.certificates.kernel.regions`: integer sides, bounds
that depend on other variables; a box left empty is an `empty` leaf). Then, in this order, a box is
settled by
1. the natural ball of the expression (`headflow.certificates.kernel.covers.natural`): a `leaf`;
2. the centred (mean value) form f(m) + grad f(box) (box - m), the partial derivatives computed from the
   expression by `certificates.kernel.derivatives` and enclosed over the box: a `leaf` with `"form": "centred"`;
3. a monotone step: a partial derivative with a sign on the box moves the extreme value to the box's face
   (`{"monotone", "sign", "face"}`), which is covered in turn. A face is not in the region, so its cover drops
   the bounds that involve that variable;
4. a split of one side: integer sides first while their values are few (MAX_INTEGER_CASES); else, among the
   parents of a dependent bound whose face just failed (adaptive refinement where the child's cover fails)
   or else among all sides, the split whose worse half comes closest to settling the relation, ties to the
   widest side. Before splitting, the exact midpoint is tried as a counterexample.
A point of the region where the ball of the expression violates the relation is a counterexample. The
result is `proved` (with the tree, which `headflow.certificates.kernel.recheck` re-checks), `counterexample` (an exact
point) or `undecided` (the box budget, with a few boxes that failed, or a point the balls cannot settle).

The budget is counted (boxes), so a cover ends the same way however busy the machine; a wall-clock safety net far
above it (`safety_seconds`) stops a cover that runs away, and its reason then names the "wall-clock safety limit".
"""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy as sp
from flint import arb
from headflow.certificates.ball_reading import fails
from headflow.certificates.kernel import covers, derivatives
from headflow.certificates.kernel.balls import eval_ball
from headflow.certificates.kernel.exact import SIGNS, ball_of, box_text, exact_value, holds, precision
from headflow.certificates.kernel.exprtree import Tree, TreeError, rational_text
from headflow.certificates.kernel.regions import ENDS, Region, Side
from headflow.certificates.nonempty import side_of
from headflow.certificates.provers.witness import enclosure_text
from headflow.certificates.store import write_certificate
from headflow.certificates.sympy_trees import from_sympy

Box = dict[sp.Symbol, tuple[Fraction, Fraction]]
Sides = dict[str, tuple[Fraction, Fraction]]
#: The relations a cover proves: the signs, and != (a definedness condition).
RELATIONS = (*SIGNS, "!=")
#: Integer sides are split to single values first when their value combinations are at most this many.
MAX_INTEGER_CASES = 64
#: Boxes a face of a monotone step or the derivative of a boundary step may use before it is given up.
SUB_BOXES = 32
#: Boxes reported when the budget runs out.
REPORTED = 3
#: The wall-clock safety net of one cover (seconds): far above what a cover of the largest box budget takes.
SAFETY_SECONDS = 600.0


class _Stop(Exception):
    def __init__(self, status: str, reason: str, point: dict[str, str] | None = None) -> None:
        super().__init__(reason)
        self.status, self.reason, self.point = status, reason, point


class _Fail(Exception):
    """A sub-cover (a face, a derivative) could not be proved; `point` when the relation fails for certain there,
    so that no refinement can prove it (nor the sub-cover it is part of)."""

    def __init__(self, point: dict[str, Fraction] | None = None) -> None:
        super().__init__("sub-cover failed")
        self.point = point


@dataclass(frozen=True)
class _Goal:
    expression: Tree
    relation: str
    relaxed: frozenset[str] = frozenset()


@dataclass
class CoverResult:
    """proved (tree of boxes), counterexample (exact point), or undecided (reason, and boxes that failed)."""

    status: str
    boxes: int
    seconds: float
    tree: dict[str, Any] | None = None
    point: dict[str, str] | None = None
    reason: str = ""
    payload: dict[str, Any] = field(default_factory=dict)
    failed: list[str] = field(default_factory=list)
    #: The number of leaves of a proved cover's tree.
    leaves: int = 0


def prove(
    expr: sp.Expr | Tree,
    relation: str,
    domain: Box,
    max_boxes: int = 20_000,
    prec: int = 64,
    region: Region | None = None,
    safety_seconds: float = SAFETY_SECONDS,
) -> CoverResult:
    """Decide `expr relation 0` for every point of the box `domain` (rational bounds) that lies in `region`
    (every point of the box when None), within `max_boxes`."""
    if relation not in RELATIONS:
        raise ValueError(f"relation must be one of {', '.join(RELATIONS)}")
    start = time.monotonic()
    try:
        # evaluated exactly as certificates.kernel.verify re-evaluates it (a tree: a kernel statement's, as it is)
        expression = expr if isinstance(expr, list) else from_sympy(expr)
    except TreeError as exc:
        return CoverResult("undecided", 0, 0.0, reason=f"the certificate format cannot hold the expression ({exc})")
    sides = {s.name: ends for s, ends in domain.items()}
    search = _Search(expression, region)
    try:
        with precision(prec):
            cover = search.run(sides, relation, max_boxes, start + safety_seconds, safety_seconds)
    except _Stop as stop:
        failed = list(search.failed) if stop.status == "undecided" else []
        return CoverResult(
            stop.status, search.count, time.monotonic() - start, point=stop.point, reason=stop.reason, failed=failed
        )
    except _Fail:
        reason = "a sub-cover (a face or a point of the domain) could not be settled by the balls"
        return CoverResult(
            "undecided", search.count, time.monotonic() - start, reason=reason, failed=list(search.failed)
        )
    except RecursionError:
        return CoverResult("undecided", search.count, time.monotonic() - start, reason="bisection too deep")
    except TreeError as exc:  # an enclosure or a split point beyond what a certificate records
        return CoverResult("undecided", search.count, time.monotonic() - start, reason=f"not recordable: {exc}")
    payload = {
        "expression": expression,
        "relation": relation,
        "domain": {name: [rational_text(lo), rational_text(hi)] for name, (lo, hi) in sides.items()},
        "tree": cover,
        "prec": prec,
    }
    leaves = sum(1 for _ in _leaves(cover))
    return CoverResult("proved", search.count, time.monotonic() - start, tree=cover, payload=payload, leaves=leaves)


class _Search:
    """One branch-and-bound run (module docstring); `node` returns a tree node or raises _Stop / _Fail."""

    def __init__(self, expression: Tree, region: Region | None):
        self.expression, self.region = expression, region
        self.count, self.limit, self.max_boxes = 0, 0, 0
        self.deadline, self.seconds = 0.0, 0.0
        self.widths: dict[str, Fraction] = {}
        self.enumerate: list[str] = []
        self.failed: deque[str] = deque(maxlen=REPORTED)
        self.derivatives: dict[tuple[int, str], Tree | None] = {}
        self.kept: list[Tree] = []  # keeps the trees whose id() keys the derivative cache alive

    def run(self, sides: Sides, relation: str, max_boxes: int, deadline: float, seconds: float) -> dict[str, Any]:
        self.max_boxes = self.limit = max_boxes
        self.deadline, self.seconds = deadline, seconds
        root = sides if self.region is None else self.region.clip(sides)
        if root is None:
            return {"empty": True}
        self.widths = {name: hi - lo for name, (lo, hi) in root.items()}
        integers = [s.name for s in self.region.sides if s.integer and s.name in root] if self.region else []
        combinations = 1
        for name in integers:
            combinations *= int(root[name][1] - root[name][0]) + 1
        self.enumerate = integers if combinations <= MAX_INTEGER_CASES else []
        return self.node(sides, _Goal(self.expression, relation))

    # ------------------------------------------------------------ one box

    def node(self, box: Sides, goal: _Goal) -> dict[str, Any]:
        self._tick()
        clipped = box if self.region is None else self.region.clip(box, goal.relaxed)
        if clipped is None:
            return {"empty": True}
        whole = covers.natural(goal.expression, clipped)
        if holds(whole, goal.relation):
            return {"leaf": enclosure_text(whole)}
        moving = covers.varying(clipped)
        slopes = self._slopes(goal.expression, clipped, moving) if whole.is_finite() else None
        if slopes is not None:
            value = covers.centred(goal.expression, slopes, clipped, whole)
            if value is not None and holds(value, goal.relation):
                return {"leaf": enclosure_text(value), "form": "centred"}
        split: frozenset[str] = frozenset()
        if slopes is not None and goal.relation in SIGNS:
            step, split = self._monotone(clipped, goal, moving, slopes)
            if step is not None:
                return step
        if not moving:
            self._point(clipped, goal, whole)
        self._probe(clipped, goal)
        self.failed.append(box_text(clipped))
        name, at = self._choose(clipped, goal, moving, split)
        lo, hi = clipped[name]
        return {
            "split": name,
            "at": rational_text(at),
            "low": self.node(clipped | {name: (lo, at)}, goal),
            "high": self.node(clipped | {name: (at, hi)}, goal),
        }

    def _tick(self) -> None:
        self.count += 1
        if self.count > self.limit:
            if self.limit >= self.max_boxes:
                raise _Stop("undecided", f"box budget of {self.max_boxes} exhausted")
            raise _Fail()
        if time.monotonic() > self.deadline:
            raise _Stop("undecided", f"the wall-clock safety limit ({self.seconds:g} s) was reached")

    def _slopes(self, expression: Tree, box: Sides, moving: list[str]) -> dict[str, arb] | None:
        """The balls over the box of the partial derivatives in the varying sides (None: some has no rule)."""
        slopes = {}
        for name in moving:
            tree = self._derivative(expression, name)
            if tree is None:
                return None
            slopes[name] = covers.natural(tree, box)
        return slopes

    def _derivative(self, expression: Tree, name: str) -> Tree | None:
        key = (id(expression), name)
        if key not in self.derivatives:
            try:
                self.derivatives[key] = derivatives.derivative(expression, name)
            except TreeError:
                self.derivatives[key] = None
            self.kept += [expression]
        return self.derivatives[key]

    # ------------------------------------------------------------ steps

    def _monotone(
        self, box: Sides, goal: _Goal, moving: list[str], slopes: dict[str, arb]
    ) -> tuple[dict[str, Any] | None, frozenset[str]]:
        """A monotone step (module docstring, 3), or None and the variables to split: the parents of a face's
        variable, when that face failed (its dependent bound left it outside the region). Inside a sub-cover, a face
        that fails for certain fails the sub-cover."""
        split: frozenset[str] = frozenset()
        for name in moving:
            sign = next((s for s in (">=", "<=") if holds(slopes[name], s)), None)
            if sign is None:
                continue
            end = covers.face_end(goal.relation, sign)
            lo, hi = box[name]
            at = lo if end == "low" else hi
            relaxed = goal.relaxed | {name} | self._referencing(name)
            face, failed = self._sub(box | {name: (at, at)}, replace(goal, relaxed=relaxed))
            if face is not None:
                return {"monotone": name, "sign": sign, "face": face}, frozenset()
            if failed is not None and goal.relaxed:
                raise _Fail(failed)
            if failed is not None:
                self._near_bound(failed, goal, name, end)
            side = side_of(self.region, name) if self.region is not None else None
            split = split or frozenset(side.parents() if side is not None else ())
        return None, split

    def _referencing(self, name: str) -> frozenset[str]:
        return self.region.referencing(name) if self.region is not None else frozenset()

    def _sub(self, box: Sides, goal: _Goal) -> tuple[dict[str, Any] | None, dict[str, Fraction] | None]:
        """A sub-cover within SUB_BOXES boxes, or None and the point where it failed for certain, if any (a
        sub-cover is not in the region: its failures are not counterexamples by themselves)."""
        saved = self.limit
        self.limit = min(saved, self.count + SUB_BOXES)
        try:
            return self.node(box, goal), None
        except _Fail as failure:
            return None, failure.point
        finally:
            self.limit = saved

    def _near_bound(self, point: dict[str, Fraction], goal: _Goal, name: str, end: str) -> None:
        """After a face failed for certain at `point` (outside the region when the variable has a dependent bound at
        that end): stop with a counterexample at the rational point of the region next to the bound (the bound's ball
        end, rounded inwards), when the relation fails there."""
        side = side_of(self.region, name) if self.region is not None and not goal.relaxed else None
        if side is None or not isinstance(getattr(side, end), list):
            return
        value = eval_ball(getattr(side, end), {k: ball_of(v) for k, v in point.items()})
        if not value.is_finite():
            return
        grid = Fraction(1, 2**40)
        inner = exact_value(value.upper() if end == "low" else value.lower())
        rounded = (math.ceil(inner / grid) if end == "low" else math.floor(inner / grid)) * grid
        candidate = point | {name: rounded}
        if self._in_region(candidate, goal):
            at = eval_ball(goal.expression, {k: ball_of(v) for k, v in candidate.items()})
            if fails(at, goal.relation):
                raise _Stop("counterexample", "the relation fails next to a dependent bound", _texts(candidate))

    # ------------------------------------------------------------ failures

    def _in_region(self, point: dict[str, Fraction], goal: _Goal) -> bool:
        """Whether a violation at the point refutes the claim: the claim's own goal, in the region."""
        if goal.relaxed:
            return False
        return self.region is None or self.region.contains(point) is not None

    def _point(self, box: Sides, goal: _Goal, whole: arb) -> None:
        """A box of one point that no form settled: a counterexample when it is one, else a failure."""
        point = {name: lo for name, (lo, _) in box.items()}
        certain = fails(whole, goal.relation)
        if certain and self._in_region(point, goal):
            raise _Stop("counterexample", "the relation fails at an exact point", _texts(point))
        self.failed.append(box_text(box))
        raise _Fail(point if certain else None)

    def _probe(self, box: Sides, goal: _Goal) -> None:
        """When the relation fails, for certain, at the box's exact midpoint: a counterexample in the region, a
        certain failure of a sub-cover (a face, a derivative: no refinement can prove it), else nothing."""
        middle = {name: (lo + hi) / 2 for name, (lo, hi) in box.items()}
        value = eval_ball(goal.expression, {k: ball_of(v) for k, v in middle.items()})
        if not fails(value, goal.relation):
            return
        if self._in_region(middle, goal):
            raise _Stop("counterexample", "the relation fails at an exact point", _texts(middle))
        if goal.relaxed:
            raise _Fail(middle)

    def _choose(self, box: Sides, goal: _Goal, moving: list[str], split: frozenset[str]) -> tuple[str, Fraction]:
        """The side to split and where: integers to enumerate first; then, among the preferred parents (else all
        varying sides), the split whose worse half comes closest to settling the relation (natural balls of the
        clipped halves: splitting a parent raises the clip of a dependent side), ties to the widest side
        relative to the root box."""
        for name in self.enumerate:
            if name in moving:
                return name, self._cut(box, name)
        candidates = [name for name in moving if name in split] or moving
        if len(candidates) == 1 or not self._dependent_clip(box, goal, moving):
            name = max(candidates, key=lambda k: self._relative(box, k))
            return name, self._cut(box, name)

        def score(name: str) -> tuple[float, Fraction]:
            at = self._cut(box, name)
            lo, hi = box[name]
            worst = min(self._margin(box | {name: half}, goal) for half in ((lo, at), (at, hi)))
            return worst, self._relative(box, name)

        name = max(candidates, key=score)
        return name, self._cut(box, name)

    def _relative(self, box: Sides, name: str) -> Fraction:
        lo, hi = box[name]
        return (hi - lo) / self.widths[name] if self.widths[name] else Fraction(0)

    def _dependent_clip(self, box: Sides, goal: _Goal, moving: list[str]) -> bool:
        """Whether a side whose parents vary reaches its dependent bound: splitting a parent may then help."""
        if self.region is None:
            return False
        for side in self.region.sides:
            if side.name in goal.relaxed or not side.parents() & set(moving):
                continue
            if any(isinstance(getattr(side, end), list) and self._touches(box, side, end) for end in ENDS):
                return True
        return False

    def _touches(self, box: Sides, side: Side, end: str) -> bool:
        """Whether the box reaches the bound of `side` at `end` for every value of its parents in the box: its side
        starts at or below the bound's exact lower end (ends at or above its upper end)."""
        assert self.region is not None
        reach = self.region.bound_end(side, end, box)
        lo, hi = box[side.name]
        return reach is not None and (lo <= reach if end == "low" else hi >= reach)

    def _cut(self, box: Sides, name: str) -> Fraction:
        lo, hi = box[name]
        return Fraction(int((lo + hi) // 2)) + Fraction(1, 2) if self._integer(name) else (lo + hi) / 2

    def _margin(self, box: Sides, goal: _Goal) -> float:
        """How close the natural ball over the clipped box comes to settling the relation (higher is closer; an
        empty box settles it)."""
        clipped = box if self.region is None else self.region.clip(box, goal.relaxed)
        if clipped is None:
            return math.inf
        value = covers.natural(goal.expression, clipped)
        if not value.is_finite():
            return -math.inf
        low, high = float(value.lower()), float(value.upper())
        return {">": low, ">=": low, "<": -high, "<=": -high}.get(goal.relation, max(low, -high))

    def _integer(self, name: str) -> bool:
        side = side_of(self.region, name) if self.region is not None else None
        return side is not None and side.integer


def _texts(point: dict[str, Fraction]) -> dict[str, str]:
    return {name: rational_text(value) for name, value in point.items()}


def prove_inequality(inequality: sp.Rel, domain: Box, **budgets: Any) -> CoverResult:
    """`lhs < rhs`, `lhs <= rhs` (or > / >=) on the box, as `prove(rhs - lhs > 0)` and so on."""
    relation = {sp.StrictLessThan: ">", sp.LessThan: ">=", sp.StrictGreaterThan: "<", sp.GreaterThan: "<="}.get(
        type(inequality)
    )
    if relation is None:
        raise ValueError(f"not a strict or non-strict inequality: {inequality}")
    return prove(inequality.rhs - inequality.lhs, relation, domain, **budgets)


def _leaves(node: dict[str, Any]):  # type: ignore[no-untyped-def]
    if "leaf" in node or "empty" in node:
        yield node
    else:
        for key in ("low", "high", "face", "derivative"):
            if key in node:
                yield from _leaves(node[key])


def certify_cover(result: CoverResult, claim_id: str, directory: Path, claim: dict[str, Any] | None = None) -> Path:
    """Write the certificate of a proved cover (`claim`: the claims-file claim's own fields)."""
    if result.status != "proved":
        raise ValueError("only a proved cover has a certificate")
    return write_certificate(directory, claim_id, "interval-cover", result.payload, claim)
