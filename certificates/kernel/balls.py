"""The ball of an expression tree: the one ball evaluator (`headflow.certificates.kernel.exprtree.evaluate`) with the
enclosure of lambda_c (`certificates.kernel.lambda_c.enclose`), what certificates, claims files and constants use.

A SymPy expression is written as a tree once (`headflow.certificates.sympy_trees.from_sympy`, at the boundary) and
evaluated here; no SymPy evaluation takes part, so a sign is a ball's.
"""

from collections.abc import Mapping

from flint import arb

from . import lambda_c
from .exact import ExponentTooLarge
from .exprtree import evaluate


def _lambda_c(tokens: arb, inverse_temperature: arb) -> arb:
    """lambda_c over the balls, or nan where it is undefined (n <= 1, beta <= 0) or not certified (no sign change,
    an end of n beyond `lambda_c.MAX_END_EXPONENT`): a nan ball settles no relation."""
    try:
        return lambda_c.enclose(tokens, inverse_temperature)
    except (lambda_c.RootError, ExponentTooLarge):
        return arb("nan")


def eval_ball(tree: object, env: Mapping[str, arb]) -> arb:
    """A ball holding every value of the tree when each symbol ranges over its ball in `env`, at the current flint
    precision; TreeError for an unknown or malformed node."""
    return evaluate(tree, env, {"lambda_c": _lambda_c})
