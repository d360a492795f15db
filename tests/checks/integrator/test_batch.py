"""The batched integrator (`checks.integrator.batch`): each start's run is the one `integrate` takes alone."""

from __future__ import annotations

import numpy as np
import pytest
from headflow.checks.evidence.limits import RTOL, settle, settle_all
from headflow.checks.integrator import integrate
from headflow.checks.integrator.batch import batchable, integrate_batch
from headflow.checks.model import field
from headflow.checks.model.configuration import Configuration
from headflow.checks.model.token_blocks import heads_of


def _starts(attention: str, lambdas: list[float], mask: bool = False, B: int = 4, n: int = 5, d: int = 3):
    rng = np.random.default_rng(7)
    heads = np.array([lam * np.eye(d) for lam in lambdas])
    m = np.tril(np.ones((n, n), dtype=bool)) if mask else None
    cfgs = []
    for _ in range(B):
        X = rng.normal(size=(n, d))
        cfgs.append(
            Configuration.create(
                X / np.linalg.norm(X, axis=1, keepdims=True),
                heads,
                None,
                beta=1.5,
                attention=attention,
                geometry="sphere",
                mask=m,
            )
        )
    return cfgs


@pytest.mark.parametrize(
    ("attention", "lambdas", "mask"),
    [("usa", [1.0], False), ("softmax", [1.0, -0.5], True), ("relu", [1.0, 0.5], False)],
)
def test_the_batched_field_is_each_starts_field(attention: str, lambdas: list[float], mask: bool) -> None:
    cfgs = _starts(attention, lambdas, mask)
    X = np.stack([cfg.tokens for cfg in cfgs])
    batched = heads_of(cfgs[0]).batched_tangent_velocity(X)
    alone = np.stack([field.token_velocity(cfg) for cfg in cfgs])
    assert np.max(np.abs(batched - alone)) < 1e-14


def test_each_batched_run_is_its_run_alone() -> None:
    cfgs = _starts("softmax", [1.0, 0.5])
    assert batchable(cfgs)
    grid = np.linspace(0.0, 2.0, 21)
    runs = integrate_batch(cfgs, 2.0, rtol=RTOL, atol=1e-12, record_times=grid, max_steps=10_000)
    for cfg, run in zip(cfgs, runs, strict=True):
        alone = integrate(cfg, 2.0, rtol=RTOL, atol=1e-12, record_times=grid, observables=(), backend="numpy")
        assert (run.accepted, run.rejected, run.status) == (alone.accepted, alone.rejected, alone.status)
        assert np.array_equal(run.times, alone.times)
        assert np.max(np.abs(run.states - alone.states)) < 1e-12


def test_settled_together_is_settled_alone_and_a_mixed_batch_is_not_batched() -> None:
    cfgs = _starts("usa", [1.0])
    gap = field.cluster_gap
    together = settle_all(cfgs, gap, 5.0, 2)
    for cfg, limit in zip(cfgs, together, strict=True):
        alone = settle(cfg, gap, 5.0, 2)
        assert (limit.settled, limit.t_end) == (alone.settled, alone.t_end)
        assert abs(float(limit.value) - float(alone.value)) < 1e-12
    other = _starts("softmax", [1.0])
    assert not batchable([cfgs[0], other[0]])
