"""Observables recorded along a trajectory: energies, entropies, cluster gap, Condition 8 margin.

Every observable is a model quantity of `headflow.certificates.model_quantities`, computed by its float
evaluator (`headflow.checks.model.observables`) at the recorded state; the energy, head energies and entropies of a
state come from one pass over its blocks of scores (`headflow.checks.model.field.expect`). A quantity that overflows
float64 at some state (the usa exponentials of a large flat configuration) is recorded as NaN instead of
stopping the run."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from headflow.certificates.errors import InputError
from headflow.certificates.quantity_uses import RECORDED_AS
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.model.observables import EVALUATORS, shape

#: Observable name -> model quantity (`headflow.certificates.model_quantities`), for the quantities the recorder keeps.
OBSERVABLES: dict[str, str] = {recorded: name for name, recorded in RECORDED_AS.items()}
DEFAULT_OBSERVABLES: tuple[str, ...] = tuple(OBSERVABLES)


def _checked_names(names: Sequence[str]) -> tuple[str, ...]:
    unknown = [name for name in names if name not in OBSERVABLES]
    if unknown:
        raise InputError("observables", unknown, f"expected names among {', '.join(OBSERVABLES)}")
    return tuple(names)


def _evaluate(name: str, cfg: Configuration) -> np.ndarray:
    try:
        return np.asarray(EVALUATORS[name](cfg), dtype=float)
    except InputError:  # exp overflow at this state
        return np.full(shape(name, cfg), np.nan)


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
        model.expect(cfg, (OBSERVABLES[name] for name in self.names))  # quantities sharing a pass take it once
        for name in self.names:
            self.values[name].append(_evaluate(OBSERVABLES[name], cfg))

    def arrays(self) -> tuple[np.ndarray, np.ndarray | None, dict[str, np.ndarray]]:
        """(times, states or None, {name: stacked values}) as numpy arrays."""
        states = np.array(self.states) if self.keep_states else None
        return np.array(self.times), states, {name: np.array(v) for name, v in self.values.items()}
