"""The constants `headflow constants` knows: names, parameters and digit limits (no heavy imports,
so that building the command line stays fast)."""

from __future__ import annotations

QUANTITIES: dict[str, tuple[str, ...]] = {
    "golden": (),
    "c_star": ("H",),
    "beta_star": ("H", "n", "alpha"),
    "rate": ("lam", "n", "beta"),
    "lambda_max": ("n", "beta"),
    "lambda_c": ("n", "beta"),
    "lambertw": ("x",),
}
"""Each quantity and its parameters, in the order of its signature."""

MAX_DIGITS: dict[str, int] = {q: 100_000 for q in QUANTITIES} | {"lambda_c": 10_000}
"""Largest number of digits per quantity: lambda_c is capped lower because mpmath's cross-check
(a Newton iteration at full precision) takes minutes beyond 10,000 digits, while the ball
computation alone does 100,000 digits in about a second."""
