"""Interaction functions: attention weights w_ij = phi(s_ij) from a stated tree in the score s (and beta).

A claims file states phi as text; the text is parsed, outside the kernel (`certificates.claims.interaction_text`,
which also decides that phi is defined at every score), into a `certificates.kernel.exprtree` tree, and that tree is
what the kernel evaluates: balls at exact data (`ball_model.interaction_failures` re-checks, at every exact score of a
witness, that phi is finite there and, for normalized weights, > 0). The kernel never rebuilds phi in another
algebra (no SymPy: its automatic evaluation once rewrote sqrt(a**2) to -a).

The attention kind says how the weights combine (`certificates.kernel.vocabulary.INTERACTION_KINDS`): `usa` is
unnormalized, f^h_i = sum_j phi(s^h_ij) W_h x_j and v_i = (1/n) sum_h f^h_i; `softmax` is normalized,
f^h_i = sum_j phi(s^h_ij) W_h x_j / sum_k phi(s^h_ik), v_i = sum_h f^h_i. The default phi is exp(beta*s).

The energy. E_h = (1/(2 n^2)) sum_ij Phi(s^h_ij) with Phi' = phi. Phi is data proposed outside the kernel (SymPy's
integrate); the kernel accepts it only when d/ds Phi - phi, the tree derivative of `certificates.kernel.derivatives`,
is 0 as a rational function over Q of s, beta and its transcendental subterms, each such subterm (exp, log, sqrt,
a real power, pi, e) an independent indeterminate (identified only when its arguments are equal as rational
functions; sqrt of the square of a rational is that rational's absolute value). A formal zero is a zero wherever
both trees are defined; what this algebra does not show to be zero leaves the energy unavailable, and it says so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

from flint import fmpq, fmpq_mpoly, fmpq_mpoly_ctx
from flint.utils.flint_exceptions import DomainError

from certificates.kernel import derivatives, exprtree

#: The score variable and the inverse temperature: the only names a phi or a Phi tree may use.
VARIABLES = ("s", "beta")
#: The tree nodes an interaction may use (each has a numpy, a ball and a formal meaning).
NODES = ("rat", "sym", "add", "mul", "pow", "neg", "sub", "div", "exp", "log", "sqrt", "rpow", "pi", "e")
#: The most nodes a phi or Phi tree may have (the formal algebra has one indeterminate per node at most).
MAX_NODES = 400


@dataclass(frozen=True)
class Interaction:
    """phi as stated: its text (for messages), its tree (what is evaluated) and a proposed antiderivative Phi."""

    text: str
    tree: exprtree.Tree
    energy: exprtree.Tree | None = None

    def __str__(self) -> str:
        return self.text

    def proposal(self) -> exprtree.Tree | None:
        """The proposed antiderivative (a subclass outside the kernel may propose it lazily)."""
        return self.energy

    def energy_tree(self) -> exprtree.Tree | None:
        """The tree of Phi with d/ds Phi = phi shown by exact algebra, or None (no proposal, or not shown)."""
        Phi = self.proposal()
        return Phi if Phi is not None and is_antiderivative(Phi, self.tree) else None


def check_tree(tree: object, what: str) -> exprtree.Tree:
    """The tree of a phi or Phi, when it uses only the interaction nodes and the names s and beta (TreeError else)."""
    exprtree.count_nodes(tree, MAX_NODES)
    unknown = sorted({n for n in _nodes(tree) if n not in NODES} | (exprtree.symbols(tree) - set(VARIABLES)))
    if unknown:
        raise exprtree.TreeError(f"{what} uses {unknown[0][:20]!r}: not a node or name of an interaction")
    return tree  # type: ignore[return-value]


def is_antiderivative(Phi: exprtree.Tree, phi: exprtree.Tree) -> bool:
    """d/ds Phi - phi is 0 as a formal rational function (the module's docstring); False when not shown."""
    return _formal_zero(json.dumps(["sub", derivatives.derivative(Phi, "s"), phi]))


def _nodes(tree: object) -> list[str]:
    if not isinstance(tree, list) or not tree:
        return []
    return [str(tree[0]), *(n for child in tree[1:] for n in _nodes(child))]


@lru_cache(maxsize=64)
def _formal_zero(text: str) -> bool:
    tree = json.loads(text)
    try:
        check_tree(tree, "d/ds Phi - phi")
        numerator, _ = _Formal(exprtree.count_nodes(tree, 4 * MAX_NODES) + 2).value(tree)
    except (exprtree.TreeError, ZeroDivisionError, ValueError):
        return False
    return bool(numerator == 0)


Fraction_ = tuple[fmpq_mpoly, fmpq_mpoly]


class _Formal:
    """Trees as quotients of polynomials over Q in the variables and one indeterminate per transcendental subterm."""

    def __init__(self, size: int) -> None:
        self.gens = fmpq_mpoly_ctx.get(tuple(f"v{k}" for k in range(size)), "lex").gens()
        self.names: dict[str, int] = {}
        self.atoms: list[tuple[str, list[Fraction_], int]] = []

    def _fresh(self) -> int:
        return len(self.names) + len(self.atoms)

    def value(self, tree: exprtree.Tree) -> Fraction_:
        op, args = exprtree.node_parts(tree, 0)
        one = self.gens[0] ** 0
        if op == "rat":
            return one * fmpq(*exprtree.parse_rational(args[0]).as_integer_ratio()), one
        if op == "sym":
            index = self.names.setdefault(str(args[0]), self._fresh())
            return self.gens[index], one
        if op == "pow":
            return _power(self.value(args[0]), int(args[1]))
        if op in ("pi", "e"):
            return self._atom(op, [])
        parts = [self.value(a) for a in args]
        if op == "add" or op == "sub" or op == "neg":
            signs = [-1] if op == "neg" else [1, -1] if op == "sub" else [1] * len(parts)
            total = (one * 0, one)
            for sign, (p, q) in zip(signs, parts, strict=True):
                total = (total[0] * q + sign * p * total[1], total[1] * q)
            return total
        if op == "mul" or op == "div":
            result = (one, one)
            for k, part in enumerate(parts):
                p, q = part if op == "mul" or k == 0 else _power(part, -1)
                result = (result[0] * p, result[1] * q)
            return result
        if op == "sqrt" and _constant(parts[0]):
            root = fmpq(parts[0][0].leading_coefficient()) / fmpq(parts[0][1].leading_coefficient())
            try:
                return one * abs(root).sqrt(), one  # exactly |root| for a perfect square, DomainError otherwise
            except DomainError:
                pass
        return self._atom(op, parts)

    def _atom(self, op: str, parts: list[Fraction_]) -> Fraction_:
        for name, known, index in self.atoms:
            if name == op and all(p * b == a * q for (p, q), (a, b) in zip(parts, known, strict=True)):
                return self.gens[index], self.gens[0] ** 0
        index = self._fresh()
        self.atoms.append((op, parts, index))
        return self.gens[index], self.gens[0] ** 0


def _constant(part: Fraction_) -> bool:
    return part[0].is_constant() and part[1].is_constant() and part[0] != 0


def _power(part: Fraction_, k: int) -> Fraction_:
    p, q = part
    if k < 0:
        if p == 0:
            raise ZeroDivisionError("a negative power of 0")
        p, q, k = q, p, -k
    return p**k, q**k
