"""The jitted field (`checks.model.jax_field`) is `field.token_velocity` for every option it covers, refuses the
others by name, and the agreement check can fail (a field with a wrong beta is caught)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pytest

from certificates.kernel.errors import InputError
from checks.model import families
from checks.model import field as model
from checks.model.configuration import Configuration

pytest.importorskip("jax")
from checks.model import jax_field  # noqa: E402

#: Largest |jax - numpy| relative to max |numpy velocity| accepted (both float64; a few roundings apart).
AGREEMENT = 1e-13


def disagreement(cfg: Configuration, evaluate: Callable[[np.ndarray], np.ndarray]) -> float:
    """max |evaluate(X) - token_velocity(cfg at X)| / max(1, max |token_velocity|) at cfg's tokens."""
    expected = model.token_velocity(cfg)
    return float(np.max(np.abs(evaluate(np.array(cfg.tokens)) - expected)) / max(1.0, float(np.max(np.abs(expected)))))


def _configuration(
    attention: str, geometry: str, n: int = 7, d: int = 3, H: int = 2, beta: float = 1.3, seed: int = 0
) -> Configuration:
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    if geometry == "sphere":
        X /= np.linalg.norm(X, axis=1, keepdims=True)
    else:
        X *= 0.7  # non-unit tokens in flat space
    M, W = rng.standard_normal((H, d, d)), rng.standard_normal((H, d, d))
    return Configuration.create(X, M, W, beta=beta, attention=attention, geometry=geometry)


@pytest.mark.parametrize("geometry", jax_field.JAX_GEOMETRIES)
@pytest.mark.parametrize("attention", jax_field.JAX_ATTENTION)
def test_the_jax_field_is_token_velocity(attention: str, geometry: str) -> None:
    for seed, (n, H, beta) in enumerate([(7, 2, 1.3), (2, 1, -0.8), (5, 3, 6.0)]):
        cfg = _configuration(attention, geometry, n=n, H=H, beta=beta, seed=seed)
        assert disagreement(cfg, jax_field.field_function(cfg)) <= AGREEMENT


def test_queries_and_keys_are_score_matrices() -> None:
    rng = np.random.default_rng(4)
    X = families.random_sphere_tokens(5, 3, rng)
    Q, K = rng.standard_normal((2, 2, 3)), rng.standard_normal((2, 2, 3))
    cfg = Configuration.create(X, queries=Q, keys=K, beta=2.0, attention="softmax")
    assert disagreement(cfg, jax_field.field_function(cfg)) <= AGREEMENT


def test_a_wrong_beta_is_caught_by_the_agreement_check() -> None:
    cfg = _configuration("softmax", "sphere")
    wrong = jax_field.field_function(replace(cfg, beta=cfg.beta * (1 + 1e-9)))
    assert disagreement(cfg, wrong) > AGREEMENT


@pytest.mark.parametrize(
    ("option", "changes"),
    [
        ("mask", {"mask": "causal"}),
        ("interaction", {"interaction": "s**2"}),
        ("geometry", {"geometry": "pre-ln"}),
        ("geometry", {"geometry": "ngpt"}),
    ],
)
def test_uncovered_options_are_refused_by_name(option: str, changes: dict) -> None:
    rng = np.random.default_rng(1)
    X = families.random_sphere_tokens(4, 3, rng)
    cfg = Configuration.create(X, rng.standard_normal((1, 3, 3)), attention="softmax", **changes)
    with pytest.raises(InputError) as error:
        jax_field.field_function(cfg)
    assert error.value.field == option
