"""The scalar-regime constants in floats: c*, beta*, phi, lambda_max and lambda_c, computed once.

Each function is generated from its SymPy closed form in `identities/closed_forms.py`; no
formula is typed again here. Scalars are evaluated with the `math` module (the platform libm)
and arrays with numpy, whose vectorized exp and log may differ from libm in the last ulp:
the split keeps every float these functions have always produced.

lambda_c has no closed form: u_c = beta lambda_c is the root of g(u) = (u - 2) e^u - (n - 1)(u + 2)
(`closed_forms.lambda_c_equation`). Uniqueness, as in `headflow.certificates.kernel.lambda_c`: g'' = u e^u > 0 for
u > 0 and g(2) = -4(n - 1) < 0, so g has exactly one zero in (2, inf), and Brent's method on a
bracket [2, b] with g(b) > 0 finds that zero and no other. These floats only place or illustrate;
every certified statement takes lambda_c from the balls of `headflow.certificates.kernel.lambda_c`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np
import sympy as sp
from headflow.identities import closed_forms as cf
from scipy.optimize import brentq

#: Absolute tolerance of Brent's method for u_c (a few ulps at u_c ~ log n).
ROOT_TOLERANCE = 1e-14
#: The default right end of the bracket of u_c: g(60) > 0 for every n < 10^24.
BRACKET_END = 60.0


def _float_function(symbols: tuple[sp.Symbol, ...], expr: sp.Expr) -> Callable[..., Any]:
    """`expr` as a function of `symbols`: libm on scalars, numpy on arrays (see the module docstring)."""
    scalar, vectorized = sp.lambdify(symbols, expr, "math"), sp.lambdify(symbols, expr, "numpy")

    def evaluate(*args: Any) -> Any:
        return vectorized(*args) if any(np.ndim(a) > 0 for a in args) else scalar(*args)

    return evaluate


_C_STAR = _float_function((cf.H,), cf.c_star())
_BETA_STAR = _float_function((cf.H, cf.n, cf.alpha), cf.beta_star())
_RATE = _float_function((cf.lam, cf.n, cf.beta), cf.rate())


def c_star(H: Any) -> Any:
    """c*(H), the positive root of c^2 + (H - 1) c - 1 (elementwise on arrays).

    The closed form subtracts two numbers close to H - 1, so the relative error grows like H^2 ulps
    (and beta*'s absolute error with it); `headflow.certificates.provers.constant_balls` has no such loss."""
    return _C_STAR(H)


def beta_star(H: Any, n: Any, alpha: Any) -> Any:
    """beta*(H, n, alpha) = ln(c*^2 (n - 1)/(1 - c*^2)) / (2 alpha) (elementwise on arrays)."""
    return _BETA_STAR(H, n, alpha)


def rate(lam: Any, n: Any, beta: Any) -> Any:
    """phi(lambda) = 2 lambda / (exp(lambda beta) + n - 1), the early clustering rate (elementwise on arrays)."""
    return _RATE(lam, n, beta)


def lambda_max(n: int, beta: float) -> float:
    """The maximiser of phi, (1 + W((n - 1)/e)) / beta, evaluated by SymPy (W has no libm or numpy form)."""
    return float(sp.N(cf.lambda_max(n, beta)))


@lru_cache(maxsize=64)
def _lambda_c_equation(n: int) -> Callable[[float], float]:
    """g at this n, with n substituted before lambdifying (SymPy folds n - 1 into the coefficients)."""
    return sp.lambdify(cf.u, cf.lambda_c_equation(cf.u, n), "math")


def lambda_c_scaled(n: int) -> float:
    """u_c(n) = beta lambda_c, the root of g in (2, inf), by Brent's method to ROOT_TOLERANCE."""
    end = max(BRACKET_END, math.log(2 * (n - 1)) + 2)  # e^b > 2 (n - 1) and b >= 6 give g(b) > 0
    return float(brentq(_lambda_c_equation(n), 2.0, end, xtol=ROOT_TOLERANCE))


def lambda_c(n: int, beta: float) -> float:
    """lambda_c(n, beta) = u_c(n) / beta, the inflection point of phi."""
    return lambda_c_scaled(n) / beta
