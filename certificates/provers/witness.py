"""Certified witnesses: exact data whose stated property is verified with exact rationals and balls.

A *point* witness binds the symbols of SymPy expressions to rationals and checks each condition (`expr > 0`, `< 0`,
...) with a ball (the verifier's own tree evaluator), raising the precision until the ball decides. A configuration
witness starts here: a float configuration of the model rounded to exact data (rational heads, rational unit tokens by
inverse stereographic projection, rational beta: `round_configuration`; its JSON form: `certificates.exact_records`),
which `certificates.provers.model_witness` settles against a `model` statement. Either way a property is reported only
when the ball settles it: rounding noise never becomes a witness.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import sympy as sp
from flint import arb
from headflow.certificates.ball_reading import fails
from headflow.certificates.kernel import ball_model, registry_statements
from headflow.certificates.kernel.balls import eval_ball
from headflow.certificates.kernel.exact import ExponentTooLarge, ball_of, exact_value, holds, precision
from headflow.certificates.kernel.exp_field import exactly_zero
from headflow.certificates.kernel.exprtree import Tree, TreeError, rational_text
from headflow.certificates.kernel.interaction import Interaction
from headflow.certificates.provers.rational_sphere import stereographic_lift
from headflow.certificates.store import write_certificate
from headflow.certificates.sympy_trees import from_sympy

#: Working precisions (bits) tried in turn; the last is the largest a certificate may record (`format.MAX_PRECISION`):
#: a formula as written (no cancellation folded away by SymPy) may need them, e.g. (1 + 10**-400) - 1.
PRECISIONS = (64, 128, 256, 512, 1024, 2048, 4096)


#: The largest binary exponent of an end that `enclosure_text` builds exactly; past it TreeError (as for any rational
#: too large to record) before the int is built (2^(10^40) is a MemoryError, not a number); `rational_text`'s own
#: bound refuses somewhat smaller ones.
MAX_END_EXPONENT = 8_192


def enclosure_text(ball: arb) -> list[str]:
    """[lo, hi] as exact rational text: the ball's endpoints widened by its radius for tolerance
    between flint versions, never across zero (so the recorded sign stays the computed one)."""
    try:
        lo, hi = (exact_value(end, MAX_END_EXPONENT) for end in (ball.lower(), ball.upper()))
    except ExponentTooLarge as exc:  # as `rational_text` refuses a rational too large to record
        raise TreeError(f"an enclosure too large to record: {exc}") from None
    slack = (hi - lo) / 2
    wide_lo = lo - slack if (lo - slack > 0) == (lo > 0) else lo
    wide_hi = hi + slack if (hi + slack < 0) == (hi < 0) else hi
    return [rational_text(wide_lo), rational_text(wide_hi)]


@dataclass
class WitnessResult:
    """Whether the property was verified, the balls, and the certificate (when written)."""

    verified: bool
    values: list[str]
    record: dict[str, Any]
    path: Path | None = None
    reason: str = ""


def _settle(evaluate: Any, relations: Sequence[str], zeros: Sequence[bool] = ()) -> tuple[bool, list[arb], int]:
    """Evaluate at rising precision until every relation holds rigorously (or precision runs out); a relation >= or
    <= whose value `zeros` says is exactly 0 holds at any precision."""
    values: list[arb] = []
    zeros = [z and r in (">=", "<=") for z, r in zip(zeros or [False] * len(relations), relations, strict=True)]
    for prec in PRECISIONS:
        with precision(prec):
            values = evaluate()
        if all(z or holds(v, r) for v, r, z in zip(values, relations, zeros, strict=True)):
            return True, values, prec
        if any(fails(v, r) for v, r in zip(values, relations, strict=True)):  # no precision can rescue it
            break
    return False, values, PRECISIONS[-1]


def settle_point(
    conditions: Sequence[tuple[str, sp.Expr | Tree, str]],
    point: Mapping[sp.Symbol, Fraction],
    parameters: Mapping[str, int] | None = None,
) -> WitnessResult:
    """Verify `expr relation 0` for each (name, expr, relation) at the exact point (no file is written); an expr is
    SymPy's or already a tree (a kernel statement's)."""
    relations = [r for _, _, r in conditions]
    # evaluated as certificates.kernel.verify re-evaluates them
    trees = [expr if isinstance(expr, list) else from_sympy(expr) for _, expr, _ in conditions]

    def evaluate() -> list[arb]:
        env = {s.name: ball_of(Fraction(v)) for s, v in point.items()}
        return [eval_ball(tree, env) for tree in trees]

    exact_point = {s.name: Fraction(v) for s, v in point.items()}
    ok, values, prec = _settle(evaluate, relations)
    if not ok:  # a sign >= or <= of a value that is exactly 0 (both sides of a claim equal), as the kernel tests it
        zeros = [r in (">=", "<=") and exactly_zero(t, exact_point) for t, r in zip(trees, relations, strict=True)]
        ok, values, prec = _settle(evaluate, relations, zeros) if any(zeros) else (ok, values, prec)
    record = {
        "witness": "point",
        "parameters": {k: str(v) for k, v in (parameters or {}).items()},
        "point": {s.name: rational_text(v) for s, v in point.items()},
        "prec": prec,
        "conditions": [
            {"name": name, "relation": r, "expression": tree, "enclosure": enclosure_text(v) if v.is_finite() else None}
            for (name, _, r), tree, v in zip(conditions, trees, values, strict=True)
        ],
    }
    shown = [v.str(8) for v in values]
    return WitnessResult(ok, shown, record, reason="" if ok else "the balls do not settle every condition")


def certify_point(
    claim_id: str,
    conditions: Sequence[tuple[str, sp.Expr | Tree, str]],
    point: Mapping[sp.Symbol, Fraction],
    directory: Path,
    parameters: Mapping[str, int] | None = None,
    claim: dict[str, Any] | None = None,
) -> WitnessResult:
    """Settle the conditions at the point; when all hold, write the witness certificate."""
    result = settle_point(conditions, point, parameters)
    if result.verified:
        result.path = write_certificate(directory, claim_id, "witness", result.record, claim)
    return result


def certify_obligation_point(
    claim_id: str, parameters: Mapping[str, int], coordinates: Sequence[Fraction], directory: Path
) -> WitnessResult:
    """A point witness of a registry claim: its conditions are those of the kernel's statement of the claim at these
    parameters (`headflow.certificates.kernel.registry_statements`), trees and all."""
    statement = registry_statements.expected(claim_id, {name: str(value) for name, value in parameters.items()})
    conditions = [(c["name"], c["expression"], c["relation"]) for c in statement["conditions"]]
    point = {sp.Symbol(name): value for name, value in zip(statement["coordinates"], coordinates, strict=True)}
    return certify_point(claim_id, conditions, point, directory, parameters)


# ---------------------------------------------------------------- configurations


def rational(value: float, denominator: int) -> Fraction:
    """The nearest fraction with the given denominator."""
    return Fraction(round(value * denominator), denominator)


def rational_unit_vector(x: np.ndarray, denominator: int) -> list[Fraction]:
    """A rational point exactly on the sphere near the unit vector x (inverse stereographic projection).

    Projects from the pole (0, ..., 0, 1) — or from its opposite when x is near that pole — rounds the
    projected coordinates to the denominator and lifts them back exactly."""
    flip = x[-1] > 0
    y = -x if flip else x
    t = [rational(float(v / (1.0 - y[-1])), denominator) for v in y[:-1]]
    lifted = stereographic_lift(t)
    return [-v for v in lifted] if flip else lifted


def rational_matrix(M: np.ndarray, denominator: int, symmetric: bool) -> list[list[Fraction]]:
    """Round entry-wise (exact zeros stay zero, so block structure and orthogonality survive)."""
    d = M.shape[0]
    R = [[rational(float(M[i, j]), denominator) for j in range(d)] for i in range(d)]
    if symmetric:
        R = [[R[min(i, j)][max(i, j)] for j in range(d)] for i in range(d)]
    return R


def round_configuration(
    tokens: np.ndarray,
    score_matrices: np.ndarray,
    values: np.ndarray,
    beta: float,
    denominator: int = 2**12,
    symmetric: bool = True,
    geometry: str = "sphere",
    attention: str = "usa",
    symmetric_values: bool = False,
    mask: np.ndarray | None = None,
    interaction: Interaction | None = None,
) -> ball_model.ExactConfiguration:
    """Exact data near a float configuration; `values is score_matrices` keeps W_h = M_h exactly.

    Entry-wise rounding keeps exact zeros and equal entries equal, so a scalar head lambda I stays
    an exact rational multiple of I (its diagonal entries are one float rounded one way);
    `symmetric` and `symmetric_values` make the rounded score and value matrices exactly symmetric."""
    X = [rational_unit_vector(x, denominator) for x in tokens]
    M = [rational_matrix(m, denominator, symmetric) for m in score_matrices]
    W = M if values is score_matrices else [rational_matrix(w, denominator, symmetric_values) for w in values]
    rows = None if mask is None else tuple(tuple(bool(m) for m in row) for row in mask)
    return ball_model.ExactConfiguration(
        X, M, W, rational(beta, denominator), geometry, attention, mask=rows, interaction=interaction
    )
