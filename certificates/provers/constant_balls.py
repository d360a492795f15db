"""The scalar-regime constants as python-flint balls: the one ball evaluation of c*, beta*, phi, lambda_max, lambda_c
and the Condition 8 exit gap (a certified root, `headflow.certificates.provers.exit_gap`).

Every closed form is `identities/closed_forms.py`'s, written as a tree once (`certificates.kernel.stored_forms`, the
trees stored from `headflow.certificates.sympy_trees.from_sympy`) and evaluated by the one ball evaluator's operations,
compiled once per tree (`certificates.provers.programs.program`); lambda_c, which has none, is the certified root of
`certificates.provers.lambda_c_roots`. Parameters are exact fractions and enter only as balls, so SymPy never simplifies
with them (its automatic evaluation decides signs numerically, and misjudged 1 - c*^2 < 0 at H = 10^100); no
SymPy is imported here, so a small `headflow constants` call starts fast.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from flint import arb, ctx
from headflow.certificates.kernel import stored_forms
from headflow.certificates.kernel.exact import precision, rational_ball
from headflow.certificates.provers import programs


def ball(quantity: str, params: Mapping[str, Fraction], prec: int) -> arb:
    """A ball containing `quantity` (a closed form of `headflow.certificates.kernel.stored_forms`, "lambda_c" or
    "c8_exit_gap") at the exact `params`, at `prec` bits.

    lambda_c needs an integer n >= 2 and beta > 0; c8_exit_gap integers H >= 2, n and Condition 8 strict at the
    orthonormal start (the caller validates; `headflow.certificates.provers.exit_gap.NoExit` otherwise)."""
    if quantity == "c8_exit_gap":  # its prover and lambda_c's imported here: a closed form's start-up needs neither
        from headflow.certificates.provers.exit_gap import exit_gap_ball

        heads, tokens = int(params["H"]), int(params["n"])
        return exit_gap_ball(heads, tokens, params["alpha"], params["beta"], prec)
    if quantity == "lambda_c":
        from headflow.certificates.provers.lambda_c_roots import certify_root

        root = certify_root(int(params["n"]), prec)
        with precision(prec):
            return root / rational_ball(params["beta"].numerator, params["beta"].denominator, prec)
    names = stored_forms.STORED["symbols"]
    env = {names[k]: rational_ball(v.numerator, v.denominator, prec) for k, v in params.items()}
    saved, ctx.prec = ctx.prec, prec  # `precision(prec)` without its two calls (a constant at 1,000 digits: 10 us)
    try:
        (value,) = programs.program(quantity).run(env)
    finally:
        ctx.prec = saved
    return value
