"""Branch-and-bound over parameter boxes with python-flint balls: prove `expr relation 0` on a box.

Each box is evaluated as a ball (certificates.expression_balls.to_arb, the variables bound to the box's
intervals). A box where the ball satisfies the relation becomes a leaf; a box where it does not
is split at the midpoint of its widest side (relative to the domain), after checking whether its
exact midpoint is a ball-verified counterexample. The result is `proved` (with the bisection tree:
leaves are boxes with their enclosures, which `certificates.verify` re-checks), `counterexample`
(an exact point where the relation fails rigorously) or `undecided` (box or time budget).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy as sp
from flint import arb

from certificates.exact import SIGNS, ball_of, fails, holds, interval_ball, precision
from certificates.exprtree import enclosure_text, eval_ball, from_sympy, rational_text
from certificates.store import write_certificate

Box = dict[sp.Symbol, tuple[Fraction, Fraction]]


class _Stop(Exception):
    def __init__(self, status: str, reason: str, point: dict[str, str] | None = None) -> None:
        super().__init__(reason)
        self.status, self.reason, self.point = status, reason, point


@dataclass
class CoverResult:
    """proved (tree of boxes), counterexample (exact point), or undecided (reason)."""

    status: str
    boxes: int
    seconds: float
    tree: dict[str, Any] | None = None
    point: dict[str, str] | None = None
    reason: str = ""
    payload: dict[str, Any] = field(default_factory=dict)


def prove(
    expr: sp.Expr,
    relation: str,
    domain: Box,
    constants: Mapping[sp.Symbol, Fraction] | None = None,
    max_boxes: int = 20_000,
    seconds: float = 10.0,
    prec: int = 64,
) -> CoverResult:
    """Decide `expr relation 0` for every point of the box `domain` (rational bounds), within budgets."""
    if relation not in SIGNS:
        raise ValueError(f"relation must be one of {', '.join(SIGNS)}")
    constants = dict(constants or {})
    expression = from_sympy(expr)  # evaluated exactly as certificates.verify re-evaluates it
    fixed = {s.name: ball_of(v) for s, v in constants.items()}
    widths = {s: hi - lo for s, (lo, hi) in domain.items()}
    deadline = time.monotonic() + seconds
    count = [0]
    start = time.monotonic()

    def evaluate(box: Box) -> arb:
        return eval_ball(expression, fixed | {s.name: interval_ball(lo, hi) for s, (lo, hi) in box.items()})

    def search(box: Box) -> dict[str, Any]:
        count[0] += 1
        if count[0] > max_boxes:
            raise _Stop("undecided", f"box budget of {max_boxes} exhausted")
        if time.monotonic() > deadline:
            raise _Stop("undecided", f"time budget of {seconds:g}s exhausted")
        value = evaluate(box)
        if holds(value, relation):
            return {"leaf": enclosure_text(value)}
        mid = {s: (lo + hi) / 2 for s, (lo, hi) in box.items()}
        if fails(evaluate({s: (m, m) for s, m in mid.items()}), relation):
            raise _Stop(
                "counterexample",
                "the relation fails at an exact point",
                {s.name: rational_text(m) for s, m in mid.items()},
            )
        split = max(box, key=lambda s: (box[s][1] - box[s][0]) / widths[s] if widths[s] else -1)
        lo, hi = box[split]
        if lo == hi:
            raise _Stop("undecided", "the ball cannot settle the relation at a point (degenerate box)")
        at = mid[split]
        return {
            "split": split.name,
            "at": rational_text(at),
            "low": search(box | {split: (lo, at)}),
            "high": search(box | {split: (at, hi)}),
        }

    try:
        with precision(prec):
            cover = search(dict(domain))
    except _Stop as stop:
        return CoverResult(stop.status, count[0], time.monotonic() - start, point=stop.point, reason=stop.reason)
    except RecursionError:
        return CoverResult("undecided", count[0], time.monotonic() - start, reason="bisection too deep")
    payload = {
        "expression": expression,
        "relation": relation,
        "variables": [s.name for s in domain],
        "constants": {s.name: rational_text(v) for s, v in constants.items()},
        "domain": {s.name: [rational_text(lo), rational_text(hi)] for s, (lo, hi) in domain.items()},
        "tree": cover,
        "leaves": sum(1 for _ in _leaves(cover)),
        "prec": prec,
    }
    return CoverResult("proved", count[0], time.monotonic() - start, tree=cover, payload=payload)


def prove_inequality(inequality: sp.Rel, domain: Box, **budgets: Any) -> CoverResult:
    """`lhs < rhs`, `lhs <= rhs` (or > / >=) on the box, as `prove(rhs - lhs > 0)` and so on."""
    relation = {sp.StrictLessThan: ">", sp.LessThan: ">=", sp.StrictGreaterThan: "<", sp.GreaterThan: "<="}.get(
        type(inequality)
    )
    if relation is None:
        raise ValueError(f"not a strict or non-strict inequality: {inequality}")
    return prove(inequality.rhs - inequality.lhs, relation, domain, **budgets)


def _leaves(node: dict[str, Any]):  # type: ignore[no-untyped-def]
    if "leaf" in node:
        yield node
    else:
        yield from _leaves(node["low"])
        yield from _leaves(node["high"])


def certify_cover(
    result: CoverResult, claim_id: str, statement: str, directory: Path, claim: dict[str, Any] | None = None
) -> Path:
    """Write the certificate of a proved cover (`claim`: the claims-file claim's own fields)."""
    if result.status != "proved":
        raise ValueError("only a proved cover has a certificate")
    method = f"branch-and-bound with python-flint balls: {result.payload['leaves']} boxes"
    return write_certificate(directory, claim_id, statement, method, "interval-cover", result.payload, claim)
