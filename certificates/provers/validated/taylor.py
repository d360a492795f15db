"""The field of the model over a flat state vector of balls or power series, the Taylor coefficients of the solution
and the field's Jacobian over a box (the series recursion of the solution's coefficients is the kernel's,
`certificates.kernel.trajectory.solution_coefficients`, which replays the trajectory certificates with it).

The field is the kernel's chain (`certificates.kernel.model_chain`, the one definition of the model, as
`ball_model.velocity_field` evaluates it over balls and series), compiled once per model into a straight-line
program (`program`): nothing of the model is written here. A state is the n x d tokens read row by row (index
i d + k).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

from flint import arb, arb_mat, arb_series, ctx
from headflow.certificates.kernel.exact import ball_of
from headflow.certificates.kernel.exact_data import ExactConfiguration
from headflow.certificates.provers.validated.program import Program, compile_field

#: Geometries the validated integrator covers: the sphere (the ambient field's solution from a unit start stays unit)
#: and flat space.
GEOMETRIES = ("sphere", "flat")
#: Attention kinds it covers: the smooth ones, whose field has every derivative (relu's kink has none).
KINDS = ("usa", "softmax")
#: Compiled programs kept (one per model: heads, beta, kind, geometry, mask, interaction, n and d).
PROGRAMS_KEPT = 8

Field = Program
_PROGRAMS: dict[str, Program] = {}


def coverage_failure(cfg: ExactConfiguration) -> str | None:
    """Why the validated integrator does not cover the configuration (None when it does): its kind and geometry;
    masks and interaction functions are the chain's own (an interaction whose chain has a node the series cannot
    evaluate is refused by `model_field`)."""
    if cfg.attention not in KINDS:
        return f"the validated integrator covers {' and '.join(KINDS)} attention, not {cfg.attention}"
    if cfg.geometry not in GEOMETRIES:
        return f"the validated integrator covers the {' and '.join(GEOMETRIES)} geometries, not {cfg.geometry}"
    return None


def model_field(cfg: ExactConfiguration) -> Field:
    """The field x -> xdot of the configuration's heads, beta, kind, mask, interaction and geometry over flat states
    (balls or series), compiled once per model (`program`)."""
    if reason := coverage_failure(cfg):
        raise ValueError(reason)
    interaction = None if cfg.interaction is None else cfg.interaction.tree
    key = repr((cfg.n, len(cfg.tokens[0]), cfg.score_matrices, cfg.values, cfg.beta, cfg.geometry, cfg.attention))
    key += repr((cfg.mask, interaction))
    if key not in _PROGRAMS:
        if len(_PROGRAMS) >= PROGRAMS_KEPT:
            _PROGRAMS.pop(next(iter(_PROGRAMS)))
        _PROGRAMS[key] = compile_field(cfg)
    return _PROGRAMS[key]


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


def variational_coefficients(field: Field, coefficients: list[list[arb]], order: int) -> list[arb_mat]:
    """V_0 = I, V_1 .. V_order: the Taylor coefficients of the flow's Jacobian DPhi_t (the solution of V' = J(x(t)) V,
    V(0) = I), enclosed for every start in the balls whose solution coefficients are given (x_0 .. x_{order-1} at
    least): (k+1) V_{k+1} = sum_{j <= k} J_j V_{k-j}, J_j the coefficients of J(x(t)) (`Program.jacobian_series`).
    V_k is the derivative of the solution's k-th coefficient x_k with respect to the start."""
    n = len(coefficients[0])
    if order == 0:
        return [identity(n)]
    along = [arb_series([c[m] for c in coefficients[:order]], prec=order) for m in range(n)]
    J = field.jacobian_series(along, order)
    V = [identity(n)]
    for k in range(order):
        total = J[k]  # J_k V_0
        for j in range(k):
            total = total + J[j] * V[k - j]
        V.append(total * ball_of(Fraction(1, k + 1)))
    return V


def identity(n: int) -> arb_mat:
    return arb_mat(n, n, [1 if i == j else 0 for i in range(n) for j in range(n)])


def polynomial(coefficients: list[list[arb]], h: arb) -> list[arb]:
    """sum_k x_k h^k (Horner), componentwise."""
    values = list(coefficients[-1])
    for c in reversed(coefficients[:-1]):
        values = [v * h + ck for v, ck in zip(values, c, strict=True)]
    return values
