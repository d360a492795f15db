"""Stated interaction functions, parsed and proposed outside the kernel (`headflow.certificates.kernel.interaction`).

A claims file (or `Configuration.create(..., interaction=...)`) states phi as text in the claims grammar, in one
variable `s` and the symbol `beta` (for example `exp(beta*s)`, `s**2`, `exp(beta*s) - 1`). The text is parsed,
never evaluated (`headflow.certificates.claims.expressions.parse_tree`), into the tree every representation
evaluates. It belongs with the claims-file language, which no certificate check loads.

phi must be defined at every score (the scores <x_i, M_h x_j> take every real value over the configurations): every
definedness condition the parser records (`log(s)` needs s > 0) must be proved for all real s and beta > 0 by
`identities.signs`; otherwise the interaction is refused with that condition as the reason. A normalized (softmax)
phi that balls show <= 0 at a point of a small grid is refused too. These are the claim's well-posedness, decided
here; a certificate's kernel re-checks at its own exact scores that phi is finite (and > 0 for softmax) by balls.

The energy's antiderivative Phi: SymPy's `integrate` proposes it (beta > 0, within INTEGRATE_OPERATIONS); the kernel
accepts it only by its own exact algebra (`headflow.certificates.kernel.interaction.is_antiderivative`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import sympy as sp
from headflow.certificates import sympy_trees
from headflow.certificates.claims.expressions import parse_defined, parse_tree
from headflow.certificates.claims.problems import ExpressionError
from headflow.certificates.counted import spend
from headflow.certificates.errors import InputError
from headflow.certificates.inert import inert
from headflow.certificates.kernel import exprtree
from headflow.certificates.kernel.exact import ball_of, precision
from headflow.certificates.kernel.interaction import NODES, Interaction
from headflow.certificates.kernel.vocabulary import INTERACTION_KINDS
from headflow.identities import signs

#: The score variable and the inverse temperature, as the parser reads them.
S, BETA = sp.Symbol("s", real=True), sp.Symbol("beta", positive=True)
#: The paper's interaction (the default of usa and softmax attention).
DEFAULT = "exp(beta*s)"
#: Where a normalized interaction is tested for a value <= 0 when it is parsed (s on a grid, beta in BETAS).
GRID = tuple(Fraction(k, 4) for k in range(-40, 41))
BETAS = (Fraction(1, 4), Fraction(1), Fraction(4))
#: Operations (`certificates.counted`) SymPy's integrate may take to propose an antiderivative (then: no energy).
INTEGRATE_OPERATIONS = 10_000_000


@dataclass(frozen=True)
class StatedInteraction(Interaction):
    """An interaction parsed from its text, whose antiderivative SymPy proposes on first use (the kernel's
    `energy_tree` still accepts it only by exact algebra)."""

    def proposal(self) -> exprtree.Tree | None:
        return propose_antiderivative(self.text)


def parse_interaction(text: object, attention: str, field: str = "interaction") -> StatedInteraction:
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
    try:
        exprtree.count_nodes(tree, 10**6)
        unknown = sorted({node for node in _nodes(tree) if node not in NODES})
    except exprtree.TreeError as exc:
        raise InputError(field, text, str(exc)) from None
    if unknown:
        allowed = "+ - * / **, exp, log, sqrt, pi, e"
        raise InputError(field, text, f"{unknown[0]} is not available in an interaction (it may use {allowed})")
    known = signs.facts(positive=[sp.Symbol("beta")], real=[sp.Symbol("s")])
    for condition in conditions:
        expr = ordinary(sympy_trees.from_sympy(condition.expr))
        if signs.prove(expr, condition.relation + "0", known) is None:
            raise InputError(
                field,
                text,
                f"phi must be defined at every score s (the scores take every real value): it needs "
                f"{condition.expr} {condition.relation} 0 ({condition.reason}), not proved for all real s and beta > 0",
            )
    interaction = StatedInteraction(text.strip(), tree)
    if attention == "softmax":
        _positive_on_grid(interaction, field)
    return interaction


def default_interaction(attention: str) -> StatedInteraction:
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
                value = exprtree.evaluate(interaction.tree, {"s": ball_of(s), "beta": ball_of(beta)})
                if value.is_finite() and value <= 0:
                    raise InputError(
                        field,
                        interaction.text,
                        f"normalized (softmax) weights need phi > 0, but phi({s}) <= 0 at beta = {beta}",
                    )


def ordinary(tree: object) -> sp.Expr:
    """The tree as an ordinary SymPy expression on plain symbols (no assumptions: nothing is rewritten by a sign),
    for the definedness tests and the proposals (an antiderivative, a punctured claim's factors of f')."""
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
    if op in exprtree.NAMED:  # a named function by its closed form (`exprtree.expand`)
        return ordinary(exprtree.expand(tree))
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
        "lambertw": lambda: sp.LambertW(parts[0]),
    }
    if op not in combine:
        raise exprtree.TreeError(f"no SymPy form of node {op!r}")
    return combine[op]()


@lru_cache(maxsize=64)
def propose_antiderivative(text: str) -> exprtree.Tree | None:
    """SymPy's proposal of Phi with d/ds Phi = phi (integrate, beta > 0), as a tree; None when it has none. Only a
    proposal: `headflow.certificates.kernel.interaction.is_antiderivative` decides."""
    phi = ordinary(parse_tree(text, {"s": S, "beta": BETA}))
    plain_s, plain_beta = sp.Symbol("s"), sp.Symbol("beta")
    try:
        proposal, _ = spend(INTEGRATE_OPERATIONS, lambda: sp.integrate(phi.xreplace({plain_beta: BETA, plain_s: S}), S))
    except (NotImplementedError, ValueError, TypeError):  # SymPy gives up: no proposal
        return None
    if proposal is None or proposal.has(sp.Integral):
        return None
    try:
        return sympy_trees.from_sympy(inert(proposal.xreplace({BETA: plain_beta, S: plain_s})))
    except (exprtree.TreeError, ValueError):
        return None
