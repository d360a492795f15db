"""The scalar-regime constants as python-flint balls: the one ball evaluation of c*, beta*, phi, lambda_max, lambda_c
and the Condition 8 exit gap (a certified root, `certificates.provers.exit_gap`).

Every closed form is `identities/closed_forms.py`'s, written as a tree once (`certificates.kernel.exprtree.from_sympy`)
and evaluated by the one ball evaluator (`certificates.kernel.balls.eval_ball`);
lambda_c, which has none, is the certified root of `certificates.kernel.lambda_c`. Parameters are
exact fractions and enter only as balls, so SymPy never simplifies with them (its automatic
evaluation decides signs numerically, and misjudged 1 - c*^2 < 0 at H = 10^100).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import sympy as sp
from flint import arb, ctx

from certificates.kernel.balls import eval_ball
from certificates.kernel.exact import ball_of
from certificates.kernel.exprtree import Tree, from_sympy
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
#: The closed forms as trees, what is evaluated.
TREES: dict[str, Tree] = {name: from_sympy(form) for name, form in FORMS.items()}


def ball(quantity: str, params: Mapping[str, Fraction], prec: int) -> arb:
    """A ball containing `quantity` (a key of FORMS, or "lambda_c") at the exact `params`, at `prec` bits.

    lambda_c needs an integer n >= 2 and beta > 0; c8_exit_gap integers H >= 2, n and Condition 8 strict at the
    orthonormal start (the caller validates; `certificates.provers.exit_gap.NoExit` otherwise)."""
    if quantity == "c8_exit_gap":
        heads, tokens = int(params["H"]), int(params["n"])
        return exit_gap_ball(heads, tokens, params["alpha"], params["beta"], prec)
    with ctx.workprec(prec):
        if quantity != "lambda_c":
            return eval_ball(TREES[quantity], {SYMBOLS[k].name: ball_of(v) for k, v in params.items()})
        return certify_root(int(params["n"]), prec) / ball_of(params["beta"])
