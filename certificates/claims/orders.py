"""The grammar of an asymptotic claim: the variable sent to infinity, an order of growth, the quantities named.

An `asymptotic` claim states how a quantity behaves as one variable tends to infinity:

- `as = "n -> oo"` (the variable: n, d or beta; `oo` or `infinity`);
- `order = "Theta(g)"`, `"O(g)"`, `"Omega(g)"`, `"o(g)"` or `"~ g"` (Q/g -> 1), or `limit = "L"` (Q -> L, or
  Q/over -> L with `over = "g"`), g and L formulas of the expression grammar (`certificates.claims.expressions`).

The text of `order` is checked character by character (the grammar's characters and `~`), then `ast.parse` only
builds a syntax tree: the whole text must be one call of Theta, O, Omega or o with one positional argument, or `~`
followed by a formula. The argument's own text is parsed by `parse_defined`, with every check of the grammar;
nothing is executed.

QUANTITIES names what a claim may be about, with the attention kinds, variables and symbols each one has (the
mathematics of each, its bracket, is on the checks side: `headflow.checks.claimsfile.asymptotic_quantities`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from dataclasses import dataclass

import sympy as sp
from headflow.certificates.claims.conditions import Condition
from headflow.certificates.claims.expressions import parse_defined
from headflow.certificates.claims.problems import ExpressionError

#: The relations an order states (`limit` is stated with the `limit` field).
ORDERS = ("Theta", "O", "Omega", "o")
VARIABLES = ("n", "d", "beta")
_APPROACH = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]*)\s*->\s*(oo|infinity)\s*$")
_OUTSIDE = re.compile(r"[^A-Za-z0-9_+\-*/().,\s~]")


@dataclass(frozen=True)
class QuantitySpec:
    """A quantity an asymptotic claim may be about: what it is, its attention kinds (empty: none to choose), the
    variables per kind, and its parameters (every one positive; H an integer >= 2)."""

    meaning: str
    variables: Mapping[str, tuple[str, ...]]
    parameters: tuple[str, ...]


QUANTITIES: dict[str, QuantitySpec] = {
    "clustering_time": QuantitySpec(
        "the time for the correlation rho of equiangular tokens (one scalar head M = W = lam I, lam > 0, beta > 0, "
        "spherical dynamics, exact reduced ODE) to rise to rho1 in (0, 1): softmax from rho0 = 0 (orthogonal "
        "start, d >= n), relu from rho0 = d^(-1/2) (d > rho1^(-2))",
        {"softmax": ("n", "beta"), "relu": ("n", "d", "beta")},
        ("n", "d", "lam", "beta", "rho1"),
    ),
    "exit_gap": QuantitySpec(
        "the cluster gap eps_exit at which Condition 8 is lost on the trajectory from orthonormal tokens (usa, H >= 2 "
        "heads alpha I, alpha > 0, beta > 0, spherical dynamics; defined once (H - 1) exp(2 alpha beta) < n - 1)",
        {"usa": ("n",)},
        ("H", "n", "alpha", "beta"),
    ),
    "expression": QuantitySpec("the formula `expr` over the claim's `domain`", {"": VARIABLES}, ()),
}


def parameter_symbol(name: str) -> sp.Symbol:
    """The symbol of a quantity's parameter, declared as its regime has it (H an integer, the others positive)."""
    return sp.Symbol(name, integer=True, positive=True) if name == "H" else sp.Symbol(name, positive=True)


def parse_approach(text: object, allowed: tuple[str, ...]) -> str:
    """The variable of `"v -> oo"`; ExpressionError unless v is one of `allowed`."""
    if not isinstance(text, str):
        raise ExpressionError(repr(text), 'write the limit as a string, e.g. as = "n -> oo"')
    match = _APPROACH.match(text)
    if match is None:
        raise ExpressionError(text, 'expected "<variable> -> oo", e.g. "n -> oo"')
    if match.group(1) not in allowed:
        raise ExpressionError(text, f"the variable must be one of {', '.join(allowed)} here")
    return match.group(1)


def parse_order(text: object, symbols: Mapping[str, sp.Expr]) -> tuple[str, sp.Expr, tuple[Condition, ...]]:
    """(relation, g, conditions) of `"Theta(g)"`, `"O(g)"`, `"Omega(g)"`, `"o(g)"` or `"~ g"`; ExpressionError
    otherwise."""
    if not isinstance(text, str) or not text.strip():
        raise ExpressionError(
            repr(text), 'an order is a string such as "Theta(log(n))", "O(n)", "Omega(n)", "o(n)" or "~ n"'
        )
    body = text.strip()
    outside = _OUTSIDE.search(body)
    if outside is not None:
        raise ExpressionError(text, f"character {outside.group()!r} is outside the grammar", outside.start() + 1)
    if body.startswith("~"):
        return ("~", *parse_defined(body[1:], symbols))
    try:
        tree = ast.parse(body, mode="eval").body
    except SyntaxError as exc:
        raise ExpressionError(text, f"syntax error: {exc.msg}", exc.offset or 0) from None
    if not (
        isinstance(tree, ast.Call)
        and isinstance(tree.func, ast.Name)
        and tree.func.id in ORDERS
        and len(tree.args) == 1
        and not tree.keywords
        and not isinstance(tree.args[0], ast.Starred)
    ):
        raise ExpressionError(text, "expected one of Theta(g), O(g), Omega(g), o(g) or ~ g, with g a formula")
    argument = ast.get_source_segment(body, tree.args[0])
    if argument is None:
        raise ExpressionError(text, "the argument of the order cannot be read")
    return (tree.func.id, *parse_defined(argument, symbols))
