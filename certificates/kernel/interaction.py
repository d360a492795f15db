"""Interaction functions: attention weights w_ij = phi(s_ij) from a stated expression in the score s (and beta).

A claims file (or `Configuration.create(..., interaction=...)`) states phi as text in the claims grammar, in one
variable `s` and the symbol `beta` (for example `exp(beta*s)`, `s**2`, `exp(beta*s) - 1`). The text is parsed,
never evaluated (`certificates.kernel.claims.expressions.parse_tree`), into a `certificates.kernel.exprtree` tree;
that tree is what every representation evaluates: balls (`exprtree.evaluate`) at exact data, a vectorized numpy
walk in the float model (`checks.model.interaction`), SymPy for the energy's antiderivative.

The attention kind says how the weights combine (one vocabulary, `certificates.kernel.vocabulary.INTERACTION_KINDS`):
`usa` is unnormalized, f^h_i = sum_j phi(s^h_ij) W_h x_j and v_i = (1/n) sum_h f^h_i; `softmax` is normalized,
f^h_i = sum_j phi(s^h_ij) W_h x_j / sum_k phi(s^h_ik), v_i = sum_h f^h_i, which needs phi > 0 (checked at every
configuration: floats in the numpy model, balls at exact data; a stated phi that is <= 0 at some point of a small
grid, by balls, is refused when it is parsed). The default phi of both kinds is exp(beta*s), the paper's model.

phi must be defined at every score (the scores <x_i, M_h x_j> take every real value over the configurations): every
definedness condition the parser records (`log(s)` needs s > 0) must be proved for all real s and beta > 0 by
`identities.signs`; otherwise the interaction is refused with that condition as the reason.

The energy. Where the dynamics is usa-like, E_h = (1/(2 n^2)) sum_ij Phi(s^h_ij) with Phi' = phi (for exp(beta*s):
Phi = exp(beta s)/beta, the paper's E_h). SymPy's `integrate` proposes Phi; it is accepted only when
d/ds Phi - phi is exactly 0 (`identities.zero_test`), computed on plain symbols (no assumption rewrites phi). No
proposal (or one outside the tree nodes): the energy is unavailable and says so; the energy rate
dE_h/dt = (1/(2 n^2)) sum_ij phi(s^h_ij) ds^h_ij/dt needs phi only.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import sympy as sp
from flint import arb

from certificates.kernel import exprtree
from certificates.kernel.claims.expressions import parse_defined, parse_tree
from certificates.kernel.claims.problems import ExpressionError
from certificates.kernel.claims.symbolic import within
from certificates.kernel.errors import InputError
from certificates.kernel.exact import ball_of, precision
from certificates.kernel.inert import inert
from certificates.kernel.vocabulary import INTERACTION_KINDS
from identities import signs, zero_test

#: The score variable and the inverse temperature, as the parser reads them.
S, BETA = sp.Symbol("s", real=True), sp.Symbol("beta", positive=True)
#: The paper's interaction (the default of usa and softmax attention).
DEFAULT = "exp(beta*s)"
#: The tree nodes an interaction may use (each has a numpy, a ball and a SymPy meaning).
NODES = ("rat", "sym", "add", "mul", "pow", "neg", "sub", "div", "exp", "log", "sqrt", "rpow", "pi", "e")
#: Where a normalized interaction is tested for a value <= 0 when it is parsed (s on a grid, beta in BETAS).
GRID = tuple(Fraction(k, 4) for k in range(-40, 41))
BETAS = (Fraction(1, 4), Fraction(1), Fraction(4))
#: Seconds SymPy's integrate may take to propose an antiderivative (then: no energy).
INTEGRATE_SECONDS = 20.0


@dataclass(frozen=True)
class Interaction:
    """phi as stated: its text and its tree (the data a certificate embeds and a checker rebuilds from the text)."""

    text: str
    tree: exprtree.Tree

    def __str__(self) -> str:
        return self.text

    def ball(self, s: arb, beta: arb) -> arb:
        """phi(s) as a ball (the tree evaluated with balls)."""
        return exprtree.evaluate(self.tree, {"s": s, "beta": beta})

    def energy_tree(self) -> exprtree.Tree | None:
        """The tree of an antiderivative Phi of phi in s (verified exactly), or None when none was found."""
        return _antiderivative(self.text)


def parse_interaction(text: object, attention: str, field: str = "interaction") -> Interaction:
    """The interaction stated by `text` for the attention kind; InputError naming `field` when the text is outside
    the grammar, uses other names or nodes, is not defined at every score, or (normalized) takes a value <= 0."""
    if attention not in INTERACTION_KINDS:
        kinds = " or ".join(INTERACTION_KINDS)
        raise InputError(field, text, f"an interaction function is stated with attention {kinds}")
    if not isinstance(text, str) or not text.strip():
        raise InputError(field, text, 'a non-empty string, e.g. interaction = "s**2"')
    symbols = {"s": S, "beta": BETA}
    try:
        _, conditions = parse_defined(text, symbols)
        tree = parse_tree(text, symbols)
    except ExpressionError as exc:
        exc.field = field
        raise
    unknown = sorted({node for node in _nodes(tree) if node not in NODES})
    if unknown:
        allowed = "+ - * / **, exp, log, sqrt, pi, e"
        raise InputError(field, text, f"{unknown[0]} is not available in an interaction (it may use {allowed})")
    known = signs.facts(positive=[sp.Symbol("beta")], real=[sp.Symbol("s")])
    for condition in conditions:
        expr = ordinary(exprtree.from_sympy(condition.expr))
        if signs.prove(expr, condition.relation + "0", known) is None:
            raise InputError(
                field,
                text,
                f"phi must be defined at every score s (the scores take every real value): it needs "
                f"{condition.expr} {condition.relation} 0 ({condition.reason}), not proved for all real s and beta > 0",
            )
    interaction = Interaction(text.strip(), tree)
    if attention == "softmax":
        _positive_on_grid(interaction, field)
    return interaction


def default_interaction(attention: str) -> Interaction:
    """The paper's exp(beta*s) for the kind."""
    return parse_interaction(DEFAULT, attention)


def _nodes(tree: object) -> list[str]:
    if not isinstance(tree, list) or not tree:
        return []
    return [str(tree[0]), *(n for child in tree[1:] for n in _nodes(child))]


def _positive_on_grid(interaction: Interaction, field: str) -> None:
    """InputError when balls show phi(s) <= 0 at a grid point (normalized weights need phi > 0)."""
    with precision(64):
        for beta in BETAS:
            for s in GRID:
                value = interaction.ball(ball_of(s), ball_of(beta))
                if value.is_finite() and value <= 0:
                    raise InputError(
                        field,
                        interaction.text,
                        f"normalized (softmax) weights need phi > 0, but phi({s}) <= 0 at beta = {beta}",
                    )


def ordinary(tree: object) -> sp.Expr:
    """The tree as an ordinary SymPy expression on plain symbols (no assumptions: nothing is rewritten by a sign),
    for the exact zero and sign tests and the antiderivative proposal."""
    if not isinstance(tree, list) or not tree:
        raise exprtree.TreeError(f"malformed node {str(tree)[:60]}")
    op, args = tree[0], tree[1:]
    if op == "rat":
        value = exprtree.parse_rational(args[0])
        return sp.Rational(value.numerator, value.denominator)
    if op == "sym":
        return sp.Symbol(str(args[0]))
    if op == "pi":
        return sp.pi
    if op == "e":
        return sp.E
    if op == "pow":
        return ordinary(args[0]) ** sp.Integer(args[1])
    parts = [ordinary(a) for a in args]
    combine: dict[str, Any] = {
        "add": lambda: sp.Add(*parts),
        "mul": lambda: sp.Mul(*parts),
        "neg": lambda: -parts[0],
        "sub": lambda: parts[0] - parts[1],
        "div": lambda: parts[0] / parts[1],
        "exp": lambda: sp.exp(parts[0]),
        "log": lambda: sp.log(parts[0]),
        "sqrt": lambda: sp.sqrt(parts[0]),
        "rpow": lambda: sp.Pow(parts[0], parts[1]),
    }
    if op not in combine:
        raise exprtree.TreeError(f"no SymPy form of node {op!r}")
    return combine[op]()


@lru_cache(maxsize=64)
def _antiderivative(text: str) -> exprtree.Tree | None:
    """Phi with d/ds Phi = phi exactly: SymPy's proposal (integrate, beta > 0), checked on plain symbols."""
    phi = ordinary(parse_tree(text, {"s": S, "beta": BETA}))
    plain_s, plain_beta = sp.Symbol("s"), sp.Symbol("beta")
    try:
        proposal = within(INTEGRATE_SECONDS, lambda: sp.integrate(phi.xreplace({plain_beta: BETA, plain_s: S}), S))
    except (NotImplementedError, ValueError, TypeError):  # SymPy gives up: no proposal
        return None
    if proposal is None:  # no proposal within the time limit
        return None
    Phi = proposal.xreplace({BETA: plain_beta, S: plain_s})
    if Phi.has(sp.Integral) or not within(INTEGRATE_SECONDS, lambda: _is_antiderivative(Phi, phi, plain_s)):
        return None
    try:
        return exprtree.from_sympy(inert(Phi))
    except (exprtree.TreeError, ValueError):
        return None


def _is_antiderivative(Phi: sp.Expr, phi: sp.Expr, s: sp.Symbol) -> bool:
    """d/ds Phi - phi is identically 0, by the exact zero test (no simplify, no sign)."""
    return zero_test.is_identically_zero(sp.diff(Phi, s) - phi)
