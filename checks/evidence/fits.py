"""Least-squares fits with standard errors, for rates and scaling exponents measured in floats.

A fit only summarizes float measurements: it can support a claimed rate or exponent (CONFIRMED)
or fail to, never refute it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from headflow.certificates.errors import InputError


@dataclass(frozen=True)
class LinearFit:
    """y ~ design @ coefficients; standard errors from the residual variance (OLS)."""

    coefficients: np.ndarray
    standard_errors: np.ndarray
    residual_rms: float
    points: int

    def as_dict(self, names: tuple[str, ...]) -> dict[str, object]:
        return {
            "coefficients": dict(zip(names, self.coefficients.tolist(), strict=True)),
            "standard_errors": dict(zip(names, self.standard_errors.tolist(), strict=True)),
            "residual_rms": self.residual_rms,
            "points": self.points,
        }


def least_squares(design: np.ndarray, y: np.ndarray) -> LinearFit:
    """Ordinary least squares with the usual coefficient standard errors."""
    A, b = np.asarray(design, dtype=float), np.asarray(y, dtype=float)
    points, unknowns = A.shape
    if points <= unknowns:
        raise InputError("fit.points", points, f"need more than {unknowns} points to estimate an uncertainty")
    coefficients, *_ = np.linalg.lstsq(A, b, rcond=None)
    residuals = b - A @ coefficients
    variance = float(residuals @ residuals) / (points - unknowns)
    covariance = variance * np.linalg.pinv(A.T @ A)
    return LinearFit(coefficients, np.sqrt(np.diag(covariance)), float(np.sqrt(np.mean(residuals**2))), points)


def exponential_rate(t: np.ndarray, values: np.ndarray) -> LinearFit:
    """Fit log(values) = c + s t; the rate is -s (coefficients are [c, s])."""
    t, values = np.asarray(t, dtype=float), np.asarray(values, dtype=float)
    return least_squares(np.column_stack([np.ones_like(t), t]), np.log(values))


def power_law(values: np.ndarray, *features: np.ndarray) -> LinearFit:
    """Fit log(values) = c + sum_k a_k log(features_k); coefficients are [c, a_1, ...]."""
    columns = [np.ones(len(values))] + [np.log(np.asarray(f, dtype=float)) for f in features]
    return least_squares(np.column_stack(columns), np.log(np.asarray(values, dtype=float)))


@dataclass(frozen=True)
class Estimate:
    """A value measured in floats with an error estimate, and the parts the error is made of.

    A claimed value is supported (CONFIRMED at most) only when |claimed - value| <= error; the report
    shows value and error next to the claim."""

    value: float
    error: float
    parts: dict[str, float]

    def contains(self, claimed: float) -> bool:
        return abs(claimed - self.value) <= self.error

    def record(self, claimed: float) -> dict[str, object]:
        return {"claimed": claimed, "fitted": self.value, "error": self.error, "error_parts": self.parts}


#: Standard errors counted in an estimate's error (about a 99.7 % band for Gaussian residuals).
STANDARD_ERRORS = 3.0


def decay_rate(t: np.ndarray, values: np.ndarray, rtol: float, atol: float) -> Estimate:
    """The rate r of values ~ C exp(-r t) over the given window, with its error: STANDARD_ERRORS standard
    errors of the fit (residuals), the change of the fitted rate between the window's halves (the window
    is not yet asymptotic: the horizon), and what the integrator's tolerances can move the slope
    (a relative error rtol + atol / min value at both ends of a window of length t[-1] - t[0])."""
    t, values = np.asarray(t, dtype=float), np.asarray(values, dtype=float)
    fit = exponential_rate(t, values)
    half = len(t) // 2
    first, second = exponential_rate(t[:half], values[:half]), exponential_rate(t[half:], values[half:])
    parts = {
        "fit": STANDARD_ERRORS * float(fit.standard_errors[1]),
        "window_drift": abs(float(first.coefficients[1] - second.coefficients[1])),
        "integrator": 2.0 * (rtol + atol / float(np.min(np.abs(values)))) / float(t[-1] - t[0]),
    }
    return Estimate(-float(fit.coefficients[1]), sum(parts.values()), parts)
