"""Expressions with radicals as fractions of polynomials over Q, with the polynomials their radicals satisfy.

An identity that SymPy's simplify leaves open, such as 1/c*(H) - c*(H) = H - 1 with
c*(H) = (sqrt((H-1)^2 + 4) - (H-1))/2, is decided in the ring Q[atoms, parameters] modulo the
polynomials the atoms satisfy:

- every radical b**(p/q) (a SymPy power, or an inert node of `headflow.certificates.inert` that names its
  `radical_parts`, so that no SymPy evaluation has rewritten it) becomes the power a**p of a new
  variable a with the defining polynomial
  a**q * den(b) - num(b), where num(b)/den(b) is b's own fraction. It vanishes at every q-th
  root of b, the one SymPy means included, so nothing derived from it depends on the sign of a:
  `sqrt(x**2) = x` is not in the ideal of a**2 - x**2 and is never reduced to 0 here;
- every other non-polynomial node (exp, log, pi, lambertw, lambda_c, a symbolic power...) becomes a
  free variable with no relation, so what is derived holds for whatever value it takes;
- the fraction is kept as written: no common factor is cancelled, and every base raised to a
  negative power is listed (`RingForm.inverted`), so that a caller who proves each of them non-zero
  knows that the denominator is non-zero where the expression is evaluated.

Then `reduce_modulo` reduces the numerator modulo a Groebner basis (lex, the atoms above the
parameters) of the defining polynomials: a remainder 0 means the numerator is a combination of
them with polynomial coefficients, hence 0 wherever the atoms take their values. `eliminate`
takes resultants with the defining polynomials, the last atom first: the result R, free of the
radical atoms, is again such a combination of the polynomial and the defining polynomials
(R = A P + sum B_i f_i), so R != 0 at a point proves P != 0 there, for every root. This module
uses SymPy only; what the parameters' domains imply is the caller's business.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp


class Unsupported(ValueError):
    """An expression outside the algebraic fragment (imaginary or inexact numbers, infinities)."""


@dataclass(frozen=True)
class Atom:
    """A variable of the ring and the SymPy value it stands for; `relation` vanishes at that value (None: free)."""

    variable: sp.Symbol
    value: sp.Expr
    relation: sp.Expr | None = None

    def text(self) -> str:
        """How the report names the atom, e.g. `_a1 = sqrt(H**2 + 4)`, root of `_a1**2 - H**2 - 4`."""
        if self.relation is None:
            return f"{self.variable} = {self.value} (a free variable: no relation is used)"
        return (
            f"{self.variable} = {self.value} (the real root, >= 0), a root of {self.relation}: only this polynomial "
            "is used, so what follows holds for every root"
        )


@dataclass(frozen=True)
class Inverted:
    """A base raised to a negative power: its SymPy value and the numerator of its fraction in the ring."""

    value: sp.Expr
    numerator: sp.Expr


@dataclass(frozen=True)
class RingForm:
    """expr = numerator / denominator in Q[atoms, parameters], wherever every inverted base is non-zero."""

    numerator: sp.Expr
    denominator: sp.Expr
    atoms: tuple[Atom, ...]
    inverted: tuple[Inverted, ...]
    parameters: tuple[sp.Symbol, ...]

    def radicals(self) -> list[Atom]:
        """The atoms with a defining polynomial, in the order they were made (inner ones first)."""
        return [atom for atom in self.atoms if atom.relation is not None]

    def relations(self) -> list[sp.Expr]:
        """The defining polynomials."""
        return [atom.relation for atom in self.radicals() if atom.relation is not None]

    def generators(self) -> list[sp.Symbol]:
        """Lex order of the ring: the radical atoms (outer ones first), the free atoms, the parameters."""
        free = [atom.variable for atom in self.atoms if atom.relation is None]
        return [atom.variable for atom in reversed(self.radicals())] + free + list(self.parameters)

    def value_of(self, polynomial: sp.Expr) -> sp.Expr:
        """The polynomial with every atom replaced by the SymPy value it stands for."""
        return polynomial.xreplace({atom.variable: atom.value for atom in self.atoms})


@dataclass
class _Builder:
    """Walks a SymPy tree bottom-up into (numerator, denominator) pairs, making atoms on the way."""

    atoms: dict[sp.Expr, Atom] = field(default_factory=dict)
    inverted: list[Inverted] = field(default_factory=list)

    def fraction(self, node: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
        if node.is_Rational or node.is_Symbol:
            return node, sp.Integer(1)
        if node.is_Number or node.has(sp.I, sp.zoo, sp.nan, sp.oo, -sp.oo):
            raise Unsupported(f"{node} is not an exact real expression")
        if node.is_Add or node.is_Mul:
            pairs = [self.fraction(arg) for arg in node.args]
            numerator, denominator = pairs[0]
            for other_numerator, other_denominator in pairs[1:]:
                if node.is_Mul:
                    numerator, denominator = numerator * other_numerator, denominator * other_denominator
                elif denominator == other_denominator:
                    numerator = numerator + other_numerator
                else:
                    numerator = numerator * other_denominator + other_numerator * denominator
                    denominator = denominator * other_denominator
            return sp.expand(numerator), denominator
        if node.is_Pow and node.exp.is_Integer:
            return self.power(node.base, self.fraction(node.base), int(node.exp))
        if node.is_Pow and node.exp.is_Rational:
            root = self.radical(node.base, int(node.exp.q))
            return self.power(sp.Pow(node.base, sp.Rational(1, node.exp.q)), (root, sp.Integer(1)), int(node.exp.p))
        parts = node.radical_parts() if hasattr(node, "radical_parts") else None
        if parts is not None:  # an inert radical (headflow.certificates.inert): base, p, q and its node base**(1/q)
            base, p, q, key = parts
            return self.power(key, (self.radical(base, q, key), sp.Integer(1)), p)
        return self.atom(node, None).variable, sp.Integer(1)

    def power(self, base: sp.Expr, pair: tuple[sp.Expr, sp.Expr], exponent: int) -> tuple[sp.Expr, sp.Expr]:
        """(num/den)**exponent; a negative exponent records the base as inverted (it must be non-zero)."""
        numerator, denominator = pair
        if exponent >= 0:
            return sp.expand(numerator**exponent), denominator**exponent
        if numerator == 0:
            raise Unsupported(f"division by zero: {base}")
        if not numerator.is_Rational:
            self.inverted.append(Inverted(base, numerator))
        return sp.expand(denominator**-exponent), numerator**-exponent

    def radical(self, base: sp.Expr, degree: int, node: sp.Expr | None = None) -> sp.Symbol:
        """The variable a of base**(1/degree) (`node` when given), with defining polynomial a**degree * den - num."""
        key = sp.Pow(base, sp.Rational(1, degree)) if node is None else node
        if key not in self.atoms:
            numerator, denominator = self.fraction(base)
            variable = sp.Dummy(f"a{len(self.atoms) + 1}")
            self.atom(key, sp.expand(variable**degree * denominator - numerator), variable)
        return self.atoms[key].variable

    def atom(self, value: sp.Expr, relation: sp.Expr | None, variable: sp.Symbol | None = None) -> Atom:
        if value not in self.atoms:
            self.atoms[value] = Atom(variable or sp.Dummy(f"a{len(self.atoms) + 1}"), value, relation)
        return self.atoms[value]


def ring_form(expr: sp.Expr) -> RingForm:
    """expr as numerator / denominator over its atoms; raises Unsupported outside exact real expressions."""
    builder = _Builder()
    numerator, denominator = builder.fraction(expr)
    atoms = tuple(builder.atoms.values())
    variables = {atom.variable for atom in atoms}
    symbols = set().union(*(atom.value.free_symbols for atom in atoms), expr.free_symbols) - variables
    inverted = tuple({entry.value: entry for entry in builder.inverted}.values())
    return RingForm(sp.expand(numerator), denominator, atoms, inverted, tuple(sorted(symbols, key=str)))


@dataclass(frozen=True)
class Reduction:
    """The Groebner basis of the defining polynomials and the remainder of a polynomial modulo it."""

    basis: tuple[sp.Expr, ...]
    remainder: sp.Expr


def reduce_modulo(form: RingForm, polynomial: sp.Expr) -> Reduction:
    """The remainder of `polynomial` (over the form's ring) modulo the Groebner basis of its defining polynomials.

    Raises Unsupported when the basis is {1}: defining polynomials with no common root cannot
    come from real values, and every polynomial would reduce to 0 modulo them.
    """
    polynomial = sp.expand(polynomial)
    relations = form.relations()
    if not relations:
        return Reduction((), polynomial)
    generators = form.generators()
    basis = sp.groebner(relations, *generators, order="lex", domain=sp.QQ)
    if any(element.is_Number for element in basis.exprs):
        raise Unsupported("the defining polynomials have no common root")
    _, remainder = sp.reduced(polynomial, list(basis.exprs), *generators, order="lex", domain=sp.QQ)
    return Reduction(tuple(basis.exprs), sp.expand(remainder))


def eliminate(form: RingForm, polynomial: sp.Expr) -> sp.Expr:
    """A polynomial free of the radical atoms in the ideal of `polynomial` and the defining polynomials.

    The resultant with each defining polynomial, the outermost atom first (each one's polynomial
    only involves atoms made before it). Where it is non-zero, `polynomial` is non-zero for every
    choice of the roots.
    """
    for atom in reversed(form.radicals()):
        if polynomial.has(atom.variable):
            polynomial = sp.resultant(polynomial, atom.relation, atom.variable)
    return sp.expand(polynomial)


def factors(polynomial: sp.Expr, generators: list[sp.Symbol]) -> list[sp.Expr]:
    """The non-constant irreducible factors over Q (a product is non-zero where each of them is)."""
    present = [g for g in generators if polynomial.has(g)]
    if not present:
        return [polynomial]
    _, pairs = sp.factor_list(polynomial, *present, domain=sp.QQ)
    return [factor.as_expr() if isinstance(factor, sp.Poly) else factor for factor, _ in pairs]


@dataclass(frozen=True)
class SquareRootForm:
    """A polynomial as A + B a modulo a**2 - p, for the one radical a = sqrt(p) of its ring; norm = A**2 - B**2 p.

    The caller decides A + B a's sign from those of A, B and the norm, using a >= 0 (a real square
    root) and a**2 = p: that is where a sign of a radical is used, so the caller must also prove
    p >= 0 (the radical is real).
    """

    atom: Atom
    radicand: sp.Expr
    constant: sp.Expr
    coefficient: sp.Expr
    norm: sp.Expr


def square_root_form(form: RingForm, polynomial: sp.Expr) -> SquareRootForm | None:
    """`polynomial` reduced to A + B sqrt(p) when the form's only radical is a square root with a monic polynomial."""
    radicals = form.radicals()
    if len(radicals) != 1:  # a radical's relation of degree 2 (checked below) is a square root's
        return None
    (atom,) = radicals
    relation = sp.Poly(atom.relation, atom.variable)
    monic = relation.coeff_monomial(atom.variable**2) == 1 and relation.coeff_monomial(atom.variable) == 0
    if relation.degree() != 2 or not monic:
        return None
    radicand = -relation.coeff_monomial(1)
    remainder = sp.Poly(reduce_modulo(form, polynomial).remainder, atom.variable)
    if remainder.degree() > 1:
        return None
    constant, coefficient = remainder.coeff_monomial(1), remainder.coeff_monomial(atom.variable)
    return SquareRootForm(atom, radicand, constant, coefficient, sp.expand(constant**2 - coefficient**2 * radicand))
