"""The validated integrator: the float trajectory inside its enclosures (masks, interaction functions and ball starts
too), forged steps rejected by `recheck_step`, steps that cannot be validated stopping cleanly, the compiled field
equal to the kernel's, and the enclosure's width kept small in dimension 64 (slow)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest
from flint import arb, arb_series
from headflow.certificates.claims.interaction_text import parse_interaction
from headflow.certificates.kernel.ball_model import velocity_field
from headflow.certificates.kernel.exact import ball_of, precision
from headflow.certificates.kernel.exact_data import ExactConfiguration
from headflow.certificates.kernel.masks import causal
from headflow.certificates.kernel.trajectory import coefficient, solution_coefficients
from headflow.certificates.provers.rational_sphere import stereographic_lift
from headflow.certificates.provers.validated import Enclosure, enclose, recheck_step
from headflow.certificates.provers.validated.integrator import recheck
from headflow.certificates.provers.validated.program import FieldUndefined
from headflow.certificates.provers.validated.taylor import model_field, series_length, variational_coefficients
from headflow.checks.integrator import integrate
from headflow.checks.model.configuration import Configuration

#: How far a float trajectory (rtol 1e-12) may sit outside a rigorous enclosure of the exact one.
FLOAT_SLACK = 1e-9


def _configuration(
    n: int, d: int, H: int, attention: str, geometry: str, beta: Fraction, mask: str = "", interaction: str = ""
) -> ExactConfiguration:
    """Exact unit tokens that are neither equiangular nor two clusters, and symmetric aligned heads (a causal mask
    and an interaction function phi(s) when named)."""
    tokens = [stereographic_lift([Fraction(i + 1, 3 + i * k) for k in range(d - 1)]) for i in range(n)]
    heads = [
        [[Fraction(1 + h) if a == b else Fraction(a + b, 5 + 4 * h) for b in range(d)] for a in range(d)]
        for h in range(H)
    ]
    stated = parse_interaction(interaction, attention) if interaction else None
    return ExactConfiguration(tokens, heads, heads, beta, geometry, attention, causal(n) if mask else None, stated)


def _float_states(cfg: ExactConfiguration, times: list[Fraction]) -> np.ndarray:
    floats = Configuration.create(
        np.array(cfg.tokens, dtype=float),
        np.array(cfg.score_matrices, dtype=float),
        beta=float(cfg.beta),
        attention=cfg.attention,
        geometry=cfg.geometry,
        interaction=None if cfg.interaction is None else cfg.interaction.text,
        mask=None if cfg.mask is None else np.array(cfg.mask, dtype=int),
    )
    end = float(times[-1])
    trajectory = integrate(floats, end, rtol=1e-12, atol=1e-14, record_times=[float(t) for t in times])
    assert trajectory.t_end == pytest.approx(end)
    return trajectory.states


CASES = [
    pytest.param((3, 3, 2, "softmax", "sphere", Fraction(1)), marks=pytest.mark.slow),  # ~2 s; the default suite's
    # softmax on the sphere is the causal case's
    pytest.param((3, 2, 1, "usa", "flat", Fraction(1, 2))),
    pytest.param((2, 3, 2, "usa", "sphere", Fraction(1, 2))),
    pytest.param((3, 3, 1, "softmax", "sphere", Fraction(1), "causal")),
    pytest.param((3, 2, 1, "usa", "sphere", Fraction(1, 2), "", "exp(beta*s) - s")),
    pytest.param((3, 2, 1, "softmax", "flat", Fraction(1), "causal", "1 + s**2")),
]


def _case_id(c: tuple) -> str:
    return "-".join([c[3], c[4], f"n{c[0]}d{c[1]}H{c[2]}", *(w.replace(" ", "") for w in c[6:] if w)])


@pytest.fixture(scope="module", params=CASES, ids=_case_id)
def enclosure(request: pytest.FixtureRequest) -> Enclosure:
    return enclose(_configuration(*request.param), Fraction(1, 4), tolerance=1e-10)


def test_the_float_trajectory_lies_in_every_enclosure(enclosure: Enclosure) -> None:
    assert enclosure.reached, enclosure.status
    states = _float_states(enclosure.cfg, enclosure.times())
    for state, box in zip(states, enclosure.boxes(), strict=True):
        for x, b in zip(state.ravel(), box, strict=True):
            assert float(b.lower()) - FLOAT_SLACK <= x <= float(b.upper()) + FLOAT_SLACK
    assert max(enclosure.widths()) < 1e-8


def test_every_recorded_step_rechecks(enclosure: Enclosure) -> None:
    assert recheck(enclosure) == []


def _shifted(values: tuple[arb, ...], by: float) -> tuple[arb, ...]:
    return (values[0] + by, *values[1:])


def _shrunk(values: tuple[arb, ...]) -> tuple[arb, ...]:
    return tuple(v.mid() + arb(0, float(v.rad()) / 4) for v in values)


@pytest.mark.parametrize(
    "forge",
    [
        lambda s: dataclasses.replace(s, box=_shifted(s.box, 2 * float(s.box[0].rad()))),
        lambda s: dataclasses.replace(s, box=tuple(s.start.hull())),  # the box shrunk to the start
        lambda s: dataclasses.replace(s, box=_shrunk(s.box)),
        lambda s: dataclasses.replace(s, end=dataclasses.replace(s.end, centre=_shifted(s.end.centre, 1e-6))),
        lambda s: dataclasses.replace(s, end=dataclasses.replace(s.end, spread=_shrunk(s.end.spread))),
        lambda s: dataclasses.replace(s, h=s.h * 2),  # a longer step than the box was validated for
    ],
    ids=["box-shifted", "box-is-start", "box-shrunk", "end-shifted", "end-shrunk", "longer-step"],
)
def test_a_forged_step_is_rejected(enclosure: Enclosure, forge) -> None:  # type: ignore[no-untyped-def]
    step = enclosure.steps[1]
    assert recheck_step(enclosure.cfg, step) == []
    assert recheck_step(enclosure.cfg, forge(step)) != []


def test_steps_out_of_order_are_rejected(enclosure: Enclosure) -> None:
    swapped = dataclasses.replace(enclosure, steps=[enclosure.steps[1], enclosure.steps[0]])
    assert any("does not start" in reason for reason in recheck(swapped))


def test_a_step_that_cannot_be_validated_stops_cleanly() -> None:
    # usa at beta = 60: weights up to exp(60), a field no box around a step of 1/8 holds (its balls overflow)
    cfg = _configuration(3, 3, 1, "usa", "sphere", Fraction(60))
    result = enclose(cfg, Fraction(1), min_step=Fraction(1, 8))
    assert not result.reached and result.steps == []
    assert result.status.startswith("stopped at t=0: ") and "no step of at least 0.125" in result.status


def test_a_ball_start_encloses_every_solution_from_its_balls() -> None:
    """Solutions from corners of the start's balls (flat space: the float integrator follows the ambient field) lie
    in the enclosure, which carries the balls' width through the mean-value term D A R."""
    cfg, radius = _configuration(3, 3, 1, "softmax", "flat", Fraction(1)), 1e-9
    with precision(64):
        balls = [arb(float(v)) + arb(0, radius) for x in cfg.tokens for v in x]
    result = enclose(cfg, Fraction(1, 4), start=balls)
    assert result.reached and recheck(result) == []
    assert 2 * radius <= min(result.widths()) and max(result.widths()) < 100 * radius
    for signs in ([1] * 9, [(-1) ** k for k in range(9)], [-1] * 9):
        tokens = [
            [float(v) + 0.999 * radius * signs[3 * i + k] for k, v in enumerate(x)] for i, x in enumerate(cfg.tokens)
        ]
        corner = dataclasses.replace(cfg, tokens=[[Fraction(v) for v in x] for x in tokens])
        for state, box in zip(_float_states(corner, result.times()), result.boxes(), strict=True):
            assert all(b.lower() - 1e-12 <= x <= b.upper() + 1e-12 for x, b in zip(state.ravel(), box, strict=True))
    moved = dataclasses.replace(result, balls=tuple(b + 1e-6 for b in balls))  # not the chain of this start
    assert any("does not start" in reason for reason in recheck(moved))
    with pytest.raises(ValueError, match="ball start"):
        enclose(cfg, Fraction(1, 4), start=balls[:-1])


def test_the_compiled_field_is_the_kernels() -> None:
    """The program over balls and over series gives what `ball_model.velocity_field` gives (the chain's trees walked
    directly), and its reverse Jacobian what forward first-order series through the kernel give."""
    cfg = _configuration(3, 3, 2, "softmax", "sphere", Fraction(1))
    field = model_field(cfg)
    with precision(128), series_length(4):
        state = [arb(float(v)) + arb(0, 1e-6) for x in cfg.tokens for v in x]
        tokens = [state[i : i + 3] for i in range(0, 9, 3)]
        kernel = [v for x in velocity_field(tokens, cfg) for v in x]
        assert all(a.overlaps(b) and abs(a.rad() - b.rad()) < 1e-12 for a, b in zip(field(state), kernel, strict=True))
        series = [arb_series([b, arb(1) / (m + 2), arb(-1) / 7], prec=3) for m, b in enumerate(state)]
        J = field.jacobian_series(series, 3)
        for k in range(9):  # column k of J_0: the first coefficient of f(state + t e_k)
            along = [arb_series([b, 1 if m == k else 0], prec=2) for m, b in enumerate(state)]
            column = [coefficient(v, 1) for x in velocity_field([along[i : i + 3] for i in (0, 3, 6)], cfg) for v in x]
            assert all(J[0][m, k].overlaps(column[m]) for m in range(9))
        assert any(J[1][m, k] != 0 for m in range(9) for k in range(9))  # J(x(t)) varies along the series


def test_a_field_undefined_over_a_box_is_reported() -> None:
    """Over a box this wide the balls of the softmax normalizers Z = sum_j exp(s_j) reach 0 (their radius passes their
    midpoint): the series division is refused, and a step there fails instead of crashing."""
    field = model_field(_configuration(3, 2, 1, "softmax", "flat", Fraction(1)))
    with precision(64), series_length(3):
        box = [arb(0, 10)] * 6
        series = [arb_series([b, 1], prec=2) for b in box]
        with pytest.raises(FieldUndefined):
            field(series)
        with pytest.raises(FieldUndefined):
            field.jacobian_series(series, 2)


def test_the_variational_coefficients_are_the_derivatives_of_the_solutions_coefficients() -> None:
    """V_k = dx_k/dx_0, against central differences of the coefficients x_k at 256 bits (an error of order delta^2)."""
    cfg = _configuration(3, 2, 1, "softmax", "sphere", Fraction(1), "causal")
    field, delta, order = model_field(cfg), Fraction(1, 10**20), 4
    with precision(256), series_length(order + 2):
        centre = [ball_of(v) for x in cfg.tokens for v in x]
        V = variational_coefficients(field, solution_coefficients(field, centre, order), order)
        for m in range(6):
            shifted = [
                solution_coefficients(
                    field, [c + ball_of(sign * delta) if i == m else c for i, c in enumerate(centre)], order
                )
                for sign in (1, -1)
            ]
            for k in range(order + 1):
                for i in range(6):
                    difference = (shifted[0][k][i] - shifted[1][k][i]) / ball_of(2 * delta)
                    assert abs(float((difference - V[k][i, m]).mid())) < 1e-15


def test_steps_end_at_the_stops() -> None:
    cfg = _configuration(3, 2, 1, "usa", "flat", Fraction(1, 2))
    result = enclose(cfg, Fraction(1, 4), stops=[Fraction(1, 10), Fraction(1, 5), Fraction(3)])
    assert result.reached and {Fraction(1, 10), Fraction(1, 5)} <= set(result.times()) and recheck(result) == []


@pytest.mark.slow
def test_the_enclosure_stays_narrow_in_dimension_64() -> None:
    """n x d = 16 x 4 to T = 1 (about 15 s): the mean-value term D from the variational coefficients keeps the width
    near the tolerance's (the first-order D of Gronwall's bound passed a width of 0.5 before t = 1)."""
    tokens = [stereographic_lift([Fraction(i + 1, 3 + i * k) - Fraction(k, 5) for k in range(3)]) for i in range(16)]
    identity = [[Fraction(int(a == b)) for b in range(4)] for a in range(4)]
    cfg = ExactConfiguration(tokens, [identity], [identity], Fraction(1), "sphere", "softmax")
    result = enclose(cfg, Fraction(1), tolerance=1e-8)
    assert result.reached and max(result.widths()) < 1e-6
    for step in result.steps[:: len(result.steps) // 3]:
        assert recheck_step(cfg, step) == []
    states = _float_states(cfg, result.times())
    for state, box in zip(states, result.boxes(), strict=True):
        assert all(
            b.lower() - FLOAT_SLACK <= x <= b.upper() + FLOAT_SLACK for x, b in zip(state.ravel(), box, strict=True)
        )


def test_uncovered_models_are_refused() -> None:
    with pytest.raises(ValueError, match="usa and softmax"):
        enclose(_configuration(3, 2, 1, "relu", "sphere", Fraction(1)), Fraction(1))
    with pytest.raises(ValueError, match="sphere and flat"):
        enclose(_configuration(3, 2, 1, "usa", "peri-ln", Fraction(1)), Fraction(1))


def test_a_truncated_series_has_no_coefficient_past_its_length() -> None:
    assert coefficient(arb_series([1, 2, 0], prec=3), 2) == 0
    with pytest.raises(ValueError, match="truncated"):
        coefficient(arb_series([1, 2], prec=2), 2)
