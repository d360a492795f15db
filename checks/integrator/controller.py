"""Step-size control: the scaled error norm and two controllers (PI and fixed step).

The error of a step is measured token by token: each row of the estimate is divided by
atol + rtol * max(|x_i|, |x_i new|), the token's length before and after the step, not by its
coordinates. The tolerance then means the same in every orthonormal basis (the dynamics is
equivariant under rotations of all tokens and heads), and a coordinate that passes near zero
does not force tiny steps.

The PI controller is Hairer's rule: the new step is h * err^(-alpha) * err_prev^(beta) with a
safety factor, clipped growth and shrinkage, alpha = 1/(q+1) - 0.75 beta for an error estimate of
order q. The proportional part reacts to the current error, the integral part (the previous
error) damps the oscillation of step sizes that a pure error-per-step rule shows on stiff-ish
stretches, such as the fast collapse of a cluster.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

#: Weight of the third-order estimate in Hairer's DOP853 blend err5^2 / sqrt(err5^2 + 0.01 err3^2).
THIRD_ORDER_WEIGHT = 0.01


def error_norm(errors: np.ndarray, y_old: np.ndarray, y_new: np.ndarray, rtol: float, atol: float) -> float:
    """The scaled size of a step's error estimate: the step is acceptable when it is <= 1.

    `errors` holds one or two estimates of shape y.shape (module `tableau`). One estimate: the RMS
    of error / scale. Two (DOP853): Hairer's blend |e5|^2 / sqrt(|e5|^2 + 0.01 |e3|^2) of the RMS
    norms, which behaves like an estimate of order 7 for small steps and like the robust
    third-order one for large steps.
    """
    scale = atol + rtol * np.sqrt(np.maximum(np.sum(y_old * y_old, axis=-1), np.sum(y_new * y_new, axis=-1)))
    scaled = errors / scale[:, None]
    squares = np.einsum("...ij,...ij->...", scaled, scaled) / y_old.size
    if squares.ndim == 0 or len(squares) == 1:
        return float(np.sqrt(squares.sum()))
    fifth, third = float(squares[0]), float(squares[1])
    if fifth == 0.0:
        return 0.0
    return fifth / float(np.sqrt(fifth + THIRD_ORDER_WEIGHT * third))


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


@dataclass
class FixedStep:
    """Every step accepted with the same size (for convergence-order measurements)."""

    step: float

    def decide(self, h: float, err: float) -> tuple[bool, float]:
        return True, self.step


Controller = PIController | FixedStep
