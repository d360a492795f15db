"""Observables recorded along a trajectory: energies, entropies, cluster gap, Condition 8 margin.

Every observable is computed by `checks.model` at the recorded state (no formula is repeated
here). A quantity that overflows float64 at some state (the usa exponentials of a large flat
configuration) is recorded as NaN instead of stopping the run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from checks import model
from checks.config import Configuration
from checks.errors import InputError

Observable = Callable[[Configuration], np.ndarray | float]


@dataclass(frozen=True)
class Spec:
    """How to compute one observable, and its shape (for NaN records when it overflows)."""

    function: Observable
    shape: Callable[[Configuration], tuple[int, ...]]


def _scalar(cfg: Configuration) -> tuple[int, ...]:
    return ()


def _per_head(cfg: Configuration) -> tuple[int, ...]:
    return (cfg.H,)


#: Name -> observable. condition8_margin is the worst token's margin per head.
OBSERVABLES: dict[str, Spec] = {
    "energy": Spec(model.energy, _scalar),
    "head_energies": Spec(model.head_energies, _per_head),
    "entropies": Spec(model.attention_entropies, lambda cfg: (cfg.H, cfg.n)),
    "cluster_gap": Spec(model.cluster_gap, _scalar),
    "condition8_margin": Spec(lambda cfg: model.condition8_margins(cfg).min(axis=1), _per_head),
}
DEFAULT_OBSERVABLES: tuple[str, ...] = tuple(OBSERVABLES)


def _checked_names(names: Sequence[str]) -> tuple[str, ...]:
    unknown = [name for name in names if name not in OBSERVABLES]
    if unknown:
        raise InputError("observables", unknown, f"expected names among {', '.join(OBSERVABLES)}")
    return tuple(names)


def _evaluate(spec: Spec, cfg: Configuration) -> np.ndarray:
    try:
        return np.asarray(spec.function(cfg), dtype=float)
    except InputError:  # exp overflow at this state
        return np.full(spec.shape(cfg), np.nan)


@dataclass
class Recorder:
    """Collects times, optionally states, and the chosen observables at each record call."""

    names: tuple[str, ...] = DEFAULT_OBSERVABLES
    keep_states: bool = True
    times: list[float] = field(default_factory=list)
    states: list[np.ndarray] = field(default_factory=list)
    values: dict[str, list[np.ndarray]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.names = _checked_names(self.names)
        self.values = {name: [] for name in self.names}

    def record(self, t: float, cfg: Configuration) -> None:
        """Store time t, the state (if kept) and every chosen observable of cfg."""
        self.times.append(t)
        if self.keep_states:
            self.states.append(np.array(cfg.tokens))
        for name in self.names:
            self.values[name].append(_evaluate(OBSERVABLES[name], cfg))

    def arrays(self) -> tuple[np.ndarray, np.ndarray | None, dict[str, np.ndarray]]:
        """(times, states or None, {name: stacked values}) as numpy arrays."""
        states = np.array(self.states) if self.keep_states else None
        return np.array(self.times), states, {name: np.array(v) for name, v in self.values.items()}
