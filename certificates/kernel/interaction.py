"""Interaction functions: attention weights w_ij = phi(s_ij) from a stated tree in the score s (and beta).

A claims file states phi as text; the text is parsed, outside the kernel (`certificates.claims.interaction_text`,
which also decides that phi is defined at every score), into a `certificates.kernel.exprtree` tree, and that tree is
what the kernel evaluates: balls at exact data (`ball_model.interaction_failures` re-checks, at every exact score of a
witness, that phi is finite there and, for normalized weights, > 0). The kernel never rebuilds phi in another
algebra (no SymPy: its automatic evaluation once rewrote sqrt(a**2) to -a).

The attention kind says how the weights combine (`headflow.certificates.kernel.vocabulary.INTERACTION_KINDS`): `usa` is
unnormalized, f^h_i = sum_j phi(s^h_ij) W_h x_j and v_i = (1/n) sum_h f^h_i; `softmax` is normalized,
f^h_i = sum_j phi(s^h_ij) W_h x_j / sum_k phi(s^h_ik), v_i = sum_h f^h_i. The default phi is exp(beta*s).

The energy. E_h = (1/(2 n^2)) sum_ij Phi(s^h_ij) with Phi' = phi. Phi is data proposed outside the kernel (SymPy's
integrate); the kernel accepts it only when d/ds Phi - phi, the tree derivative of `certificates.kernel.derivatives`,
is 0 as a rational function over Q of s, beta and its transcendental subterms, each such subterm (exp, log, sqrt,
a real power, pi, e) an independent indeterminate (identified only when its arguments are equal as rational
functions; sqrt of the square of a rational is that rational's absolute value). A formal zero is a zero wherever
both trees are defined; what this algebra does not show to be zero leaves the energy unavailable, and it says so.
"""

import json
from contextlib import suppress
from dataclasses import dataclass
from functools import lru_cache, partial, reduce

from flint import fmpq, fmpq_mpoly, fmpq_mpoly_ctx
from flint.utils.flint_exceptions import DomainError

from . import derivatives, exprtree

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
    if unknown := sorted(exprtree.fold(tree, _NAMES) - set(VARIABLES)):
        raise exprtree.TreeError(f"{what} uses {unknown[0][:20]!r}: not a name of an interaction")
    return tree  # type: ignore[return-value]


def is_antiderivative(Phi: exprtree.Tree, phi: exprtree.Tree) -> bool:
    """d/ds Phi - phi is 0 as a formal rational function (the module's docstring); False when not shown."""
    return formal_zero(["sub", derivatives.derivative(Phi, "s"), phi])


def formal_zero(tree: exprtree.Tree) -> bool:
    """The tree is 0 as a formal rational function (the module's docstring); False when not shown."""
    return _formal_zero(json.dumps(tree))


#: The names a tree of interaction nodes uses (`exprtree.fold` refuses any other node).
_NAMES = dict.fromkeys(NODES, lambda *names: set().union(*names)) | {"rat": lambda q: set(), "sym": lambda name: {name}}
_NAMES |= {"pow": lambda base, k: base, "rpow": lambda a, b, walk: walk(a) | walk(b)}


@lru_cache(maxsize=64)
def _formal_zero(text: str) -> bool:
    tree = json.loads(text)
    try:
        numerator, _ = exprtree.fold(tree, _Formal(exprtree.count_nodes(tree, 4 * MAX_NODES) + 2).rules)
    except (exprtree.TreeError, ZeroDivisionError, ValueError):
        return False
    return bool(numerator == 0)


Quotient = tuple[fmpq_mpoly, fmpq_mpoly]


class _Formal:
    """`exprtree.fold` rules of the interaction nodes: trees as quotients of polynomials over Q in the variables and
    one indeterminate per transcendental subterm."""

    def __init__(self, size: int) -> None:
        self.gens = fmpq_mpoly_ctx.get(tuple(f"v{k}" for k in range(size)), "lex").gens()
        self.names: dict[str, int] = {}
        self.atoms: list[tuple[str, tuple[Quotient, ...], int]] = []
        one = self.one = self.gens[0] ** 0
        self.rules = {op: partial(self._atom, op) for op in ("exp", "log", "pi", "e")} | {"sqrt": self._sqrt}
        self.rules |= {"rat": lambda q: (one * fmpq(q.numerator, q.denominator), one), "pow": _power}
        self.rules |= {"neg": lambda a: (-a[0], a[1])}
        self.rules |= {"sym": lambda name: (self.gens[self.names.setdefault(name, self._fresh())], one)}
        self.rules |= {"add": lambda *parts: reduce(_plus, parts), "sub": lambda a, b: _plus(a, (-b[0], b[1]))}
        self.rules |= {"mul": lambda *parts: reduce(_times, parts), "div": lambda a, b: _times(a, _power(b, -1))}
        self.rules |= {"rpow": lambda a, b, walk: self._atom("rpow", walk(a), walk(b))}

    def _fresh(self) -> int:
        return len(self.names) + len(self.atoms)

    def _sqrt(self, part: Quotient) -> Quotient:
        """sqrt of a constant that is a rational square: exactly |root|; any other square root an indeterminate."""
        if part[0].is_constant() and part[1].is_constant() and part[0] != 0:
            root = fmpq(part[0].leading_coefficient()) / fmpq(part[1].leading_coefficient())
            with suppress(DomainError):  # unless a perfect square
                return self.one * abs(root).sqrt(), self.one
        return self._atom("sqrt", part)

    def _atom(self, op: str, *parts: Quotient) -> Quotient:
        """The indeterminate of op(parts), one per op and arguments equal as rational functions."""
        for name, known, index in self.atoms:
            if name == op and all(p * b == a * q for (p, q), (a, b) in zip(parts, known, strict=True)):
                return self.gens[index], self.one
        index = self._fresh()
        self.atoms.append((op, parts, index))
        return self.gens[index], self.one


def _plus(a: Quotient, b: Quotient) -> Quotient:
    return a[0] * b[1] + b[0] * a[1], a[1] * b[1]


def _times(a: Quotient, b: Quotient) -> Quotient:
    return a[0] * b[0], a[1] * b[1]


def _power(part: Quotient, k: int) -> Quotient:
    p, q = part
    if k < 0:
        if p == 0:
            raise ZeroDivisionError("a negative power of 0")
        p, q, k = q, p, -k
    return p**k, q**k
