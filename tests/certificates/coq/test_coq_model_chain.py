"""The Coq chain of a configuration (`model_tree.Chain`) states the ball model's quantities, at every geometry, kind,
interaction and mask: its trees, evaluated with balls by the kernel's one evaluator (definitions in order), agree
with `certificates.kernel.ball_model` at exact rational data to many digits."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from flint import arb

from certificates.coq.source import source
from certificates.kernel import ball_model, masks
from certificates.kernel.claims.interaction_text import parse_interaction
from certificates.kernel.coq import model_tree, run
from certificates.kernel.coq.certificate import configuration_problem
from certificates.kernel.coq.statements import theorem_names
from certificates.kernel.coq.terms import NotTranslatable
from certificates.kernel.exact import ball_of, precision
from certificates.kernel.exprtree import evaluate
from certificates.kernel.vocabulary import GEOMETRIES
from checks.model import families

#: Bits of the balls both sides are evaluated at, and the relative gap they may show (many digits).
BITS = 256
TOLERANCE = arb(2) ** -150


def _configuration(
    seed: int, geometry: str, attention: str, beta: Fraction = Fraction(3, 4), **options: Any
) -> ball_model.ExactConfiguration:
    """Rational unit tokens (n = 3, d = 2) and general rational heads (H = 2), seeded."""
    rng = np.random.default_rng(seed)
    tokens = families.rational_sphere_tokens(3, 2, rng)

    def matrix() -> list[list[Fraction]]:
        return [[Fraction(int(rng.integers(-8, 9)), 4) for _ in range(2)] for _ in range(2)]

    scores, values = [matrix() for _ in range(2)], [matrix() for _ in range(2)]
    return ball_model.ExactConfiguration(tokens, scores, values, beta, geometry, attention, **options)


def _chain_values(cfg: ball_model.ExactConfiguration, read: Callable[[model_tree.Chain], Any]) -> Any:
    """What `read` takes from the configuration's chain, every tree evaluated with balls over its definitions."""
    chain = model_tree.Chain(cfg)
    wanted = read(chain)
    env: dict[str, arb] = {}
    for name, tree in chain.rate.definitions:
        env[name] = evaluate(tree, env)

    def ball(value: Any) -> Any:
        if isinstance(value, list) and value and isinstance(value[0], str):
            return evaluate(value, env)
        if isinstance(value, list):
            return [ball(v) for v in value]
        return ball_of(value)

    return ball(wanted)


def _flat(value: Any) -> list[arb]:
    return [b for v in value for b in _flat(v)] if isinstance(value, list) else [value]


def _agree(chain: Any, balls: Any, what: str) -> None:
    """Every ball of the chain overlaps the ball model's and agrees with it to the tolerance."""
    left, right = _flat(chain), _flat(balls)
    assert len(left) == len(right), what
    for a, b in zip(left, right, strict=True):
        assert a.overlaps(b), (what, a, b)
        assert abs(a - b) <= TOLERANCE * max(arb(1), abs(b)), (what, a, b)


#: Each compared quantity: its reading from the chain and from the ball model.
QUANTITIES: dict[str, tuple[Callable[[model_tree.Chain], Any], Callable[[ball_model.ExactConfiguration], Any]]] = {
    "weights": (
        lambda chain: chain.weights(),
        lambda cfg: ball_model.attention_weights(cfg, ball_model.exact_scores(cfg)),
    ),
    "head outputs": (lambda chain: chain.outputs(), ball_model.head_outputs),
    "velocities": (
        lambda chain: chain.velocities(),
        lambda cfg: ball_model.token_velocities(cfg, ball_model.attention_weights(cfg, ball_model.exact_scores(cfg))),
    ),
    "direction velocities": (
        lambda chain: chain.direction_velocities(),
        lambda cfg: ball_model.direction_velocities(
            cfg, ball_model.attention_weights(cfg, ball_model.exact_scores(cfg))
        ),
    ),
    "head energy rates": (
        lambda chain: [chain.head_energy_rate(h) for h in range(len(chain.scores))],
        ball_model.head_energy_rates,
    ),
    "token norm rates": (
        lambda chain: [chain.token_norm_rate(i) for i in range(chain.cfg.n)],
        ball_model.token_norm_rates,
    ),
    "order parameter rate": (lambda chain: chain.order_parameter_rate(), ball_model.order_parameter_rate),
}
#: The quantities of exp(beta s) only (no interaction): energies E_h and the attention entropies and their rates.
EXPONENTIAL = {
    "head energies": (
        lambda chain: [chain.head_energy(h) for h in range(len(chain.scores))],
        ball_model.head_energies,
    ),
    "entropies": (
        lambda chain: [[chain.entropy(h, i) for i in range(chain.cfg.n)] for h in range(len(chain.scores))],
        ball_model.attention_entropies,
    ),
    "entropy rates": (
        lambda chain: [[chain.entropy_rate(h, i) for i in range(chain.cfg.n)] for h in range(len(chain.scores))],
        ball_model.entropy_rates,
    ),
}


def _compare(cfg: ball_model.ExactConfiguration, quantities: dict[str, Any]) -> None:
    with precision(BITS):
        for what, (from_chain, from_balls) in quantities.items():
            _agree(_chain_values(cfg, from_chain), from_balls(cfg), f"{what} ({cfg.geometry}, {cfg.attention})")


@pytest.mark.parametrize("attention", ["usa", "softmax", "relu"])
@pytest.mark.parametrize("geometry", GEOMETRIES)
def test_the_chain_states_the_ball_model_at_every_geometry_and_kind(geometry: str, attention: str) -> None:
    for seed in range(2):
        _compare(_configuration(seed, geometry, attention), QUANTITIES | EXPONENTIAL)


@pytest.mark.parametrize("geometry", ["sphere", "ngpt", "peri-ln"])
@pytest.mark.parametrize("attention", ["usa", "softmax"])
def test_the_chain_states_interactions_and_masks(geometry: str, attention: str) -> None:
    interaction = parse_interaction("1 + s**2" if attention == "softmax" else "exp(beta*s) - s", attention)
    mask = masks.causal(3)
    _compare(_configuration(2, geometry, attention, interaction=interaction), QUANTITIES)
    _compare(_configuration(3, geometry, attention, mask=mask), QUANTITIES | EXPONENTIAL)
    _compare(_configuration(4, geometry, attention, mask=mask, interaction=interaction), QUANTITIES)


@pytest.mark.parametrize("attention", ["usa", "softmax", "relu"])
def test_the_chain_states_repulsive_attention(attention: str) -> None:
    _compare(_configuration(5, "mix-ln", attention, beta=Fraction(-3, 2)), QUANTITIES | EXPONENTIAL)


def test_the_interaction_energy_is_its_antiderivative_at_the_scores() -> None:
    cfg = _configuration(6, "sphere", "usa", interaction=parse_interaction("1 + s**2", "usa"))
    with precision(BITS):
        chain = _chain_values(cfg, lambda chain: [chain.head_energy(h) for h in range(2)])
        _agree(chain, ball_model.head_energies(cfg), "interaction energies")


def test_an_interaction_without_a_coq_term_is_not_translatable_with_its_reason() -> None:
    cfg = _configuration(7, "sphere", "usa", interaction=parse_interaction("(1 + s**2)**(1/3)", "usa"))
    with pytest.raises(NotTranslatable, match=r"the interaction phi\(s\) = \(1 \+ s\*\*2\)\*\*\(1/3\).*rpow"):
        model_tree.Chain(cfg)


def test_entropies_of_an_interaction_are_not_translatable() -> None:
    cfg = _configuration(8, "sphere", "softmax", interaction=parse_interaction("1 + s**2", "softmax"))
    with pytest.raises(NotTranslatable, match="exp\\(beta s\\) only"):
        model_tree.entropy_rate(cfg, 0, 0)


def test_every_certified_quantity_has_a_builder() -> None:
    from certificates.kernel.model_quantities import CERTIFIED

    assert set(model_tree.BUILDERS) == set(CERTIFIED)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc is not installed")
@pytest.mark.parametrize("geometry", ["ngpt", "mix-ln"])
def test_coqc_proves_a_small_scheme_statement_with_its_square_roots(geometry: str) -> None:
    # n = 2, d = 2, H = 1: a few definitions, |v| among them (x/|x| = x: unit tokens); the relation is the ball
    # model's sign (about 12 s of coqc CPU each, hence slow)
    one, zero = Fraction(1), Fraction(0)
    tokens = [[one, zero], [Fraction(3, 5), Fraction(4, 5)]]
    heads = [[[one, Fraction(1, 2)], [zero, Fraction(3, 2)]]]
    cfg = ball_model.ExactConfiguration(tokens, heads, [[[one, zero], [Fraction(1, 4), -one]]], one, geometry, "usa")
    rate = ball_model.head_energy_rates(cfg)[0]
    relation = "<" if rate < 0 else ">"
    _, problem = configuration_problem("energy_rate", relation, cfg, {})
    assert any(tree[0] == "sqrt" for _, tree in problem.definitions) == (geometry == "ngpt")
    text = source("small.json", "small-scheme", "a small scheme statement", problem)
    answer = run.compile_source(text, theorems=theorem_names("small-scheme", problem))
    assert answer.status == "accepted", answer.message
