"""The scalar-regime constants as python-flint balls: the one ball evaluation of c*, beta*, phi, lambda_max, lambda_c
and the Condition 8 exit gap (a certified root, `certificates.provers.exit_gap`).

Every closed form is `identities/closed_forms.py`'s, evaluated by `certificates.kernel.expression_balls.to_arb`;
lambda_c, which has none, is the certified root of `certificates.kernel.lambda_c`. Parameters are
exact fractions and enter only as balls, so SymPy never simplifies with them (its automatic
evaluation decides signs numerically, and misjudged 1 - c*^2 < 0 at H = 10^100).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import sympy as sp
from flint import arb, ctx

from certificates.kernel.expression_balls import to_arb
from certificates.kernel.exprtree import ball_of
from certificates.kernel.lambda_c import certify_root
from certificates.provers.exit_gap import exit_gap_ball
from identities import closed_forms as cf

_X = sp.Symbol("x", real=True)
#: The parameter names of the quantities, as the closed forms' symbols.
SYMBOLS = {"H": cf.H, "n": cf.n, "alpha": cf.alpha, "beta": cf.beta, "lam": cf.lam, "x": _X}
#: The closed forms in symbols (lambda_c has none).
FORMS: dict[str, sp.Expr] = {
    "golden": cf.golden,
    "c_star": cf.c_star(),
    "beta_star": cf.beta_star(),
    "rate": cf.rate(),
    "lambda_max": cf.lambda_max(),
    "lambertw": cf.lambertw(_X),
}


def ball(quantity: str, params: Mapping[str, Fraction], prec: int) -> arb:
    """A ball containing `quantity` (a key of FORMS, or "lambda_c") at the exact `params`, at `prec` bits.

    lambda_c needs an integer n >= 2 and beta > 0; c8_exit_gap integers H >= 2, n and Condition 8 strict at the
    orthonormal start (the caller validates; `certificates.provers.exit_gap.NoExit` otherwise)."""
    if quantity == "c8_exit_gap":
        heads, tokens = int(params["H"]), int(params["n"])
        return exit_gap_ball(heads, tokens, params["alpha"], params["beta"], prec)
    with ctx.workprec(prec):
        env = {SYMBOLS[k]: ball_of(v) for k, v in params.items()}
        if quantity != "lambda_c":
            return to_arb(FORMS[quantity], env, prec)
        return certify_root(int(params["n"]), prec) / env[cf.beta]
