"""An explicit Runge-Kutta pair as data: exact coefficients, read once into float arrays.

A tableau holds the nodes c, the strictly lower-triangular coefficients a, the weights b of the
propagated solution, the rows of error weights, the orders, the FSAL flag and, when the pair has
one, its continuous extension (dense output). The coefficients are kept as exact fractions of the
published text (rationals, or the decimals as printed), so that the order conditions can be
tested in exact arithmetic; the stepper (`headflow.checks.integrator.stepper`) uses the float arrays.

Conventions, for s = len(b) stages per step and len(c) >= s stages in all:
- stage i sits at y + h sum_j a_ij k_j; stages s..len(c)-1 are extra stages that only the dense
  output uses, computed when a step is interpolated;
- `fsal`: the last of the s stages has a = b (it is the velocity at the new state), so an
  accepted step hands it to the next step as its first stage;
- `error`: one row e gives the estimate h sum_i e_i k_i (b minus the embedded weights); two rows
  are the fifth- and third-order estimates that Hairer's DOP853 blends (`controller.error_norm`);
- `dense[i][k]`: the coefficient of theta^(k+1) in the weight b_i(theta) of the continuous
  extension y(t + theta h) = y + h sum_i b_i(theta) k_i, with b_i(1) = b_i.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

Exact = tuple[Fraction, ...]


def exact(values: Iterable[str | int | Fraction]) -> Exact:
    """Fractions of coefficient texts: rationals "p/q", integers or decimals such as "0.5e-1" (all exact)."""
    return tuple(Fraction(v) for v in values)


def rows_from_entries(size: int, entries: Mapping[tuple[int, int], str]) -> tuple[Exact, ...]:
    """The strictly lower-triangular rows of a `size` x `size` matrix given by its non-zero entries."""
    rows = [[Fraction(0)] * i for i in range(size)]
    for (i, j), text in entries.items():
        if not 0 <= j < i < size:
            raise ValueError(f"a[{i}][{j}] is not strictly below the diagonal of a {size}-stage tableau")
        rows[i][j] = Fraction(text)
    return tuple(tuple(row) for row in rows)


@dataclass(frozen=True)
class Tableau:
    """One explicit Runge-Kutta pair with exact coefficients (see the module docstring for conventions)."""

    name: str
    order: int
    error_order: int
    c: Exact
    a: tuple[Exact, ...]
    b: Exact
    error: tuple[Exact, ...]
    fsal: bool
    dense: tuple[Exact, ...] | None = None

    def __post_init__(self) -> None:
        total, s = len(self.c), len(self.b)
        if len(self.a) != total or any(len(row) != i for i, row in enumerate(self.a)):
            raise ValueError(f"{self.name}: a must have rows of lengths 0..{total - 1}")
        if s > total or any(len(row) != s for row in self.error) or len(self.error) not in (1, 2):
            raise ValueError(f"{self.name}: b and each of one or two error rows need one weight per stage")
        if self.dense is not None and len(self.dense) != total:
            raise ValueError(f"{self.name}: the dense output needs one weight polynomial per stage")

    @property
    def stages(self) -> int:
        """Stages per step (the FSAL stage included, the extra dense-output stages not)."""
        return len(self.b)

    @cached_property
    def nodes(self) -> np.ndarray:
        """c as floats, shape (len(c),)."""
        return np.array([float(v) for v in self.c])

    @cached_property
    def matrix(self) -> np.ndarray:
        """a as a float lower-triangular matrix, shape (len(c), len(c))."""
        total = len(self.c)
        matrix = np.zeros((total, total))
        for i, row in enumerate(self.a):
            matrix[i, :i] = [float(v) for v in row]
        return matrix

    @cached_property
    def weights(self) -> np.ndarray:
        """b as floats, shape (s,)."""
        return np.array([float(v) for v in self.b])

    @cached_property
    def error_weights(self) -> np.ndarray:
        """The error rows as floats, shape (1 or 2, s)."""
        return np.array([[float(v) for v in row] for row in self.error])

    @cached_property
    def dense_matrix(self) -> np.ndarray | None:
        """dense as floats, shape (len(c), degree), or None without a continuous extension."""
        if self.dense is None:
            return None
        return np.array([[float(v) for v in row] for row in self.dense])

    @cached_property
    def stability_boundary(self) -> float:
        """The length r of the interval [-r, 0] of the real axis on which the method is stable, |R(z)| <= 1.

        R(z) = 1 + sum_k z^k b^T A^(k-1) 1 is the stability polynomial (the step's factor on
        y' = lambda y, z = h lambda). A step with h |lambda| > r amplifies a decaying mode instead
        of damping it. The first grid point (spacing 1e-3) with |R| > 1, refined by bisection; for an
        explicit method R is a polynomial, so the interval is finite.
        """
        s = self.stages
        A, coefficients, power = self.matrix[:s, :s], [1.0], np.ones(s)
        for _ in range(s):
            coefficients.append(float(self.weights @ power))
            power = A @ power
        R = np.polynomial.Polynomial(coefficients)
        x = np.arange(1, 100_001) * 1e-3
        unstable = np.flatnonzero(np.abs(R(-x)) > 1.0)
        if unstable.size == 0 or unstable[0] == 0:
            raise ValueError(f"{self.name}: no stability interval found in [-100, 0]")
        low, high = x[unstable[0] - 1], x[unstable[0]]
        for _ in range(50):
            middle = 0.5 * (low + high)
            low, high = (low, middle) if abs(R(-middle)) > 1.0 else (middle, high)
        return float(low)

    @cached_property
    def stiffness_stages(self) -> tuple[int, int] | None:
        """Two stages at c = 1, the second the FSAL stage at the new state, or None when there are none.

        The difference of their velocities over the difference of their states estimates the
        stiffest rate |lambda| met in the step (Hairer's stiffness test in DOPRI5 and DOP853).
        """
        s = self.stages
        if not self.fsal:
            return None
        earlier = [i for i in range(1, s - 1) if self.c[i] == 1]
        return (earlier[-1], s - 1) if earlier else None

    def dense_weights(self, theta: float) -> np.ndarray:
        """b_i(theta) for every stage, shape (len(c),); requires a continuous extension."""
        matrix = self.dense_matrix
        if matrix is None:
            raise ValueError(f"{self.name} has no continuous extension")
        return matrix @ theta ** np.arange(1, matrix.shape[1] + 1)
