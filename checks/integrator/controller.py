"""Step-size control: the scaled error norm and two controllers (PI and fixed step).

The PI controller is Hairer's DOPRI5 rule: the new step is h * err^(-alpha) * err_prev^(beta)
with a safety factor, clipped growth and shrinkage. The proportional part reacts to the current
error, the integral part (the previous error) damps the oscillation of step sizes that a pure
error-per-step rule shows on stiff-ish stretches, such as the fast collapse of a cluster.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from checks.integrator.tableau import ERROR_ORDER


def error_norm(error: np.ndarray, y_old: np.ndarray, y_new: np.ndarray, rtol: float, atol: float) -> float:
    """RMS of error / (atol + rtol * max(|y_old|, |y_new|)): a step is acceptable when <= 1."""
    scale = atol + rtol * np.maximum(np.abs(y_old), np.abs(y_new))
    return float(np.sqrt(np.mean((error / scale) ** 2)))


@dataclass
class PIController:
    """Hairer's PI step-size rule; `decide` says whether to accept and proposes the next step."""

    safety: float = 0.9
    min_factor: float = 0.2
    max_factor: float = 10.0
    beta: float = 0.04
    previous_error: float = field(default=1e-4, init=False)

    @property
    def alpha(self) -> float:
        return 1.0 / (ERROR_ORDER + 1) - 0.75 * self.beta

    def decide(self, h: float, err: float) -> tuple[bool, float]:
        """(accepted, next step size) for a step of size h whose scaled error is err."""
        proportional = max(err, 1e-300) ** self.alpha
        if err <= 1.0:
            factor = proportional / self.previous_error**self.beta / self.safety
            factor = min(1.0 / self.min_factor, max(1.0 / self.max_factor, factor))
            self.previous_error = max(err, 1e-4)
            return True, h / factor
        return False, h / min(1.0 / self.min_factor, proportional / self.safety)


@dataclass
class FixedStep:
    """Every step accepted with the same size (for convergence-order measurements)."""

    step: float

    def decide(self, h: float, err: float) -> tuple[bool, float]:
        return True, self.step


Controller = PIController | FixedStep
