"""The validated integrator: the float trajectory inside its enclosures, forged steps rejected by `recheck_step`,
steps that cannot be validated stopping cleanly."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest
from flint import arb, arb_series
from headflow.certificates.kernel.exact_data import ExactConfiguration
from headflow.certificates.provers.rational_sphere import stereographic_lift
from headflow.certificates.provers.validated import Enclosure, enclose, recheck_step
from headflow.certificates.provers.validated.integrator import recheck
from headflow.certificates.provers.validated.taylor import coefficient
from headflow.checks.integrator import integrate
from headflow.checks.model.configuration import Configuration

#: How far a float trajectory (rtol 1e-12) may sit outside a rigorous enclosure of the exact one.
FLOAT_SLACK = 1e-9


def _configuration(n: int, d: int, H: int, attention: str, geometry: str, beta: Fraction) -> ExactConfiguration:
    """Exact unit tokens that are neither equiangular nor two clusters, and symmetric aligned heads."""
    tokens = [stereographic_lift([Fraction(i + 1, 3 + i * k) for k in range(d - 1)]) for i in range(n)]
    heads = [
        [[Fraction(1 + h) if a == b else Fraction(a + b, 5 + 4 * h) for b in range(d)] for a in range(d)]
        for h in range(H)
    ]
    return ExactConfiguration(tokens, heads, heads, beta, geometry, attention)


def _float_states(cfg: ExactConfiguration, times: list[Fraction]) -> np.ndarray:
    floats = Configuration.create(
        np.array(cfg.tokens, dtype=float),
        np.array(cfg.score_matrices, dtype=float),
        beta=float(cfg.beta),
        attention=cfg.attention,
        geometry=cfg.geometry,
    )
    end = float(times[-1])
    trajectory = integrate(floats, end, rtol=1e-12, atol=1e-14, record_times=[float(t) for t in times])
    assert trajectory.t_end == pytest.approx(end)
    return trajectory.states


CASES = [
    pytest.param((3, 3, 2, "softmax", "sphere", Fraction(1)), marks=pytest.mark.slow),  # ~25 s: the default suite's
    # sphere and softmax case is simulate --certified's (tests/checks/commands/test_simulate.py)
    pytest.param((3, 2, 1, "usa", "flat", Fraction(1, 2))),
    pytest.param((2, 3, 2, "usa", "sphere", Fraction(1, 2)), marks=pytest.mark.slow),
]


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"{c[3]}-{c[4]}-n{c[0]}d{c[1]}H{c[2]}")
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


def test_uncovered_models_are_refused() -> None:
    with pytest.raises(ValueError, match="usa and softmax"):
        enclose(_configuration(3, 2, 1, "relu", "sphere", Fraction(1)), Fraction(1))
    with pytest.raises(ValueError, match="sphere and flat"):
        enclose(_configuration(3, 2, 1, "usa", "peri-ln", Fraction(1)), Fraction(1))


def test_a_truncated_series_has_no_coefficient_past_its_length() -> None:
    assert coefficient(arb_series([1, 2, 0], prec=3), 2) == 0
    with pytest.raises(ValueError, match="truncated"):
        coefficient(arb_series([1, 2], prec=2), 2)
