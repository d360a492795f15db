"""The Dormand-Prince 5(4) tableau and one embedded Runge-Kutta step.

DP5(4) advances with the fifth-order weights and estimates the local error from the difference
with the embedded fourth-order weights; its last stage is evaluated at the new state (FSAL:
first same as last), so an accepted step costs six velocity evaluations.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

RightHandSide = Callable[[np.ndarray], np.ndarray]

#: Nodes c_i of the seven stages.
C = np.array([0.0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0, 1.0])
#: Lower-triangular stage coefficients a_ij (row i lists a_i1 .. a_i,i-1).
A: tuple[tuple[float, ...], ...] = (
    (),
    (1 / 5,),
    (3 / 40, 9 / 40),
    (44 / 45, -56 / 15, 32 / 9),
    (19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729),
    (9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656),
    (35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84),
)
#: Fifth-order weights (equal to the last stage row: the FSAL property).
B5 = np.array([35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0.0])
#: Embedded fourth-order weights.
B4 = np.array([5179 / 57600, 0.0, 7571 / 16695, 393 / 640, -92097 / 339200, 187 / 2100, 1 / 40])
#: Weights of the error estimate y5 - y4.
E = B5 - B4
#: Order of the propagated solution and of the error estimate (for the step-size controller).
ORDER = 5
ERROR_ORDER = 4


@dataclass(frozen=True)
class StepResult:
    """The fifth-order state, the estimated local error, and the velocity at the new state."""

    state: np.ndarray
    error: np.ndarray
    last_stage: np.ndarray


def dormand_prince_step(f: RightHandSide, y: np.ndarray, k1: np.ndarray, h: float) -> StepResult:
    """One DP5(4) step of size h from y, given k1 = f(y); six new evaluations of f."""
    stages = [k1]
    for row in A[1:6]:
        stages.append(f(y + h * _combine(row, stages)))
    y_new = y + h * _combine(B5[:6], stages)
    stages.append(f(y_new))  # stage 7: its row equals B5, so it sits at y_new (FSAL)
    return StepResult(y_new, h * _combine(E, stages), stages[-1])


def _combine(weights: tuple[float, ...] | np.ndarray, stages: list[np.ndarray]) -> np.ndarray:
    """sum_j weights_j k_j over the non-zero weights."""
    total = np.zeros_like(stages[0])
    for w, k in zip(weights, stages, strict=False):
        if w != 0.0:
            total += w * k
    return total
