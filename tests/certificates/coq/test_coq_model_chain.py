"""The one chain of a configuration (`certificates.kernel.model_chain.Chain`), which the checker evaluates with balls
(`ball_model`) and the Coq writer states (`model_tree.witness_problem` builds its definitions with the same class):
evaluated with balls, its quantities contain the float model's (`checks.model.field`, an independent implementation)
at every geometry, kind, interaction and mask."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np
import pytest
from headflow.certificates import model_balls
from headflow.certificates.claims.interaction_text import parse_interaction
from headflow.certificates.coq.source import source
from headflow.certificates.kernel import ball_model, masks
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.statements import guard, statements
from headflow.certificates.kernel.exact import precision
from headflow.certificates.kernel.exact_data import ExactConfiguration
from headflow.certificates.kernel.model_chain import Chain
from headflow.certificates.kernel.vocabulary import GEOMETRIES
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.model.observables import EVALUATORS

from tests.coq_rates import rate_problem
from tests.coq_tier import needs_coqc

#: Bits of the chain's balls.
BITS = 256


def _configuration(
    seed: int, geometry: str, attention: str, beta: Fraction = Fraction(3, 4), **options: Any
) -> ExactConfiguration:
    """Rational unit tokens (n = 3, d = 2) and general rational heads (H = 2), seeded."""
    rng = np.random.default_rng(seed)
    tokens = families.rational_sphere_tokens(3, 2, rng)

    def matrix() -> list[list[Fraction]]:
        return [[Fraction(int(rng.integers(-8, 9)), 4) for _ in range(2)] for _ in range(2)]

    scores, values = [matrix() for _ in range(2)], [matrix() for _ in range(2)]
    return ExactConfiguration(tokens, scores, values, beta, geometry, attention, **options)


def _float(cfg: ExactConfiguration) -> Configuration:
    """The same configuration in floats (`headflow.checks.model`)."""
    mask = None if cfg.mask is None else np.array(cfg.mask)
    return Configuration.create(
        families.rational_to_float(cfg.tokens),
        np.array([families.rational_to_float(M) for M in cfg.score_matrices]),
        np.array([families.rational_to_float(W) for W in cfg.values]),
        beta=float(cfg.beta),
        attention=cfg.attention,
        geometry=cfg.geometry,
        interaction=None if cfg.interaction is None else cfg.interaction.text,
        mask=mask,
    )


def _contains(balls: Any, floats: Any, what: str) -> None:
    """Every ball is finite and holds the float value to the floats' accuracy."""
    left, right = np.ravel(np.array(balls, dtype=object)), np.ravel(np.asarray(floats, dtype=float))
    assert len(left) == len(right), what
    for ball, value in zip(left, right, strict=True):
        assert ball.is_finite(), (what, ball)
        assert abs(float(ball.mid()) - value) <= 1e-9 * (1 + abs(value)) + float(ball.rad()), (what, ball, value)


#: Each compared quantity: the chain's balls and the float model's value.
QUANTITIES: dict[str, tuple[Callable[[ExactConfiguration], Any], Callable[[Configuration], Any]]] = {
    "weights": (model_balls.attention_weights, model.weights),
    "head outputs": (model_balls.head_outputs, model.head_outputs),
    "velocities": (partial(model_balls.balls, read=Chain.velocities), model.token_velocity),
    "direction velocities": (partial(model_balls.balls, read=Chain.direction_velocities), model.direction_velocity),
    "head energy rates": (model_balls.head_energy_rates, EVALUATORS["head_energy_rate"]),
    "token norm rates": (
        partial(model_balls.balls, read=lambda chain: [chain.token_norm_rate(i) for i in range(chain.cfg.n)]),
        EVALUATORS["token_norm_rate"],
    ),
    "order parameter rate": (
        partial(model_balls.balls, read=Chain.order_parameter_rate),
        EVALUATORS["order_parameter_rate"],
    ),
}
#: The quantities of exp(beta s) only (no interaction): energies E_h and the attention entropies and their rates.
EXPONENTIAL = {
    "head energies": (model_balls.head_energies, EVALUATORS["head_energies"]),
    "entropies": (model_balls.attention_entropies, EVALUATORS["attention_entropy"]),
    "entropy rates": (model_balls.entropy_rates, EVALUATORS["entropy_rate"]),
    "partition functions": (model_balls.partition_functions, model.partition_functions),
    "attention means": (model_balls.attention_means, model.attention_means),
}


def _compare(cfg: ExactConfiguration, quantities: dict[str, Any]) -> None:
    floats = _float(cfg)
    with precision(BITS):
        for what, (balls, reference) in quantities.items():
            _contains(balls(cfg), reference(floats), f"{what} ({cfg.geometry}, {cfg.attention})")


@pytest.mark.parametrize("attention", ["usa", "softmax", "relu"])
@pytest.mark.parametrize("geometry", GEOMETRIES)
def test_the_chain_holds_the_float_model_at_every_geometry_and_kind(geometry: str, attention: str) -> None:
    for seed in range(2):
        _compare(_configuration(seed, geometry, attention), QUANTITIES | EXPONENTIAL)


@pytest.mark.parametrize("geometry", ["sphere", "ngpt", "peri-ln"])
@pytest.mark.parametrize("attention", ["usa", "softmax"])
def test_the_chain_holds_interactions_and_masks(geometry: str, attention: str) -> None:
    interaction = parse_interaction("1 + s**2" if attention == "softmax" else "exp(beta*s) - s", attention)
    mask = masks.causal(3)
    _compare(_configuration(2, geometry, attention, interaction=interaction), QUANTITIES)
    _compare(_configuration(3, geometry, attention, mask=mask), QUANTITIES | EXPONENTIAL)
    _compare(_configuration(4, geometry, attention, mask=mask, interaction=interaction), QUANTITIES)


@pytest.mark.parametrize("attention", ["usa", "softmax", "relu"])
def test_the_chain_holds_repulsive_attention(attention: str) -> None:
    _compare(_configuration(5, "mix-ln", attention, beta=Fraction(-3, 2)), QUANTITIES | EXPONENTIAL)


def test_the_interaction_energy_is_its_antiderivative_at_the_scores() -> None:
    cfg = _configuration(6, "sphere", "usa", interaction=parse_interaction("1 + s**2", "usa"))
    _compare(cfg, {"interaction energies": EXPONENTIAL["head energies"]})


def test_an_interaction_with_a_fractional_power_is_stated_where_its_base_is_positive() -> None:
    """(1 + s^2)^(1/3) is `exp ((1 / 3) * (ln (1 + s^2)))` (the SMT encoding's reading of a power), and the Theorem
    states `0 < 1 + s^2` at every score a definition uses it at: Coq's total `ln` is never read outside its domain."""
    cfg = _configuration(7, "sphere", "usa", interaction=parse_interaction("(1 + s**2)**(1/3)", "usa"))
    stated = "\n".join(text for _, text in statements("rate", rate_problem("energy_rate", "<", cfg, {})))
    phi = next(line for line in stated.splitlines() if line.startswith("Definition phi_0_0_0 "))
    assert phi.startswith("Definition phi_0_0_0 : R := (exp ((1 / 3) * (ln (1 + (")
    base = phi.split("(ln ", 1)[1].removesuffix("))).")
    assert f"  0 < {base} /\\" in stated.split("Theorem claim_rate :", 1)[1]


def test_entropies_of_an_interaction_are_refused_by_the_chain() -> None:
    cfg = _configuration(8, "sphere", "softmax", interaction=parse_interaction("1 + s**2", "softmax"))
    with pytest.raises(ValueError, match="exp\\(beta s\\) only"):
        Chain(cfg).entropy_rate(0, 0)


@pytest.mark.slow
@needs_coqc
@pytest.mark.parametrize("geometry", ["ngpt", "mix-ln"])
def test_coqc_proves_a_small_scheme_statement_with_its_square_roots(geometry: str) -> None:
    # n = 2, d = 2, H = 1: a few definitions, |v| among them (x/|x| = x: unit tokens); the relation is the ball
    # model's sign (about 12 s of coqc CPU each, hence slow)
    one, zero = Fraction(1), Fraction(0)
    tokens = [[one, zero], [Fraction(3, 5), Fraction(4, 5)]]
    heads = [[[one, Fraction(1, 2)], [zero, Fraction(3, 2)]]]
    cfg = ball_model.ExactConfiguration(tokens, heads, [[[one, zero], [Fraction(1, 4), -one]]], one, geometry, "usa")
    rate = model_balls.head_energy_rates(cfg)[0]
    relation = "<" if rate < 0 else ">"
    problem = rate_problem("energy_rate", relation, cfg, {})
    assert any(tree[0] == "sqrt" for _, tree in problem.definitions) == (geometry == "ngpt")
    text = source("small.json", "small-scheme", "a small scheme statement", problem)
    answer = run.compile_source(text, **guard("small.json", "small-scheme", "a small scheme statement", problem))
    assert answer.status == "accepted", answer.message
