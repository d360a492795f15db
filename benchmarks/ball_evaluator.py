"""The one ball evaluator (trees) against the SymPy walker it replaced, on the 100,000-digit constants.

`certificates/kernel/expression_balls.py` evaluated SymPy expressions as balls by walking them; it is gone from
the code and kept here, as the baseline only (`_sympy_ball`, its function as it was). At the precision of
100,000 digits, for each closed form of `headflow.certificates.kernel.stored_forms` and for one Newton step of
lambda_c's root finder (g and g' of `headflow.identities.closed_forms.lambda_c_equation` at the root, n = 10), it times
the tree evaluation (`headflow.certificates.kernel.balls.eval_ball` on the tree written once by `from_sympy`) against
the SymPy walk of the same formula at the same point (with n folded in by SymPy, as the root finder did), and
checks that the two balls overlap. Then it times `headflow constants Q --digits 100000`'s certified computation
(`headflow.checks.constants.certified.certify`: precision loop and correct rounding, no cross-check) end to end.

Run `python -m benchmarks.ball_evaluator` from the repository root (about a minute; `--digits 10000` for a
few seconds).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Mapping
from fractions import Fraction
from pathlib import Path

import sympy as sp
from flint import arb, ctx

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from headflow.certificates.kernel.balls import eval_ball
from headflow.certificates.kernel.exact import ball_of
from headflow.certificates.provers.lambda_c_roots import certify_root
from headflow.certificates.statements.stored_forms import forms
from headflow.certificates.sympy_trees import from_sympy
from headflow.checks.constants import certified
from headflow.identities import closed_forms as cf

FORMS_SYMPY, SYMBOLS = forms()

#: Each closed form at a point (those of `benchmarks.constants` where they overlap).
FORMS: list[tuple[str, dict[str, Fraction]]] = [
    ("golden", {}),
    ("c_star", {"H": Fraction(2)}),
    ("beta_star", {"H": Fraction(2), "n": Fraction(10), "alpha": Fraction(1)}),
    ("rate", {"lam": Fraction(1, 2), "n": Fraction(10), "beta": Fraction(1)}),
    ("lambda_max", {"n": Fraction(10), "beta": Fraction(1)}),
    ("lambertw", {"x": Fraction(1)}),
]
LAMBDA_C = ("lambda_c", {"n": Fraction(10), "beta": Fraction(1)})


def _sympy_ball(e: sp.Basic, env: Mapping[sp.Symbol, arb]) -> arb:
    """The replaced evaluator (`expression_balls._eval`, condensed), at the working precision: the baseline."""
    if e.is_Rational or e.is_Float:
        return ball_of(Fraction(sp.Rational(e)))
    if e is sp.pi:
        return arb.pi()
    if e is sp.E:
        return arb(1).exp()
    if e.is_Symbol:
        return env[e]
    if isinstance(e, sp.Add | sp.Mul):
        total = arb(0) if isinstance(e, sp.Add) else arb(1)
        for term in e.args:
            total = total + _sympy_ball(term, env) if isinstance(e, sp.Add) else total * _sympy_ball(term, env)
        return total
    if isinstance(e, sp.Pow):
        base, exponent = e.args
        if exponent.is_Integer:
            b, k = _sympy_ball(base, env), int(exponent)
            return b**k if k >= 0 else 1 / (b ** (-k))
        if exponent == sp.Rational(1, 2):
            return _sympy_ball(base, env).sqrt()
        if exponent == sp.Rational(-1, 2):
            return _sympy_ball(base, env).rsqrt()
        return (_sympy_ball(exponent, env) * _sympy_ball(base, env).log()).exp()
    for function, method in ((sp.exp, arb.exp), (sp.log, arb.log), (sp.LambertW, arb.lambertw)):
        if isinstance(e, function):
            return method(_sympy_ball(e.args[0], env))
    raise ValueError(f"cannot evaluate {type(e).__name__} as a ball")


def _best(task: Callable[[], object], budget: float = 3.0, most: int = 7) -> float:
    """The shortest of a few timed runs (fewer when one run is long)."""
    times: list[float] = []
    while len(times) < most and sum(times) < budget:
        start = time.perf_counter()
        task()
        times.append(time.perf_counter() - start)
    return min(times)


def _row(case: str, ours: float, theirs: float, baseline: str) -> dict[str, object]:
    print(f"{case:<48}{ours:>11.4f}{theirs:>11.4f}{theirs / ours:>8.2f}x", flush=True)
    return {
        "benchmark": "balls",
        "case": case,
        "seconds": ours,
        "baseline": baseline,
        "baseline_seconds": theirs,
        "ratio": theirs / ours,
    }


def _compare(
    case: str, tree: object, names: dict[str, arb], expr: sp.Expr, symbols: dict[sp.Symbol, arb]
) -> tuple[float, float]:
    """(tree seconds, walker seconds) of one formula at the working precision; AssertionError if they disagree."""
    tree_ball, walked = eval_ball(tree, names), _sympy_ball(expr, symbols)
    assert tree_ball.overlaps(walked), f"{case}: the tree gives {tree_ball.str(20)}, the walker {walked.str(20)}"
    return _best(lambda: eval_ball(tree, names)), _best(lambda: _sympy_ball(expr, symbols))


def measure(digits: int = 100_000) -> list[dict[str, object]]:
    """Print tree against walker at `digits` digits and the end-to-end times; return the rows (ratio = walker /
    tree: above 1, the tree evaluator is faster)."""
    bits = math.ceil(digits * math.log2(10)) + 40
    print(f"{'case (' + str(digits) + ' digits)':<48}{'tree s':>11}{'SymPy s':>11}{'ratio':>9}")
    rows = []
    with ctx.workprec(bits):
        for quantity, params in FORMS:
            form = FORMS_SYMPY[quantity]
            balls = {k: ball_of(v) for k, v in params.items()}
            names = {SYMBOLS[k].name: b for k, b in balls.items()}
            symbols = {SYMBOLS[k]: b for k, b in balls.items()}
            ours, theirs = _compare(quantity, from_sympy(form), names, form, symbols)
            rows.append(_row(f"{quantity} evaluated at {digits} digits", ours, theirs, "SymPy walker"))
        tokens = LAMBDA_C[1]["n"]
        root = certify_root(tokens, bits).mid()
        equation, folded = cf.lambda_c_equation(cf.u, cf.n), cf.lambda_c_equation(cf.u, sp.Integer(int(tokens)))
        step = [(from_sympy(equation), folded), (from_sympy(sp.diff(equation, cf.u)), sp.diff(folded, cf.u))]
        names = {"u": root, "n": ball_of(tokens)}
        ours = theirs = 0.0
        for tree, expr in step:
            tree_seconds, walker_seconds = _compare("lambda_c's g, g'", tree, names, expr, {cf.u: root})
            ours, theirs = ours + tree_seconds, theirs + walker_seconds
        rows.append(_row(f"lambda_c's Newton step (g, g') at {digits} digits", ours, theirs, "SymPy walker"))
    print(f"\ncertified end to end (`headflow constants Q --digits {digits}`, no cross-check)")
    for quantity, params in [*FORMS, LAMBDA_C]:
        seconds = _best(lambda q=quantity, p=params: certified.certify(q, p, digits), budget=5.0, most=3)
        print(f"  {quantity:<14}{seconds:8.3f} s", flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--digits", type=int, default=100_000, help="decimal digits (default 100000)")
    args = parser.parse_args(argv)
    measure(args.digits)
    return 0


if __name__ == "__main__":
    sys.exit(main())
