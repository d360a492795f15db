"""Dimension-free vector algebra: formal linear combinations of named vectors, Gram pairings.

A vector is a formal linear combination of *atoms* `W b`: a base vector b (a SymPy symbol or an
indexed symbol such as x[j]) with a word W of operators applied to it (W = M_h, or empty). An
inner product of two vectors expands bilinearly into pairings <a, W b>, which are SymPy
function nodes (`Pairing`). Nothing fixes the dimension d: an identity whose residual reduces
to 0 in these symbols holds in every R^d, because the only facts used are bilinearity, the
symmetry of the inner product and the hypotheses of the `GramSpace`:

- `unit`: <x, x> = 1 for these vectors (or every member x[j] of these indexed families);
- every operator is symmetric (score symmetry M_h = M_h^T), so <W a, b> = <a, W^T b> with
  W^T the reversed word;
- `annihilating`: operator pairs with A B = 0 (orthogonal heads; then B A = (A B)^T = 0 too);
- `orthogonal`: vector pairs with <a, b> = 0 (hypotheses proved by a separate lemma).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import sympy as sp
from headflow.identities.closed_forms import tangent_projection

Atom = tuple[tuple[sp.Basic, ...], sp.Basic]


class Pairing(sp.Function):
    """<a, W b> for a word W = (A_1, ..., A_k) of symmetric operators: args (Tuple(W), a, b)."""

    nargs = 3

    def _eval_is_real(self) -> bool:
        return True

    def _eval_is_nonnegative(self) -> bool | None:
        word, a, b = self.args
        return True if len(word) == 0 and a == b else None

    def _latex(self, printer: sp.printing.latex.LatexPrinter, exp: str | None = None) -> str:
        word, a, b = self.args
        ops = " ".join(printer._print(op) for op in word)
        right = f"{ops} {printer._print(b)}" if ops else printer._print(b)
        tex = rf"\langle {printer._print(a)}, {right} \rangle"
        return f"{tex}^{{{exp}}}" if exp else tex


@dataclass(frozen=True)
class Vector:
    """A formal linear combination of atoms (word, base) with SymPy coefficients."""

    terms: Mapping[Atom, sp.Expr] = field(default_factory=dict)

    @staticmethod
    def named(base: sp.Basic) -> Vector:
        """The basis vector called `base` (a symbol or an indexed symbol)."""
        return Vector({((), base): sp.Integer(1)})

    def __add__(self, other: Vector) -> Vector:
        out = dict(self.terms)
        for atom, coeff in other.terms.items():
            out[atom] = out.get(atom, sp.Integer(0)) + coeff
        return Vector(out)

    def __neg__(self) -> Vector:
        return self.scaled(-1)

    def __sub__(self, other: Vector) -> Vector:
        return self + (-other)

    def scaled(self, factor: sp.Expr | int) -> Vector:
        return Vector({atom: factor * coeff for atom, coeff in self.terms.items()})

    def __rmul__(self, factor: sp.Expr | int) -> Vector:
        return self.scaled(factor)

    def apply(self, operator: sp.Basic) -> Vector:
        """The vector A v for the operator A (prepended to every word)."""
        return Vector({((operator, *word), base): coeff for (word, base), coeff in self.terms.items()})


@dataclass(frozen=True)
class GramSpace:
    """The hypotheses under which pairings are reduced (see the module docstring)."""

    unit: frozenset[sp.Basic] = frozenset()
    annihilating: frozenset[frozenset[sp.Basic]] = frozenset()
    orthogonal: frozenset[frozenset[sp.Basic]] = frozenset()

    @staticmethod
    def create(
        unit: Iterable[sp.Basic] = (),
        annihilating: Iterable[tuple[sp.Basic, sp.Basic]] = (),
        orthogonal: Iterable[tuple[sp.Basic, sp.Basic]] = (),
    ) -> GramSpace:
        return GramSpace(
            frozenset(unit), frozenset(frozenset(p) for p in annihilating), frozenset(frozenset(p) for p in orthogonal)
        )

    def pair(self, word: Iterable[sp.Basic], a: sp.Basic, b: sp.Basic) -> sp.Expr:
        """<a, W b> reduced by the hypotheses, in a canonical argument order."""
        word = tuple(word)
        if any(frozenset(word[k : k + 2]) in self.annihilating for k in range(len(word) - 1)):
            return sp.Integer(0)
        if not word and a == b and self._is_unit(a):
            return sp.Integer(1)
        if not word and frozenset((a, b)) in self.orthogonal:
            return sp.Integer(0)
        forward, backward = (word, a, b), (tuple(reversed(word)), b, a)
        if sp.default_sort_key(sp.Tuple(sp.Tuple(*backward[0]), b, a)) < sp.default_sort_key(
            sp.Tuple(sp.Tuple(*forward[0]), a, b)
        ):
            word, a, b = backward
        return Pairing(sp.Tuple(*word), a, b)

    def inner(self, u: Vector, w: Vector) -> sp.Expr:
        """<u, w> expanded bilinearly; <A a, B b> = <a, A^T B b> with A^T = A (symmetric operators)."""
        total = sp.Integer(0)
        for (word_u, a), cu in u.terms.items():
            for (word_w, b), cw in w.terms.items():
                total += cu * cw * self.pair((*reversed(word_u), *word_w), a, b)
        return sp.expand(total)

    def norm2(self, u: Vector) -> sp.Expr:
        return self.inner(u, u)

    def project(self, x: Vector, u: Vector) -> Vector:
        """P⊥_x(u) = u - <u, x> x (a tangent projection when <x, x> = 1 in this space)."""
        return tangent_projection(x, u, self.inner)

    def canonical(self, expr: sp.Expr) -> sp.Expr:
        """`expr` with every pairing re-reduced (after its arguments were renamed, say)."""
        return expr.replace(
            lambda e: isinstance(e, Pairing), lambda e: self.pair(tuple(e.args[0]), e.args[1], e.args[2])
        )

    def directional_derivative(self, expr: sp.Expr, velocities: Mapping[sp.Basic, sp.Basic]) -> sp.Expr:
        """d/dt of `expr` when each base vector (or indexed family) b moves with velocity velocities[b].

        Every pairing <a, W b> becomes <a + tau adot, W (b + tau bdot)> and the derivative is taken
        at tau = 0: the chain rule through a bilinear form, valid in any dimension.
        """
        tau = sp.Dummy("tau")

        def moved(base: sp.Basic) -> Vector:
            key = base.base if isinstance(base, sp.Indexed) else base
            vector = Vector.named(base)
            if key in velocities:
                rate = velocities[key]
                rate_base = rate[base.indices] if isinstance(base, sp.Indexed) else rate
                vector = vector + Vector.named(rate_base).scaled(tau)
            return vector

        def perturbed(e: Pairing) -> sp.Expr:
            word, a, b = tuple(e.args[0]), e.args[1], e.args[2]
            right = moved(b)
            for op in reversed(word):
                right = right.apply(op)
            return self.inner(moved(a), right)

        shifted = expr.replace(lambda e: isinstance(e, Pairing), perturbed)
        return sp.diff(shifted, tau).subs(tau, 0)

    def _is_unit(self, a: sp.Basic) -> bool:
        return a in self.unit or (isinstance(a, sp.Indexed) and a.base in self.unit)
