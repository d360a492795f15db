"""Explicit Runge-Kutta steps for any tableau, and the dense output of the last accepted step.

The stages of a step live in one (stages, n, d) array, so each stage state y + h sum_j a_ij k_j,
the new state and the error estimates are single matrix products over that array. After a step
the new state is passed through `retract` (on the sphere: rows divided by their norms; see
`solver`), and the velocity that starts the next step is evaluated at that retracted state: the
FSAL stage of an FSAL tableau, or one more evaluation otherwise. An FSAL stage that the error
estimate does not use (DOP853) is evaluated only once the step is accepted.

The per-step work outside the velocity is kept to a few array operations: the stage states are formed in one
preallocated buffer (a product, a scaling and an addition written into it, no temporary arrays), and the field is
handed that buffer, so it must not keep it (the integrator's flow makes a read-only view of it per evaluation).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from headflow.checks.integrator.tableau import Tableau

VectorField = Callable[[np.ndarray], np.ndarray]


def fill_stages(
    tableau: Tableau,
    f: VectorField,
    y: np.ndarray,
    h: float | np.ndarray,
    K: np.ndarray,
    stages: range,
    state: np.ndarray,
) -> None:
    """K[i] = f(y + h sum_{j<i} a_ij K[j]) for i in `stages`, in order (the earlier rows of K are given).

    Each stage state is written into `state` (of the shape of y, C-contiguous), which f receives.
    """
    A, flat, out = tableau.matrix, K.reshape(len(K), -1), state.reshape(-1)
    for i in stages:
        np.dot(A[i, :i], flat[:i], out=out)
        state *= h  # a float, or one step per start of a batch (`checks.integrator.batch`: h of shape (B, 1, 1))
        state += y
        K[i] = f(state)


def combine(weights: np.ndarray, K: np.ndarray, y: np.ndarray, h: float) -> np.ndarray:
    """y + h sum_i weights_i K[i]."""
    return y + h * (weights @ K[: len(weights)].reshape(len(weights), -1)).reshape(y.shape)


class Stepper:
    """Steps of one tableau along one vector field from a current state (the time is the caller's)."""

    def __init__(
        self, tableau: Tableau, f: VectorField, retract: Callable[[np.ndarray], np.ndarray], y: np.ndarray
    ) -> None:
        self.tableau, self.f, self.retract = tableau, f, retract
        s, total = tableau.stages, len(tableau.c)
        self._combined = s - 1 if tableau.fsal else s  # stages that b weights (an FSAL stage has b = 0)
        self._next = s - 1 if tableau.fsal else total  # the row that holds f at the new state
        self._last_in_error = tableau.fsal and bool(np.any(tableau.error_weights[:, -1]))
        self._estimated = s if self._last_in_error else self._combined  # stages evaluated before acceptance
        self.K = np.empty((total + (0 if tableau.fsal else 1), *y.shape))
        self._state = np.empty(y.shape)  # the stage states, one at a time
        self.K[0] = f(y)
        self.y = self.y_new = y
        self.h = 0.0
        self._extended = False

    @property
    def velocity(self) -> np.ndarray:
        """f at the current state (the first stage of the next step)."""
        return self.K[0]

    def attempt(self, h: float) -> np.ndarray:
        """Take a step of size h from the current state; return its error estimates, shape (1 or 2, n, d).

        The retracted new state is `y_new`; nothing is committed until `accept` and `advance`.
        """
        tableau, y = self.tableau, self.y
        fill_stages(tableau, self.f, y, h, self.K, range(1, self._combined), self._state)
        self.y_new = self.retract(combine(tableau.weights[: self._combined], self.K, y, h))
        if self._last_in_error:
            self.K[tableau.stages - 1] = self.f(self.y_new)
        self.h, self._extended = h, False
        e = self._estimated
        return h * (tableau.error_weights[:, :e] @ self.K[:e].reshape(e, -1)).reshape(-1, *y.shape)

    def accept(self) -> None:
        """Complete the attempted step: f at the new state, unless the error estimate has evaluated it."""
        if not self._last_in_error:
            self.K[self._next] = self.f(self.y_new)

    def stable_step(self) -> float:
        """The largest step that the method keeps stable at the stiffness met in the accepted step (inf if unknown).

        The stiffest rate is estimated as |k_q - k_p| / |Y_q - Y_p| from the two stages at c = 1
        (`Tableau.stiffness_stages`; Y_q is the retracted new state); the step is the stability
        boundary over that rate. Without such stages, or when the two states coincide, no bound is known.
        """
        pair = self.tableau.stiffness_stages
        if pair is None:
            return np.inf
        p, q = pair
        flat = self.K.reshape(len(self.K), -1)
        state_p = self.y + self.h * (self.tableau.matrix[p, :p] @ flat[:p]).reshape(self.y.shape)
        distance = float(np.linalg.norm(self.y_new - state_p))
        change = float(np.linalg.norm(self.K[q] - self.K[p]))
        if distance == 0.0 or change == 0.0:
            return np.inf
        return self.tableau.stability_boundary * distance / change

    def dense(self, theta: float) -> np.ndarray:
        """The retracted state at fraction theta in [0, 1] of the accepted step (before `advance`).

        From the tableau's continuous extension, whose extra stages are computed at the first call
        for the step; a tableau without one re-takes a step of size theta h from the old state.
        """
        tableau, y, h = self.tableau, self.y, self.h
        if theta >= 1.0:
            return self.y_new
        if tableau.dense_matrix is None:
            scratch = np.empty_like(self.K)
            scratch[0] = self.K[0]
            fill_stages(tableau, self.f, y, theta * h, scratch, range(1, self._combined), self._state)
            return self.retract(combine(tableau.weights[: self._combined], scratch, y, theta * h))
        if not self._extended:
            fill_stages(tableau, self.f, y, h, self.K, range(tableau.stages, len(tableau.c)), self._state)
            self._extended = True
        return self.retract(combine(tableau.dense_weights(theta), self.K, y, h))

    def advance(self) -> None:
        """Make the accepted new state current (after the step's records and events are taken)."""
        self.y = self.y_new
        self.K[0] = self.K[self._next]
