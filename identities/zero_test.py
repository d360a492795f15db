"""An exact test that a SymPy expression is identically 0, by polynomial arithmetic over Q: no simplify, no signs.

`sp.simplify(r) == 0` is not a proof: simplify applies rewrites whose side conditions it decides with the
assumption system or numerically, and it may be wrong on expressions that cancel. Here every non-polynomial
node is replaced by a fresh symbol (an *atom*), bottom-up and structurally:

- exp(a) with a = sum_i c_i t_i (c_i rational, after exact expansion) becomes prod_i E_i^(c_i * L_i) with
  E_i = exp(t_i / L_i), L_i the common denominator of the coefficients of t_i in the whole expression: the
  identities exp(a + b) = exp(a) exp(b) and exp(k a) = exp(a)^k hold for every complex a, b and integer k;
- exp(c log a) (c rational) is a^c, the principal power, for every a != 0;
- b^(p/q) (q > 1) becomes R^p with R = b^(1/q), and R^q is reduced to b: every root atom satisfies R^q = b;
- a finite Sum is split by linearity (terms of its expanded summand, factors free of the dummies taken out),
  each remaining sum an atom; a sum of 1 is its number of terms (`doit`, an exact count);
- any other function application, a power with a symbolic exponent, E, pi become atoms keyed by their
  rewritten arguments, each put in the canonical form p/q of `sp.cancel` (an exact gcd over Q): equal rational
  functions of the atoms give the same atom.

The result is a rational function over Q in symbols and atoms; it is put over a common denominator and its
numerator expanded (exact arithmetic in Q[symbols, atoms]). A numerator that expands to 0 is 0 for every value
of the atoms satisfying the root relations, hence the expression is 0 wherever it is defined. The atoms are
treated as independent apart from those relations, so other relations (log(ab) = log a + log b, W e^W = z)
are never used: a residual that needs them is not proved (the caller rewrites with a checked rule first).
Floats are refused: a float in a residual is not the number the derivation means.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp
from headflow.identities.signs import exact_expand

#: The largest power of one exp atom (exp(1/q) for the common denominator q of the exponents) the test writes out:
#: exponents with unlike denominators make it huge, and the polynomial arithmetic with it (the test then says "not
#: shown 0", never "0").
MAX_ATOM_POWER = 4096


class _Atomizer:
    """Replaces the non-polynomial nodes of expressions by atoms (see the module docstring)."""

    def __init__(self, expr: sp.Expr) -> None:
        self.atoms: dict[sp.Expr, sp.Symbol] = {}
        self.roots: list[tuple[sp.Symbol, int, sp.Expr]] = []  # (R, q, b): R**q = b
        self.denominators: dict[sp.Expr, int] = {}
        self._exp_denominators(expr)

    def _exp_denominators(self, expr: sp.Expr) -> None:
        for node in sp.preorder_traversal(expr):
            if isinstance(node, sp.exp):
                for coefficient, core in _exp_terms(node.args[0]):
                    self.denominators[core] = sp.ilcm(self.denominators.get(core, 1), coefficient.q)

    def atom(self, node: sp.Expr) -> sp.Symbol:
        if node not in self.atoms:
            self.atoms[node] = sp.Dummy(f"atom{len(self.atoms)}")
        return self.atoms[node]

    def rewrite(self, e: sp.Expr) -> sp.Expr:
        if isinstance(e, sp.Float):
            raise _Refused(f"a float {e} in the residual")
        if e.is_Rational or e.is_Symbol:
            return e
        if isinstance(e, sp.exp):
            total = sp.Integer(1)
            for coefficient, core in _exp_terms(e.args[0]):
                if isinstance(core, sp.log):  # exp(c log a) = a^c (principal power), for every a != 0
                    total *= self.rewrite(sp.Pow(core.args[0], coefficient, evaluate=False))
                    continue
                scale = self.denominators[core]
                if abs(coefficient * scale) > MAX_ATOM_POWER:  # exp(p/q) for unlike q: the atom's power explodes
                    raise _Refused(f"exp atom to the power {coefficient * scale}")
                total *= self.atom(sp.exp(self.rewrite(core) / scale)) ** int(coefficient * scale)
            return total
        if isinstance(e, sp.Add | sp.Mul):
            return e.func(*(self.rewrite(a) for a in e.args))
        if isinstance(e, sp.Pow):
            base, exponent = self.rewrite(e.args[0]), e.args[1]
            if isinstance(exponent, sp.Integer):
                return base**exponent
            if isinstance(exponent, sp.Rational):
                root = self.atom(sp.Pow(base, sp.Rational(1, exponent.q), evaluate=False))
                if all(r is not root for r, _, _ in self.roots):
                    self.roots.append((root, exponent.q, base))
                return root**exponent.p
            return self.atom(sp.Pow(base, self.rewrite(exponent), evaluate=False))
        if isinstance(e, sp.Sum):
            return self._sum(e)
        if e.args:
            return self.atom(e.func(*(_canonical(self.rewrite(a)) for a in e.args)))
        return self.atom(e)  # E, pi and other atomic constants

    def _sum(self, e: sp.Sum) -> sp.Expr:
        """A finite sum by linearity: sum_i (c f_i + g_i) = c sum_i f_i + sum_i g_i, c free of the dummies."""
        dummies = [limit[0] for limit in e.limits]
        total = sp.Integer(0)
        for term in sp.Add.make_args(exact_expand(e.function)):
            constant, varying = term.as_independent(*dummies, as_Add=False)
            total += self.rewrite(constant) * (
                self.atom(sp.Sum(varying, *e.limits)) if varying != 1 else self.rewrite(sp.Sum(1, *e.limits).doit())
            )
        return total


def _canonical(argument: sp.Expr) -> sp.Expr:
    """A function's rewritten argument in the canonical form p/q of `sp.cancel` (exact gcd over Q), so that equal
    rational functions of the atoms key the same atom (they are equal wherever the argument is defined)."""
    return sp.cancel(argument) if isinstance(argument, sp.Basic) and not isinstance(argument, sp.Tuple) else argument


class _Refused(ValueError):
    """The residual has a node the exact test does not read."""


def _exp_terms(argument: sp.Expr) -> list[tuple[sp.Rational, sp.Expr]]:
    """The terms c_i t_i of an exponent after exact expansion (t_i without a rational coefficient)."""
    return [term.as_coeff_Mul() for term in sp.Add.make_args(exact_expand(argument))]


def _reduce_roots(numerator: sp.Expr, roots: list[tuple[sp.Symbol, int, sp.Expr]]) -> sp.Expr:
    """numerator with every power R^k (k >= q) of a root atom R = b^(1/q) written b^(k // q) R^(k % q)."""
    for root, q, base in roots:
        poly = sp.Poly(numerator, root)
        numerator = sum(
            (coefficient * base ** (k // q) * root ** (k % q) for (k,), coefficient in poly.terms()),
            sp.Integer(0),
        )
        numerator = sp.fraction(sp.together(numerator))[0]
    return numerator


def _nonzero_at_a_point(rational: sp.Expr) -> bool:
    """True when the rational function (in symbols and atoms, no root relations) is defined and non-zero at one
    rational point, computed exactly: then it is not identically 0 and the expansion can be skipped. Only rejects."""
    point = {s: sp.Rational(k + 2, 2 * k + 7) for k, s in enumerate(sorted(rational.free_symbols, key=str))}
    value = rational.xreplace(point)
    return isinstance(value, sp.Rational) and value != 0


def is_identically_zero(residual: sp.Expr) -> bool:
    """True only when the residual is 0 wherever it is defined, shown by exact polynomial arithmetic over Q."""
    try:
        atomizer = _Atomizer(residual)
        rational = atomizer.rewrite(sp.sympify(residual))
    except _Refused:
        return False
    if not atomizer.roots and _nonzero_at_a_point(rational):
        return False
    if exact_expand(rational) == 0:  # often enough, and much cheaper than a common denominator
        return True
    numerator = exact_expand(sp.fraction(sp.together(rational))[0])
    if numerator == 0:
        return True
    if not atomizer.roots:
        return False
    return exact_expand(_reduce_roots(numerator, atomizer.roots)) == 0


def checked_rewrite(expr: sp.Expr, propose: Callable[[sp.Expr], sp.Expr]) -> sp.Expr | None:
    """SymPy's proposal `propose(expr)` (a simplified form, say) when it is shown equal to expr exactly, else None."""
    proposal = propose(expr)
    return proposal if is_identically_zero(proposal - expr) else None
