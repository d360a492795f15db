"""The normalization schemes (pre-ln, peri-ln, mix-ln, ngpt) agree in their representations: the vectorized model,
the loop reference, finite differences of the directions and norms, and the balls at exact data."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from headflow.certificates import model_balls
from headflow.certificates.errors import InputError
from headflow.certificates.kernel import ball_model
from headflow.certificates.kernel.exact import ball_of
from headflow.certificates.kernel.exact_data import ExactConfiguration
from headflow.certificates.kernel.model_chain import Chain
from headflow.certificates.kernel.vocabulary import ATTENTION_KINDS, DIRECTION_GEOMETRIES
from headflow.certificates.model_quantities import CERTIFIED, MODEL_QUANTITIES, ball_value
from headflow.certificates.vocabulary import SPHERICAL_GEOMETRIES
from headflow.checks.integrator import integrate
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.model.observables import EVALUATORS

from tests.reference_model import Reference

SCHEMES = ("pre-ln", "peri-ln", "mix-ln", "ngpt")


def _config(geometry: str, attention: str, seed: int, unit: bool = False) -> Configuration:
    """Random general heads and values; tokens of random norms in [0.5, 3] off the sphere (unit for ngpt)."""
    rng = np.random.default_rng(seed)
    X = families.random_sphere_tokens(5, 3, rng)
    if not unit and geometry not in SPHERICAL_GEOMETRIES:
        X = X * rng.uniform(0.5, 3.0, size=(5, 1))
    M, W = families.random_general_heads(2, 3, rng), families.random_general_heads(2, 3, rng)
    return Configuration.create(X, M, W, beta=0.8, attention=attention, geometry=geometry)


@pytest.mark.parametrize("geometry", SCHEMES)
@pytest.mark.parametrize("attention", ATTENTION_KINDS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_each_scheme_matches_the_loop_reference_off_the_sphere(geometry: str, attention: str, seed: int) -> None:
    cfg = _config(geometry, attention, seed)
    ref = Reference(cfg.tokens, cfg.score_matrices, cfg.values, cfg.beta, attention, geometry)
    assert np.allclose(model.token_velocity(cfg), [ref.xdot(i) for i in range(cfg.n)], rtol=1e-10, atol=1e-12)


def _along(cfg: Configuration, step: float, function) -> np.ndarray:  # type: ignore[no-untyped-def]
    """The central difference of function(state) along xdot."""
    xdot = model.token_velocity(cfg)
    plus, minus = cfg.moved_to(cfg.tokens + step * xdot), cfg.moved_to(cfg.tokens - step * xdot)
    return (np.asarray(function(plus)) - np.asarray(function(minus))) / (2 * step)


@pytest.mark.parametrize("geometry", SCHEMES)
@pytest.mark.parametrize("attention", ["usa", "softmax"])
def test_direction_and_norm_rates_are_the_derivatives_along_the_flow(geometry: str, attention: str) -> None:
    """dy/dt, d|x|/dt, and the rates of the quantities attention sees are derivatives of y, |x| and the quantities
    along xdot (finite differences): a scheme whose rates were taken along xdot instead of dy/dt fails."""
    cfg = _config(geometry, attention, 4)
    h = 1e-6
    tolerance = dict(rtol=1e-5, atol=1e-7)
    assert np.allclose(model.direction_velocity(cfg), _along(cfg, h, lambda s: model.directions(s).tokens), **tolerance)
    assert np.allclose(EVALUATORS["token_norm_rate"](cfg), _along(cfg, h, model.token_norms), **tolerance)
    for quantity in ("energy", "attention_entropy", "order_parameter"):
        rate = MODEL_QUANTITIES[quantity].rate
        assert np.allclose(EVALUATORS[rate](cfg), _along(cfg, h, EVALUATORS[quantity]), **tolerance), quantity


def test_pre_ln_is_the_sphere_flow_slowed_by_the_norm() -> None:
    """Pre-LN: dy_i/dt = P⊥_{y_i} v_i(Y) / |x_i|, the Post-LN velocity of the directions divided by the norm."""
    cfg = _config("pre-ln", "softmax", 7)
    directions = model.directions(cfg)
    post_ln = model.token_velocity(Configuration.create(directions.tokens, cfg.score_matrices, cfg.values, 0.8,
                                                        attention="softmax"))  # fmt: skip
    assert np.allclose(model.direction_velocity(cfg) * model.token_norms(cfg)[:, None], post_ln, rtol=1e-12)


def _exact(cfg: Configuration, rng: np.random.Generator) -> tuple[Configuration, ball_model.ExactConfiguration]:
    tokens = families.rational_sphere_tokens(cfg.n, cfg.d, rng)
    heads = [[[Fraction(v).limit_denominator(64) for v in row] for row in M] for M in cfg.score_matrices]
    exact = ball_model.ExactConfiguration(tokens, heads, heads, Fraction(4, 5), cfg.geometry, cfg.attention)
    floats = Configuration.create(
        families.rational_to_float(tokens),
        np.array(heads, dtype=float),
        beta=0.8,
        attention=cfg.attention,
        geometry=cfg.geometry,
    )
    return floats, exact


@pytest.mark.parametrize("geometry", SCHEMES)
@pytest.mark.parametrize("attention", ATTENTION_KINDS)
def test_the_balls_enclose_the_floats_at_exact_unit_tokens(geometry: str, attention: str) -> None:
    rng = np.random.default_rng(9)
    floats, exact = _exact(_config(geometry, attention, 5), rng)
    xdot = model_balls.balls(exact, Chain.velocities)
    for row, expected in zip(xdot, model.token_velocity(floats), strict=True):
        assert all(abs(float(b.mid()) - e) <= 1e-9 for b, e in zip(row, expected, strict=True))
    for name in CERTIFIED:
        values = np.asarray(EVALUATORS[name](floats))
        for index in np.ndindex(values.shape):
            at = dict(zip(MODEL_QUANTITIES[name].axes, index, strict=True))
            enclosure = ball_value(exact, name, at.get("head"), at.get("token"))
            assert abs(float(enclosure.mid()) - float(values[index])) <= 1e-9 * (1 + abs(float(values[index]))), name


@pytest.mark.parametrize("geometry", DIRECTION_GEOMETRIES)
def test_the_ball_field_off_the_sphere_matches_the_floats(geometry: str) -> None:
    """`velocity_field` at ball tokens of any norm reads their directions, as the float model does."""
    cfg = _config(geometry, "softmax", 6)
    heads = [[[Fraction(v) for v in row] for row in M] for M in cfg.score_matrices]
    values = [[[Fraction(v) for v in row] for row in W] for W in cfg.values]
    tokens = [[ball_of(Fraction(v)) for v in x] for x in cfg.tokens]
    exact = ExactConfiguration([], heads, values, Fraction(cfg.beta), geometry, "softmax")
    field = ball_model.velocity_field(tokens, exact, geometry)
    for row, expected in zip(field, model.token_velocity(cfg), strict=True):
        assert all(abs(float(b.mid()) - e) <= 1e-9 for b, e in zip(row, expected, strict=True))


def test_exact_data_of_a_direction_scheme_off_the_sphere_are_refused() -> None:
    """At non-unit exact tokens x/|x| is irrational: the ball model refuses rather than reading x as y."""
    M = [[[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]]]
    tokens = [[Fraction(2), Fraction(0)], [Fraction(0), Fraction(1)]]
    exact = ball_model.ExactConfiguration(tokens, M, M, Fraction(1), "pre-ln", "usa")
    with pytest.raises(ValueError, match="need unit tokens"):
        model_balls.balls(exact, Chain.velocities)
    with pytest.raises(ValueError, match="need unit tokens"):
        model_balls.balls(exact, Chain.order_parameter)


@pytest.mark.parametrize("geometry", SCHEMES)
def test_the_integrator_runs_each_scheme_and_keeps_ngpt_on_the_sphere(geometry: str) -> None:
    """... and, with symmetric aligned usa heads, the energy of the directions never decreases (T11 per scheme:
    each scheme moves the directions along P⊥ v_i times a positive speed)."""
    rng = np.random.default_rng(3)
    X, M = families.random_sphere_tokens(5, 3, rng), families.random_symmetric_heads(2, 3, rng)
    cfg = Configuration.create(X, M, beta=0.8, geometry=geometry)
    run = integrate(cfg, 3.0, observables=("energy", "cluster_gap"))
    norms = model.token_norms(run.final)
    assert run.status == "completed"
    if geometry == "ngpt":
        assert np.allclose(norms, 1.0, atol=1e-12)
    else:
        assert not np.allclose(norms, 1.0, atol=1e-3)  # the residual stream left the sphere
    assert np.all(np.diff(run.observables["energy"]) >= -1e-9 * np.abs(run.observables["energy"][1:]))


def test_peri_ln_and_ngpt_refuse_a_vanishing_attention_velocity() -> None:
    X = np.array([[1.0, 0.0], [-1.0, 0.0]])
    M = np.zeros((1, 2, 2))
    for geometry in ("peri-ln", "ngpt"):
        with pytest.raises(InputError, match="Norm"):
            model.token_velocity(Configuration.create(X, M, beta=1.0, attention="softmax", geometry=geometry))


def test_a_zero_token_is_refused_by_a_scheme_that_reads_directions() -> None:
    with pytest.raises(InputError, match="non-zero tokens"):
        Configuration.create(np.array([[0.0, 0.0], [1.0, 0.0]]), np.eye(2)[None], geometry="pre-ln")
