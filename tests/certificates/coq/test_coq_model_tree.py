"""The Coq side's trees of the model's rates agree in floats with `headflow.checks.model.field` on random exact data."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from headflow.certificates.kernel import ball_model
from headflow.certificates.kernel.coq.statements import NotTranslatable
from headflow.certificates.kernel.model_chain import Chain
from headflow.certificates.kernel.model_statements import term_of
from headflow.certificates.kernel.model_values import Trees
from headflow.certificates.model_quantities import MODEL_QUANTITIES
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration

from tests.coq_rates import rate_problem


def _value(tree: Any, names: dict[str, float]) -> float:
    """A tree's float value, symbols from `names` (an independent reading of the tree grammar)."""
    if isinstance(tree, Fraction):
        return float(tree)
    op, args = tree[0], tree[1:]
    if op == "rat":
        return float(Fraction(args[0]))
    if op == "sym":
        return names[args[0]]
    values = [_value(a, names) for a in args]
    if op == "add":
        return math.fsum(values)
    if op == "mul":
        return values[0] * values[1]
    if op == "div":
        return values[0] / values[1]
    return {"exp": math.exp, "log": math.log}[op](values[0])


def _float(
    cfg: ball_model.ExactConfiguration, quantity: str, head: int | None = None, token: int | None = None
) -> float:
    """The quantity's model term as the Coq side writes it (a tree over the chain's definitions), in floats."""
    chain = Chain(cfg)
    at = {k: v for k, v in (("i", token), ("h", head)) if v is not None}
    value = Trees(chain).tree(term_of(["name", MODEL_QUANTITIES[quantity].term]), at)
    names: dict[str, float] = {}
    for name, tree in chain.definitions:
        names[name] = _value(tree, names)
    return _value(value, names)


def _matrix(rng: np.random.Generator, d: int) -> list[list[Fraction]]:
    A = [[Fraction(int(rng.integers(-8, 9)), 4) for _ in range(d)] for _ in range(d)]
    return [[A[min(i, j)][max(i, j)] for j in range(d)] for i in range(d)]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("attention", ["usa", "softmax", "relu"])
def test_rate_trees_agree_with_the_float_model(seed: int, attention: str) -> None:
    rng = np.random.default_rng(seed)
    n, d, H = 3, 2, 2
    tokens = families.rational_sphere_tokens(n, d, rng)
    scores = [_matrix(rng, d) for _ in range(H)]
    values = [_matrix(rng, d) for _ in range(H)]
    geometry = "sphere" if seed % 2 == 0 else "flat"
    exact = ball_model.ExactConfiguration(tokens, scores, values, Fraction(3, 4), geometry, attention)
    cfg = Configuration.create(
        families.rational_to_float(tokens),
        np.array([families.rational_to_float(M) for M in scores]),
        np.array([families.rational_to_float(W) for W in values]),
        beta=0.75,
        attention=attention,
        geometry=geometry,
    )
    pairs = [(_float(exact, "energy_rate"), model.energy_rate(cfg))]
    rates = model.head_energy_rates(cfg)
    pairs += [(_float(exact, "head_energy_rate", head=h), rates[h]) for h in range(H)]
    entropy = model.entropy_rates(cfg)
    pairs += [(_float(exact, "entropy_rate", head=h, token=i), entropy[h][i]) for h in range(H) for i in range(n)]
    for tree_value, float_value in pairs:
        assert abs(tree_value - float_value) <= 1e-9 * max(1.0, abs(float_value)), (tree_value, float_value)


def test_a_large_configuration_is_not_translated() -> None:
    x = [Fraction(1), Fraction(0)]
    exact = ball_model.ExactConfiguration(
        [x] * 12,
        [[[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]]] * 8,
        [[[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]]] * 8,
        Fraction(1),
    )  # n^2 H d = 2304, past model_tree.MAX_SIZE
    with pytest.raises(NotTranslatable, match="too large"):
        rate_problem("energy_rate", "<", exact, {})
