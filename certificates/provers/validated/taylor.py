"""The field of the model over a flat state vector of balls or power series, the Taylor coefficients of the solution
and the field's Jacobian over a box.

The field is the kernel's chain (`ball_model.velocity_field`, the one definition of the model): nothing of the model is
written here. A state is the n x d tokens read row by row (index i d + k).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from flint import arb, arb_mat, arb_series, ctx
from headflow.certificates.kernel.ball_model import velocity_field
from headflow.certificates.kernel.exact import ball_of
from headflow.certificates.kernel.exact_data import ExactConfiguration

#: Geometries the validated integrator covers: the sphere (the ambient field's solution from a unit start stays unit)
#: and flat space.
GEOMETRIES = ("sphere", "flat")
#: Attention kinds it covers: the smooth ones, whose field has every derivative (relu's kink has none).
KINDS = ("usa", "softmax")

Field = Callable[[Sequence[Any]], list[Any]]


def coverage_failure(cfg: ExactConfiguration) -> str | None:
    """Why the validated integrator does not cover the configuration (None when it does)."""
    if cfg.attention not in KINDS:
        return f"the validated integrator covers {' and '.join(KINDS)} attention, not {cfg.attention}"
    if cfg.geometry not in GEOMETRIES:
        return f"the validated integrator covers the {' and '.join(GEOMETRIES)} geometries, not {cfg.geometry}"
    if cfg.mask is not None or cfg.interaction is not None:
        return "the validated integrator covers the model without a mask or an interaction function"
    return None


def model_field(cfg: ExactConfiguration) -> Field:
    """The field x -> xdot of the configuration's heads, beta, kind and geometry over flat states (balls or series)."""
    if reason := coverage_failure(cfg):
        raise ValueError(reason)
    d = len(cfg.tokens[0])

    def field(state: Sequence[Any]) -> list[Any]:
        tokens = [list(state[i : i + d]) for i in range(0, len(state), d)]
        return [v for x in velocity_field(tokens, cfg, cfg.geometry) for v in x]

    return field


@contextmanager
def series_length(length: int) -> Iterator[None]:
    """python-flint's series length cap (ctx.cap, which truncates every arb_series) at least `length` inside the
    block, restored afterwards."""
    saved = ctx.cap
    ctx.cap = max(saved, length)
    try:
        yield
    finally:
        ctx.cap = saved


def coefficient(value: Any, k: int) -> arb:
    """The k-th coefficient of a series (ValueError when the series was truncated before t^k: its coefficient is
    unknown, not 0), or of a constant (a ball, or a rational the chain folded)."""
    if isinstance(value, arb_series):
        if value.prec <= k:
            raise ValueError(f"a series truncated at length {value.prec} has no coefficient {k}")
        return value[k] if k < len(value) else arb(0)  # python-flint drops trailing zero coefficients
    return (value if isinstance(value, arb) else ball_of(value)) if k == 0 else arb(0)


def solution_coefficients(field: Field, start: Sequence[arb], order: int) -> list[list[arb]]:
    """x_0 .. x_order, the Taylor coefficients (x^(k)(0) / k!) of the solution through `start`, enclosed for every
    point of `start` when it is a box: x_0 = start and x_{k+1} = f_k / (k+1), f_k the k-th coefficient of the field
    along the series x_0 + ... + x_k t^k (which the series arithmetic gets right up to t^k)."""
    coefficients = [list(start)]
    for k in range(order):  # the caller holds the series length cap at order + 1 at least (`series_length`)
        if k == 0:
            along: Sequence[Any] = coefficients[0]
        else:
            along = [arb_series([c[m] for c in coefficients], prec=k + 1) for m in range(len(start))]
        coefficients.append([coefficient(f, k) / (k + 1) for f in field(along)])
    return coefficients


def jacobian(field: Field, box: Sequence[arb]) -> arb_mat:
    """The Jacobian of the field enclosed over the box: column k the first coefficient of f(box + t e_k)."""
    n = len(box)
    columns = []
    for k in range(n):
        along = [arb_series([b, 1 if m == k else 0], prec=2) for m, b in enumerate(box)]
        columns.append([coefficient(f, 1) for f in field(along)])
    return arb_mat([[columns[k][m] for k in range(n)] for m in range(n)])


def polynomial(coefficients: list[list[arb]], h: arb) -> list[arb]:
    """sum_k x_k h^k (Horner), componentwise."""
    values = list(coefficients[-1])
    for c in reversed(coefficients[:-1]):
        values = [v * h + ck for v, ck in zip(values, c, strict=True)]
    return values
