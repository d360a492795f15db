"""Distances between the tokens' empirical measure and simple measures, in closed form, for any number type.

The empirical measure of tokens x_1, ..., x_n is mu = (1/n) sum_i delta_{x_i}. Its Wasserstein-2 distance to a Dirac
mass delta_z has a single coupling (all of mu's mass goes to z), so

    W2(mu, delta_z)^2 = (1/n) sum_i |x_i - z|^2 = s - 2 <m, z> + |z|^2,   s = (1/n) sum_i |x_i|^2,  m = (1/n) sum_i x_i.

Over unit z (a Dirac mass on the sphere) |z|^2 = 1 and <m, z> <= |m| by Cauchy-Schwarz, with equality at z = m/|m| when
m != 0, so the least value is

    W2(mu, Dirac on the sphere)^2 = s + 1 - 2 |m|,

which for unit tokens (s = 1) is 2 - 2 |m|: 0 exactly when every token is one point (|m| = 1), 2 when the mean is 0
(then every unit z gives s + 1 = 2, which the formula also gives: no division by |m| is needed).

Written so that nothing cancels near a Dirac mass (there 2 - 2 |m| is a difference of numbers near 2, and a float
rounding of 1e-16 becomes 1e-8 in W2 after the square root): with the variance V = (1/n) sum_i |x_i - m|^2 = s - |m|^2
(>= 0, computed from the centred tokens),

    s + 1 - 2 |m| = (s - |m|^2) + (1 - |m|)^2 = V + ((1 - s + V) / (1 + |m|))^2,   |m| = sqrt(s - V),

using 1 - |m| = (1 - |m|^2)/(1 + |m|) and 1 - |m|^2 = 1 - s + V. Both terms are >= 0 for unit tokens (s = 1), and
W2^2 ~ V as the tokens collapse. The formula is written once here over s, V and a square root of the caller's number
type (numpy floats, arb balls, SymPy expressions): the float evaluator (`checks.model.field.w2_to_dirac`), the balls at
the user's exact tokens (`checks.claimsfile.given_start`) and the closed form at equiangular tokens, where s = 1 and
V = (n - 1)(1 - rho)/n (`identities.equiangular_quantities`), all call it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def w2_squared_to_dirac(mean_square_norm: Any, variance: Any, sqrt: Callable[[Any], Any]) -> Any:
    """min over unit z of W2((1/n) sum_i delta_{x_i}, delta_z)^2 = s + 1 - 2 |m| = V + ((1 - s + V)/(1 + |m|))^2 with
    |m| = sqrt(s - V), s = (1/n) sum |x_i|^2 (`mean_square_norm`) and V = (1/n) sum |x_i - m|^2 (`variance`); see the
    module docstring."""
    gap = (1 - mean_square_norm + variance) / (1 + sqrt(mean_square_norm - variance))
    return variance + gap * gap
