"""The integrator's hot path: stage states reach the field without a copy or a re-validation, read-only, and a
stage that leaves the finite range is still rejected (the check that replaced the per-evaluation validation)."""

from __future__ import annotations

import numpy as np
import pytest
from headflow.checks.integrator import integrate
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration


def _configuration() -> Configuration:
    rng = np.random.default_rng(11)
    X = families.random_sphere_tokens(6, 3, rng)
    return Configuration.create(X, families.random_symmetric_heads(2, 3, rng), beta=1.0, attention="softmax")


def test_stage_states_are_neither_copied_nor_revalidated(monkeypatch: pytest.MonkeyPatch) -> None:
    """moved_to (copy, shape and finiteness checks) runs for the records and the end state, not per evaluation."""
    calls = [0]
    moved_to = Configuration.moved_to

    def counted(self: Configuration, tokens: np.ndarray) -> Configuration:
        calls[0] += 1
        return moved_to(self, tokens)

    monkeypatch.setattr(Configuration, "moved_to", counted)
    run = integrate(_configuration(), 2.0, rtol=1e-9, observables=(), keep_states=False, record_times=[2.0])
    assert run.evaluations > 50 and calls[0] <= 3


def _watched_field(monkeypatch: pytest.MonkeyPatch, watch) -> None:  # type: ignore[no-untyped-def]
    """Every trajectory's field (`field.velocity_function`) passes each state and velocity through `watch`."""
    velocity_function = model.velocity_function

    def wrapped(cfg: Configuration):  # type: ignore[no-untyped-def]
        velocity = velocity_function(cfg)
        return lambda X: watch(X, velocity(X))

    monkeypatch.setattr(model, "velocity_function", wrapped)


def test_the_field_reads_each_stage_state_read_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every stage state the field sees is a read-only array (a view of the stepper's buffer, never a writable
    alias that the field could change under the stepper)."""
    seen: list[bool] = []

    def watch(X: np.ndarray, velocity: np.ndarray) -> np.ndarray:
        seen.append(X.flags.writeable)
        with pytest.raises(ValueError):
            X[0, 0] = 0.0
        return velocity

    _watched_field(monkeypatch, watch)
    run = integrate(_configuration(), 1.0, rtol=1e-6, observables=(), keep_states=False)
    assert len(seen) == run.evaluations and not any(seen)


def test_a_non_finite_stage_is_rejected_and_the_step_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    """One evaluation returns inf: the next stage state is non-finite, the step is rejected and retried shorter,
    and the run still ends on the sphere at the clean run's end state."""
    cfg = _configuration()
    clean = integrate(cfg, 1.0, rtol=1e-9, observables=(), keep_states=False)
    calls = [0]

    def spoiled(X: np.ndarray, velocity: np.ndarray) -> np.ndarray:
        calls[0] += 1
        return np.full_like(velocity, np.inf) if calls[0] == 5 else velocity

    _watched_field(monkeypatch, spoiled)
    run = integrate(cfg, 1.0, rtol=1e-9, observables=(), keep_states=False)
    assert calls[0] > 5 and run.rejected >= 1 and run.status == "completed"
    assert np.allclose(np.linalg.norm(run.final.tokens, axis=1), 1.0, atol=1e-14)
    assert np.max(np.abs(run.final.tokens - clean.final.tokens)) < 1e-7
