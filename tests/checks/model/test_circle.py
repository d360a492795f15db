"""The circle (d = 2): the phase form agrees with the vector model, its derivation closes, and the circle's
quantities (order parameter, arc spread) agree with their definitions and with the balls."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from headflow.certificates import model_balls
from headflow.certificates.errors import InputError
from headflow.certificates.kernel import ball_model
from headflow.certificates.kernel.model_chain import Chain
from headflow.certificates.kernel.vocabulary import ATTENTION_KINDS
from headflow.checks.model import circle, families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.identities import circle as symbolic
from headflow.identities.derivation import Derivation


def _on_circle(theta: np.ndarray, lambdas: np.ndarray, beta: float, attention: str, geometry: str = "sphere"):  # type: ignore[no-untyped-def]
    return Configuration.create(
        circle.tokens_at_angles(theta), families.scalar_heads(lambdas, 2), beta=beta, attention=attention,
        geometry=geometry, normalize=True,
    )  # fmt: skip


@pytest.mark.parametrize("attention", ATTENTION_KINDS)
@pytest.mark.parametrize("seed", range(5))
def test_the_phase_form_is_the_vector_models_tangent_coordinate(attention: str, seed: int) -> None:
    """theta_i' of the phase form = <xdot_i, e_i> of the vector model, e_i = (-sin, cos), at random angles, heads of
    either sign and several heads; and xdot_i = theta_i' e_i (the tangent velocity has no other part)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 9))
    theta = rng.uniform(-np.pi, np.pi, n)
    lambdas = rng.uniform(-2.0, 2.0, int(rng.integers(1, 4)))
    beta = float(rng.uniform(0.2, 3.0))
    xdot = model.token_velocity(_on_circle(theta, lambdas, beta, attention))
    frame = np.stack([-np.sin(theta), np.cos(theta)], axis=1)
    phase = circle.phase_velocity(theta, lambdas, beta, attention)
    assert np.allclose(np.sum(xdot * frame, axis=1), phase, rtol=1e-10, atol=1e-12)
    assert np.allclose(xdot, phase[:, None] * frame, rtol=1e-10, atol=1e-12)


def test_the_phase_form_is_derived_from_the_model_exactly() -> None:
    derivation = Derivation()
    symbolic.phase_form(derivation)
    assert derivation.proved, derivation.failures
    assert sum(step.kind == "computed" for step in derivation.steps) >= 4


def test_usa_with_the_identity_head_is_a_kuramoto_model_with_coupling_exp_beta_cos() -> None:
    """theta_i' = (1/n) sum_j e^{beta cos(theta_j - theta_i)} sin(theta_j - theta_i), written out."""
    rng = np.random.default_rng(3)
    theta, beta = rng.uniform(-np.pi, np.pi, 6), 1.7
    difference = theta[None, :] - theta[:, None]
    expected = np.mean(np.exp(beta * np.cos(difference)) * np.sin(difference), axis=1)
    assert np.allclose(circle.phase_velocity(theta, np.array([1.0]), beta, "usa"), expected, rtol=1e-12)


def test_the_order_parameter_and_arc_spread_follow_their_definitions() -> None:
    theta = np.array([0.1, 0.4, -0.3, 2.0])
    cfg = _on_circle(theta, np.array([1.0]), 1.0, "usa")
    assert np.isclose(circle.order_parameter(cfg), abs(np.mean(np.exp(1j * theta))), rtol=1e-12)
    assert np.isclose(circle.arc_spread(cfg), 2.3, rtol=1e-12)  # from -0.3 to 2.0
    wrapped = _on_circle(np.array([3.0, -3.0, 3.1]), np.array([1.0]), 1.0, "usa")
    assert np.isclose(circle.arc_spread(wrapped), 2 * np.pi - 6.0, rtol=1e-12)  # the short arc crosses pi
    assert np.isclose(circle.arc_spread(_on_circle(np.zeros(3), np.array([1.0]), 1.0, "usa")), 0.0)
    with pytest.raises(InputError, match="d = 2"):
        circle.arc_spread(Configuration.create(families.random_sphere_tokens(3, 3, np.random.default_rng(0)),
                                               np.eye(3)[None]))  # fmt: skip


@pytest.mark.parametrize("geometry", ["sphere", "ngpt", "pre-ln", "peri-ln", "mix-ln"])
@pytest.mark.parametrize("attention", ATTENTION_KINDS)
def test_equally_spaced_tokens_keep_their_directions(geometry: str, attention: str) -> None:
    cfg = Configuration.create(
        families.equally_spaced_tokens(7, 2), families.scalar_heads([1.0, 0.5], 2), beta=1.3, attention=attention,
        geometry=geometry,
    )  # fmt: skip
    assert np.allclose(model.direction_velocity(cfg), 0.0, atol=1e-12)
    assert circle.order_parameter(cfg) < 1e-12
    if geometry in ("pre-ln", "peri-ln", "mix-ln"):
        assert np.all(model.token_norm_rates(cfg) > 0)  # a > 0: the residual stream grows along fixed directions


def test_the_order_parameter_rate_is_the_derivative_of_r_and_its_ball_encloses_it() -> None:
    rng = np.random.default_rng(8)
    tokens = families.rational_sphere_tokens(5, 2, rng)
    heads = [[[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]]]
    exact = ball_model.ExactConfiguration(tokens, heads, heads, Fraction(3, 2), "sphere", "usa")
    cfg = Configuration.create(families.rational_to_float(tokens), np.eye(2)[None], beta=1.5)
    xdot, h = model.token_velocity(cfg), 1e-6
    along = [circle.order_parameter(cfg.moved_to(cfg.tokens + s * h * xdot)) for s in (1, -1)]
    assert np.isclose(circle.order_parameter_rate(cfg), (along[0] - along[1]) / (2 * h), rtol=1e-6)
    assert (
        abs(float(model_balls.balls(exact, Chain.order_parameter_rate).mid()) - circle.order_parameter_rate(cfg)) < 1e-9
    )
    assert abs(float(model_balls.balls(exact, Chain.order_parameter).mid()) - circle.order_parameter(cfg)) < 1e-12


def test_at_zero_mean_the_order_parameter_rate_is_its_right_derivative() -> None:
    """R = 0 exactly (antipodal pair): the rate is |mdot| >= 0, in floats and balls alike."""
    tokens = [[Fraction(1), Fraction(0)], [Fraction(-1), Fraction(0)], [Fraction(3, 5), Fraction(4, 5)],
              [Fraction(-3, 5), Fraction(-4, 5)]]  # fmt: skip
    heads = [[[Fraction(1), Fraction(0)], [Fraction(0), Fraction(2)]]]
    exact = ball_model.ExactConfiguration(tokens, heads, heads, Fraction(1), "sphere", "usa")
    cfg = Configuration.create(families.rational_to_float(tokens), np.array(heads, dtype=float), beta=1.0)
    mdot = model.direction_velocity(cfg).mean(axis=0)
    assert circle.order_parameter(cfg) == 0.0
    assert np.isclose(circle.order_parameter_rate(cfg), np.linalg.norm(mdot))
    assert abs(float(model_balls.balls(exact, Chain.order_parameter_rate).mid()) - np.linalg.norm(mdot)) < 1e-12
