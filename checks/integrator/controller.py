"""Step-size control: the scaled error norm and two controllers (PI and fixed step).

The PI controller is Hairer's rule: the new step is h * err^(-alpha) * err_prev^(beta) with a
safety factor, clipped growth and shrinkage, alpha = 1/(q+1) - 0.75 beta for an error estimate of
order q. The proportional part reacts to the current error, the integral part (the previous
error) damps the oscillation of step sizes that a pure error-per-step rule shows on stiff-ish
stretches, such as the fast collapse of a cluster.

Near an equilibrium the error estimate alone lets the step grow to the method's stability
boundary, where a decaying mode is no longer damped: the state then hovers at the tolerance
instead of converging, and a run never sees the motion stop. The PI controller therefore also
keeps each step below STABILITY_FRACTION of the largest stable step (`Stepper.stable_step`).

Each controller also says which step to try from its proposal and the time left (`trial`): the PI controller cuts
the rest of the run into equal steps (`trajectory.trial_step`), the fixed-step one keeps its step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType

import numpy as np
from headflow.checks.integrator.trajectory import trial_step

#: Fraction of the largest stable step that the PI controller allows (the damping of the stiffest
#: mode per step is then |R(-0.8 r)|: 0.30 for DP5(4), 0.08 for DOP853).
STABILITY_FRACTION = 0.8
#: Weight of the third-order estimate in Hairer's DOP853 blend err5^2 / sqrt(err5^2 + 0.01 err3^2).
THIRD_ORDER_WEIGHT = 0.01


def error_norm(
    errors: np.ndarray, y_old: np.ndarray, y_new: np.ndarray, rtol: float, atol: float, xp: ModuleType = np
) -> float:
    """The scaled size of a step's error estimate: the step is acceptable when it is <= 1.

    Each entry is divided by atol + rtol * max(|y_old|, |y_new|): Hairer's scale, also that of
    scipy's solve_ivp and of the earlier DP5(4)-only integrator, so the tolerances of the
    trajectory claims keep their meaning. `errors` holds
    one or two estimates of the shape of y (module `tableau`). One estimate: the RMS of the scaled
    error. Two (DOP853): Hairer's blend |e5|^2 / sqrt(|e5|^2 + 0.01 |e3|^2) of the RMS norms, which
    behaves like an estimate of order 7 for small steps and like the robust third-order one for
    large steps (0 when e5 = 0).

    `xp` is the array namespace: numpy (a float is returned) or jax.numpy inside the jitted backend
    (`headflow.checks.integrator.jax_solver`; a traced scalar), so both backends share this one formula.
    """
    scaled = errors / (atol + rtol * xp.maximum(xp.abs(y_old), xp.abs(y_new)))
    squares = xp.einsum("kij,kij->k", scaled, scaled) / y_old.size
    if squares.shape[0] == 1:
        norm = xp.sqrt(squares[0])
    else:
        fifth, third = squares[0], squares[1]
        norm = fifth / xp.sqrt(fifth + THIRD_ORDER_WEIGHT * third + (fifth == 0.0))  # 0 (not 0/0) when e5 = 0
    return float(norm) if xp is np else norm


@dataclass
class PIController:
    """Hairer's PI step-size rule for an error estimate of order `error_order`; `decide` accepts or rejects."""

    error_order: int
    safety: float = 0.9
    min_factor: float = 0.2
    max_factor: float = 10.0
    beta: float = 0.04
    previous_error: float = field(default=1e-4, init=False)

    @property
    def alpha(self) -> float:
        return 1.0 / (self.error_order + 1) - 0.75 * self.beta

    def decide(self, h: float, err: float) -> tuple[bool, float]:
        """(accepted, next step size) for a step of size h whose scaled error is err."""
        proportional = max(err, 1e-300) ** self.alpha
        if err <= 1.0:
            factor = proportional / self.previous_error**self.beta / self.safety
            factor = min(1.0 / self.min_factor, max(1.0 / self.max_factor, factor))
            self.previous_error = max(err, 1e-4)
            return True, h / factor
        return False, h / min(1.0 / self.min_factor, proportional / self.safety)

    def trial(self, h: float, remaining: float) -> float:
        """The step to try for the proposal h with `remaining` left: equal steps to the end (`trial_step`)."""
        return float(trial_step(h, remaining))

    def limit(self, h: float, stable_step: float) -> float:
        """The next step h, kept below STABILITY_FRACTION of the largest stable step."""
        return min(h, STABILITY_FRACTION * stable_step)


@dataclass
class FixedStep:
    """Every step accepted with the same size (for convergence-order measurements)."""

    step: float

    def decide(self, h: float, err: float) -> tuple[bool, float]:
        return True, self.step

    def trial(self, h: float, remaining: float) -> float:
        """The fixed step, or what remains when that is shorter (an order measurement takes steps of one size)."""
        return remaining if h >= remaining * (1.0 - 1e-9) else h

    def limit(self, h: float, stable_step: float) -> float:
        """The fixed step, unbounded (an order measurement must not be changed by stability)."""
        return h


Controller = PIController | FixedStep
